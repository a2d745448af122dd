/**
 * The JSON Schema keywords a payload schema may hold, for every engine that reads one: the
 * generated boolean check (generator/emit/payload-check.ts), the search of a rejected payload
 * for its errors (runtime/internal/payload-errors.ts), and the generator's copy of the schemas that search reads
 * (annotations dropped, generator/emit/validators.ts). Generation refuses a schema holding any
 * other keyword, so a keyword cannot reach one engine alone; test/generator/payload-keywords.test.ts
 * holds both engines to ajv on cases for each keyword listed here, and does not compile while
 * a listed keyword has none.
 */

/** Keywords that decide validity, in the order ajv checks them (the search reports its errors in this order). */
export const PAYLOAD_ASSERTIONS = ['type', '$ref', 'anyOf', 'items', 'required', 'additionalProperties', 'properties'] as const;
export type PayloadAssertion = (typeof PAYLOAD_ASSERTIONS)[number];

/** Keywords that say nothing about validity: the shipped schemas leave them out. */
export const PAYLOAD_ANNOTATIONS = ['$schema', '$id', '$comment', 'title', 'description'] as const;

/** Where the schemas `$ref` names live (`#/$defs/<name>`). */
export const PAYLOAD_DEFINITIONS = '$defs';

/** Whether a payload schema may hold `keyword`. */
export const isPayloadKeyword = (keyword: string): boolean =>
  (PAYLOAD_ASSERTIONS as readonly string[]).includes(keyword) || (PAYLOAD_ANNOTATIONS as readonly string[]).includes(keyword) || keyword === PAYLOAD_DEFINITIONS;
