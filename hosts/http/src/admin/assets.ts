import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A static file of the admin UI: its URL names its content, so it may be cached for a year. */
export interface AdminAsset {
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

const require = createRequire(import.meta.url);

function asset(name: string, contentType: string, body: string): AdminAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = name.lastIndexOf('.');
  return { path: `/admin/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}`, contentType, body };
}

function own(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

/** htmx 2.0.11, exactly as its package ships it (no CDN). */
const htmxFile = join(dirname(require.resolve('htmx.org/package.json')), 'dist', 'htmx.min.js');

export const ADMIN_ASSETS = {
  htmx: asset('htmx.min.js', 'text/javascript; charset=utf-8', readFileSync(htmxFile, 'utf8')),
  script: asset('admin.js', 'text/javascript; charset=utf-8', own('admin.js')),
  style: asset('admin.css', 'text/css; charset=utf-8', own('admin.css')),
  appsBridge: asset('apps-bridge.js', 'text/javascript; charset=utf-8', own('apps-bridge.js')),
} as const;

export const ASSET_CACHE = 'public, max-age=31536000, immutable';
