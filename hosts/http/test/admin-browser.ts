import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Services } from '@cartwright/service';
import { pino } from 'pino';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type RunningHttpServer, startHttpServer } from '../src/server.ts';

// The admin UI's browser walks share this: Debian's chromium driven by playwright-core (it never
// downloads a browser), the real HTTP server on a free loopback port, axe-core in the page and
// screenshots kept in test-artifacts/admin/ (gitignored). Decision 0047.

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts', 'admin');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * True where the walks do not run: /usr/bin/chromium is missing (a machine with only Node: skipped
 * with a warning; CI, whose `.ci/run` installs chromium and sets CARTWRIGHT_BROWSER_TESTS=require,
 * fails instead), or CARTWRIGHT_BROWSER_TESTS=skip (CI's PostgreSQL pass: the walks test pages,
 * and their database work is the HTTP suites', which that pass runs).
 */
export const browserSkipped = process.env.CARTWRIGHT_BROWSER_TESTS === 'skip' || !existsSync(CHROMIUM);
if (browserSkipped && process.env.CARTWRIGHT_BROWSER_TESTS === 'require') {
  throw new Error(`${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium`);
}
if (!existsSync(CHROMIUM)) console.warn(`admin UI browser tests skipped: no ${CHROMIUM}`);

export interface AdminBrowser {
  /** The running server's origin, e.g. http://127.0.0.1:40123. */
  readonly base: string;
  readonly browser: Browser;
  /** A fresh browser profile speaking `locale`; CSP violations reported on the console are collected. */
  openContext(
    locale: 'en' | 'de' | 'es' | 'fr',
  ): Promise<{ context: BrowserContext; page: Page; refused: string[] }>;
  /** A full-page screenshot kept as a test artefact under `name`.png. */
  shot(page: Page, name: string): Promise<void>;
  /** axe-core's serious and critical violations of the page, as `id (impact)`. */
  seriousViolations(page: Page): Promise<string[]>;
  /**
   * Runs `action` (a click or key press that posts a form or follows a link) and waits until the
   * page it causes has replaced the current one, so a message the old page showed is never read
   * as the answer (htmx swaps the body in place: the URL alone does not tell).
   */
  answer(page: Page, action: () => Promise<unknown>): Promise<void>;
  /** Signs in with a personal token from the sign-in page and waits for the overview. */
  signIn(page: Page, token: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the HTTP server on the services and a headless chromium. */
export async function launchAdminBrowser(services: Services): Promise<AdminBrowser> {
  const server: RunningHttpServer = await startHttpServer(services, {
    port: 0,
    host: '127.0.0.1',
    bodyLimitBytes: 1024 * 1024,
    logger: pino({ level: 'silent' }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    base,
    browser,
    async openContext(locale) {
      const tags = { en: 'en-US', de: 'de-DE', es: 'es-ES', fr: 'fr-FR' } as const;
      const context = await browser.newContext({ locale: tags[locale] });
      // `pnpm test` runs this beside every other suite on 2 cores: wait longer than Playwright's 30 s.
      context.setDefaultTimeout(120_000);
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
      });
      return { context, page, refused };
    },
    async shot(page, name) {
      // caret: 'initial': hiding the caret would inject a style element, which the page's CSP refuses.
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, caret: 'initial' });
    },
    async seriousViolations(page) {
      // Evaluated over the DevTools protocol: the page's CSP admits no inline script.
      await page.evaluate(axeSource);
      const violations = (await page.evaluate(
        'axe.run(document).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact })))',
      )) as { id: string; impact: string | null }[];
      return violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id} (${violation.impact})`);
    },
    async answer(page, action) {
      // Over the DevTools protocol, like axe: the page's CSP admits no inline script.
      await page.evaluate(
        "document.body.append(Object.assign(document.createElement('i'), { id: 'cw-before-answer', hidden: true }))",
      );
      await action();
      await page.waitForSelector('#cw-before-answer', { state: 'detached' });
    },
    async signIn(page, token) {
      await page.goto(`${base}/`);
      await page.waitForURL(/\/admin\/sign-in$/);
      await page.fill('#token', token);
      await page.click('form:has(#token) button[type="submit"]');
      await page.waitForURL(/\/admin$/);
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
