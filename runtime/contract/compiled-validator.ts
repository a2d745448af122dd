/**
 * The shape of the generated validator modules (`generated/validators/`, `generated/api/`), and
 * of the validators that explain a rejection. Only types: the generated code itself has no imports.
 */

/** An error as ajv reports it (ajv's `ErrorObject`, without its optional extras). */
export interface CompiledValidatorError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validation function: `true` when valid; after `false`, `errors` says why. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: CompiledValidatorError[] | null;
}

/** What each `generated/validators/<type>/<version>.errors.cjs` module exports: ajv's all-errors validator of each mode. */
export interface AllErrorsValidators {
  tolerant: CompiledValidator;
  strict: CompiledValidator;
}

/** A payload check that only answers: the same verdict as the validators, no errors. */
export type PayloadCheck = (data: unknown) => boolean;

export interface PayloadCheckPair {
  tolerant: PayloadCheck;
  strict: PayloadCheck;
}

/**
 * A payload schema as the validator modules ship it: the JSON Schema 2020-12 of
 * `schemas/events/<type>/<version>/payload.schema.json` (strict: every listed object closed)
 * without its annotations (`$id`, titles, descriptions). `payloadValidator` reads it.
 */
export type PayloadSchema = { readonly [keyword: string]: unknown };

export interface PayloadSchemaPair {
  tolerant: PayloadSchema;
  strict: PayloadSchema;
}

/** What each `generated/validators/<type>/<version>.cjs` module exports. */
export interface CompiledEventModule {
  /** Verdicts only: the path every message takes. */
  accepts: PayloadCheckPair;
  /** The schemas a rejected payload is searched against for its issues (`payload-errors.ts`). */
  schemas: PayloadSchemaPair;
}

/** What a REST operation's entry in the generated `ApiOperations` says of it: its parts and its statuses. */
export interface OperationShape {
  params: unknown;
  query: unknown;
  request: unknown;
  responses: object;
}

/** A validator where the operation takes the part (`T` is not `never`), `undefined` where it does not. */
type ValidatorOf<T> = [T] extends [never] ? undefined : CompiledValidator;

/**
 * The validators of one REST operation (`generated/api/operation-validators.ts`), typed by its
 * entry in `ApiOperations`: one per part it takes, one per status its contract names. A
 * status without its validator, or a validator of a part it does not take, does not compile.
 */
export interface OperationValidators<Op extends OperationShape> {
  readonly params: ValidatorOf<Op['params']>;
  readonly query: ValidatorOf<Op['query']>;
  readonly request: ValidatorOf<Op['request']>;
  readonly responses: { readonly [Status in keyof Op['responses'] & number]: CompiledValidator };
}
