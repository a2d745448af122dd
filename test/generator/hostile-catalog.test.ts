/**
 * A catalog written to attack what is generated from it: file names, descriptions and the
 * seed's words that try to end a comment and start code, hide part of a page, or look like
 * an import. Generation either refuses the text with a positioned error or writes it where
 * it stays text.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';
import { bannerText, codeBanner } from '../../generator/common/banner.js';
import type { EmittedFile } from '../../generator/emit/emitted-file.js';
import { runtimeRequires } from '../../generator/emit/runtime-requires.js';
import { commentText, markdownText } from '../../generator/common/safe-text.js';
import { generate } from '../../generator/generate.js';
import { writeGenerated } from '../../generator/write/write-generated.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'hostile-catalog-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Appears in hostile text only; found as an identifier in generated code, it was injected. */
const MARKER = 'injectedByCatalogText';
const INJECTIONS = [
  `*/ ${MARKER}(); /*`,
  `\n${MARKER}();\n//`,
  `\u2028${MARKER}();\u2029`,
  `"); ${MARKER}(); ("`,
  `'); ${MARKER}(); ('`,
  `\`; ${MARKER}(); \``,
  `--> <!-- <script>${MARKER}()</script>`,
];
const hostile = (i: number) => JSON.stringify(`text ${INJECTIONS[i % INJECTIONS.length]} and require("fs") then require(`);

const HOSTILE_CATALOG = `section: ${hostile(0)}
shared_types:
  Thing:
    description: ${hostile(1)}
    fields:
      label:
        type: string
        description: ${hostile(2)}
events:
  account.created:
    v1:
      description: ${hostile(3)}
      fields:
        account_number:
          type: string
          description: ${hostile(4)}
        thing: Thing
  account.closed:
    v1:
      open: ${hostile(5)}
      fields:
        account_number: string
gaps:
  - kind: not_shown
    topic: ${hostile(6)}
    seed: ${hostile(0)}
  - kind: events_not_shown
    after: account.created@v1
    seed: ${hostile(1)}
`;

describe('catalog file names', () => {
  const injected = '01\nrequire("fs").writeFileSync("PWNED","x")<!--.yaml';

  it.each([
    ['a line break and code', injected],
    ['a Unicode line separator', 'catalog/a\u2028b.yaml'],
    ['a bidirectional override', 'catalog/a\u202Eb.yaml'],
    ['a space', 'catalog/my events.yaml'],
    ['a leading dot', 'catalog/.hidden.yaml'],
  ])('are refused, at the file, when they hold %s', (_, path) => {
    const loaded = loadCatalog([{ path, text: 'section: S\n' }]);
    expect(loaded.model).toBeUndefined();
    expect(loaded.errors).toHaveLength(1);
    const [error] = loaded.errors;
    expect(error!.message).toMatch(/^catalog file name ".*" is not allowed: use letters/);
    expect(error!.position).toMatchObject({ line: 1, col: 1 });
    // The message itself shows the name escaped: one line, nothing a terminal would act on.
    expect(formatProblem(error!)).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029]/u);
  });

  it.each([['catalog/02-account-events.yaml'], ['../x/Shared_Types.v2.yaml'], ['a.yaml']])('are accepted when plain: %s', (path) => {
    expect(loadCatalog([{ path, text: 'section: S\n' }]).errors).toEqual([]);
  });

  it('a banner is one line whatever the file names hold', () => {
    const names = ['a\nb.yaml', 'c\rd\u2028e\u2029f\u0085.yaml'];
    expect(codeBanner(names).split(/\r\n|[\n\r\u2028\u2029\u0085]/)).toHaveLength(2);
    expect(bannerText(names)).toContain('a\\u{A}b.yaml');
  });

  it('npm run generate refuses such a file and writes nothing', { timeout: 60_000 }, () => {
    const catalog = join(work, 'named');
    mkdirSync(catalog, { recursive: true });
    writeFileSync(join(catalog, injected), 'section: S\nevents:\n  account.created:\n    v1:\n      fields:\n        account_number: string\n');
    const out = join(work, 'named-out');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli/generate.ts'), '--catalog', catalog, '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toContain('catalog file name "01\\u{A}require(');
    expect(run.status).toBe(1);
    expect(existsSync(out)).toBe(false);
  });
});

describe('free text of a hostile catalog', () => {
  let result: { files: EmittedFile[] } = { files: [] };
  const out = join(work, 'free-text');
  const file = (path: string) => result.files.find((f) => f.path === path)!.contents;

  it('generates (a description may say "require(")', async () => {
    const generated = await generate([{ path: 'catalog/01-hostile.yaml', text: HOSTILE_CATALOG }]);
    if (!generated.ok) throw new Error(generated.errors.map(formatProblem).join('\n'));
    result = generated;
    await writeGenerated(out, result.files);
    expect(result.files.map((f) => f.path)).toContain('validators/account.created/v1.cjs');
  }, SPAWNS);

  it('never becomes code: no generated JavaScript or TypeScript file has the marker as an identifier', () => {
    const code = result.files.filter((f) => /\.(c?js|ts|d\.cts)$/.test(f.path));
    expect(code.length).toBeGreaterThan(5);
    for (const { path, contents } of code) {
      const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, contents);
      const identifiers: string[] = [];
      for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
        if (token === ts.SyntaxKind.Identifier) identifiers.push(scanner.getTokenText());
      }
      expect(identifiers, path).not.toContain(MARKER);
    }
  });

  it('the validator modules load, run nothing, and validate', () => {
    const load = createRequire(import.meta.url);
    const module = load(join(out, 'validators/account.created/v1.cjs')) as { accepts: { tolerant: (data: unknown) => boolean } };
    load(join(out, 'validators/account.closed/v1.cjs'));
    expect((globalThis as Record<string, unknown>)[MARKER]).toBeUndefined();
    expect(module.accepts.tolerant({ account_number: 'A-1', thing: { label: 'x' } })).toBe(true);
    expect(module.accepts.tolerant({ account_number: 1, thing: { label: 'x' } })).toBe(false);
  }, SPAWNS);

  it('Markdown shows the text but holds no HTML from it (no tag, no comment hiding the page)', () => {
    for (const page of result.files.filter((f) => f.path.endsWith('.md'))) {
      const body = page.contents.slice(page.contents.indexOf('\n') + 1); // after the banner comment
      expect(body, page.path).not.toMatch(/<script|<!--|\u2028/);
      expect(body.replace(/<a id="[^"]+"><\/a>/g, ''), page.path).not.toContain('<');
    }
    expect(file('docs/README.md')).toContain('&lt;script>');
  });

  it('asyncapi.yaml parses, and its Markdown descriptions hold no HTML from the catalog', () => {
    const text = file('asyncapi.yaml');
    const doc = parseDocument(text);
    expect(doc.errors).toEqual([]);
    const descriptions: string[] = [];
    JSON.stringify(doc.toJS(), (key, value: unknown) => {
      if (key === 'description' && typeof value === 'string') descriptions.push(value);
      return value;
    });
    expect(descriptions.some((d) => d.includes('&lt;script>'))).toBe(true);
    for (const description of descriptions) expect(description).not.toMatch(/<script|<!--/);
  });
});

describe('text helpers', () => {
  it.each([
    ['plain', 'catalog/a.yaml', 'catalog/a.yaml'],
    ['a line feed', 'a\nb', 'a\\u{A}b'],
    ['JavaScript line terminators', 'a\u2028b\u2029c\rd', 'a\\u{2028}b\\u{2029}c\\u{D}d'],
    ['a bidirectional override', 'a\u202Eb', 'a\\u{202E}b'],
  ])('commentText keeps a comment on one line: %s', (_, given, want) => {
    expect(commentText(given)).toBe(want);
  });

  it.each([
    ['Markdown is kept', 'a `code` and **bold**\n\n- item', 'a `code` and **bold**\n\n- item'],
    ['HTML is not', '<!-- x --> <b>&amp;', '&lt;!-- x --> &lt;b>&amp;amp;'],
    ['control characters are escaped', 'a\u001B[31mb\tc', 'a\\u{1B}[31mb\tc'],
    ['a code span is left as written (CommonMark reads no HTML there)', 'send `Authorization: Token <ACCESS_TOKEN>` & <b>', 'send `Authorization: Token <ACCESS_TOKEN>` &amp; &lt;b>'],
    ['a longer fence closes only on a run of its own length', '``a ` <b> `` and ``<c>`', '``a ` <b> `` and ``&lt;c>`'],
    ['a backtick nothing closes is plain text', 'a ` <b>', 'a ` &lt;b>'],
  ])('markdownText: %s', (_, given, want) => {
    expect(markdownText(given)).toBe(want);
  });

  it.each([
    ['an ajv helper import', 'const equal = require("ajv/dist/runtime/equal").default;', ['"ajv/dist/runtime/equal"']],
    ['with a space', 'const q = require ("ajv/dist/runtime/quote");', ['"ajv/dist/runtime/quote"']],
    ['the word in a string', 'const schema1 = {"description":"see require(\\"fs\\") and require("};', []],
    ['the word in a comment', '// require("fs")\n/* require("fs") */ const a = 1;', []],
    ['a method of that name', 'loader.require("x");', []],
  ])('runtimeRequires finds real calls only: %s', (_, code, want) => {
    expect(runtimeRequires(code)).toEqual(want);
  });
});
