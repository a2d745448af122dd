/**
 * The REST API's generated validators (`generated/api/validators.cjs`): self-contained code,
 * the same verdicts as ajv compiling the published schemas at run time, and the seed's rules
 * (strict requests, stated formats, "at least one of", nullable, tolerant responses); and the
 * map the run time finds them in (`generated/api/operation-validators.ts`), held to the
 * operations' types by the compiler.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { apiSchemas } from '../../generator/emit/api-json-schema.js';
import { apiValidatorAjvOptions } from '../../generator/emit/api-validators.js';
import { runtimeRequires } from '../../generator/emit/runtime-requires.js';
import type { CompiledValidator } from '../../runtime/contract/compiled-validator.js';
import { apiValidators } from '../../generated/api/operation-validators.js';
import * as exported from '../../generated/api/validators.cjs';
import { apiFormatOfPattern } from '../../generated/api/formats.js';
import { validateRequest, validateResponse } from '../../runtime/rest/validate.js';

const MODULE = new URL('../../generated/api/validators.cjs', import.meta.url);
const validators = createRequire(import.meta.url)(MODULE.pathname) as Record<string, CompiledValidator>;
const schemas = apiSchemas(loadCatalogFromDisk('catalog').model!.api!);

const NOTES = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called the customer.', created_at: '2024-01-02T03:04:05Z' }] };

/** Bodies that exercise each rule, valid and not, checked against the named validator. */
const SAMPLES: [exportName: string, body: unknown, valid: boolean][] = [
  ['createNotes_request', NOTES, true],
  ['createNotes_request', { ...NOTES, extra: 1 }, false],
  ['createNotes_request', { ...NOTES, notes: [{ body: 'x', colour: 'red' }] }, false],
  ['createNotes_request', { ...NOTES, notes: [{ created_at: '2024-01-02T03:04:05Z' }] }, false],
  ['createNotes_request', { ...NOTES, notes: [{ document_paths: [{ document_path: 'a/b.pdf' }] }] }, true],
  ['createNotes_request', { ...NOTES, notes: [{ body: 'x', created_at: '2024-01-02T03:04:05+01:00' }] }, false],
  ['createNotes_request', { ...NOTES, notes: [{ body: 'x', created_at: '2024-01-02 03:04:05Z' }] }, false],
  ['createHistoricalStatements_request', statements('2024-13-01'), false],
  ['createHistoricalStatements_request', statements('2024-02-30'), false],
  ['createHistoricalStatements_request', statements('2024-02-29'), true],
  ['validateAccount_request', { import_supplier: 'SUP', external_account_number: 'A-1', customers: [{ landline: '0123', name: 'x' }], anything: true }, true],
  ['validateAccount_request', { import_supplier: 'SUP' }, false],
  ['createTransactions_request', { import_supplier: 'S', external_account_number: 'A', transactions: [{ amount: 12.5, type: 'SOMETHING_NEW' }] }, true],
  ['createTransactions_request', { import_supplier: 'S', external_account_number: 'A', transactions: [{ amount: '12.50' }] }, false],
  ['createTransactions_query', { check_previously_added: 'false', force_add_to_current_statement: true }, true],
  ['createTransactions_query', { check_previously_added: 'no' }, false],
  ['createTransactions_response_201', { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: '12.50', status: 'TRANSACTION_IMPORT_SUCCESS' } }], later: 'field' }, true],
  ['createTransactions_response_201', { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: 12.5 } }] }, false],
  ['createTransactions_response_201', { results: [{ status: 'ADDED', transaction_data: {} }] }, false],
  ['listPendingAccountImportProcesses_response_200', [{ external_account_number: 'A', platform_account_number: null, account_created_at: null }], true],
  ['listAllAccountImportProcesses_response_200', [{ external_account_number: 'A', platform_account_number: 'P-1', account_created_at: '2024-01-02T03:04:05Z', extra: 1 }], true],
  ['listAllAccountImportProcesses_response_200', [{ external_account_number: 'A', platform_account_number: 'P-1', account_created_at: '2024-01-02' }], false],
  ['getAccountTransferStatus_response_200', { status: 'UNKNOWN', platform_account_number: '' }, true],
  ['getAccountTransferStatus_params', { import_supplier_code: 'S', external_account_number: 'A' }, true],
  ['getAccountTransferStatus_params', { import_supplier_code: 'S' }, false],
  ['processAccount_response_400', 'Account would successfully import. Rolled back due to Dry Run.', true],
  ['processAccount_response_400', 'Something else', false],
  ['processAccount_response_400', { detail: 'd', code: 'c', errors: [], external_account_number: 'A', platform_account_number: 'P' }, true],
  ['processAccount_response_429', { anything: 'goes' }, true],
  ['createHistoricalStatements_response_200', statements('2024-01-31'), true],
  ['createHistoricalStatements_response_201', statements('2024-01-31'), true],
];

function statements(date: string) {
  return { import_supplier: 'S', external_account_number: 'A', statements: [{ bill_period_from_date: date, bill_period_to_date: '2024-03-31', statement_id: 's1', issued_date: '2024-04-01', number: 'n1', gross_amount: 10 }] };
}

describe('generated/api/validators.cjs', () => {
  it('has no imports: no require of ajv, ajv-formats or anything else', () => {
    const code = readFileSync(MODULE, 'utf8');
    expect(runtimeRequires(code)).toEqual([]);
    expect(code).not.toMatch(/ajv-formats|ajv\/dist/);
  });

  it('exports one validator per schema', () => {
    expect(Object.keys(validators).sort()).toEqual(schemas.map((s) => s.exportName).sort());
  });

  it.each(SAMPLES.map(([name, body, valid], i) => [i, name, valid, body] as const))('sample %i: %s says %s', (_, name, valid, body) => {
    expect(validators[name]!(body), JSON.stringify(validators[name]!.errors)).toBe(valid);
  });

  it('agrees with ajv compiling the published schemas at run time, verdicts and errors', () => {
    const ajv = new Ajv2020(apiValidatorAjvOptions());
    for (const schema of schemas) ajv.addSchema(schema.schema);
    for (const [name, body] of SAMPLES) {
      const schema = schemas.find((s) => s.exportName === name)!;
      const compiled = ajv.getSchema(schema.id)!;
      const generated = validators[name]!;
      expect(generated(body), name).toBe(compiled(body));
      expect(generated.errors ?? null, name).toEqual(compiled.errors ?? null);
    }
  });

  it('reports an undocumented request field at its own place', () => {
    const validate = validators.createNotes_request!;
    expect(validate({ ...NOTES, notes: [{ body: 'x', colour: 'red' }] })).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/notes/0', keyword: 'additionalProperties', params: { additionalProperty: 'colour' } }));
  });
});

describe('generated/api/operation-validators.ts', () => {
  it('holds each validator of validators.cjs once, under the operation, part and status of its schema', () => {
    const placed = new Map<CompiledValidator, string>();
    for (const [operationId, parts] of Object.entries(apiValidators)) {
      for (const part of ['params', 'query', 'request'] as const) if (parts[part]) placed.set(parts[part], `${operationId} ${part}`);
      for (const [status, validate] of Object.entries(parts.responses)) placed.set(validate as CompiledValidator, `${operationId} response-${status}`);
    }
    expect(placed.size).toBe(schemas.length);
    // The module as the map imports it (the same instance), each export by the name its schema gives it.
    const byName = exported as unknown as Readonly<Record<string, CompiledValidator>>;
    for (const schema of schemas) expect(placed.get(byName[schema.exportName]!), schema.exportName).toBe(`${schema.operationId} ${schema.part}`);
  });

  /** The compiler's complaints about the generated API module with `edit` made to the map. */
  function typeErrors(edit: (text: string) => string): string[] {
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext } });
    project.createSourceFile('/p/package.json', '{ "type": "module" }');
    const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    for (const path of ['runtime/contract/compiled-validator.ts', 'generated/api/types.ts', 'generated/api/validators.d.cts']) project.createSourceFile(`/p/${path}`, read(path));
    project.createSourceFile('/p/generated/api/operation-validators.ts', edit(read('generated/api/operation-validators.ts')));
    return project.getPreEmitDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n'));
  }
  /** An edit that must find what it replaces. */
  const replacing = (pattern: RegExp, by: string) => (text: string): string => {
    expect(text).toMatch(pattern);
    return text.replace(pattern, by);
  };
  /** An in-memory type-check of four modules: a second or two on a slow core. */
  const TYPE_CHECK = 60_000;

  it('type-checks against the operations the types name', () => {
    expect(typeErrors((text) => text)).toEqual([]);
  }, TYPE_CHECK);

  it('does not type-check when a status the types name has no validator, or a part the operation does not take has one', () => {
    const without429 = typeErrors(replacing(/\n\s*429: validators\.processAccount_response_429,/, ''));
    expect(without429.join('\n')).toMatch(/Property '429' is missing/);
    const paramsOfValidate = typeErrors(replacing(/(validateAccount: \{\n\s*)params: undefined,/, '$1params: validators.validateAccount_request,'));
    expect(paramsOfValidate.join('\n')).toMatch(/not assignable to type 'undefined'/);
  }, TYPE_CHECK);
});

describe('generated/api/formats.ts', () => {
  it('names the format of every pattern the schemas hold, and holds no other pattern', () => {
    const found = new Map<string, unknown>();
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (typeof node === 'object' && node !== null) {
        const { pattern, format } = node as { pattern?: unknown; format?: unknown };
        if (typeof pattern === 'string') found.set(pattern, format);
        Object.values(node).forEach(visit);
      }
    };
    schemas.forEach((s) => visit(s.schema));
    expect(Object.keys(apiFormatOfPattern).sort()).toEqual([...found.keys()].sort());
    // The schemas write `format` for readers where JSON Schema has one (a decimal has none): the table agrees with them.
    for (const [pattern, format] of found) expect({ pattern, format: apiFormatOfPattern[pattern] }).toEqual({ pattern, format: format === 'date-time' ? 'datetime' : (format ?? 'decimal') });
  });

  it('is how a rejected value is told the format it must have, for each format', () => {
    const issueAt = (result: ReturnType<typeof validateRequest>, path: string) => (result.ok ? undefined : result.error.issues.find((i) => i.path === path));
    expect(issueAt(validateRequest('createHistoricalStatements', { body: statements('2023-02-29') }), '/body/statements/0/bill_period_from_date')).toEqual({ path: '/body/statements/0/bill_period_from_date', code: 'format', message: 'must be a date YYYY-MM-DD' });
    expect(issueAt(validateRequest('createNotes', { body: { ...NOTES, notes: [{ body: 'x', created_at: '2024-01-02' }] } }), '/body/notes/0/created_at')).toEqual({ path: '/body/notes/0/created_at', code: 'format', message: 'must be a datetime YYYY-MM-DDTHH:MM:SSZ' });
    const rejected = { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: '12.5' } }] };
    expect(issueAt(validateResponse('createTransactions', 201, rejected), '/body/results/0/transaction_data/amount')).toEqual({ path: '/body/results/0/transaction_data/amount', code: 'format', message: 'must be a decimal with two places, as text' });
  });
});
