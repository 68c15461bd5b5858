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
  // A select with data-autosubmit submits its form on change (the form keeps its own button too).
  document.addEventListener('change', (event) => {
    const element = event.target;
    if (element instanceof HTMLSelectElement && element.dataset.autosubmit !== undefined) {
      element.form?.requestSubmit();
    }
  });
})();
