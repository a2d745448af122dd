#!/bin/sh
# `npm run brokers:install`: the message brokers the bus tests start on loopback ports,
# Debian's nats-server and redis-server. Does nothing when both are installed; otherwise
# installs the missing ones with apt-get (through sudo when not root).
set -eu

missing=""
for broker in nats-server redis-server; do
  if ! command -v "$broker" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$broker" ] && [ ! -x "/usr/bin/$broker" ]; then
    missing="$missing $broker"
  fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "✘ missing:$missing; install them with your system's package manager (the bus tests need them)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing$missing with apt-get" >&2
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # one word per package
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
