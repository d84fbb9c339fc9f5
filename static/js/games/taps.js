/* Entry in taps, shared by the games' round forms. No build step.
 *
 * - number pads: a row of cells (inputs that open no keyboard, data-pad-cell) filled from
 *   one pad of number buttons (data-pad-value); the cell in hand moves on to the next
 *   empty one by itself (data-pad-order) and is kept in sight above the pad, a tap on a
 *   cell takes it in hand, and the keyboard opens only when asked (data-pad-keypad); a
 *   number typed there is kept, the next tap on the pad going to the next box; far off
 *   screen a pad stays under its boxes (data-pad-far); a tap that fills the last empty box
 *   says so ("tablescore:pad-full" on the pad);
 * - a grid of radio buttons where a second tap on the chosen one clears it (data-toggle);
 * - the rules card opens over the page (data-rules), so nothing typed is lost.
 */
(function () {
  "use strict";
  if (window.tablescorePads) return;

  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function dirty(element) {
    const form = element.closest("form[data-entry]");
    if (form) form.dataset.dirty = "1";
  }

  /* ---------------------------------------------------------------- number pads */
  function cells(pad) {
    return Array.from(pad.querySelectorAll("[data-pad-cell]"))
      .filter(function (cell) { return !cell.disabled; })
      .sort(function (a, b) { return Number(a.dataset.padOrder || 0) - Number(b.dataset.padOrder || 0); });
  }
  function current(pad) {
    return pad.querySelector("[data-pad-cell].is-current");
  }
  /* The box in hand stays in sight: below the top bar (and a sticky counter) and above the
   * pad and the Save bar that stick to the bottom of the screen. */
  function inSight(pad, cell) {
    const keys = pad.querySelector(".pad");
    const bar = document.querySelector("form[data-entry] .actions");
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    let limit = bar ? Math.min(view, bar.getBoundingClientRect().top) : view;
    let top = 0;
    document.querySelectorAll(".topbar, form[data-entry] .counter").forEach(function (el) {
      const box = el.getBoundingClientRect();
      if (getComputedStyle(el).position === "sticky" && box.top < view / 2) top = Math.max(top, box.bottom);
    });
    const box = cell.getBoundingClientRect();
    let need = box.bottom;
    if (keys) {
      const pads = keys.getBoundingClientRect();
      const style = getComputedStyle(keys);
      if (style.position === "sticky" && style.bottom !== "auto") limit = Math.min(limit, pads.top);
      else if (pads.top >= box.bottom - 1) need = pads.bottom; /* the pad follows its boxes: both in sight */
    }
    if (need > limit - 6) window.scrollBy(0, Math.min(need - limit + 6, box.top - top - 6));
    else if (box.top < top + 6) window.scrollBy(0, box.top - top - 6);
  }

  function take(pad, cell, reveal) {
    if (cell && cell !== current(pad)) delete cell.dataset.padTyped;
    pad.querySelectorAll("[data-pad-cell].is-current").forEach(function (other) {
      other.classList.remove("is-current");
    });
    const label = pad.querySelector("[data-pad-label]");
    if (cell) cell.classList.add("is-current");
    if (label) label.textContent = cell ? cell.getAttribute("aria-label") : gettext("Every box is filled: tap one to change it.");
    pad.querySelectorAll("[data-pad-value]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(Boolean(cell) && cell.value !== "" && button.dataset.padValue === cell.value));
    });
    if (cell && reveal) inSight(pad, cell);
  }
  /* The next cell to fill: the first empty one after this one (then from the start). */
  function next(pad, after) {
    const all = cells(pad);
    const start = after ? all.indexOf(after) + 1 : 0;
    const order = all.slice(start).concat(all.slice(0, start));
    return order.find(function (cell) { return cell.value === "" && !cell.classList.contains("auto"); }) || null;
  }
  function padOf(element) {
    return element.closest ? element.closest("[data-pad]") : null;
  }
  /* A pad sticks above the Save bar while its boxes are near the screen; far off it, it
   * stays in its place (a pad stuck over boxes nobody can see yet would cover them). */
  const nearScreen = typeof IntersectionObserver === "undefined" ? null : new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      entry.target.toggleAttribute("data-pad-far", !entry.isIntersecting);
      if (!entry.target.isConnected) nearScreen.unobserve(entry.target);
    });
  }, { rootMargin: "50% 0px" });
  function startPads(root) {
    (root.querySelectorAll ? root.querySelectorAll("[data-pad]") : []).forEach(function (pad) {
      if (!current(pad)) take(pad, next(pad, null));
      if (nearScreen) nearScreen.observe(pad);
    });
  }

  document.addEventListener("focusin", function (event) {
    const cell = event.target;
    if (!cell.matches || !cell.matches("[data-pad-cell]")) return;
    take(padOf(cell), cell);
    /* a box filled by itself (the rest) is replaced by what is typed, not added to */
    if (cell.classList.contains("auto") && cell.select) cell.select();
  });
  document.addEventListener("focusout", function (event) {
    const cell = event.target;
    if (cell.matches && cell.matches("[data-pad-cell]")) cell.setAttribute("inputmode", "none");
  });

  document.addEventListener("click", function (event) {
    const value = event.target.closest ? event.target.closest("[data-pad-value]") : null;
    if (value) {
      const pad = padOf(value);
      let cell = current(pad) || next(pad, null);
      /* a number typed in the box in hand is kept: the tap is for the next box */
      if (cell && cell.dataset.padTyped && cell.value !== "") cell = next(pad, cell);
      if (!cell) return;
      const filling = cell.value === "";
      dirty(cell);
      cell.value = value.dataset.padValue;
      cell.classList.remove("auto");
      fire(cell);
      const after = next(pad, cell);
      take(pad, after, true);
      /* the tap filled the pad's last empty box: told to whoever waits for it (a save) */
      if (filling && !after) pad.dispatchEvent(new CustomEvent("tablescore:pad-full", { bubbles: true }));
      return;
    }
    const keypad = event.target.closest ? event.target.closest("[data-pad-keypad]") : null;
    if (keypad) {
      const pad = padOf(keypad);
      const cell = current(pad) || next(pad, null) || cells(pad)[0];
      if (!cell) return;
      cell.setAttribute("inputmode", "numeric");
      cell.focus();
      if (cell.select) cell.select();
    }
  });
  /* A cell typed in keeps the pad's buttons in step. */
  document.addEventListener("input", function (event) {
    const cell = event.target;
    if (!cell.matches || !cell.matches("[data-pad-cell]")) return;
    if (event.isTrusted) cell.classList.remove("auto");
    const pad = padOf(cell);
    if (pad && cell.classList.contains("is-current")) take(pad, cell);
    if (event.isTrusted) cell.dataset.padTyped = "1";
  });

  /* ---------------------------------------------------------------- radios that clear */
  document.addEventListener("click", function (event) {
    const radio = event.target;
    if (!radio.matches || !radio.matches("input[type=radio][data-toggle]")) return;
    const form = radio.form;
    const group = form ? form.querySelectorAll('input[type=radio][name="' + radio.name + '"]') : [radio];
    if (radio.dataset.on) {
      radio.checked = false;
      delete radio.dataset.on;
      dirty(radio);
      fire(radio);
      return;
    }
    group.forEach(function (other) { delete other.dataset.on; });
    radio.dataset.on = "1";
  });

  /* (A refused round's problems are brought into sight by static/js/table/forms.js.) */

  /* ---------------------------------------------------------------- the rules card */
  function rulesDialog() {
    let dialog = document.getElementById("rules-dialog");
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.id = "rules-dialog";
    dialog.className = "rules-dialog";
    dialog.setAttribute("aria-label", gettext("Rules"));
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog || event.target.closest("[data-close]")) dialog.close();
    });
    document.body.appendChild(dialog);
    return dialog;
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest ? event.target.closest("a[data-rules]") : null;
    if (!link || typeof HTMLDialogElement === "undefined") return;
    event.preventDefault();
    fetch(link.href, { headers: { "HX-Request": "true" } })
      .then(function (answer) {
        if (!answer.ok) throw new Error(String(answer.status));
        return answer.text();
      })
      .then(function (html) {
        const dialog = rulesDialog();
        dialog.innerHTML = html;
        dialog.showModal();
        const close = dialog.querySelector("[data-close]");
        if (close) close.focus();
      })
      .catch(function () { window.location.href = link.href; });
  });

  /* ---------------------------------------------------------------- the Save bar's height */
  /* What sticks above the Save bar (a pad) needs its height, which changes with the preview. */
  let watched = null;
  const measure = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      document.documentElement.style.setProperty("--save-bar", Math.ceil(entry.target.getBoundingClientRect().height) + "px");
    });
    document.dispatchEvent(new CustomEvent("tablescore:save-bar"));
    /* the bar grew (the preview came in): the box in hand, if on screen, stays above the pad */
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    document.querySelectorAll("form[data-entry] [data-pad]").forEach(function (pad) {
      const cell = current(pad);
      if (!cell) return;
      const box = cell.getBoundingClientRect();
      if (box.bottom > 0 && box.top < view) inSight(pad, cell);
    });
  });
  function watchBar() {
    const bar = document.querySelector("form[data-entry] .actions");
    if (!measure || bar === watched) return;
    if (watched) measure.unobserve(watched);
    watched = bar;
    if (bar) measure.observe(bar);
  }

  /* for a game's script whose choices move the pad on (who went out has no cards to count);
   * quietly: the box in hand changes without scrolling the page to it */
  window.tablescorePads = {
    take: function (pad, cell, quietly) { take(pad, cell, !quietly); },
    next: next,
    current: current,
  };

  if (window.htmx) window.htmx.onLoad(function (root) { startPads(root); watchBar(); });
  else document.addEventListener("DOMContentLoaded", function () { startPads(document); watchBar(); });
})();
