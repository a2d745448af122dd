#!/bin/sh
# `npm run setup:tools`: the system programs some tests start, from Debian's packages:
# nats-server and redis-server (the bus tests run them on loopback ports), strace (the
# generator test that stops a write at an exact rename), chromium (the site's browser tests)
# and jq (the CLI test that runs the conversion validate suggests). Does nothing when all are
# installed; otherwise installs the missing ones with apt-get (through sudo when not root).
set -eu

missing=""
for program in nats-server redis-server strace chromium jq; do
  if ! command -v "$program" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$program" ] && [ ! -x "/usr/bin/$program" ]; then
    missing="$missing $program"
  fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "✘ missing:$missing; install them with your system's package manager (the tests need them)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing$missing with apt-get" >&2
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # one word per package (each program's package has its name)
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
