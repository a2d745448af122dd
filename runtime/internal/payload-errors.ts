import type { CompiledValidator, CompiledValidatorError, PayloadSchema } from '../contract/compiled-validator.js';
import { pointerToken, unescapeToken } from '../contract/json-pointer.js';
import type { PayloadAssertion } from '../contract/payload-keywords.js';

/**
 * Why a payload is invalid, found from its schema: the errors ajv's validator of the same
 * schema reports (`validatorAjvOptions`), in ajv's order, without any code generated per event.
 * Only rejected payloads come here; `accepts` (generated per event) gives every verdict.
 *
 * A schema is turned once into a tree of small functions (kept with the schema object), one
 * per subschema, with every schema path worked out in advance. It knows the keywords of
 * `contract/payload-keywords.ts` (generation refuses any other), in ajv's keyword order: an up-front
 * `type` test (unless the one type has keywords of its own, which then report a wrong type
 * themselves), `$ref` into the root's `$defs`, `anyOf` (each branch until one holds, its
 * errors dropped when one does), `items`, then, for an object, `required`,
 * `additionalProperties: false` and `properties`. `allErrors: false` stops at
 * the first failing keyword, as ajv's first-error validator does: for a huge payload its errors
 * and memory stay bounded. `test/generator/validators-agree.test.ts` holds both to
 * runtime-compiled ajv. The code is kept short: every per-event entry bundles it.
 */
export function payloadValidator(root: PayloadSchema, allErrors: boolean): CompiledValidator {
  let pair = validators.get(root);
  if (pair === undefined) {
    const search = compileSearch(root);
    validators.set(root, (pair = [false, true].map((all) => {
      const validate: CompiledValidator = (data) => {
        const errors: CompiledValidatorError[] = [];
        const valid = search(data, '', '', errors, all);
        validate.errors = valid ? null : errors;
        return valid;
      };
      validate.errors = null;
      return validate;
    })));
  }
  return pair[+allErrors]!;
}

/** Each schema's two validators (first error, all errors), built on its first rejection and kept with it, as ajv's modules keep theirs. */
const validators = new WeakMap<PayloadSchema, CompiledValidator[]>();

/**
 * Pushes the faults of `data` onto `errors`; whether there were none. The value's instance
 * path is `parent + token`, joined only where it is needed (an error, or a container's
 * members): most values are leaves that pass.
 */
type Search = (data: unknown, parent: string, token: string, errors: CompiledValidatorError[], allErrors: boolean) => boolean;

const isObject = (data: unknown): data is Record<string, unknown> => typeof data === 'object' && data !== null && !Array.isArray(data);

/** ajv's type tests (`strictNumbers`): `number` covers `integer`; `NaN` and `Infinity` are neither. */
const isType = (type: string | string[], data: unknown): boolean =>
  typeof type !== 'string' ? type.some((one) => isType(one, data))
  : type === 'null' ? data === null
  : type === 'array' ? Array.isArray(data)
  : type === 'object' ? isObject(data)
  : type === 'integer' ? Number.isInteger(data)
  : type === 'number' ? typeof data === 'number' && Number.isFinite(data)
  : typeof data === type;

/** What each keyword of `contract/payload-keywords.ts` holds. */
interface Keywords {
  type?: string | string[];
  $ref?: string;
  anyOf?: PayloadSchema[];
  items?: PayloadSchema;
  required?: string[];
  additionalProperties?: boolean;
  properties?: Record<string, PayloadSchema>;
}
/** Does not compile while a keyword of the list is missing from `Keywords`, or one there is not on the list. */
type True<T extends true> = T;
export type KeywordsMatchList = True<[keyof Keywords] extends [PayloadAssertion] ? ([PayloadAssertion] extends [keyof Keywords] ? true : false) : false>;

function compileSearch(root: PayloadSchema): Search {
  const defs = (root.$defs ?? {}) as Record<string, PayloadSchema>;
  /** `$defs` searches by reference, compiled on first use (a type may refer to itself). */
  const refs = new Map<string, Search>();

  const compile = (s: PayloadSchema, path: string): Search => {
    const { type, $ref, anyOf, items, required, additionalProperties, properties = {} } = s as Keywords;
    /** Adds one error; `false`, so `fault(…) || all` says whether to go on. */
    const fault = (keyword: string, at: string, errors: CompiledValidatorError[], params: Record<string, unknown>): false => {
      errors.push({ instancePath: at, schemaPath: path + '/' + keyword, keyword, params });
      return false;
    };
    // Object keywords apply to objects only; with `type: 'object'` alone they also test the type
    // themselves (ajv's type group), not up front.
    const objectKeywords = (s.properties ?? required ?? additionalProperties) !== undefined;
    const object = type === 'object' && objectKeywords;
    const own = object || (type === 'array' && items !== undefined);
    const tested = type !== undefined && !own;
    const closed = additionalProperties === false;
    const names = Object.keys(properties);
    const listed = new Set(names);
    const tokens = names.map((name) => '/' + pointerToken(name));
    const members = names.map((name, i) => compile(properties[name]!, path + '/properties/' + encodeURIComponent(tokens[i]!.slice(1))));
    const branches = anyOf?.map((branch, i) => compile(branch, path + '/anyOf/' + i));
    const item = items && compile(items, path + '/items');
    // ajv inlines a definition without references of its own (its paths go on from `$ref`);
    // one with references becomes a function of its own, whose paths start again at `#`.
    const target = $ref === undefined ? undefined : defs[unescapeToken($ref.slice('#/$defs/'.length))]!;
    const resolve = (): Search => refs.get($ref!) ?? refs.set($ref!, compile(target!, JSON.stringify(target).includes('"$ref"') ? '#' : $ref!)).get($ref!)!;

    // Most values are leaves with a type alone: their search is that test.
    if ($ref === undefined && !branches && !item && !objectKeywords) return (data, parent, token, errors) => !tested || isType(type!, data) || fault('type', parent + token, errors, { type });
    return (data, parent, token, errors, all) => {
      const start = errors.length;
      const at = parent + token;
      if (tested && !isType(type!, data) && !(fault('type', at, errors, { type }) || all)) return false;
      if ($ref !== undefined && !resolve()(data, parent, token, errors, all) && !all) return false;
      if (branches) {
        const before = errors.length;
        if (branches.some((branch) => branch(data, parent, token, errors, all))) errors.length = before;
        else if (!(fault('anyOf', at, errors, {}) || all)) return false;
      }
      if (item) {
        if (!Array.isArray(data)) {
          if (own && !(fault('type', at, errors, { type }) || all)) return false;
        } else {
          for (let i = 0; i < data.length; i++) if (!item(data[i], at, '/' + i, errors, all) && !all) return false;
        }
      }
      if (objectKeywords) {
        if (!isObject(data)) {
          // Not an object: a type error if the keywords carry the type, else none of their business.
          if (object) return fault('type', at, errors, { type });
        } else {
          if (required) for (const name of required) if (data[name] === undefined && !(fault('required', at, errors, { missingProperty: name }) || all)) return false;
          if (closed) for (const key in data) if (!listed.has(key) && !(fault('additionalProperties', at, errors, { additionalProperty: key }) || all)) return false;
          for (let i = 0; i < names.length; i++) {
            const value = data[names[i]!];
            if (value !== undefined && !members[i]!(value, at, tokens[i]!, errors, all) && !all) return false;
          }
        }
      }
      return errors.length === start;
    };
  };
  return compile(root, '#');
}
