/**
 * `node --import ./opentelemetry-hook.mjs`: every run process of the bus group registers this
 * resolve hook, so that all of them load their modules alike. With
 * `BENCH_HIDE_OPENTELEMETRY=1` it makes every `@opentelemetry/*` package unresolvable (Node's
 * own "cannot find package" error), as if it were not installed; otherwise it passes every
 * specifier on unchanged.
 */
import { register } from 'node:module';

const hook = `
let hide = false;
export function initialize(data) {
  hide = data.hide;
}
export async function resolve(specifier, context, next) {
  if (hide && specifier.startsWith('@opentelemetry/')) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { hide: process.env.BENCH_HIDE_OPENTELEMETRY === '1' } });
