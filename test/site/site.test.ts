/**
 * The browsable catalog in a real browser: `npm run site` builds it from the package's
 * published files and a copy of the built package, a static server on a loopback port serves
 * it, and Debian's Chromium (driven by playwright-core) uses it at a phone's 390×844 and a
 * laptop's 1366×900, light and dark. Screenshots of every page kind go to
 * `.cache/site-screens/`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILDS, SPAWNS } from '../support/timeouts.js';
import { axeViolations, LAPTOP, launchBrowser, openPage, overflowOf, PHONE } from './browser.js';
import { copyBuiltPackage } from './package-copy.js';
import { serveFolder, type StaticServer } from './static-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORK = join(ROOT, '.cache', 'site-test');
const SITE = join(WORK, 'site');
const SCREENS = join(ROOT, '.cache', 'site-screens');

interface Field {
  name: string;
  type: string;
  optional: boolean;
}
interface Manifest {
  events: { type: string; version: string; fields: Field[] }[];
  sharedTypes: { name: string; fields: Field[] }[];
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'generated', 'manifest.json'), 'utf8')) as Manifest;
/** The published page model, as far as these tests read it. */
const pages = JSON.parse(readFileSync(join(ROOT, 'generated', 'docs', 'pages.json'), 'utf8')) as {
  words: { severity: Record<string, string>; unchanged: string };
  diffs: Record<string, { from: string; to: string; severity?: string; impact: string }[]>;
  api: { operations: { operationId: string; responses: { status: number; retry?: { retried: boolean; seed: string } }[] }[] };
};

type Verdict = { ok: true } | { ok: false; error: { code: string; issues: { path: string; code: string; message: string }[] } };
interface PackageRoot {
  decodeEvent(text: string, options?: { mode: 'tolerant' | 'strict' }): Verdict;
  validateEvent(message: unknown, options?: { mode: 'tolerant' | 'strict' }): Verdict;
}
interface PackageRest {
  validateRequest(operationId: string, parts: { body?: unknown; params?: Record<string, string> }): Verdict;
}

let browser: Browser;
let server: StaticServer;
let pkg: PackageRoot;
let rest: PackageRest;
let buildOutput = '';
const at = (path: string): string => new URL(path, server.url).href;

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  rmSync(SCREENS, { recursive: true, force: true });
  const dist = copyBuiltPackage(ROOT, join(WORK, 'dist'));
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'site-builder/cli.ts', '--out', SITE, '--dist', dist], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run site failed:\n${built.stdout}${built.stderr}`);
  buildOutput = built.stdout;
  const load = createRequire(join(dist, 'index.cjs'));
  pkg = load(join(dist, 'index.cjs')) as PackageRoot;
  rest = load(join(dist, 'rest.cjs')) as PackageRest;
  server = await serveFolder(SITE);
  browser = await launchBrowser();
}, BUILDS);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const htmlPages = (): string[] =>
  readdirSync(SITE, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => relative(SITE, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();

/** The verdict a validator box shows, once it has checked the text now in it. */
async function shownVerdict(page: Page): Promise<unknown> {
  const status = page.locator('.validator [role="status"]');
  await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
  return JSON.parse((await status.getAttribute('data-verdict'))!);
}

/** The package's verdict, in the terms a box keeps. */
const asShown = (verdict: Verdict): unknown => (verdict.ok ? { ok: true } : { ok: false, code: verdict.error.code, issues: verdict.error.issues.map(({ path, code, message }) => ({ path, code, message })) });

/** Event versions carrying a field of this name at any depth, found by walking the manifest. */
function eventsCarrying(name: string): string[] {
  const shared = new Map(manifest.sharedTypes.map((t) => [t.name, t.fields]));
  const carries = (fields: readonly Field[], inside: readonly string[]): boolean =>
    fields.some((f) => {
      const base = f.type.replace(/(\[\])+$/, '');
      return f.name === name || (shared.has(base) && !inside.includes(base) && carries(shared.get(base)!, [...inside, base]));
    });
  return manifest.events.filter((e) => carries(e.fields, [])).map((e) => `${e.type} ${e.version}`);
}

/** The text of each element, spaces collapsed (a link's hidden words included, as a screen reader reads them). */
const textsOf = async (locator: ReturnType<Page['locator']>): Promise<string[]> => (await locator.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

async function search(page: Page, query: string): Promise<void> {
  await page.fill('input[type="search"]', query);
  await expect.poll(() => page.locator('#search-results').getAttribute('data-query')).toBe(query);
}

describe('the built site', () => {
  it('has the home page, the validator page and a page per event version, shared type and REST operation, under 15 MB', () => {
    expect(buildOutput).toMatch(/^✔ wrote .*: \d+ pages/);
    const pages = htmlPages();
    expect(pages).toContain('index.html');
    expect(pages).toContain('validator/index.html');
    expect(pages.filter((p) => p.startsWith('events/'))).toEqual(manifest.events.map((e) => `events/${e.type}/${e.version}/index.html`).sort());
    expect(pages.filter((p) => p.startsWith('types/'))).toHaveLength(manifest.sharedTypes.length);
    expect(pages.filter((p) => p.startsWith('api/'))).toHaveLength(11);
    const bytes = readdirSync(SITE, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
    expect(bytes).toBeLessThan(15 * 1024 * 1024);
  });

  it('has no broken link or anchor on any page', () => {
    const broken: string[] = [];
    const texts = new Map<string, string | undefined>();
    const textOf = (file: string): string | undefined => {
      if (!texts.has(file)) {
        try {
          texts.set(file, readFileSync(file, 'utf8'));
        } catch {
          texts.set(file, undefined);
        }
      }
      return texts.get(file);
    };
    for (const path of htmlPages()) {
      const html = readFileSync(join(SITE, path), 'utf8');
      for (const [, target] of html.matchAll(/(?:href|src|data-validator|data-requires)="([^"]+)"/g)) {
        for (const one of target!.split(' ')) {
          if (/^[a-z]+:/.test(one)) continue;
          const [file, fragment] = one.split('#');
          const resolved = file === '' ? join(SITE, path) : resolve(dirname(join(SITE, path)), file!);
          const text = textOf(resolved);
          if (text === undefined) broken.push(`${path} → ${one}`);
          else if (fragment && !text.includes(`id="${fragment}"`)) broken.push(`${path} → ${one} (no such anchor)`);
        }
      }
    }
    expect(broken).toEqual([]);
  }, SPAWNS);

  it(
    'every page: a title naming it, one main heading, no console error, and no wider than a 390 px phone',
    async () => {
      const queue = htmlPages();
      const problems: string[] = [];
      const titles = new Map<string, string>();
      const worker = async (): Promise<void> => {
        const page = await browser.newPage({ viewport: { ...PHONE } });
        const errors: string[] = [];
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        page.on('pageerror', (error) => errors.push(String(error)));
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          errors.length = 0;
          await page.goto(at(path), { waitUntil: 'load' });
          const title = await page.title();
          if (titles.has(title)) problems.push(`${path}: the same title as ${titles.get(title)}: ${title}`);
          titles.set(title, path);
          const h1 = page.locator('main h1');
          if ((await h1.count()) !== 1) problems.push(`${path}: ${await h1.count()} main headings`);
          else if (path !== 'index.html' && !title.startsWith((await h1.innerText()).replace(/\s+(latest)$/, '').replace(/\s+/g, ' ').trim().replace(/^(POST|GET) /, ''))) {
            problems.push(`${path}: title "${title}" does not name its heading "${await h1.innerText()}"`);
          }
          const overflow = await overflowOf(page);
          if (overflow > 0) problems.push(`${path}: ${overflow} px wider than the phone`);
          for (const error of errors) problems.push(`${path}: ${error}`);
        }
        await page.close();
      };
      await Promise.all([worker(), worker(), worker()]);
      expect(problems).toEqual([]);
    },
    BUILDS,
  );
});

describe('fits a phone and a laptop, light and dark, with no accessibility violation', () => {
  const kinds: [name: string, path: string, act?: (page: Page) => Promise<void>][] = [
    ['home', 'index.html'],
    [
      'home, searched',
      'index.html',
      async (page) => {
        await search(page, 'account');
        await page.locator('#search-results .summary').scrollIntoViewIfNeeded();
      },
    ],
    ['an event with nested fields', 'events/ink.live-chat.initiated/v1/index.html'],
    [
      'an event with versions, compared',
      `events/${manifest.events.find((e, _, all) => all.filter((o) => o.type === e.type).length >= 3)!.type}/v2/index.html`,
      (page) => page.locator('#compare').scrollIntoViewIfNeeded(),
    ],
    ['an event with a long name', `events/${[...manifest.events].sort((a, b) => b.type.length - a.type.length)[0]!.type}/${[...manifest.events].sort((a, b) => b.type.length - a.type.length)[0]!.version}/index.html`],
    ['a shared type', 'types/ink-_messages-InkConversation/index.html'],
    ['a REST operation', 'api/createNotes/index.html'],
    ['a REST operation with path parameters', 'api/getAccountTransferStatus/index.html'],
    [
      'the validator, with issues',
      'validator/index.html',
      async (page) => {
        await page.fill('textarea', JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 7, unknown_field_with_a_long_name_that_could_widen_the_page: 'x'.repeat(300) } }, null, 2));
        await shownVerdict(page);
        await page.locator('.verdict').scrollIntoViewIfNeeded();
      },
    ],
  ];
  it.each(kinds)(
    '%s',
    async (name, path, act) => {
      mkdirSync(SCREENS, { recursive: true });
      for (const [device, size] of [['phone', PHONE], ['laptop', LAPTOP]] as const) {
        for (const dark of [false, true]) {
          const { page, errors } = await openPage(browser, at(path), { size, dark });
          await act?.(page);
          const where = `${name}, ${device}${dark ? ', dark' : ''}`;
          expect(await overflowOf(page), where).toBe(0);
          expect(await axeViolations(page), where).toEqual([]);
          await page.screenshot({ path: join(SCREENS, `${name.replace(/\W+/g, '-')}-${device}${dark ? '-dark' : ''}.png`) });
          expect(errors, where).toEqual([]);
          await page.close();
        }
      }
    },
    BUILDS,
  );

  it('the laptop home page shows every column of the REST table; the phone stacks its rows', async () => {
    const { page } = await openPage(browser, at('index.html'), { size: LAPTOP });
    const table = page.locator('#rest-api table');
    for (const head of await table.locator('th').all()) {
      await expect.poll(() => head.isVisible()).toBe(true);
      const box = (await head.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(LAPTOP.width);
    }
    expect(await table.evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
    await page.setViewportSize(PHONE);
    const cell = table.locator('tbody tr').first().locator('td').nth(3);
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).not.toBe('table-cell');
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Summary"');
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  }, SPAWNS);
});

describe('search', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await openPage(browser, at('index.html')));
  }, SPAWNS);
  afterAll(() => page?.close());

  it('lists every event version carrying account_number, at any depth, each with the field’s path, the types it passes through and whether it is required', async () => {
    const carrying = eventsCarrying('account_number');
    expect(carrying).toHaveLength(89);
    await search(page, 'account_number');
    const listed = await textsOf(page.locator('#search-results li.hit.event a.hit-link'));
    expect(new Set(listed)).toEqual(new Set(carrying));
    await expect.poll(() => page.locator('#search-results .summary').innerText()).toContain('89 event versions carry a field named exactly “account_number”');
    const nested = page.locator('#search-results li.hit', { has: page.locator('a.hit-link', { hasText: 'ink.live-chat.initiated v1' }) });
    expect(await nested.locator('.matched-fields li').first().innerText()).toBe('live_chat_conversation.account_number required through ink-_messages-InkConversation');
  }, SPAWNS);

  it('finds REST operations by their operation id (createNotes)', async () => {
    await search(page, 'createNotes');
    const hit = page.locator('#search-results li.hit.operation a.hit-link', { hasText: 'createNotes' });
    expect(await hit.getAttribute('href')).toBe('api/createNotes/index.html');
  }, SPAWNS);

  it('finds words inside snake_case and dotted names (document_representation)', async () => {
    await search(page, 'document_representation');
    const listed = await textsOf(page.locator('#search-results a.hit-link'));
    expect(listed).toEqual(expect.arrayContaining(['billing.billing_document_representation.dispatched v1', 'billing.billing_document_representation.dispatched v2']));
    expect(await page.locator('#search-results .matched-fields').first().innerText()).toContain('billing_document_representation_dispatch_id');
  }, SPAWNS);

  it('forgives a small typo (acount_number), saying how it read it', async () => {
    await search(page, 'acount_number');
    const listed = await textsOf(page.locator('#search-results li.hit.event a.hit-link'));
    expect(new Set(listed)).toEqual(new Set(eventsCarrying('account_number')));
    expect(await page.locator('#search-results .note').innerText()).toContain('read as “account”');
  }, SPAWNS);

  it('groups the versions of an event type and marks the latest', async () => {
    const type = manifest.events.find((e, _, all) => all.filter((o) => o.type === e.type).length >= 3)!.type;
    await search(page, type);
    const group = page.locator('#search-results li.hit.event').first();
    const versions = manifest.events.filter((e) => e.type === type).map((e) => e.version);
    expect(await textsOf(group.locator('a.hit-link'))).toEqual(versions.map((v) => `${type} ${v}`));
    expect(await group.locator('.badge.latest').count()).toBe(1);
    expect(await group.locator('.hit-version').last().locator('.badge.latest').count()).toBe(1);
  }, SPAWNS);

  it('/ focuses the box from anywhere on the page, and Enter opens the first result', async () => {
    const { page: fresh, errors } = await openPage(browser, at('index.html'));
    await fresh.locator('h1').click();
    await fresh.keyboard.press('/');
    expect(await fresh.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await fresh.keyboard.type('account.created');
    await Promise.all([fresh.waitForURL(/events\/account\.created\/v1\/index\.html$/), fresh.keyboard.press('Enter')]);
    expect(await fresh.locator('main h1').innerText()).toContain('account.created');
    expect(errors).toEqual([]);
    await fresh.close();
  }, SPAWNS);

  it('the first Tab stop is the skip link, which takes the keyboard to the content', async () => {
    const { page: fresh } = await openPage(browser, at('events/account.created/v1/index.html'));
    await fresh.keyboard.press('Tab');
    expect(await fresh.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await fresh.keyboard.press('Enter');
    expect(await fresh.evaluate(() => document.activeElement?.id)).toBe('main');
    await fresh.close();
  }, SPAWNS);
});

describe('event pages', () => {
  it('show nested fields through shared types: ink.live-chat.initiated’s account_number', async () => {
    for (const size of [PHONE, LAPTOP]) {
      const { page } = await openPage(browser, at('events/ink.live-chat.initiated/v1/index.html'), { size });
      const field = page.locator('[id="field-live_chat_conversation.account_number"] > .field');
      await expect.poll(() => field.isVisible()).toBe(true);
      expect((await field.textContent())!.replace(/\s+/g, ' ').trim()).toBe('account_number text required');
      await page.close();
    }
  }, SPAWNS);

  it('compare any two versions, and say which readers a change breaks', async () => {
    const type = manifest.events.find((e, _, all) => all.filter((o) => o.type === e.type).length >= 2)!.type;
    const versions = manifest.events.filter((e) => e.type === type).map((e) => e.version);
    const { page } = await openPage(browser, at(`events/${type}/${versions[0]}/index.html`));
    const visible = page.locator('.diff:visible');
    expect(await visible.count()).toBe(1);
    await page.selectOption('form.compare select[name="from"]', versions[1]!);
    await page.selectOption('form.compare select[name="to"]', versions[0]!);
    expect(await visible.count()).toBe(1);
    expect([await visible.getAttribute('data-from'), await visible.getAttribute('data-to')]).toEqual([versions[1], versions[0]]);
    // The published diff, in the published words: the Markdown reference's too.
    const diff = pages.diffs[type]!.find((d) => d.from === versions[1] && d.to === versions[0])!;
    expect(await visible.locator('.diff-head').innerText()).toBe(`From ${versions[1]} to ${versions[0]}: ${diff.severity ? pages.words.severity[diff.severity] : pages.words.unchanged} ${diff.impact}.`);
    expect(diff.impact).toMatch(/^breaks (tolerant|strict|code)/);
    await page.close();
  }, SPAWNS);

  it('show an example every field filled in, accepted by the package in strict mode, with values that look real', async () => {
    const { page } = await openPage(browser, at('events/account.created/v1/index.html'));
    const example = JSON.parse(await page.locator('#example-message').innerText()) as { payload: { account_number: string; account_user_emails: string[] } };
    expect(pkg.validateEvent(example, { mode: 'strict' })).toMatchObject({ ok: true });
    expect(example.payload.account_number).toMatch(/^A-[0-9A-F]{8}$/);
    expect(example.payload.account_user_emails[0]).toMatch(/^[a-z.]+@example\.com$/);
    await page.close();
  }, SPAWNS);
});

describe('validators', () => {
  it('the validator page: the verdict as the reader types is decodeEvent’s, tolerant and strict, computed in a Web Worker', async () => {
    const { page, errors } = await openPage(browser, at('validator/index.html'));
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
    const texts = [
      JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } }),
      JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [], colour: 'blue' } }),
      JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 7 } }),
      JSON.stringify({ type: 'acount.created', version: 'v1', payload: {} }),
      '{"type": "account.created",',
    ];
    for (const strict of [false, true]) {
      await page.setChecked('.validator input.strict', strict);
      for (const text of texts) {
        await page.fill('textarea[aria-label="Message to validate"]', '');
        await page.locator('textarea[aria-label="Message to validate"]').pressSequentially(text.slice(0, 20));
        await page.fill('textarea[aria-label="Message to validate"]', text);
        expect(await shownVerdict(page), `${text} ${strict ? 'strict' : 'tolerant'}`).toEqual(asShown(pkg.decodeEvent(text, { mode: strict ? 'strict' : 'tolerant' })));
      }
    }
    // The check ran in a worker: the page itself never loaded the validators.
    expect(await page.evaluate(() => 'catalogCheck' in window)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, SPAWNS);

  it('a 5 MB message, pasted or chosen as a file, is checked off the main thread: decodeEvent’s verdict, its 101 issues listed and marked, the page never held up', async () => {
    const { page, errors } = await openPage(browser, at('validator/index.html'));
    // One line per item, every item of the wrong type: the check, the line lookup and the marks all have work to do.
    const big = JSON.stringify({ type: 'account.updated', version: 'v1', payload: { account_number: 'A-1', account_user_emails: Array.from({ length: 600_000 }, (_, i) => 100_000 + i), changes: {} } }, null, 1);
    expect(big.length).toBeGreaterThan(5_000_000);
    const expected = pkg.decodeEvent(big);
    expect(expected.ok ? 0 : expected.error.issues.length).toBe(101);
    await page.evaluate(() => {
      const tasks: { start: number; duration: number }[] = [];
      (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask' });
    });
    /** The long tasks of the page since `since` (ms), rounded. */
    const blockedSince = (since: number): Promise<number[]> =>
      page.evaluate((start) => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks.filter((t) => t.start >= start).map((t) => Math.round(t.duration)), since);

    const pastedAt = await page.evaluate((text) => {
      const area = document.querySelector('textarea')!;
      const data = new DataTransfer();
      data.setData('text/plain', text);
      const started = performance.now();
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return started;
    }, big);
    expect(await shownVerdict(page)).toEqual(asShown(expected));
    expect(await page.locator('.verdict li').count()).toBe(101);
    expect(await page.locator('.marks .mark').count()).toBeGreaterThanOrEqual(100);
    expect(await page.locator('.held').innerText()).toMatch(/^Checking this pasted message of \d\.\d MB; the box shows its beginning, read-only\./);
    expect((await page.locator('textarea').inputValue()).length).toBeLessThanOrEqual(64 * 1024);
    expect(await blockedSince(pastedAt).then((tasks) => tasks.filter((ms) => ms > 200))).toEqual([]);

    const chosenAt = await page.evaluate(() => performance.now());
    // A file on disk: Chromium is handed its path, so no test code builds it inside the page.
    const file = join(WORK, 'messages.json');
    writeFileSync(file, big.replace('"A-1"', '7'));
    await page.setInputFiles('.validator input.file', file);
    await expect.poll(() => page.locator('.held').innerText()).toMatch(/messages\.json \(\d\.\d MB\)/);
    expect(await shownVerdict(page)).toEqual(asShown(pkg.decodeEvent(big.replace('"A-1"', '7'))));
    expect(await blockedSince(chosenAt).then((tasks) => tasks.filter((ms) => ms > 200))).toEqual([]);
    // The validators never ran on the page: the worker did every check.
    expect(await page.evaluate(() => 'catalogCheck' in window)).toBe(false);

    await page.locator('.held button').click();
    expect(await page.locator('textarea').inputValue()).toBe('');
    expect(await page.locator('textarea').getAttribute('readonly')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  }, BUILDS);

  it('marks the line of each issue, and of a syntax error', async () => {
    const { page } = await openPage(browser, at('validator/index.html'));
    const text = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_user_emails: [], account_number: 7 } }, null, 2);
    await page.fill('textarea', text);
    await shownVerdict(page);
    const line = text.split('\n').findIndex((l) => l.includes('"account_number": 7')) + 1;
    expect(await page.locator('.verdict button.line').allInnerTexts()).toContain(`line ${line}`);
    const mark = await page.evaluate(() => {
      const area = document.querySelector('textarea')!;
      const style = getComputedStyle(area);
      return { tops: [...document.querySelectorAll<HTMLElement>('.marks .mark')].map((m) => parseFloat(m.style.top)), lineHeight: parseFloat(style.lineHeight), padding: parseFloat(style.paddingTop) + parseFloat(style.borderTopWidth) };
    });
    expect(mark.tops).toContain(mark.padding + (line - 1) * mark.lineHeight);
    await page.fill('textarea', '{\n  "type": "account.created",\n  "version": v1\n}');
    await shownVerdict(page);
    expect(await page.locator('.verdict button.line').allInnerTexts()).toEqual(['line 3']);
    await page.close();
  }, SPAWNS);

  it('an event page’s validator runs that event’s entry only: validateEvent’s verdicts, and a v1 reader in strict mode refuses v2’s extra field', async () => {
    const type = manifest.events.find((e, _, all) => all.filter((o) => o.type === e.type).length >= 2 && e.version === 'v1' && all.some((o) => o.type === e.type && o.version === 'v2' && o.fields.length > e.fields.length))!;
    const v2 = manifest.events.find((e) => e.type === type.type && e.version === 'v2')!;
    const requested: string[] = [];
    const page = await browser.newPage();
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(at(`events/${type.type}/v1/index.html`));
    const example = JSON.parse(await page.locator('#example-message').innerText()) as { payload: Record<string, unknown> };
    const extra = v2.fields.find((f) => !type.fields.some((g) => g.name === f.name))!;
    const withV2Field = { ...example, payload: { ...example.payload, [extra.name]: 'x' } };
    for (const strict of [false, true]) {
      await page.setChecked('.validator input.strict', strict);
      for (const message of [example, withV2Field, { ...example, payload: {} }]) {
        await page.fill('textarea', JSON.stringify(message));
        expect(await shownVerdict(page)).toEqual(asShown(pkg.validateEvent(message, { mode: strict ? 'strict' : 'tolerant' })));
      }
    }
    await page.fill('textarea', JSON.stringify({ ...example, version: 'v2' }));
    expect(await shownVerdict(page)).toMatchObject({ ok: false, code: 'unknown_event_version' });
    await page.fill('textarea', 'not json');
    expect(await shownVerdict(page)).toEqual(asShown(pkg.decodeEvent('not json')));
    expect(requested.filter((p) => p.includes('/validators/'))).toEqual(['/assets/validators/events/' + `${type.type}/v1.js`, '/assets/validators/event-runtime.js']);
    await page.close();
  }, SPAWNS);

  it('from file://, where no worker may start, the page runs the validator itself and gives the same verdict', async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(SITE, 'validator', 'index.html')).href);
    const text = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 7 } });
    await page.fill('textarea', text);
    expect(await shownVerdict(page)).toEqual(asShown(pkg.decodeEvent(text)));
    expect(await page.evaluate(() => 'catalogCheck' in window)).toBe(true);
    await page.close();
  }, SPAWNS);
});

describe('the home page', () => {
  it('transfers at most 300 KB before any interaction, and loads no validator', async () => {
    const page = await browser.newPage();
    const session = await page.context().newCDPSession(page);
    await session.send('Network.enable');
    const urls = new Map<string, string>();
    let bytes = 0;
    session.on('Network.requestWillBeSent', (event) => urls.set(event.requestId, event.request.url));
    session.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
    await page.goto(at('index.html'), { waitUntil: 'networkidle' });
    expect(bytes).toBeGreaterThan(50_000);
    expect(bytes).toBeLessThanOrEqual(300 * 1024);
    expect([...urls.values()].filter((url) => url.includes('validator'))).toEqual([]);
    await page.close();
  }, SPAWNS);
});

describe('REST pages', () => {
  it('show the method, base URL and Authorization header, and copy a curl whose request the package accepts', async () => {
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url.replace(/\/$/, '') });
    await page.goto(at('api/createNotes/index.html'));
    expect(await page.locator('h1 .method').innerText()).toBe('POST');
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).toContain('{base_url}');
    expect(facts).toContain('Authorization: Token <ACCESS_TOKEN>');
    await page.locator('button.copy[data-copy="curl"]').click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toBe(await page.locator('#curl').innerText());
    expect(curl).toContain('-H "Authorization: Token $ACCESS_TOKEN"');
    const body = JSON.parse(/--data '(.*)'$/s.exec(curl)![1]!) as unknown;
    expect(rest.validateRequest('createNotes', { body })).toEqual({ ok: true });
    expect(await page.locator('#client').innerText()).toContain("import { createDataImportClient } from '@data-import/event-catalog/rest';");
    const files = await page.locator('dl.facts a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
    for (const file of ['generated/openapi.yaml', 'generated/asyncapi.yaml', 'generated/api/schemas/createNotes/request.schema.json']) expect(files).toContain(at(`package/${file}`));
    await page.close();
  }, SPAWNS);

  it('say the retry rules the client applies in the seed’s words, and mark which events an operation publishes as an assumption', async () => {
    const { page } = await openPage(browser, at('api/processAccount/index.html'));
    expect(await page.locator('#retries-heading + p').innerText()).toContain('retries 429');
    const rules = pages.api.operations.find((op) => op.operationId === 'processAccount')!.responses.filter((r) => r.retry);
    expect(rules.map((r) => r.status)).toEqual([429]);
    expect(await textsOf(page.locator('#retries .retry-rules li'))).toEqual(rules.map((r) => `${r.status}: sent again; the seed: “${r.retry!.seed}”`));
    expect(await page.locator('#events .assumption').innerText()).toContain('Assumption');
    expect(await page.locator('#events table a').count()).toBeGreaterThan(0);
    await page.close();
  }, SPAWNS);
});
