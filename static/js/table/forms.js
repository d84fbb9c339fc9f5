/* The round form as it is filled in:
 *
 * - every input and change goes to the game's own script (sync, change); one the user made
 *   marks the form as typed in
 * - a field in focus is kept clear of the Save bar at the bottom of the screen (and below
 *   the top bar)
 * - a refusal or a failure the server answers with is brought into sight the same way, its
 *   top first, and focused for a screen reader (inSight; quietly: not focused)
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

  /* The space between the top bar and the Save bar of the form on screen. */
  function clearSpace(within) {
    const topbar = document.querySelector(".topbar");
    /* the top bar is sticky upright only: sideways it scrolls away with the page */
    const top = Math.max(0, topbar ? topbar.getBoundingClientRect().bottom : 0) + 8;
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    let bottom = view - 8;
    /* a Save bar over the same column (sideways the scoreboard has a column of its own) */
    const box = within.getBoundingClientRect();
    document.querySelectorAll("form[data-entry] .actions").forEach(function (bar) {
      if (!bar.offsetParent || bar.contains(within)) return;
      const shown = bar.getBoundingClientRect();
      if (shown.right <= box.left || shown.left >= box.right) return;
      bottom = Math.min(bottom, shown.top - 8);
    });
    return { top: top, bottom: bottom };
  }

  /* A message the player must read (a refusal, a clash): scrolled below the top bar and
   * above the Save bar, its top first when it is taller than that space, and focused so a
   * screen reader reads it. Kept there while the page settles around it (the swapped parts
   * drawn, the scoreboard brought up to date), until the player scrolls or touches. */
  const SETTLING_MS = 2500;
  function inSight(message, quietly) {
    if (!message) return;
    function place() {
      if (!message.isConnected) return;
      const space = clearSpace(message);
      const box = message.getBoundingClientRect();
      if (box.top < space.top - 1 || (box.height > space.bottom - space.top && box.top > space.top + 1)) {
        window.scrollBy(0, box.top - space.top);
      } else if (box.bottom > space.bottom + 1 && box.height <= space.bottom - space.top) {
        window.scrollBy(0, box.bottom - space.bottom);
      }
    }
    place();
    if (!quietly) {
      if (!message.hasAttribute("tabindex")) message.setAttribute("tabindex", "-1");
      message.focus({ preventScroll: true });
    }
    const until = Date.now() + SETTLING_MS;
    let held = true;
    function letGo() { held = false; }
    const events = ["wheel", "touchstart", "keydown", "pointerdown"];
    events.forEach(function (name) { window.addEventListener(name, letGo, { once: true, passive: true }); });
    (function follow() {
      if (!held || Date.now() > until || !message.isConnected) {
        events.forEach(function (name) { window.removeEventListener(name, letGo); });
        return;
      }
      place();
      window.requestAnimationFrame(follow);
    })();
  }

  function syncAll(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) { T.sync(form, null); });
  }

  T.syncAll = syncAll;
  T.inSight = inSight;
})();
