/**
 * The site in a real browser for the tests: Debian's Chromium driven by playwright-core,
 * pages opened at a given size and colour scheme, each recording its console errors, and the
 * checks every page kind gets (horizontal overflow, axe-core).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

export const PHONE = { width: 390, height: 844 } as const;
export const LAPTOP = { width: 1366, height: 900 } as const;

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('chromium not found: run npm run setup:tools (apt-get install -y chromium), or set CHROMIUM_PATH');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export interface OpenPage {
  page: Page;
  /** Console errors and uncaught exceptions so far. */
  errors: string[];
}

export async function openPage(browser: Browser, url: string, options: { size?: { width: number; height: number }; dark?: boolean } = {}): Promise<OpenPage> {
  const page = await browser.newPage({ viewport: { ...(options.size ?? LAPTOP) }, colorScheme: options.dark ? 'dark' : 'light' });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  return { page, errors };
}

/** How many pixels the page is wider than its viewport (0 when it fits). */
export const overflowOf = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown[] }[];
}

/** axe-core's violations of any impact, as `rule (impact): first targets`; WCAG 2.2's 24 px target size included. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    type Axe = { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
    const axe = (window as unknown as { axe: Axe }).axe;
    return (await axe.run(document, { rules: { 'target-size': { enabled: true } } })).violations;
  });
  return violations.map((v) => `${v.id} (${v.impact ?? 'no impact'}): ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(', ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
}
