// Runs in the reference page beside Redoc (scripts/reference/html.ts inlines it): what a reader needs that Redoc's
// own markup misses. Plain browser JavaScript, no imports: the page loads nothing from outside.
(() => {
  const root = document.getElementById("redoc");
  if (!root) return;

  // Enter right after typing a search opens the first result; Redoc only opened a result chosen with the arrow keys.
  // Keys reach the open dialog from the document (the input need not have focus), so they are watched there.
  let chosen = false;
  const dialog = () => document.querySelector('[data-testid="search-dialog"]');
  document.addEventListener("keydown", (event) => {
    if (!dialog()) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") chosen = true;
    else if (event.key.length === 1 || event.key === "Backspace") chosen = false;
    if (event.key !== "Enter" || chosen) return;
    event.preventDefault();
    event.stopPropagation();
    // Results appear once the search has run; wait a little for the first.
    const started = Date.now();
    const open = () => {
      const result = dialog()?.querySelector('a[data-component-name="Search/SearchItem"]');
      if (result) result.click();
      else if (Date.now() - started < 2000) setTimeout(open, 50);
    };
    open();
  }, true);

  // Landmarks and accessible names: the navigation as a region (Redoc marks the content as main), and controls whose label omits their
  // visible text (the example picker is labelled "Example" but shows the example's name) named by both.
  const fix = () => {
    const menu = root.querySelector(".menu-content");
    if (menu && !menu.hasAttribute("role")) {
      menu.setAttribute("role", "navigation");
      menu.setAttribute("aria-label", "Reference contents");
    }
    for (const control of root.querySelectorAll("button[aria-label]")) {
      const text = (control.textContent || "").trim();
      const base = control.dataset.svcLabel || control.getAttribute("aria-label") || "";
      if (!text || base.toLowerCase().includes(text.toLowerCase())) continue;
      control.dataset.svcLabel = base;
      const name = `${base}: ${text}`;
      if (control.getAttribute("aria-label") !== name) control.setAttribute("aria-label", name);
    }
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fix();
    });
  }).observe(root, { childList: true, subtree: true, characterData: true });
  fix();
})();
