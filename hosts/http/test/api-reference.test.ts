import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** The `src`/`href` of every script and stylesheet the page loads, resolved against its URL. */
function assetsOf(html: string, page: URL): URL[] {
  return [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map(
    (match) => new URL(match[1]!, page),
  );
}

describe('GET /api/docs', () => {
  it('serves an HTML API reference without a token, loading only same-origin assets', async () => {
    const page = new URL('http://cartwright.test/api/docs');
    const response = await h.app.request(page.pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).toContain('<div id="swagger-ui">');
    const assets = assetsOf(html, page);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    // No CDN: the machines that read this page may have no internet.
    for (const asset of assets) expect(asset.origin).toBe(page.origin);
  });

  it('serves the renderer’s script and stylesheet from node_modules, and a starter pointing at the document', async () => {
    const html = await (await h.app.request('/api/docs')).text();
    const page = new URL('http://cartwright.test/api/docs');
    const types = new Map<string, string>();
    for (const asset of assetsOf(html, page)) {
      const response = await h.app.request(asset.pathname);
      expect(response.status, asset.pathname).toBe(200);
      const body = await response.text();
      expect(body.length, asset.pathname).toBeGreaterThan(0);
      types.set(asset.pathname, response.headers.get('content-type') ?? '');
      if (asset.pathname.endsWith('swagger-ui-bundle.js')) expect(body).toContain('SwaggerUIBundle');
      if (asset.pathname.endsWith('/init.js')) {
        expect(body).toContain('openapi.json');
        // The starter's document URL resolves to the served document.
        const url = /url:\s*new URL\('([^']+)'/.exec(body)?.[1];
        expect(url && new URL(url, page).pathname).toBe('/api/openapi.json');
      }
    }
    const scripts = [...types].filter(([path]) => path.endsWith('.js'));
    const styles = [...types].filter(([path]) => path.endsWith('.css'));
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    expect(styles.length).toBe(1);
    for (const [, type] of scripts) expect(type).toMatch(/^text\/javascript/);
    for (const [, type] of styles) expect(type).toMatch(/^text\/css/);
  });
});
