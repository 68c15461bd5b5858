import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstalledApp } from './blocks.tsx';

// The admin iframe panel (spec Authentication 8, decision 0047): a built-in page listing the
// current app's declared actions, served from /admin/apps/:appId/panel into
// `<iframe sandbox="allow-scripts allow-forms">` (never allow-same-origin: an opaque origin, no
// cookie, no storage, no credentialed fetch of the admin). It talks only by postMessage with the
// per-render nonce; the admin page's bridge (assets/apps-bridge.js) forwards the current app's
// declared actions to a CSRF-checked POST.

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

// The panel's own script and style, inline and allowed by their hashes (the panel's policy names
// them; nothing else runs or styles there). The script reads the nonce from <body data-nonce>.
const PANEL_SCRIPT = `(() => {
  const nonce = document.body.dataset.nonce;
  let next = 1;
  const out = document.getElementById('result');
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data;
    if (!data || data.nonce !== nonce) return;
    out.textContent = JSON.stringify(data, null, 2);
    out.dataset.state = data.type;
  });
  for (const form of document.querySelectorAll('form[data-action]')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      let input = {};
      const text = form.querySelector('textarea').value.trim();
      if (text !== '') {
        try { input = JSON.parse(text); } catch (error) { out.textContent = String(error); return; }
      }
      window.parent.postMessage({ nonce, type: 'invoke', requestId: next++, action: form.dataset.action, input }, '*');
    });
  }
})();`;
const PANEL_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0.75rem;color:#1d2630}form{margin:0 0 0.75rem}textarea{font:inherit;width:100%;min-height:3rem}button{font:inherit;padding:0.3rem 0.8rem}pre{background:#f4f6f8;padding:0.5rem;white-space:pre-wrap}label{display:block;font-weight:600}';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The panel's policy: only its own hashed script and style, no connection, no form target, framed only by the admin. */
export const PANEL_POLICY = `default-src 'none'; script-src ${hash(PANEL_SCRIPT)}; style-src ${hash(PANEL_STYLE)}; connect-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The panel document: the app's declared actions, each with an input and a run button. */
export function panelHtml(
  app: InstalledApp,
  nonce: string,
  locale: string,
  texts: { title: string; input: string; run: string; result: string },
): string {
  const label = (text: Record<string, string> | undefined, fallback: string) =>
    text?.[locale] ?? text?.en ?? fallback;
  const actions = (app.manifest.actions ?? [])
    .map(
      (action) => `<form data-action="${escapeHtml(action.id)}">
<label for="in-${escapeHtml(action.id)}">${escapeHtml(label(action.label, action.id))} (${escapeHtml(action.id)}) · ${escapeHtml(texts.input)}</label>
<textarea id="in-${escapeHtml(action.id)}"></textarea>
<button type="submit">${escapeHtml(texts.run)}</button>
</form>`,
    )
    .join('\n');
  return `<!doctype html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><title>${escapeHtml(texts.title)}</title><style>${PANEL_STYLE}</style></head>
<body data-nonce="${escapeHtml(nonce)}"><main><h1>${escapeHtml(label(app.manifest.name, app.appId))}</h1>
${actions}
<h2>${escapeHtml(texts.result)}</h2><pre id="result" aria-live="polite"></pre></main>
<script>${PANEL_SCRIPT}</script></body></html>`;
}
