/**
 * The shape of the precompiled (ajv standalone) validators in `generated/validators/`.
 * Only types: the generated code itself has no imports.
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

export interface CompiledValidatorPair {
  tolerant: CompiledValidator;
  strict: CompiledValidator;
}

/** A payload check that only answers: the same verdict as the validators, no errors. */
export type PayloadCheck = (data: unknown) => boolean;

export interface PayloadCheckPair {
  tolerant: PayloadCheck;
  strict: PayloadCheck;
}

/** What each `generated/validators/<type>/<version>.cjs` module exports. */
export interface CompiledEventModule {
  /** Verdicts only: the path every message takes. */
  accepts: PayloadCheckPair;
  /** Stop at the first error (a large rejected payload's last resort for one real issue). */
  fast: CompiledValidatorPair;
  /** Collect every error; built on first call, used only for rejected messages (one run each). */
  full(): CompiledValidatorPair;
}
