/**
 * The runtime modules generated code imports, as each generated file writes them: one place,
 * so the emitters that write the imports and the build that resolves them (scripts/tsup.config.ts)
 * cannot drift apart.
 */
export const RUNTIME_IMPORTS = {
  /** From `generated/events/<type>/<version>.ts`: `defineEventValidator`. */
  eventEntry: '../../../runtime/entries/define-event-validator.js',
  /** From `generated/validators/<type>/<version>.d.cts`: the compiled validators' types. */
  validatorTypes: '../../../runtime/contract/compiled-validator.js',
  /** From `generated/registry.d.cts`: the shape of what it lists. */
  registryTypes: '../runtime/contract/registry.js',
  /** From `generated/api/validators.d.cts` and `generated/api/operation-validators.ts`. */
  apiValidatorTypes: '../../runtime/contract/compiled-validator.js',
} as const;
