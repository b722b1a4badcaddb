// Runs in the reference page beside Redoc (scripts/reference/html.ts inlines it): what a reader needs that Redoc's
// own markup misses. Plain browser JavaScript, no imports: the page loads nothing from outside.
(() => {
  const root = document.getElementById("redoc");
  if (!root) return;

  // Enter right after typing a search opens the first result; Redoc only opened a result chosen with the arrow keys.
  // Keys reach the open dialog from the document (the input need not have focus), so they are watched there.
  let chosen = false;
  let typedAt = 0;
  let resultsAt = 0;
  const dialog = () => document.querySelector('[data-testid="search-dialog"]');
  document.addEventListener(
    "keydown",
    (event) => {
      if (!dialog()) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") chosen = true;
      else if (event.key.length === 1 || event.key === "Backspace") {
        chosen = false;
        typedAt = performance.now();
      }
      if (event.key !== "Enter" || chosen) return;
      event.preventDefault();
      event.stopPropagation();
      const started = performance.now();
      const open = () => {
        // Waits for as long as the search takes (seconds on a slow machine: a bound here left Enter doing nothing), until
        // the reader closes the dialog, types again or picks a result with the arrow keys.
        if (!dialog() || typedAt > started || chosen) return;
        const now = performance.now();
        const result = dialog()?.querySelector('a[data-component-name="Search/SearchItem"]');
        // The results are the query's once they have settled and the first one mentions the query's first word.
        const word = (dialog()?.querySelector("input")?.value ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
        const settled = resultsAt > typedAt && now - resultsAt > 150 && (result?.textContent ?? "").toLowerCase().includes(word);
        if (result && (settled || now - started > 2000)) result.click();
        else setTimeout(open, 50);
      };
      open();
    },
    true,
  );

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
  // One watcher of the page for both: it notes when the search results last changed (Enter must wait for those of the
  // query as typed, not open the previous query's) and mends names once per frame after Redoc renders.
  let queued = false;
  new MutationObserver(() => {
    if (dialog()) resultsAt = performance.now();
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fix();
    });
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  fix();
})();
