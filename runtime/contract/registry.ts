import type { AllErrorsValidators, CompiledEventModule } from './compiled-validator.js';

/**
 * What `generated/registry.cjs` lists for the run time, which builds its lookup of validators
 * from it (`runtime/internal/event-slots.ts`): data and loaders only, the code around them
 * written once in the runtime.
 */

/** One version of an event type: the version, then loaders of its validator module and of its ajv all-errors module. */
export type RegistryVersion = readonly [version: string, load: () => CompiledEventModule, loadErrors: () => AllErrorsValidators];

/** One event type and its versions, in catalog order. */
export type RegistryEventType = readonly [type: string, versions: readonly RegistryVersion[]];
