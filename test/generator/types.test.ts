/**
 * `types.ts`: the emitted TypeScript for the real catalog is complete, maps every field as the
 * spec says, is byte-identical across runs, and type-checks together with consumer code in one
 * in-memory strict program, where deliberately wrong consumer code must fail to compile.
 */
import { Project, ts, type InterfaceDeclaration, type SourceFile } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { emitTypes } from '../../generator/emit/typescript.js';
import type { CatalogModel, EventVersionModel, FieldModel, SharedTypeModel, TypeRef } from '../../generator/model.js';

function loadModel(): CatalogModel {
  const { model, errors } = loadCatalogFromDisk('catalog');
  if (!model) throw new Error(`catalog failed to load:\n${errors.map((e) => e.message).join('\n')}`);
  return model;
}

/** The type text each field must have, derived from the model independently of the emitter. */
function expectedType(type: TypeRef, tsNames: ReadonlyMap<string, string>): string {
  switch (type.kind) {
    case 'primitive':
      return { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', object: 'Record<string, unknown>' }[type.name];
    case 'format':
      return { date: 'IsoDate', datetime: 'IsoDateTime', decimal: 'DecimalString' }[type.name];
    case 'array':
      return `${expectedType(type.items, tsNames)}[]`;
    case 'named':
      return tsNames.get(type.name)!;
  }
}

const fieldType = (f: FieldModel, tsNames: ReadonlyMap<string, string>): string =>
  f.nullable ? `(${expectedType(f.type, tsNames)} | null)` : expectedType(f.type, tsNames);

/** Strict, in-memory: the options a careful consumer would use. */
function checkerProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  });
}

/** Consumer code that must type-check. */
const CONSUMER = `
import type {
  AccountCreatedV1Payload, BillingRebateAcceptedV1Payload, CatalogEvent, ConsentsConsentUpdatedV1Payload,
  EventKey, EventMap, EventOf, EventType, EventVersion, PayloadOf,
} from './types.js';

const created: EventOf<'account.created', 'v1'> = {
  type: 'account.created',
  version: 'v1',
  payload: { account_number: 'A-1', account_user_emails: [] },
};
const payload: PayloadOf<'account.created', 'v1'> = created.payload;
const samePayload: AccountCreatedV1Payload = payload;
const accountNumber: string = payload.account_number;
const emails: string[] = payload.account_user_emails;
const imported: boolean | undefined = payload.is_imported;
const withOptional: PayloadOf<'account.created', 'v1'> = { account_number: 'A-2', account_user_emails: ['a@b'], is_imported: true };
const byKey: EventMap['account.created@v1'] = created;
const key: EventKey = 'agreement.revoked@v2';
const eventType: EventType = 'agreement.revoked';
const versions: EventVersion<'agreement.revoked'>[] = ['v1', 'v2'];

/** Narrow on type, then on version; both switches are exhaustive. */
function describeEvent(e: CatalogEvent): string {
  switch (e.type) {
    case 'agreement.revoked':
      switch (e.version) {
        case 'v1': {
          const id: number = e.payload.agreement_id;
          return String(id);
        }
        case 'v2':
          return \`\${e.payload.agreement_id} \${e.payload.account_number}\`;
        default: {
          const unreachable: never = e;
          return unreachable;
        }
      }
    case 'account.created':
      return e.payload.account_user_emails.join(',');
    default:
      return e.type;
  }
}

/** Generic code over the lookup types: T and V are inferred from arguments, as a typed dispatcher does. */
declare function on<T extends EventType, V extends EventVersion<T>>(type: T, version: V, handle: (payload: PayloadOf<T, V>) => string): void;
on('agreement.revoked', 'v2', (p) => p.account_number);
on('contract-groups.memberships-changed', 'v-alpha1', (p) => JSON.stringify(p));
const revokedPayload: PayloadOf<'agreement.revoked', 'v2'> = { agreement_id: 7, account_number: 'A-3' };

/** Open payloads accept properties the catalog does not list. */
const rebate: BillingRebateAcceptedV1Payload = { rebate_id: 'R-1', amount: 12 };
const rebateEvent: EventOf<'billing.rebate.accepted', 'v1'> = { type: 'billing.rebate.accepted', version: 'v1', payload: { anything: [1, 2] } };
declare const signing: ConsentsConsentUpdatedV1Payload['signing_identity'];
declare const consentBody: ConsentsConsentUpdatedV1Payload['consent'];
const consent: ConsentsConsentUpdatedV1Payload = { signing_identity: signing, consent: consentBody, field_not_shown_in_the_seed: true };
const meterOrder: PayloadOf<'industry.aus.electricity.meter_exchange_service_order.requested', 'v1'> = {
  nmi: 'N-1',
  service_order_number: 'SO-1',
  remaining: 'fields',
};

/** \`object\` fields are Record<string, unknown>. */
declare const updated: EventOf<'account.updated', 'v1'>;
const changes: Record<string, unknown> = updated.payload.changes;
const updatedPayload: PayloadOf<'account.updated', 'v1'> = {
  account_number: 'A-4',
  account_user_emails: [],
  changes: { name: { old: 'a', new: 'b' }, anything: [1] },
};

export {
  created, samePayload, accountNumber, emails, imported, withOptional, byKey, key, eventType, versions, describeEvent,
  revokedPayload, rebate, rebateEvent, consent, meterOrder, changes, updatedPayload,
};
`;

/** Wrong consumer code, one line each, with the TypeScript error it must raise. */
const WRONG: [name: string, line: string, code: number][] = [
  ['wrong field type', `const wrongType: EventOf<'account.created', 'v1'>['payload'] = { account_number: 42, account_user_emails: [] };`, 2322],
  ['unknown version', `type UnknownVersion = EventOf<'agreement.revoked', 'v9'>;`, 2344],
  ['unknown event type', `type UnknownType = EventOf<'no.such.event', 'v1'>;`, 2344],
  ['missing required field', `const missing: PayloadOf<'agreement.revoked', 'v2'> = { agreement_id: 1 };`, 2741],
  ['unlisted property on a closed payload', `const extra: PayloadOf<'account.created', 'v1'> = { account_number: 'A', account_user_emails: [], surprise: 1 };`, 2353],
  ['null for an optional field', `const nulled: PayloadOf<'account.created', 'v1'> = { account_number: 'A', account_user_emails: [], is_imported: null };`, 2322],
  ['envelope with the wrong version', `const misfiled: EventOf<'agreement.revoked', 'v1'> = { type: 'agreement.revoked', version: 'v2', payload: { agreement_id: 1 } };`, 2322],
  ['unknown key', `const badKey: EventKey = 'account.created@v2';`, 2820],
  ['a handler reading a field its version lacks', `on('agreement.revoked', 'v1', (p) => p.account_number);`, 2339],
];

const WRONG_IMPORT = [
  "import type { EventKey, EventOf, EventType, EventVersion, PayloadOf } from './types.js';",
  'declare function on<T extends EventType, V extends EventVersion<T>>(type: T, version: V, handle: (payload: PayloadOf<T, V>) => unknown): void;',
  '',
].join('\n');

describe('emitTypes on the real catalog', () => {
  let model: CatalogModel;
  let contents: string;
  let secondRun: string;
  let project: Project;
  let types: SourceFile;
  let tsNames: Map<string, string>;

  beforeAll(async () => {
    model = loadModel();
    tsNames = new Map(model.sharedTypes.map((t) => [t.name, t.tsName]));
    for (const _ of [1, 2]) {
      const files = await emitTypes(model);
      expect(files.map((f) => f.path)).toEqual(['types.ts']);
      if (contents === undefined) contents = files[0]!.contents;
      else secondRun = files[0]!.contents;
    }

    project = checkerProject();
    types = project.createSourceFile('/src/types.ts', contents);
    project.createSourceFile('/src/consumer.ts', CONSUMER + WRONG.map(([name, line]) => `// @ts-expect-error ${name}\n${line}\n`).join(''));
    project.createSourceFile('/src/wrong.ts', WRONG_IMPORT + WRONG.map(([, line]) => line).join('\n') + '\n');
  }, SPAWNS);

  it('is byte-identical across runs, starts with the banner and ends with one newline', () => {
    expect(secondRun).toBe(contents);
    expect(contents.startsWith('// Generated by `npm run generate` from ')).toBe(true);
    expect(contents.endsWith('}\n') || contents.endsWith(';\n')).toBe(true);
    expect(contents).not.toMatch(/[ \t]+$/m);
  });

  it('type-checks with consumer code in one strict program, and every wrong line fails as it should', () => {
    const diagnostics = project.getPreEmitDiagnostics();
    const format = (d: (typeof diagnostics)[number]) =>
      `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()}: TS${d.getCode()} ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n')}`;
    const inWrong = diagnostics.filter((d) => d.getSourceFile()?.getBaseName() === 'wrong.ts');
    const elsewhere = diagnostics.filter((d) => d.getSourceFile()?.getBaseName() !== 'wrong.ts');

    // types.ts and consumer.ts: no diagnostics, so each @ts-expect-error met its error.
    expect(elsewhere.map(format)).toEqual([]);

    // wrong.ts, the same lines without the directives: each line fails, with the expected error.
    const got = inWrong.map((d) => [d.getLineNumber(), d.getCode()]);
    const want = WRONG.map(([, , code], i) => [i + 3, code]);
    expect(got, inWrong.map(format).join('\n')).toEqual(want);
  }, SPAWNS);

  it('declares exactly the catalog interfaces, the union and the lookup types, and nothing else', () => {
    const exported = [...types.getExportedDeclarations().keys()].sort();
    const want = [
      ...model.sharedTypes.map((t) => t.tsName),
      ...model.events.flatMap((e) => [`${e.tsName}Payload`, `${e.tsName}Event`]),
      'CatalogEvent', 'EventsByType', 'EventMap', 'EventType', 'EventVersion', 'EventOf', 'PayloadOf', 'EventKey',
    ].sort();
    expect(exported).toEqual(want);
    expect(types.getStatements()).toHaveLength(want.length);
  });

  const expectFields = (decl: InterfaceDeclaration, fields: readonly FieldModel[]) => {
    expect(decl.getProperties().map((p) => p.getName())).toEqual(fields.map((f) => f.name));
    for (const field of fields) {
      const property = decl.getPropertyOrThrow(field.name);
      expect(property.hasQuestionToken(), `${decl.getName()}.${field.name} optional`).toBe(field.optional);
      expect(property.getTypeNodeOrThrow().getText(), `${decl.getName()}.${field.name} type`).toBe(fieldType(field, tsNames));
    }
  };

  it('has an interface per shared type with its fields, closed, and TSDoc naming its users', () => {
    for (const shared of model.sharedTypes) {
      const decl = types.getInterfaceOrThrow(shared.tsName);
      expect(decl.isExported()).toBe(true);
      expectFields(decl, shared.fields);
      expect(decl.getIndexSignatures()).toHaveLength(0);
      const doc = decl.getJsDocs().map((d) => d.getInnerText()).join('\n');
      expect(doc).toContain(`\`${shared.name}\``);
      if (shared.usedBy.length === 0) expect(doc).toContain('Used by no event shown in the catalog.');
      for (const key of shared.usedBy) expect(doc).toContain(`\`${key}\``);
    }
  });

  it('has a payload interface per event: fields, optionality, index signature only when open, TSDoc', () => {
    for (const event of model.events) {
      const decl = types.getInterfaceOrThrow(`${event.tsName}Payload`);
      expect(decl.isExported()).toBe(true);
      expectFields(decl, event.fields);
      const index = decl.getIndexSignatures();
      expect(index.map((s) => `${s.getKeyType().getText()} -> ${s.getReturnTypeNodeOrThrow().getText()}`)).toEqual(event.open ? ['string -> unknown'] : []);
      const doc = decl.getJsDocs().map((d) => d.getInnerText()).join('\n');
      expect(doc).toContain(`\`${event.type}\` ${event.version}`);
      expect(doc).toContain(`\`${event.name}\``);
      for (const ref of event.extends) expect(doc).toContain(`\`${ref}\``);
      if (event.open) expect(doc).toContain(event.open.seed);
    }
  });

  it('has an envelope interface per event, the union of them all, and both lookup maps in catalog order', () => {
    for (const event of model.events) {
      const decl = types.getInterfaceOrThrow(`${event.tsName}Event`);
      expect(decl.getProperties().map((p) => `${p.getName()}: ${p.getTypeNodeOrThrow().getText()}`)).toEqual([
        `type: '${event.type}'`,
        `version: '${event.version}'`,
        `payload: ${event.tsName}Payload`,
      ]);
      expect(decl.getIndexSignatures()).toHaveLength(0);
    }
    const union = types.getTypeAliasOrThrow('CatalogEvent').getTypeNodeOrThrow();
    expect(union.getText().split('|').map((s) => s.trim()).filter(Boolean)).toEqual(model.events.map((e) => `${e.tsName}Event`));

    const eventMap = types.getInterfaceOrThrow('EventMap');
    expect(eventMap.getProperties().map((p) => `${p.getName()}: ${p.getTypeNodeOrThrow().getText()}`)).toEqual(
      model.events.map((e) => `'${e.key}': ${e.tsName}Event`),
    );

    const byType = new Map<string, EventVersionModel[]>();
    for (const e of model.events) byType.set(e.type, [...(byType.get(e.type) ?? []), e]);
    const eventsByType = types.getInterfaceOrThrow('EventsByType');
    expect(eventsByType.getProperties().map((p) => `${p.getName()}: ${p.getTypeNodeOrThrow().getText()}`)).toEqual(
      [...byType].map(([type, events]) => `'${type}': { ${events.map((e) => `${/^v\d+$/.test(e.version) ? e.version : `'${e.version}'`}: ${e.tsName}Event`).join('; ')} }`),
    );
  });
});

describe('emitTypes on a small catalog (cases the real one lacks)', () => {
  const at = { file: 'catalog/x.yaml', line: 1, col: 1 };
  const field = (name: string, type: TypeRef, extra: Partial<FieldModel> = {}): FieldModel => ({ name, type, optional: false, nullable: false, position: at, ...extra });
  const str: TypeRef = { kind: 'primitive', name: 'string' };
  const shared = (name: string, tsName: string, fields: FieldModel[], extra: Partial<SharedTypeModel> = {}): SharedTypeModel => ({
    name, tsName, fields, open: false, section: 's', position: at, usedBy: [], ...extra,
  });
  const event = (type: string, version: string, tsName: string, fields: FieldModel[], extra: Partial<EventVersionModel> = {}): EventVersionModel => ({
    type, version, key: `${type}@${version}`, name: `${type}-${version}`, tsName, fields, open: false, extends: [], section: 's', position: at, ...extra,
  });

  const model: CatalogModel = {
    sourceFiles: ['catalog/x.yaml'],
    sharedTypes: [
      shared('a-Inner', 'AInner', [field('code', str)], { description: 'An inner thing.', usedBy: ['thing.made@v1'] }),
      shared('a-Outer', 'AOuter', [field('inner', { kind: 'named', name: 'a-Inner' }), field('list', { kind: 'array', items: { kind: 'named', name: 'a-Inner' } })]),
      shared('a-Empty', 'AEmpty', []),
    ],
    events: [
      event('thing.made', 'v1', 'ThingMadeV1', [
        field('id', { kind: 'primitive', name: 'integer' }, { description: 'The thing\'s id. Never */ reused.' }),
        field('matrix', { kind: 'array', items: { kind: 'array', items: { kind: 'primitive', name: 'number' } } }),
        field('note', str, { nullable: true, optional: true }),
        field('extra', { kind: 'primitive', name: 'object' }, { nullable: true }),
        field('outer', { kind: 'named', name: 'a-Outer' }, { nullable: true }),
      ], { description: 'A thing was made.', extends: ['BASE'] }),
      event('thing.made', 'v2', 'ThingMadeV2', [], { open: { seed: 'fields: not shown' } }),
      event('thing.gone', 'v1', 'ThingGoneV1', []),
    ],
    fragments: [],
    gaps: [],
  };

  it('renders nullable, nested arrays, references, descriptions and empty interfaces as intended', async () => {
    const [file] = await emitTypes(model);
    const text = file!.contents;
    expect(text).toContain(
      [
        '/**',
        ' * Shared object type `a-Inner`.',
        ' *',
        ' * An inner thing.',
        ' *',
        ' * Used by:',
        ' * - `thing.made@v1`',
        ' */',
        'export interface AInner {',
        '  code: string;',
        '}',
      ].join('\n'),
    );
    expect(text).toContain('export interface AOuter {\n  inner: AInner;\n  list: AInner[];\n}');
    expect(text).toContain('export interface AEmpty {\n}');
    expect(text).toContain(
      [
        '/**',
        ' * Payload of `thing.made` v1 (catalog name `thing.made-v1`).',
        ' *',
        ' * A thing was made.',
        ' *',
        ' * Fields reused from: `BASE`.',
        ' */',
        'export interface ThingMadeV1Payload {',
        '  /**',
        "   * The thing's id. Never * / reused.",
        '   */',
        '  id: number;',
        '  matrix: number[][];',
        '  note?: (string | null);',
        '  extra: (Record<string, unknown> | null);',
        '  outer: (AOuter | null);',
        '}',
      ].join('\n'),
    );
    expect(text).toMatch(/fields: not shown.*\n \*\/\nexport interface ThingMadeV2Payload \{\n {2}\[k: string\]: unknown;\n\}/);
    expect(text).toContain("'thing.made': { v1: ThingMadeV1Event; v2: ThingMadeV2Event };");

    const project = checkerProject();
    project.createSourceFile('/src/types.ts', text);
    project.createSourceFile(
      '/src/use.ts',
      [
        "import type { PayloadOf, EventOf } from './types.js';",
        "export const a: PayloadOf<'thing.made', 'v1'> = { id: 1, matrix: [[1]], extra: null, outer: null };",
        "export const b: PayloadOf<'thing.made', 'v1'> = { id: 1, matrix: [], note: null, extra: { k: 1 }, outer: { inner: { code: 'c' }, list: [] } };",
        "export const c: EventOf<'thing.made', 'v2'>['payload'] = { whatever: true };",
        "export const d: PayloadOf<'thing.gone', 'v1'> = {};",
        '',
      ].join('\n'),
    );
    expect(project.getPreEmitDiagnostics().map((d) => `${d.getSourceFile()?.getBaseName()}:${d.getLineNumber()} TS${d.getCode()}`)).toEqual([]);
  }, SPAWNS);
});
