// The admin UI's one client script (served as a file: the Content-Security-Policy allows no inline
// script). Pages work without it; with htmx loaded, forms and links swap the page body in place.
// After each swap, move focus to the first message or heading of the new content so keyboard and
// screen reader users land where the change is.
(() => {
  const focusTarget = () => {
    const target = document.querySelector('[data-focus]') ?? document.querySelector('main h1');
    if (target instanceof HTMLElement) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: false });
    }
  };
  document.addEventListener('htmx:afterSettle', focusTarget);
})();
