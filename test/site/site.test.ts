/**
 * The browsable catalog in a real browser: `npm run site` builds it, headless Chromium
 * (Debian's, installed by `npm run setup:tools`, driven by playwright-core) loads it from
 * `file://`. Search by type and by field name, keyboard included; the live validators give
 * the verdicts the package gives; every page's links resolve, every page has a title and a
 * main heading and logs no error; axe-core finds no serious or critical violation; the key
 * pages are photographed at phone and laptop widths, light and dark, into `.cache/site-screens/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { reachableSharedTypes } from '../../generator/common/shared-types.js';
import { decodeEvent } from '../../runtime/decode-event.js';
import { validateEvent } from '../../runtime/validate-event.js';
import { BUILDS, SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = join(ROOT, '.cache', 'site-test');
const SCREENS = join(ROOT, '.cache', 'site-screens');
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const model = loadCatalogFromDisk(join(ROOT, 'catalog')).model!;

let browser: Browser;
const url = (path: string) => pathToFileURL(join(SITE, path)).href;

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('chromium not found: run npm run setup:tools (apt-get install -y chromium), or set CHROMIUM_PATH');
  rmSync(SITE, { recursive: true, force: true });
  const built = spawnSync(process.execPath, ['generator/cli/run-compiled.mjs', 'generator/cli/site.ts', '--out', SITE], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run site failed:\n${built.stdout}${built.stderr}`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, BUILDS);
afterAll(async () => {
  await browser?.close();
});

/** A page that records every console error and uncaught exception. */
async function open(path: string, options: { width?: number; height?: number; dark?: boolean } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, colorScheme: options.dark ? 'dark' : 'light' });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url(path));
  return { page, errors };
}

/** The verdict a validator box shows, as the data it keeps for tools. */
async function verdictOf(page: Page, text: string): Promise<unknown> {
  await page.fill('textarea[aria-label="Message to validate"]', text);
  await page.click('.validator button');
  const status = page.locator('[role="status"]');
  await expect.poll(() => status.getAttribute('data-verdict')).not.toBeNull();
  return JSON.parse((await status.getAttribute('data-verdict'))!);
}

/** What the package says of the same text, in the box's terms. */
function packageVerdict(result: ReturnType<typeof validateEvent>): unknown {
  return result.ok ? { ok: true } : { ok: false, code: result.error.code, issues: result.error.issues.map(({ path, code, message }) => ({ path, code, message })) };
}

const htmlFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => relative(SITE, join(entry.parentPath, entry.name)).split('\\').join('/'));

describe('the site', () => {
  it('has a page per event version, shared type and REST operation, and stays small', () => {
    const pages = htmlFiles(SITE);
    expect(pages.filter((p) => p.startsWith('events/'))).toHaveLength(model.events.length);
    expect(pages.filter((p) => p.startsWith('types/'))).toHaveLength(model.sharedTypes.length);
    expect(pages.filter((p) => p.startsWith('api/'))).toHaveLength(model.api!.operations.length);
    const bytes = readdirSync(SITE, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
  });

  it('finds event versions by type name', async () => {
    const { page, errors } = await open('index.html');
    await page.fill('input[type="search"]', 'agreement.revoked');
    const links = page.locator('#search-results a');
    await expect.poll(() => links.allTextContents()).toEqual(expect.arrayContaining(model.events.filter((e) => e.type === 'agreement.revoked').map((e) => `${e.type} ${e.version}`)));
    expect(errors).toEqual([]);
    await page.close();
  }, SPAWNS);

  it('finds every event version that carries a field, by its name', async () => {
    const carrying = model.events.filter((e) => [...e.fields, ...reachableSharedTypes(model.sharedTypes, e.fields).flatMap((t) => t.fields)].some((f) => f.name === 'account_number'));
    const { page } = await open('index.html');
    await page.fill('input[type="search"]', 'account_number');
    const summary = page.locator('#search-results .summary');
    await expect.poll(() => summary.textContent()).toMatch(new RegExp(`^${carrying.length} matches`));
    const listed = await page.locator('#search-results a').allTextContents();
    const expected = new Set(carrying.map((e) => `${e.type} ${e.version}`));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((title) => !expected.has(title))).toEqual([]);
    await page.close();
  }, SPAWNS);

  it('is usable from the keyboard: type in the search box, Enter follows the first result', async () => {
    const { page, errors } = await open('index.html');
    await page.keyboard.press('Tab'); // the header's link
    await page.keyboard.press('Tab'); // the search box
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.type('account.created');
    await expect.poll(() => page.locator('#search-results a').count()).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/events\/account\.created\/v1\/index\.html$/), page.keyboard.press('Enter')]);
    expect(await page.locator('main h1').textContent()).toBe('account.created v1');
    expect(errors).toEqual([]);
    await page.close();
  }, SPAWNS);

  it('the home page’s validator gives decodeEvent’s verdict on a valid, an invalid and a malformed message', async () => {
    const { page, errors } = await open('index.html');
    const valid = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } });
    const invalid = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 7 } });
    const unknown = JSON.stringify({ type: 'acount.created', version: 'v1', payload: {} });
    for (const text of [valid, invalid, unknown, '{"type": "account.created",']) {
      expect(await verdictOf(page, text), text).toEqual(packageVerdict(decodeEvent(text)));
    }
    expect(await verdictOf(page, valid)).toEqual({ ok: true });
    expect(errors).toEqual([]);
    await page.close();
  }, SPAWNS);

  it('an event page’s validator (that event’s entry only) gives validateEvent’s verdict', async () => {
    const { page, errors } = await open('events/account.created/v1/index.html');
    const scripts = await page.locator('script[src]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('src')));
    expect(scripts).toContain('../../../assets/events/account.created/v1.js');
    expect(scripts.some((src) => src?.includes('catalog-validator'))).toBe(false);
    for (const message of [
      { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } },
      { type: 'account.created', version: 'v1', payload: { account_number: null, account_user_emails: 'x' } },
      { type: 'account.created', version: 'v2', payload: {} },
    ]) {
      const verdict = (await verdictOf(page, JSON.stringify(message))) as { ok: boolean; code?: string };
      const expected = packageVerdict(validateEvent(message)) as { ok: boolean; code?: string };
      // Another type or version: the entry says it expected its own, where the catalog says the version is unknown.
      if (message.version === 'v2') expect([verdict.ok, verdict.code]).toEqual([false, 'unknown_event_version']);
      else expect(verdict).toEqual(expected);
    }
    expect(await verdictOf(page, 'not json')).toMatchObject({ ok: false, code: 'malformed_message' });
    expect(errors).toEqual([]);
    await page.close();
  }, SPAWNS);

  it(
    'has no broken link, a title and a main heading on every page, and no console error anywhere',
    async () => {
      const pages = htmlFiles(SITE);
      const broken: string[] = [];
      for (const path of pages) {
        const html = readFileSync(join(SITE, path), 'utf8');
        for (const [, target] of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
          if (/^[a-z]+:/.test(target!)) continue;
          const [file, fragment] = target!.split('#');
          const resolved = file === '' ? join(SITE, path) : resolve(dirname(join(SITE, path)), file!);
          if (!existsSync(resolved)) broken.push(`${path} → ${target}`);
          else if (fragment && !readFileSync(resolved, 'utf8').includes(`id="${fragment}"`)) broken.push(`${path} → ${target} (no such anchor)`);
        }
      }
      expect(broken).toEqual([]);

      const problems: string[] = [];
      const queue = [...pages];
      const worker = async () => {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(String(error)));
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          errors.length = 0;
          // Classic scripts at the end of the body have run by DOMContentLoaded: their errors are caught.
          await page.goto(url(path), { waitUntil: 'domcontentloaded' });
          const title = await page.title();
          const headings = await page.locator('main h1').count();
          if (title.trim() === '') problems.push(`${path}: no title`);
          if (headings !== 1) problems.push(`${path}: ${headings} main headings`);
          for (const error of errors) problems.push(`${path}: ${error}`);
        }
        await page.close();
      };
      await Promise.all([worker(), worker(), worker()]);
      expect(problems).toEqual([]);
    },
    BUILDS,
  );

  it.each([
    ['home', 'index.html'],
    ['an event', 'events/agreement.revoked/v2/index.html'],
    ['a shared type', `types/${model.sharedTypes.find((t) => model.events.some((e) => reachableSharedTypes(model.sharedTypes, e.fields).includes(t)))!.name}/index.html`],
    ['an API operation', 'api/createNotes/index.html'],
  ])('axe-core finds no serious or critical violation on %s, light and dark; photographed at phone and laptop widths', async (name, path) => {
    mkdirSync(SCREENS, { recursive: true });
    for (const dark of [false, true]) {
      for (const [device, width, height] of [['phone', 390, 844], ['laptop', 1280, 800]] as const) {
        const { page, errors } = await open(path, { width, height, dark });
        await page.addScriptTag({ path: join(ROOT, 'node_modules/axe-core/axe.min.js') });
        // `preload: false`: axe would fetch the stylesheet again, which a `file://` page may not.
        type Axe = { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
        const violations = await page.evaluate(async () => (await (window as unknown as { axe: Axe }).axe.run(document, { preload: false })).violations);
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`), `${name} ${device}${dark ? ' dark' : ''}`).toEqual([]);
        const file = join(SCREENS, `${name.replace(/\W+/g, '-')}-${device}${dark ? '-dark' : ''}.png`);
        await page.screenshot({ path: file, fullPage: false });
        expect(statSync(file).size).toBeGreaterThan(1000);
        expect(errors).toEqual([]);
        await page.close();
      }
    }
  }, BUILDS);
});
