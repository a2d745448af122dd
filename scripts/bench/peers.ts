/**
 * The peers the package is measured against, all built at run time from the published
 * message schemas (`generated/schemas/events/<type>/<version>/message.schema.json`, tolerant
 * mode, as our default `validateEvent` is):
 *
 * - `oneOf`: one Ajv2020 schema `{ oneOf: [every message schema] }` (allErrors off). Every
 *   message is checked against every branch, since `oneOf` must prove only one matches.
 * - `discriminator`: Ajv2020 with `discriminator: true`, two levels: `type`, then `version`.
 * - `zod`: zod 4 schemas made from the same JSON Schemas by `z.fromJSONSchema`, dispatched with
 *   a Map type → version → schema (the same two-level lookup as ours), and the same schemas in
 *   nested `z.discriminatedUnion`s.
 *
 * - `Map → ajv.compile`: what a user would most likely write by hand: a Map type → version →
 *   `ajv.compile(payload schema)`, behind a five-line envelope check; first-error and
 *   all-errors.
 * - `Map → TypeBox Compile`: the same Map, with TypeBox 1.x compiling each payload schema.
 *
 * Every peer is a `(message) => boolean`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Compile } from 'typebox/compile';
import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };
export type Check = (message: unknown) => boolean;

export interface MessageSchema {
  type: string;
  version: string;
  /** The whole message (envelope and payload). */
  schema: JsonSchema;
  /** The payload alone. */
  payload: JsonSchema;
}

/** A message schema as a subschema: without `$schema`/`$comment` (root-only annotations); its `$id` stays, so its `#/$defs/…` refs resolve. */
function asBranch(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema' && key !== '$comment'));
}

function byType(schemas: readonly MessageSchema[]): Map<string, MessageSchema[]> {
  const map = new Map<string, MessageSchema[]>();
  for (const s of schemas) map.set(s.type, [...(map.get(s.type) ?? []), s]);
  return map;
}

export function ajvOneOf(schemas: readonly MessageSchema[]): Check {
  const ajv = new Ajv2020({ allErrors: false });
  const validate = ajv.compile({ oneOf: schemas.map((s) => asBranch(s.schema)) });
  return (message) => validate(message);
}

export function ajvDiscriminator(schemas: readonly MessageSchema[]): Check {
  const ajv = new Ajv2020({ allErrors: false, discriminator: true });
  const branches = [...byType(schemas)].map(([type, versions]) => ({
    type: 'object',
    properties: { type: { const: type } },
    required: ['type', 'version'],
    discriminator: { propertyName: 'version' },
    oneOf: versions.map((v) => asBranch(v.schema)),
  }));
  const validate = ajv.compile({ type: 'object', required: ['type'], discriminator: { propertyName: 'type' }, oneOf: branches });
  return (message) => validate(message);
}

type AnyZod = z.ZodType;

function zodSchemas(schemas: readonly MessageSchema[]): { type: string; version: string; zod: AnyZod }[] {
  // A private registry: fromJSONSchema records annotations ($id, title, …) in the one it is given.
  const registry = z.registry<Record<string, unknown>>();
  return schemas.map((s) => ({ type: s.type, version: s.version, zod: z.fromJSONSchema(s.schema as never, { registry }) }));
}

export function zodMap(schemas: readonly MessageSchema[]): Check {
  const table = new Map<string, Map<string, AnyZod>>();
  for (const s of zodSchemas(schemas)) {
    let versions = table.get(s.type);
    if (!versions) table.set(s.type, (versions = new Map()));
    versions.set(s.version, s.zod);
  }
  return (message) => {
    if (typeof message !== 'object' || message === null) return false;
    const { type, version } = message as { type?: unknown; version?: unknown };
    if (typeof type !== 'string' || typeof version !== 'string') return false;
    const schema = table.get(type)?.get(version);
    return schema !== undefined && schema.safeParse(message).success;
  };
}

export function zodDiscriminatedUnion(schemas: readonly MessageSchema[]): Check {
  const converted = zodSchemas(schemas);
  const grouped = new Map<string, AnyZod[]>();
  for (const s of converted) grouped.set(s.type, [...(grouped.get(s.type) ?? []), s.zod]);
  type Options = Parameters<typeof z.discriminatedUnion>[1];
  const perType = [...grouped.values()].map((versions) => z.discriminatedUnion('version', versions as unknown as Options));
  const union = z.discriminatedUnion('type', perType as unknown as Options);
  return (message) => union.safeParse(message).success;
}

type PayloadCheck = (payload: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A Map type → version → what `compile` makes of each payload schema. */
function payloadTable<F>(schemas: readonly MessageSchema[], compile: (payload: JsonSchema) => F): Map<string, Map<string, F>> {
  const table = new Map<string, Map<string, F>>();
  for (const s of schemas) {
    let versions = table.get(s.type);
    if (!versions) table.set(s.type, (versions = new Map()));
    versions.set(s.version, compile(s.payload));
  }
  return table;
}

/** A Map type → version → payload check, behind the envelope check a user would write. */
function payloadMap(schemas: readonly MessageSchema[], compile: (payload: JsonSchema) => PayloadCheck): Check {
  const table = payloadTable(schemas, compile);
  return (message) => {
    if (!isObject(message)) return false;
    const { type, version, payload } = message;
    if (typeof type !== 'string' || typeof version !== 'string' || !isObject(payload)) return false;
    const check = table.get(type)?.get(version);
    return check !== undefined && check(payload);
  };
}

export function ajvPayloadMap(schemas: readonly MessageSchema[], options: { allErrors: boolean }): Check {
  const ajv = new Ajv2020({ allErrors: options.allErrors });
  return payloadMap(schemas, (payload) => ajv.compile(payload));
}

/**
 * The `Map` → `ajv.compile` peer on the error path: the number of errors ajv reports for a
 * message (its `errors` array, messages included, as ajv builds it by default), 0 when valid,
 * -1 when the envelope check or the `Map` turns it away.
 */
export function ajvPayloadErrors(schemas: readonly MessageSchema[], options: { allErrors: boolean }): (message: unknown) => number {
  const ajv = new Ajv2020({ allErrors: options.allErrors });
  const table = payloadTable(schemas, (payload) => ajv.compile(payload));
  // The envelope check of `payloadMap`, returning a count instead of a verdict.
  return (message) => {
    if (!isObject(message)) return -1;
    const { type, version, payload } = message;
    if (typeof type !== 'string' || typeof version !== 'string' || !isObject(payload)) return -1;
    const validate = table.get(type)?.get(version);
    if (validate === undefined) return -1;
    return validate(payload) ? 0 : (validate.errors?.length ?? 0);
  };
}

export function typeboxPayloadMap(schemas: readonly MessageSchema[]): Check {
  return payloadMap(schemas, (payload) => {
    const compiled = Compile(payload as never);
    return (value) => compiled.Check(value);
  });
}
