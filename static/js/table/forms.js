/* The round form as it is filled in:
 *
 * - every input and change goes to the game's own script (sync, change); one the user made
 *   marks the form as typed in
 * - a field in focus is kept clear of the Save bar at the bottom of the screen (and below
 *   the top bar)
 * - a refusal or a failure the server answers with is brought into sight the same way, its
 *   top first, and focused for a screen reader (inSight; quietly: not focused)
 * - a round refused for its boxes (problemInSight): only the boxes at fault are marked, the
 *   field of the first problem is brought below the top bar (and a counter held under it)
 *   and above the Save bar (and a number pad held over the form), and the Save bar's count
 *   of the other marked fields says whether they are above or below
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
  /* place() now and on every frame while the page settles, until the player scrolls or
   * touches */
  function hold(place) {
    place();
    const until = Date.now() + SETTLING_MS;
    let held = true;
    function letGo() { held = false; }
    const events = ["wheel", "touchstart", "keydown", "pointerdown"];
    events.forEach(function (name) { window.addEventListener(name, letGo, { once: true, passive: true }); });
    (function follow() {
      if (!held || Date.now() > until) {
        events.forEach(function (name) { window.removeEventListener(name, letGo); });
        return;
      }
      place();
      window.requestAnimationFrame(follow);
    })();
  }
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
    if (!quietly) {
      if (!message.hasAttribute("tabindex")) message.setAttribute("tabindex", "-1");
      message.focus({ preventScroll: true });
    }
    hold(place);
  }

  /* ------------------------------------------------------------ a refused round */

  function visible(el) { return Boolean(el && el.offsetParent !== null); }

  /* A problem said of a group of boxes ("tricks add up to 13") marks the boxes of that name
   * only (tricks-0, tricks-1...), not every box of the block it is written under; a group
   * whose message names no box of its own stays marked whole. */
  function markAtFault(form) {
    form.querySelectorAll(".has-error").forEach(function (group) {
      const names = Array.prototype.map.call(
        group.querySelectorAll(".field-errors[id^='e-']"),
        function (errors) { return errors.id.slice(2); }
      );
      if (!names.length) return;
      const boxes = group.querySelectorAll("input[name]:not([type=radio]):not([type=checkbox]):not([type=hidden])");
      let marked = 0;
      boxes.forEach(function (box) {
        const atFault = names.some(function (name) {
          return box.name === name || box.name.indexOf(name + "-") === 0 || box.name.indexOf(name + ".") === 0;
        });
        if (atFault) { box.setAttribute("aria-invalid", "true"); marked += 1; }
      });
      if (marked && marked < boxes.length) group.setAttribute("data-marked", "");
    });
  }

  /* The field a message belongs to: its own field, or the nearest block holding boxes. */
  function fieldOf(message, form) {
    if (message.matches(".has-error")) return message;
    const field = message.closest(".field, fieldset, [data-field], .step-block");
    if (field && form.contains(field) && field !== form) return field;
    let block = message.parentElement;
    while (block && block !== form && !block.querySelector("input, select, textarea")) block = block.parentElement;
    return block && block !== form ? block : message;
  }

  const ROOM_BESIDE_A_PAD = 160;  /* px */
  /* The space a field of the form is read in: below the top bar and a counter held under
   * it, above the Save bar and a number pad held over the form, in the field's column. */
  function spaceFor(field, form) {
    const space = clearSpace(field);
    const box = field.getBoundingClientRect();
    const across = function (r) { return r.right > box.left && r.left < box.right; };
    form.querySelectorAll(".counter").forEach(function (counter) {
      const style = window.getComputedStyle(counter);
      if (!visible(counter) || style.position !== "sticky" || !field.contains(counter)) return;
      space.top = Math.max(space.top, (parseFloat(style.top) || 0) + counter.offsetHeight + 4);
    });
    form.querySelectorAll("[data-pad] > .pad").forEach(function (pad) {
      const style = window.getComputedStyle(pad);
      /* a pad held at the bottom of the screen (not one held beside its boxes, sideways) */
      if (!visible(pad) || pad.contains(field) || style.position !== "sticky" || style.bottom === "auto" || style.top !== "auto") return;
      const shown = pad.getBoundingClientRect();
      if (!across(shown)) return;
      /* kept clear of only while that leaves a fair part of the screen to read in */
      const above = Math.min(space.bottom, shown.top - 8, space.bottom - shown.height - 4);
      if (above - space.top >= ROOM_BESIDE_A_PAD) space.bottom = above;
    });
    return space;
  }

  /* "(n more marked above / below)": where the other marked fields are from the first. */
  function sayWhereTheOthersAre(form, first) {
    const more = form.querySelector("[data-first-problem] .more");
    if (!more) return;
    const marked = Array.prototype.filter.call(
      form.querySelectorAll(".has-error, [aria-invalid=true]"),
      function (el) { return visible(el) && !el.closest(".actions"); }
    );
    const outer = marked.filter(function (el) {
      return !marked.some(function (other) { return other !== el && other.contains(el); });
    });
    const at = first.getBoundingClientRect();
    let above = 0;
    let below = 0;
    outer.forEach(function (el) {
      if (el === first || el.contains(first) || first.contains(el)) return;
      if (el.getBoundingClientRect().top < at.top) above += 1; else below += 1;
    });
    if (!above && !below) return;
    let where;
    if (above && below) {
      where = interpolate(gettext("%(count)s more marked: %(above)s above and %(below)s below"), { count: above + below, above: above, below: below }, true);
    } else if (above) {
      where = interpolate(gettext("%(count)s more marked above"), { count: above }, true);
    } else {
      where = interpolate(gettext("%(count)s more marked below"), { count: below }, true);
    }
    more.textContent = "(" + where + ")";
  }

  function problemInSight(form) {
    if (!form || !form.querySelector("[data-first-problem]")) return;
    markAtFault(form);
    hold(function place() {
      if (!form.isConnected) return;
      /* found again each time: a game's script may still be showing or hiding its parts */
      const message = Array.prototype.find.call(
        form.querySelectorAll(".field-errors, .has-error, [aria-invalid=true]"),
        function (el) { return visible(el) && !el.closest(".actions"); }
      );
      if (!message) return;
      const field = fieldOf(message, form);
      const text = message.matches(".field-errors") ? message : field.querySelector(".field-errors") || message;
      sayWhereTheOthersAre(form, field);
      const space = spaceFor(field, form);
      const whole = field.getBoundingClientRect();
      const words = (visible(text) ? text : field).getBoundingClientRect();
      const room = space.bottom - space.top;
      let by = 0;
      if (whole.height <= room) {
        /* the whole field: as it is if it is in the space already, else just into it */
        if (whole.top < space.top - 1) by = whole.top - space.top;
        else if (whole.bottom > space.bottom + 1) by = whole.bottom - space.bottom;
      } else {
        /* a taller field: its first box at fault and its message; else its boxes at fault
         * from the first (the Save bar says the message); else the message */
        const box = Array.prototype.find.call(field.querySelectorAll("[aria-invalid=true]"), visible);
        const from = box ? Math.min(box.getBoundingClientRect().top, words.top) : words.top;
        if (words.bottom - from <= room) {
          if (from < space.top - 1) by = from - space.top;
          else if (words.bottom > space.bottom + 1) by = words.bottom - space.bottom;
        } else if (box) {
          const first = box.getBoundingClientRect();
          if (first.top < space.top - 1 || first.bottom > space.bottom + 1) by = first.top - space.top;
        } else if (words.top < space.top - 1 || words.bottom > space.bottom + 1) {
          by = words.bottom - space.bottom;
        }
      }
      if (Math.abs(by) >= 1) window.scrollBy(0, by);
    });
  }

  function syncAll(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) { T.sync(form, null); });
  }

  T.syncAll = syncAll;
  T.inSight = inSight;
  T.problemInSight = problemInSight;
})();
