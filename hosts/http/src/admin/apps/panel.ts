import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ManifestPanel } from './blocks.tsx';

// The app's admin panels (spec Authentication 8, decisions 0047 and 0048): markup, script and
// style the app ships in its manifest (`admin.panels`), served from /admin/apps/:appId/panels/:id
// into `<iframe sandbox="allow-scripts allow-forms">` (never allow-same-origin: an opaque origin,
// no cookie, no storage, no credentialed fetch of the admin). The document is the admin's: its
// policy allows exactly the admin's shim and the app's one script and style by their hashes, and
// no connection, form target, base or frame. The shim gives the app `cartwright.invoke`, which
// talks only by postMessage with the per-render nonce; the admin page's bridge
// (assets/apps-bridge.js) forwards the current app's declared actions to a CSRF-checked POST.

/** A nonce bound to this session (its CSRF token is the HMAC key) and this app: `<random>.<mac>`. */
export function panelNonce(csrf: string, appId: string): string {
  const random = randomBytes(18).toString('base64url');
  return `${random}.${macOf(csrf, appId, random)}`;
}

function macOf(csrf: string, appId: string, random: string): string {
  return createHmac('sha256', csrf).update(`cartwright-admin-panel:${appId}:${random}`).digest('base64url');
}

/** Whether `nonce` was issued by this session for this app. */
export function panelNonceValid(csrf: string, appId: string, nonce: unknown): boolean {
  if (typeof nonce !== 'string' || !/^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}$/.test(nonce)) return false;
  const [random, mac] = nonce.split('.') as [string, string];
  const expected = Buffer.from(macOf(csrf, appId, random));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

// The admin's shim, run before the app's markup: `cartwright.invoke(action, input)` posts
// `{nonce, type: 'invoke', requestId, action, input}` to the parent and settles on the bridge's
// answer carrying the same nonce and request id (any other message is ignored). It resolves with
// the action's answer, or rejects with an Error carrying `code`, `status` and `errors`.
const PANEL_SHIM = `(() => {
  const nonce = document.documentElement.dataset.panelNonce;
  const waiting = new Map();
  let next = 1;
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (!data || data.nonce !== nonce || !waiting.has(data.requestId)) return;
    const { resolve, reject } = waiting.get(data.requestId);
    waiting.delete(data.requestId);
    if (data.type === 'result') return resolve(data.body?.value);
    const error = new Error(data.body?.detail ?? data.code ?? 'refused');
    error.code = data.body?.code ?? data.code;
    error.status = data.status;
    error.errors = data.body?.errors ?? [];
    reject(error);
  });
  const invoke = (action, input = {}) =>
    new Promise((resolve, reject) => {
      const requestId = next++;
      waiting.set(requestId, { resolve, reject });
      window.parent.postMessage({ nonce, type: 'invoke', requestId, action, input }, '*');
    });
  Object.defineProperty(window, 'cartwright', { value: Object.freeze({ invoke }), enumerable: true });
})();`;
const PANEL_BASE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0.75rem;color:#1d2630;background:#fff}';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
// The HTML parser reads CR LF and a lone CR as LF: hash and serve the text the browser will see.
const asParsed = (text: string) => text.replace(/\r\n?/g, '\n');
const SHIM_HASH = hash(PANEL_SHIM);
const BASE_STYLE_HASH = hash(PANEL_BASE_STYLE);

/**
 * A panel's policy: the shim and the app's script, the base and the app's style, each by its
 * hash (so no inline handler, style attribute or injected element runs); images only as data:
 * URLs; no connection, form target, base, plugin, font or frame; framed only by the admin.
 */
export function panelPolicy(panel: ManifestPanel): string {
  const scripts = [SHIM_HASH, ...(panel.script ? [hash(asParsed(panel.script))] : [])].join(' ');
  const styles = [BASE_STYLE_HASH, ...(panel.style ? [hash(asParsed(panel.style))] : [])].join(' ');
  return `default-src 'none'; script-src ${scripts}; style-src ${styles}; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The panel document: the admin's head (language, nonce, title, styles, shim), then the app's
 * markup as the body and its script last. The manifest keeps <script> and <style> out of the
 * markup and closing tags out of the script and style (MANIFEST_PANEL_CONTENT), and the policy
 * names only these hashes, so nothing else in the markup runs or styles.
 */
export function panelHtml(panel: ManifestPanel, nonce: string, locale: string, title: string): string {
  return `<!doctype html><html lang="${escapeHtml(locale)}" data-panel-nonce="${escapeHtml(nonce)}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${PANEL_BASE_STYLE}</style>${
    panel.style ? `<style>${asParsed(panel.style)}</style>` : ''
  }<script>${PANEL_SHIM}</script></head>
<body>
${panel.html}
${panel.script ? `<script>${asParsed(panel.script)}</script>` : ''}
</body></html>`;
}
