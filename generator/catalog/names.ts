import { closest, distance } from 'fastest-levenshtein';

/** Naming rules of the catalog, one named entry each, so messages can quote them. */
export const NAME_RULES = {
  eventType: {
    pattern: /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/,
    text: 'lower-case dot-separated segments of a-z, 0-9, "_" and "-", starting with a letter',
  },
  version: {
    pattern: /^v(?:[0-9]+|-[a-z]+[0-9]*)$/,
    text: '"v" and a number (v1), or "v-" and a pre-release label (v-alpha1)',
  },
  field: {
    // Names every object inherits (`constructor`, `__proto__`) are refused by the object-prototype-names rule.
    pattern: /^[a-z_][a-z0-9_]*$/,
    text: 'a-z, 0-9 and "_", not starting with a digit',
  },
  sharedType: {
    pattern: /^[A-Za-z_][A-Za-z0-9_-]*$/,
    text: 'letters, digits, "_" and "-", not starting with a digit or "-"',
  },
  fragment: {
    pattern: /^[A-Z][A-Z0-9_]*$/,
    text: 'UPPER_SNAKE_CASE',
  },
} as const;

/**
 * PascalCase TypeScript name from any catalog name: split on everything that is not a
 * letter or digit, capitalise each part, keep the rest of its case
 * (`billing-_billing-Ledger` → `BillingBillingLedger`).
 */
export function toTsName(...names: string[]): string {
  const pascal = names
    .flatMap((name) => name.split(/[^A-Za-z0-9]+/))
    .filter((part) => part.length > 0)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(pascal) ? `_${pascal}` : pascal;
}

/** ` (did you mean "x"?)` when a candidate is close enough to be a likely typo, else ''. */
export function suggestion(wanted: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  if (list.length === 0) return '';
  const best = closest(wanted, list);
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return distance(wanted, best) <= limit ? ` (did you mean "${best}"?)` : '';
}
