/**
 * Golden files: each fixture catalog under `fixtures/<name>/catalog` must generate exactly
 * the files under `fixtures/<name>/golden`. Update them on purpose with
 * `npm run test:update`, then review the diff like code.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { readCatalogDir } from '../../generator/catalog/load-catalog.js';
import { generate } from '../../generator/generate.js';
import { compareGenerated, listFiles, writeGenerated } from '../../generator/write/write-generated.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const fixtures = readdirSync(FIXTURES).sort();

async function generateFixture(name: string) {
  const result = await generate(readCatalogDir(join(FIXTURES, name, 'catalog'), join(FIXTURES, name)));
  if (!result.ok) throw new Error(`fixture ${name} failed to load:\n${result.errors.map((e) => e.message).join('\n')}`);
  return result.files;
}

describe.each(fixtures)('golden output of fixture "%s"', (name) => {
  const goldenDir = join(FIXTURES, name, 'golden');

  it('matches the golden files exactly (run `npm run test:update` to accept a change)', async () => {
    const files = await generateFixture(name);
    if (UPDATE) writeGenerated(goldenDir, files);
    const { stale, missing, extra, diff } = compareGenerated(goldenDir, files, `fixtures/${name}/golden`);
    expect({ stale, missing, extra }, diff).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('is byte-identical when generated twice', async () => {
    const [first, second] = [await generateFixture(name), await generateFixture(name)];
    expect(second).toEqual(first);
  });
});

it('type-checks every golden TypeScript file, with the runtime that imports it, in one program', () => {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, allowJs: false },
  });
  // The hand-written runtime compiles against each fixture's generated types too.
  const runtimeDir = fileURLToPath(new URL('../../runtime/', import.meta.url));
  const runtimeFiles = readdirSync(runtimeDir).filter((f) => f.endsWith('.ts'));
  let count = 0;
  for (const name of fixtures) {
    const root = `/${name}`;
    project.createSourceFile(`${root}/package.json`, '{ "type": "module" }');
    for (const file of runtimeFiles) project.createSourceFile(`${root}/runtime/${file}`, readFileSync(join(runtimeDir, file), 'utf8'));
    for (const path of listFiles(join(FIXTURES, name, 'golden'))) {
      if (!/\.(ts|d\.cts)$/.test(path)) continue;
      project.createSourceFile(`${root}/generated/${path}`, readFileSync(join(FIXTURES, name, 'golden', path), 'utf8'));
      count++;
    }
  }
  expect(count).toBeGreaterThan(fixtures.length);
  const diagnostics = project.getPreEmitDiagnostics().map((d) => {
    const text = d.getMessageText();
    return `${d.getSourceFile()?.getFilePath()}:${d.getLineNumber()}: ${typeof text === 'string' ? text : text.getMessageText()}`;
  });
  expect(diagnostics).toEqual([]);
}, 60_000);
