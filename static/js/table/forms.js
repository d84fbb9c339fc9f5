/* The round form as it is filled in:
 *
 * - every input and change goes to the game's own script (sync, change); one the user made
 *   marks the form as typed in
 * - a field in focus is kept clear of the Save bar at the bottom of the screen (and below
 *   the top bar)
 */
(function () {
  "use strict";
  const T = window.tablescore;

  document.addEventListener("input", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    T.sync(form, event.target);
  });

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    T.change(form, event);
    T.sync(form, event.target);
  });

  /* The Save bar stays at the bottom of the screen: a field being filled in is scrolled
   * above it (and below the top bar). */
  function keepInSight(field) {
    const form = field.closest("form[data-entry]");
    const bar = form && form.querySelector(".actions");
    if (!bar || bar.contains(field)) return;
    const box = field.getBoundingClientRect();
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    const bottom = Math.min(bar.getBoundingClientRect().top, view) - 12;
    const topbar = document.querySelector(".topbar");
    const top = (topbar ? topbar.getBoundingClientRect().bottom : 0) + 8;
    if (box.bottom > bottom) window.scrollBy(0, Math.min(box.bottom - bottom, box.top - top));
    else if (box.top < top) window.scrollBy(0, box.top - top);
  }
  document.addEventListener("focusin", function (event) {
    const field = event.target;
    if (!field.matches || !field.matches("form[data-entry] input, form[data-entry] select, form[data-entry] textarea")) return;
    if (field.type === "radio" || field.type === "checkbox") return;
    keepInSight(field);
    window.setTimeout(function () { if (document.activeElement === field) keepInSight(field); }, 350);
  });

  function syncAll(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) { T.sync(form, null); });
  }

  T.syncAll = syncAll;
})();
