import type { CompiledValidator, CompiledValidatorError, PayloadSchema } from './compiled-validator.js';

/**
 * Why a payload is invalid, found by walking its schema: the errors ajv's validator of the
 * same schema reports (`validatorAjvOptions`), in ajv's order, without any code generated per
 * event. Only rejected payloads come here; `accepts` (generated per event) gives every verdict.
 *
 * It knows what the schema builder writes, in ajv's keyword order: an up-front `type` test
 * (unless the one type has keywords of its own, which then report a wrong type themselves),
 * `$ref` into the root's `$defs`, `anyOf` (each branch until one holds, its errors dropped when
 * one does), `items`, then `required`, `additionalProperties: false` and `properties`.
 * `allErrors: false` stops at the first failing keyword, as ajv's first-error validator does:
 * for a huge payload its errors and its memory stay bounded.
 * `test/generator/validators-agree.test.ts` holds both to runtime-compiled ajv.
 */
export function payloadValidator(root: PayloadSchema, allErrors: boolean): CompiledValidator {
  const defs = (root.$defs ?? {}) as Record<string, PayloadSchema>;
  let errors: CompiledValidatorError[] = [];

  const fail = (instancePath: string, schemaPath: string, keyword: string, params: Record<string, unknown>): false => {
    errors.push({ instancePath, schemaPath, keyword, params });
    return false;
  };

  /** Whether `data` holds against `s`; each fault is pushed onto `errors`. */
  const check = (s: PayloadSchema, data: unknown, at: string, path: string): boolean => {
    const start = errors.length;
    const type = s.type as string | string[] | undefined;
    const isObject = isJsonObject(data);
    const isArray = Array.isArray(data);
    // One type with keywords of its own is tested by those keywords' group (its `else` reports it).
    const ownGroup = (type === 'object' && (s.properties ?? s.required ?? s.additionalProperties) !== undefined) || (type === 'array' && s.items !== undefined);
    if (type !== undefined && !ownGroup && !hasType(type, data) && (fail(at, `${path}/type`, 'type', { type }), !allErrors)) return false;
    if (s.$ref !== undefined) {
      const target = defs[(s.$ref as string).slice(8).replace(/~1/g, '/').replace(/~0/g, '~')]!;
      if (!check(target, data, at, refersOnward(target) ? '#' : (s.$ref as string)) && !allErrors) return false;
    }
    if (s.anyOf !== undefined) {
      const before = errors.length;
      const branches = s.anyOf as PayloadSchema[];
      let held = false;
      for (let i = 0; i < branches.length && !held; i++) held = check(branches[i]!, data, at, `${path}/anyOf/${i}`);
      if (held) errors.length = before;
      else if ((fail(at, `${path}/anyOf`, 'anyOf', {}), !allErrors)) return false;
    }
    if (s.items !== undefined) {
      if (isArray) {
        for (let i = 0; i < data.length; i++) if (!check(s.items as PayloadSchema, data[i], `${at}/${i}`, `${path}/items`) && !allErrors) return false;
      } else if (ownGroup && type === 'array' && (fail(at, `${path}/type`, 'type', { type }), !allErrors)) return false;
    }
    if (type === 'object' && ownGroup && !isObject) return fail(at, `${path}/type`, 'type', { type });
    if (isObject) {
      const properties = (s.properties ?? {}) as Record<string, PayloadSchema>;
      for (const name of (s.required ?? []) as string[]) {
        if (data[name] === undefined && (fail(at, `${path}/required`, 'required', { missingProperty: name }), !allErrors)) return false;
      }
      if (s.additionalProperties === false) {
        for (const key in data) {
          if (!Object.prototype.hasOwnProperty.call(properties, key) && (fail(at, `${path}/additionalProperties`, 'additionalProperties', { additionalProperty: key }), !allErrors)) return false;
        }
      }
      for (const name in properties) {
        const value = data[name];
        const token = name.replace(/~/g, '~0').replace(/\//g, '~1');
        if (value !== undefined && !check(properties[name]!, value, `${at}/${token}`, `${path}/properties/${encodeURIComponent(token)}`) && !allErrors) return false;
      }
    }
    return errors.length === start;
  };

  const validate: CompiledValidator = (data) => {
    errors = [];
    const valid = check(root, data, '', '#');
    validate.errors = valid ? null : errors;
    return valid;
  };
  return validate;
}

const onward = new WeakMap<PayloadSchema, boolean>();

/**
 * Whether a `$defs` schema holds a `$ref` itself. ajv inlines one that does not, its errors'
 * `schemaPath` then starting at the reference (`#/$defs/Name/type`); one that does becomes a
 * function of its own, whose `schemaPath`s start again at `#`.
 */
function refersOnward(target: PayloadSchema): boolean {
  let known = onward.get(target);
  if (known === undefined) onward.set(target, (known = JSON.stringify(target).includes('"$ref"')));
  return known;
}

const isJsonObject = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);

/** ajv's type tests (`strictNumbers`): `number` covers `integer`; `NaN` and `Infinity` are neither. */
function hasType(type: string | string[], data: unknown): boolean {
  if (typeof type !== 'string') return type.some((t) => hasType(t, data));
  switch (type) {
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isJsonObject(data);
    case 'integer':
      return Number.isInteger(data);
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    default:
      return typeof data === type;
  }
}
