import type { FieldModel } from '../../model.js';
import { NAME_RULES, suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';
import { eventKeyOf, type RawEvent, type RawField, type RawFragment, type RawPayload, type RawReference } from '../read/raw-catalog.js';

/** What declares a field list: an event version or a fragment. */
interface Owner {
  label: string;
  payload: RawPayload;
  eventType?: string;
}

/**
 * Reuse (`extends`) flattened into plain field lists: a reference is `vN` (a version of the
 * same event type), a FRAGMENT, or `<event type>@<version>`; inherited fields come first, in
 * order. Reports dangling references, cycles, and a field declared twice. Each payload is
 * flattened once, whoever asks first.
 */
export class ReuseFlattener {
  private readonly resolved = new Map<RawPayload, FieldModel[]>();
  private readonly inProgress: Owner[] = [];
  private readonly fragments: ReadonlyMap<string, RawFragment>;
  private readonly events: ReadonlyMap<string, RawEvent>;

  constructor(
    fragments: readonly RawFragment[],
    events: readonly RawEvent[],
    private readonly toField: (field: RawField) => FieldModel | undefined,
    private readonly problems: ProblemList,
  ) {
    this.fragments = firstByKey(fragments, (f) => f.name);
    this.events = firstByKey(events, eventKeyOf);
  }

  event(event: RawEvent): FieldModel[] {
    return this.flatten({ label: eventKeyOf(event), payload: event, eventType: event.type });
  }

  fragment(fragment: RawFragment): FieldModel[] {
    return this.flatten({ label: fragment.name, payload: fragment });
  }

  /** True once an event (or a fragment it reaches) has been flattened through this fragment. */
  isFlattened(fragment: RawFragment): boolean {
    return this.resolved.has(fragment);
  }

  private lookup(ref: RawReference, from: Owner): Owner | undefined {
    const { ref: text } = ref;
    if (NAME_RULES.fragment.pattern.test(text)) {
      const fragment = this.fragments.get(text);
      if (fragment) return { label: text, payload: fragment };
      this.problems.error(ref.position, `unknown fragment "${text}" in extends${suggestion(text, this.fragments.keys())}`);
      return undefined;
    }
    let key = text;
    if (NAME_RULES.version.pattern.test(text)) {
      if (!from.eventType) {
        this.problems.error(ref.position, `"${text}" names a version, but a fragment has no versions; use <event type>@<version>`);
        return undefined;
      }
      key = `${from.eventType}@${text}`;
    } else if (!text.includes('@')) {
      this.problems.error(ref.position, `bad reference "${text}" in extends: use vN, a FRAGMENT name, or <event type>@<version>`);
      return undefined;
    }
    const event = this.events.get(key);
    if (event) return { label: key, payload: event, eventType: event.type };
    this.problems.error(ref.position, `unknown event version "${key}" in extends${suggestion(key, this.events.keys())}`);
    return undefined;
  }

  private flatten(owner: Owner): FieldModel[] {
    const done = this.resolved.get(owner.payload);
    if (done) return done;
    const fields: FieldModel[] = [];
    const origin = new Map<string, string>();
    this.inProgress.push(owner);
    for (const ref of owner.payload.extends) {
      const target = this.lookup(ref, owner);
      if (!target) continue;
      const cycleStart = this.inProgress.findIndex((o) => o.payload === target.payload);
      if (cycleStart >= 0) {
        const path = [...this.inProgress.slice(cycleStart).map((o) => o.label), target.label].join(' → ');
        this.problems.error(ref.position, `extends cycle: ${path}`);
        continue;
      }
      for (const field of this.flatten(target)) {
        if (origin.has(field.name)) continue; // reported where the second list is declared
        origin.set(field.name, target.label);
        fields.push(field);
      }
    }
    this.inProgress.pop();
    for (const raw of owner.payload.fields) {
      const from = origin.get(raw.name);
      if (from !== undefined) {
        this.problems.error(raw.position, `field "${raw.name}" is already defined${from === owner.label ? '' : ` by ${from}`}`);
        continue;
      }
      origin.set(raw.name, owner.label);
      const field = this.toField(raw);
      if (field) fields.push(field);
    }
    this.resolved.set(owner.payload, fields);
    return fields;
  }
}

/** The first item of each key: later duplicates are reported by the unique-declarations rule. */
export function firstByKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(key(item))) map.set(key(item), item);
  return map;
}
