/**
 * `node --import ./hide-opentelemetry.mjs`: the process runs as if no `@opentelemetry/*`
 * package were installed (Node's own "cannot find package" error), for the client's
 * behaviour without its optional peer.
 */
import { register } from 'node:module';

const hook = `
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/')) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
