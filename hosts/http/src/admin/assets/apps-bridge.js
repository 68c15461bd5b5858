// The admin's bridge to an app's iframe panels (decisions 0047, 0048). A panel is sandboxed
// without allow-same-origin: it has an opaque origin, so it talks only by postMessage. A message
// is accepted only when it comes from a panel's own window (event.source) and carries the nonce
// that panel's frame was rendered with; only an invocation of one of THIS app's declared actions is
// forwarded, to the CSRF-checked admin route, which checks the nonce and the action again and
// invokes it as the member. Anything else is refused or ignored.
(() => {
  window.addEventListener('message', async (event) => {
    const frame = [...document.querySelectorAll('iframe[data-panel-nonce]')].find(
      (candidate) => candidate instanceof HTMLIFrameElement && candidate.contentWindow === event.source,
    );
    if (!frame || event.source === null) return;
    const data = event.data;
    const nonce = frame.dataset.panelNonce;
    if (!data || typeof data !== 'object' || data.nonce !== nonce || data.type !== 'invoke') return;
    const reply = (message) =>
      frame.contentWindow?.postMessage({ nonce, requestId: data.requestId, ...message }, '*');
    const actions = (frame.dataset.panelActions ?? '').split(' ').filter(Boolean);
    const input = data.input ?? {};
    if (typeof data.action !== 'string' || !actions.includes(data.action)) {
      reply({ type: 'refused', code: 'APP_ACTION_NOT_FOUND' });
      return;
    }
    if (typeof input !== 'object' || Array.isArray(input)) {
      reply({ type: 'refused', code: 'VALIDATION_FAILED' });
      return;
    }
    const body = new URLSearchParams({
      csrf: frame.dataset.panelCsrf ?? '',
      nonce: nonce ?? '',
      action: data.action,
      input: JSON.stringify(input),
    });
    try {
      const response = await fetch(frame.dataset.panelInvoke ?? '', {
        method: 'POST',
        body,
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      });
      const answer = await response.json();
      reply({ type: response.ok ? 'result' : 'refused', status: response.status, body: answer });
    } catch {
      reply({ type: 'refused', code: 'UNAVAILABLE' });
    }
  });
})();
