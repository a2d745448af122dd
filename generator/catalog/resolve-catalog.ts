import type { CatalogModel, EventVersionModel, FieldModel, GapModel, ObjectTypeModel, PrimitiveName, SourcePosition, TypeRef } from '../model.js';
import { NAME_RULES, suggestion, toTsName } from './names.js';
import type { ProblemList } from './problems.js';
import { reachableSharedTypes } from '../shared-types.js';
import type { RawCatalogFile, RawEvent, RawField, RawFragment, RawPayload, RawReference, RawSharedType } from './read-catalog-file.js';

const PRIMITIVES: readonly PrimitiveName[] = ['string', 'integer', 'number', 'boolean', 'object'];
const SEED_LETTERS: Record<string, PrimitiveName> = { s: 'string', i: 'integer', n: 'number', b: 'boolean', o: 'object' };
/** Names the generated TypeScript module declares itself; a catalog type may not take them. */
export const RESERVED_TS_NAMES = ['CatalogEvent', 'EventType', 'EventVersion', 'EventOf', 'PayloadOf', 'EventKey', 'EventByKey', 'EventMap'];

const where = (p: SourcePosition): string => `${p.file}:${p.line}:${p.col}`;

/** Turns raw declarations from every file into the resolved model, reporting every problem found. */
export function resolveCatalog(files: RawCatalogFile[], problems: ProblemList): CatalogModel {
  const sharedByName = new Map<string, RawSharedType>();
  const fragmentsByName = new Map<string, RawFragment>();
  const eventsByKey = new Map<string, RawEvent>();
  const tsNames = new Map<string, { owner: string; position?: SourcePosition }>();
  for (const name of RESERVED_TS_NAMES) tsNames.set(name, { owner: 'the generated module itself' });

  const claimTsName = (tsName: string, owner: string, position: SourcePosition): void => {
    const existing = tsNames.get(tsName);
    if (existing) {
      const at = existing.position ? ` at ${where(existing.position)}` : '';
      problems.error(position, `${owner} maps to the TypeScript name "${tsName}", already taken by ${existing.owner}${at}; rename one of them`);
    } else {
      tsNames.set(tsName, { owner, position });
    }
  };
  const checkName = (name: string, rule: keyof typeof NAME_RULES, what: string, position: SourcePosition): void => {
    if (!NAME_RULES[rule].pattern.test(name)) problems.error(position, `invalid ${what} "${name}": use ${NAME_RULES[rule].text}`);
  };
  const checkFieldNames = (fields: RawField[]): void => {
    for (const field of fields) checkName(field.name, 'field', 'field name', field.position);
  };

  // 1. Index every declaration; names, duplicates and TypeScript name clashes.
  for (const file of files) {
    for (const shared of file.sharedTypes) {
      checkName(shared.name, 'sharedType', 'shared type name', shared.position);
      checkFieldNames(shared.fields);
      const first = sharedByName.get(shared.name);
      if (first) problems.error(shared.position, `duplicate shared type "${shared.name}" (first defined at ${where(first.position)})`);
      else {
        sharedByName.set(shared.name, shared);
        claimTsName(toTsName(shared.name), `shared type "${shared.name}"`, shared.position);
      }
    }
    for (const fragment of file.fragments) {
      checkName(fragment.name, 'fragment', 'fragment name', fragment.position);
      checkFieldNames(fragment.fields);
      const first = fragmentsByName.get(fragment.name);
      if (first) problems.error(fragment.position, `duplicate fragment "${fragment.name}" (first defined at ${where(first.position)})`);
      else fragmentsByName.set(fragment.name, fragment);
    }
    for (const event of file.events) {
      checkName(event.type, 'eventType', 'event type', event.typePosition);
      checkName(event.version, 'version', 'version', event.position);
      checkFieldNames(event.fields);
      const key = `${event.type}@${event.version}`;
      const first = eventsByKey.get(key);
      if (first) problems.error(event.position, `duplicate event ${key} (first defined at ${where(first.position)})`);
      else {
        eventsByKey.set(key, event);
        const base = toTsName(event.type, event.version);
        claimTsName(`${base}Payload`, `event ${key}`, event.position);
        claimTsName(`${base}Event`, `event ${key}`, event.position);
      }
    }
  }

  // 2. Field types.
  const resolveType = (field: RawField): TypeRef | undefined => {
    const match = /^([A-Za-z_][A-Za-z0-9_-]*)((?:\[\])*)$/.exec(field.typeText);
    if (!match) {
      const seedArray = /^a\[(.+)\]$/.exec(field.typeText);
      const hint = seedArray ? ` (write "${SEED_LETTERS[seedArray[1]!] ?? seedArray[1]}[]" for an array)` : '';
      problems.error(field.typePosition, `bad field notation "${field.typeText}" for "${field.name}": expected a primitive, a shared type name, or T[]${hint}`);
      return undefined;
    }
    const [, base, brackets] = match as unknown as [string, string, string];
    let type: TypeRef;
    if ((PRIMITIVES as readonly string[]).includes(base)) type = { kind: 'primitive', name: base as PrimitiveName };
    else if (sharedByName.has(base)) type = { kind: 'named', name: base };
    else {
      const seedLetter = SEED_LETTERS[base];
      const hint = seedLetter ? ` (the seed's "${base}" is written "${seedLetter}")` : suggestion(base, [...PRIMITIVES, ...sharedByName.keys()]);
      problems.error(field.typePosition, `unknown type "${base}" for field "${field.name}"${hint}`);
      return undefined;
    }
    for (let depth = brackets.length / 2; depth > 0; depth--) type = { kind: 'array', items: type };
    return type;
  };
  const toFieldModel = (field: RawField): FieldModel | undefined => {
    const type = resolveType(field);
    if (!type) return undefined;
    const model: FieldModel = { name: field.name, type, optional: field.optional, nullable: field.nullable, position: field.position };
    if (field.description !== undefined) model.description = field.description;
    return model;
  };
  const toFieldModels = (fields: RawField[]): FieldModel[] => fields.flatMap((f) => toFieldModel(f) ?? []);

  // 3. Reuse: flatten `extends`, detecting dangling references and cycles.
  type Owner = { label: string; payload: RawPayload; eventType?: string };
  const resolved = new Map<RawPayload, FieldModel[]>();
  const inProgress: Owner[] = [];

  const lookup = (ref: RawReference, from: Owner): Owner | undefined => {
    const { ref: text } = ref;
    if (NAME_RULES.fragment.pattern.test(text)) {
      const fragment = fragmentsByName.get(text);
      if (fragment) return { label: text, payload: fragment };
      problems.error(ref.position, `unknown fragment "${text}" in extends${suggestion(text, fragmentsByName.keys())}`);
      return undefined;
    }
    let key = text;
    if (NAME_RULES.version.pattern.test(text)) {
      if (!from.eventType) {
        problems.error(ref.position, `"${text}" names a version, but a fragment has no versions; use <event type>@<version>`);
        return undefined;
      }
      key = `${from.eventType}@${text}`;
    } else if (!text.includes('@')) {
      problems.error(ref.position, `bad reference "${text}" in extends: use vN, a FRAGMENT name, or <event type>@<version>`);
      return undefined;
    }
    const event = eventsByKey.get(key);
    if (event) return { label: key, payload: event, eventType: event.type };
    problems.error(ref.position, `unknown event version "${key}" in extends${suggestion(key, eventsByKey.keys())}`);
    return undefined;
  };

  const flatten = (owner: Owner): FieldModel[] => {
    const done = resolved.get(owner.payload);
    if (done) return done;
    const fields: FieldModel[] = [];
    const origin = new Map<string, string>();
    inProgress.push(owner);
    for (const ref of owner.payload.extends) {
      const target = lookup(ref, owner);
      if (!target) continue;
      const cycleStart = inProgress.findIndex((o) => o.payload === target.payload);
      if (cycleStart >= 0) {
        const path = [...inProgress.slice(cycleStart).map((o) => o.label), target.label].join(' → ');
        problems.error(ref.position, `extends cycle: ${path}`);
        continue;
      }
      for (const field of flatten(target)) {
        if (origin.has(field.name)) continue; // reported where the second list is declared
        origin.set(field.name, target.label);
        fields.push(field);
      }
    }
    inProgress.pop();
    for (const raw of owner.payload.fields) {
      const from = origin.get(raw.name);
      if (from !== undefined) {
        problems.error(raw.position, `field "${raw.name}" is already defined${from === owner.label ? '' : ` by ${from}`}`);
        continue;
      }
      origin.set(raw.name, owner.label);
      const field = toFieldModel(raw);
      if (field) fields.push(field);
    }
    resolved.set(owner.payload, fields);
    return fields;
  };

  const events: EventVersionModel[] = [];
  for (const event of eventsByKey.values()) {
    const key = `${event.type}@${event.version}`;
    const model: EventVersionModel = {
      type: event.type,
      version: event.version,
      key,
      name: `${event.type}-${event.version}`,
      tsName: toTsName(event.type, event.version),
      fields: flatten({ label: key, payload: event, eventType: event.type }),
      open: event.open === undefined ? false : { seed: event.open },
      extends: event.extends.map((r) => r.ref),
      section: event.section,
      position: event.position,
    };
    if (event.description !== undefined) model.description = event.description;
    events.push(model);
  }
  const usedFragments = new Set<RawPayload>(resolved.keys());
  for (const fragment of fragmentsByName.values()) {
    if (!usedFragments.has(fragment)) {
      flatten({ label: fragment.name, payload: fragment }); // still check it
      problems.warning(fragment.position, `fragment "${fragment.name}" is extended by no event`);
    }
  }

  // 4. Shared types, and which events reach each one.
  const sharedTypes: ObjectTypeModel[] = [];
  for (const shared of sharedByName.values()) {
    const model: ObjectTypeModel = {
      name: shared.name,
      tsName: toTsName(shared.name),
      fields: toFieldModels(shared.fields),
      section: shared.section,
      position: shared.position,
      usedBy: [],
    };
    if (shared.description !== undefined) model.description = shared.description;
    sharedTypes.push(model);
  }
  for (const event of events) {
    for (const shared of reachableSharedTypes(sharedTypes, event.fields)) shared.usedBy.push(event.key);
  }
  for (const shared of sharedTypes) {
    if (shared.usedBy.length === 0) problems.warning(shared.position, `shared type "${shared.name}" is used by no event`);
  }

  // 5. Gaps: their event references must exist.
  const checkEventRef = (ref: RawReference | undefined): string | undefined => {
    if (!ref) return undefined;
    if (!eventsByKey.has(ref.ref)) problems.error(ref.position, `unknown event version "${ref.ref}"${suggestion(ref.ref, eventsByKey.keys())}`);
    return ref.ref;
  };
  const gaps: GapModel[] = [];
  for (const file of files) {
    for (const gap of file.gaps) {
      if (gap.kind === 'not_shown') {
        gaps.push({ ...gap });
        continue;
      }
      const after = checkEventRef(gap.after);
      const before = checkEventRef(gap.before);
      const bounds = { ...(after !== undefined && { after }), ...(before !== undefined && { before }) };
      if (gap.kind === 'events_not_shown') {
        gaps.push({ kind: gap.kind, ...bounds, seed: gap.seed, section: gap.section, position: gap.position });
      } else {
        checkFieldNames(gap.visibleFields);
        const visibleFields = toFieldModels(gap.visibleFields);
        gaps.push({ kind: gap.kind, ...bounds, seed: gap.seed, visibleFields, section: gap.section, position: gap.position });
      }
    }
  }

  return { sourceFiles: files.map((f) => f.file), events, sharedTypes, gaps };
}
