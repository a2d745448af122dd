import { messageSchemaId } from '../generated/registry.cjs';
import type { CatalogEvent } from '../generated/types.js';
import { rejection, type ValidateOptions, type ValidationResult } from './internal/result.js';
import { summarizeIssues } from './internal/issues.js';
import { validateEvent } from './validate-event.js';
import { isStrict } from './internal/validate-options.js';

/**
 * CloudEvents 1.0, structured mode (`application/cloudevents+json`).
 *
 * Mapping: the CloudEvent `type` is the event type, `data` is the payload, and the
 * payload version travels in the extension attribute `eventversion` (CloudEvents has no
 * version attribute, and a suffix on `type` would be ambiguous: some event types end in
 * `.v2` themselves). `dataschema`, when present, is the message schema's id.
 */
export interface StructuredCloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  eventversion: string;
  datacontenttype?: string;
  dataschema?: string;
  time?: string;
  subject?: string;
  data: unknown;
  [extension: string]: unknown;
}

/**
 * The envelope for a CloudEvent: its attributes are kept as extra top-level keys. Never
 * throws: what it cannot map (not an object, or an object that throws while being read) it
 * returns as it is, and `validateEvent` then says why it is not an event.
 */
export function fromCloudEvent(cloudEvent: unknown): unknown {
  try {
    if (typeof cloudEvent !== 'object' || cloudEvent === null || Array.isArray(cloudEvent)) return cloudEvent;
    const { type, eventversion, data, ...attributes } = cloudEvent as Record<string, unknown>;
    return { ...attributes, type, version: eventversion, payload: data };
  } catch {
    return cloudEvent;
  }
}

/** Validates a structured-mode CloudEvent as the event it carries. Never throws. */
export function validateCloudEvent(cloudEvent: unknown, options?: ValidateOptions): ValidationResult {
  isStrict(options);
  try {
    if (typeof cloudEvent === 'object' && cloudEvent !== null && (cloudEvent as Record<string, unknown>).specversion !== '1.0') {
      return rejection('malformed_message', 'not a CloudEvents 1.0 event (specversion must be "1.0")', { path: '/specversion', code: 'cloudevents_specversion', message: 'expected "1.0"' });
    }
    const result = validateEvent(fromCloudEvent(cloudEvent), options);
    if (result.ok) return result;
    // Point into the CloudEvent as received, not into the envelope it was mapped to.
    const { error } = result;
    const issues = error.issues.map((issue) => ({ ...issue, path: toCloudEventPath(issue.path) }));
    // The message names paths too: say them as the CloudEvent has them.
    const repointed = issues.some((issue, i) => issue.path !== error.issues[i]!.path);
    const message = !repointed
      ? error.message
      : error.code === 'invalid_payload'
        ? `invalid ${error.type} ${error.version} CloudEvent data: ${summarizeIssues(issues)}`
        : `not a catalog event in CloudEvents form: ${summarizeIssues(issues)}`;
    return { ok: false, error: { ...error, message, issues } };
  } catch {
    // Only hostile objects get here (getters or proxies that throw while being read).
    return rejection('malformed_message', 'CloudEvent could not be read', { path: '', code: 'unreadable', message: 'a property could not be read' });
  }
}

const toCloudEventPath = (path: string): string =>
  path.startsWith('/payload') ? `/data${path.slice('/payload'.length)}` : path === '/version' ? '/eventversion' : path;

/**
 * Wraps an event as a structured-mode CloudEvent. It takes an event the program built (or
 * validated), not a message from outside: given anything that is not an object with a string
 * `type` and `version`, or attributes that are not an object, it throws a `TypeError`.
 */
export function toCloudEvent(
  event: CatalogEvent,
  attributes: { id: string; source: string; time?: string; subject?: string; [extension: string]: unknown },
): StructuredCloudEvent {
  let type: unknown, version: unknown, payload: unknown;
  try {
    ({ type, version, payload } = event);
  } catch (cause) {
    throw new TypeError('toCloudEvent: the event could not be read', { cause });
  }
  if (typeof type !== 'string' || typeof version !== 'string') throw new TypeError('toCloudEvent takes an event: an object with a string type and version');
  if (typeof attributes !== 'object' || attributes === null) throw new TypeError('toCloudEvent takes the CloudEvent attributes as an object ({ id, source, … })');
  return {
    ...attributes,
    specversion: '1.0',
    type,
    eventversion: version,
    datacontenttype: 'application/json',
    dataschema: messageSchemaId(type, version),
    data: payload,
  };
}
