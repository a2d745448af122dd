import type { CompiledValidator, CompiledValidatorError, PayloadSchema } from './compiled-validator.js';

/**
 * Why a payload is invalid, found from its schema: the errors ajv's validator of the same
 * schema reports (`validatorAjvOptions`), in ajv's order, without any code generated per event.
 * Only rejected payloads come here; `accepts` (generated per event) gives every verdict.
 *
 * A schema is turned once into a tree of small functions (kept with the schema object), with
 * every schema path worked out in advance. It knows what the schema builder writes, in ajv's
 * keyword order: an up-front `type` test (unless the one type has keywords of its own, which
 * then report a wrong type themselves), `$ref` into the root's `$defs`, `anyOf` (each branch
 * until one holds, its errors dropped when one does), `items`, then `required`,
 * `additionalProperties: false` and `properties`. `allErrors: false` stops at the first failing
 * keyword, as ajv's first-error validator does: for a huge payload its errors and memory stay
 * bounded. `test/generator/validators-agree.test.ts` holds both to runtime-compiled ajv.
 */
export function payloadValidator(root: PayloadSchema, allErrors: boolean): CompiledValidator {
  let pair = validators.get(root);
  if (pair === undefined) {
    const search = compileSearch(root);
    validators.set(root, (pair = [validatorOf(search, false), validatorOf(search, true)]));
  }
  return pair[allErrors ? 1 : 0];
}

/** Each schema's two validators, built on its first rejection and kept with it, as ajv's modules keep theirs. */
const validators = new WeakMap<PayloadSchema, [firstError: CompiledValidator, allErrors: CompiledValidator]>();

function validatorOf(search: Search, allErrors: boolean): CompiledValidator {
  const validate: CompiledValidator = (data) => {
    const errors: CompiledValidatorError[] = [];
    const valid = search(data, '', '', errors, allErrors);
    validate.errors = valid ? null : errors;
    return valid;
  };
  validate.errors = null;
  return validate;
}

/**
 * Pushes the faults of `data` onto `errors`; whether there were none. The value's instance
 * path is `parent + token`, joined only where it is needed (an error, or a container's
 * members): most values are leaves that pass.
 */
type Search = (data: unknown, parent: string, token: string, errors: CompiledValidatorError[], allErrors: boolean) => boolean;

function compileSearch(root: PayloadSchema): Search {
  const defs = (root.$defs ?? {}) as Record<string, PayloadSchema>;
  /** `$defs` searches by reference, compiled on first use (a type may refer to itself). */
  const refs = new Map<string, Search>();

  const compile = (s: PayloadSchema, path: string): Search => {
    const steps: Search[] = [];
    const fault = (keyword: string, at: string, errors: CompiledValidatorError[], params: Record<string, unknown>): false => {
      errors.push({ instancePath: at, schemaPath: path + '/' + keyword, keyword, params });
      return false;
    };
    const type = s.type as string | string[] | undefined;
    // One type with keywords of its own is tested by those keywords (ajv's type group), not up front.
    const ownGroup = (type === 'object' && (s.properties ?? s.required ?? s.additionalProperties) !== undefined) || (type === 'array' && s.items !== undefined);
    const wrongType = (at: string, errors: CompiledValidatorError[]): false => fault('type', at, errors, { type });
    if (type !== undefined && !ownGroup) {
      const test = typeof type === 'string' ? typeTest(type) : anyTypeTest(type.map(typeTest));
      steps.push((data, parent, token, errors) => test(data) || wrongType(parent + token, errors));
    }
    if (s.$ref !== undefined) {
      const ref = s.$ref as string;
      const target = defs[ref.slice('#/$defs/'.length).replace(/~1/g, '/').replace(/~0/g, '~')]!;
      // ajv inlines a definition without references of its own (its paths go on from `$ref`);
      // one with references becomes a function of its own, whose paths start again at `#`.
      steps.push((data, parent, token, errors, all) => (refs.get(ref) ?? refs.set(ref, compile(target, JSON.stringify(target).includes('"$ref"') ? '#' : ref)).get(ref)!)(data, parent, token, errors, all));
    }
    if (s.anyOf !== undefined) {
      const branches = (s.anyOf as PayloadSchema[]).map((branch, i) => compile(branch, path + '/anyOf/' + i));
      steps.push((data, parent, token, errors, all) => {
        const before = errors.length;
        for (let i = 0; i < branches.length; i++) {
          if (branches[i]!(data, parent, token, errors, all)) {
            errors.length = before;
            return true;
          }
        }
        return fault('anyOf', parent + token, errors, {});
      });
    }
    if (s.items !== undefined) {
      const item = compile(s.items as PayloadSchema, path + '/items');
      steps.push((data, parent, token, errors, all) => {
        const at = parent + token;
        if (!Array.isArray(data)) return !ownGroup || wrongType(at, errors);
        let valid = true;
        for (let i = 0; i < data.length && (valid || all); i++) valid = item(data[i], at, '/' + i, errors, all) && valid;
        return valid;
      });
    }
    if (type === 'object' && ownGroup) {
      const required = (s.required ?? []) as string[];
      const properties = (s.properties ?? {}) as Record<string, PayloadSchema>;
      const closed = s.additionalProperties === false;
      const names = Object.keys(properties);
      const listed = new Set(names);
      const tokens = names.map((name) => '/' + name.replace(/~/g, '~0').replace(/\//g, '~1'));
      const members = names.map((name, i) => compile(properties[name]!, path + '/properties/' + encodeURIComponent(tokens[i]!.slice(1))));
      steps.push((data, parent, token, errors, all) => {
        const at = parent + token;
        if (typeof data !== 'object' || data === null || Array.isArray(data)) return wrongType(at, errors);
        const object = data as Record<string, unknown>;
        const start = errors.length;
        for (let i = 0; i < required.length; i++) {
          const name = required[i]!;
          if (object[name] === undefined && !fault('required', at, errors, { missingProperty: name }) && !all) return false;
        }
        if (closed) {
          for (const key in object) {
            if (!listed.has(key) && !fault('additionalProperties', at, errors, { additionalProperty: key }) && !all) return false;
          }
        }
        for (let i = 0; i < names.length; i++) {
          const value = object[names[i]!];
          if (value !== undefined && !members[i]!(value, at, tokens[i]!, errors, all) && !all) return false;
        }
        return errors.length === start;
      });
    }
    // Each step answers whether it added no error, so a lone step is the whole search.
    if (steps.length <= 1) return steps[0] ?? (() => true);
    return (data, parent, token, errors, all) => {
      const start = errors.length;
      for (let i = 0; i < steps.length; i++) if (!steps[i]!(data, parent, token, errors, all) && !all) return false;
      return errors.length === start;
    };
  };
  return compile(root, '#');
}

type TypeTest = (data: unknown) => boolean;

/** ajv's type tests (`strictNumbers`): `number` covers `integer`; `NaN` and `Infinity` are neither. */
function typeTest(type: string): TypeTest {
  switch (type) {
    case 'null':
      return (data) => data === null;
    case 'array':
      return Array.isArray;
    case 'object':
      return (data) => typeof data === 'object' && data !== null && !Array.isArray(data);
    case 'integer':
      return Number.isInteger;
    case 'number':
      return (data) => typeof data === 'number' && Number.isFinite(data);
    default:
      return (data) => typeof data === type;
  }
}

const anyTypeTest = (tests: TypeTest[]): TypeTest => (data) => tests.some((test) => test(data));
