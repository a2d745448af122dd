import { eventTypes, typeIndex } from '../../generated/registry.cjs';
import type { AllErrorsValidators, CompiledEventModule, PayloadCheck } from '../contract/compiled-validator.js';

/** One event version of the registry. */
export interface CompiledEventSlot {
  readonly version: string;
  /** The event's payload checks (`accepts` of its module); the first call loads the module. */
  readonly tolerant: PayloadCheck;
  readonly strict: PayloadCheck;
  /** The event's validator module, loaded on first call. */
  readonly module: () => CompiledEventModule;
  /** ajv's all-errors validators of the event, loaded on its first rejection. */
  readonly errors: () => AllErrorsValidators;
  /** The next version of the same event type. */
  readonly next: CompiledEventSlot | undefined;
}

/**
 * One event version: its checks are stubs that load the event's validator module the first
 * time one is called and then put the module's own checks in their place, so importing the
 * package parses no validator code and a warm call goes straight to the generated function.
 */
function slot(version: string, load: () => CompiledEventModule, loadErrors: () => AllErrorsValidators, next: CompiledEventSlot | undefined): CompiledEventSlot {
  let loaded: CompiledEventModule | undefined;
  let errors: AllErrorsValidators | undefined;
  const module = (): CompiledEventModule => {
    if (loaded === undefined) {
      loaded = load();
      self.tolerant = loaded.accepts.tolerant;
      self.strict = loaded.accepts.strict;
    }
    return loaded;
  };
  const self: { -readonly [K in keyof CompiledEventSlot]: CompiledEventSlot[K] } = {
    version,
    tolerant: (payload) => module().accepts.tolerant(payload),
    strict: (payload) => module().accepts.strict(payload),
    module,
    errors: () => (errors ??= loadErrors()),
    next,
  };
  return self;
}

/** Each type's first slot, in the order of the registry's `eventTypes`; the others follow through `next`. */
const firstSlots: readonly CompiledEventSlot[] = eventTypes.map(([, versions]) =>
  versions.reduceRight<CompiledEventSlot | undefined>((next, [version, load, loadErrors]) => slot(version, load, loadErrors, next), undefined)!,
);
const typeNames: readonly string[] = eventTypes.map(([type]) => type);

/** Event type → the slot of its first version. A `Map`: safe for any string a message carries. */
export const compiledEvents: ReadonlyMap<string, CompiledEventSlot> = new Map(typeNames.map((type, i) => [type, firstSlots[i]!]));

/**
 * `compiledEvents.get(type)`, without hashing `type`: the fast way for a string just parsed
 * from a message. The registry's `typeIndex` (a decision tree on the catalog's types, written
 * by the generator) reads its length and a few characters; one comparison of the whole string
 * then confirms it.
 */
export function firstSlotOf(type: string): CompiledEventSlot | undefined {
  const i = typeIndex(type);
  return i >= 0 && typeNames[i] === type ? firstSlots[i] : undefined;
}
