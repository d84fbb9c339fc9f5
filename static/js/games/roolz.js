/* Roolz at the table.
 *
 * - the bid ladder shows the bid chosen;
 * - the points won are tapped for the bidding side ("made exactly", a little short, a
 *   little over; the values follow the bid, the limits come from the field's data-*),
 *   and the other side is the rest of the round's total (data-total);
 * - typed points: a side being typed in is never refilled; a side left empty (and not
 *   being typed in) is filled with the rest once the others are known; a side typed by
 *   hand is never overwritten;
 * - a side that took every trick gets the whole total;
 * - with one called partner, one tap on a grid (the bidder's row, the partner's column)
 *   chooses both; the chips it stands for are kept (hidden) and are what is sent.
 */
(function () {
  "use strict";
  const num = window.tablescore.num;

  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function biddingSide(form) {
    const group = form.querySelector("[data-points]");
    const bidder = form.querySelector('input[name="bidder"]:checked');
    if (!group || !bidder) return null;
    const label = bidder.closest(".chip").querySelector("small");
    const team = label ? label.textContent.trim() : "bidder";
    return group.querySelector('[data-side="' + team + '"]') || group.querySelector('[data-side="bidder"]');
  }

  /* Fill the one side nobody typed with the rest of the total; ``editing`` (the box being
   * typed in) is never filled. */
  function fillPoints(group, editing) {
    const inputs = Array.from(group.querySelectorAll("[data-points-input]"));
    const total = Number(group.dataset.total);
    const typed = inputs.filter(function (input) { return input.dataset.typed && num(input) !== null; });
    const open = inputs.filter(function (input) { return typed.indexOf(input) < 0; });
    const sum = typed.reduce(function (acc, input) { return acc + num(input); }, 0);
    let message = "";
    open.forEach(function (input) {
      if (input !== editing && input.classList.contains("auto")) input.value = "";
      input.classList.remove("auto");
    });
    if (open.length === 1 && typed.length) {
      if (open[0] === editing) {
        /* left alone while typed in: filled when the box is left */
      } else if (sum <= total) {
        open[0].value = total - sum;
        open[0].classList.add("auto");
      } else {
        message = interpolate(gettext("The points typed add up to %(sum)s, more than %(total)s."), { sum: sum, total: total }, true);
      }
    } else if (!open.length && sum !== total) {
      message = interpolate(gettext("These add up to %(sum)s, not %(total)s: check them before saving."), { sum: sum, total: total }, true);
    }
    const warning = group.querySelector("[data-won-warning]");
    if (warning) {
      warning.textContent = message;
      warning.hidden = !message;
    }
  }

  function padValue(group, bid, offset) {
    const total = Number(group.dataset.total);
    const low = Number(group.dataset.min || 0);
    const step = Number(group.dataset.pointsStep || 1);
    const value = bid + offset;
    if (value < low || value > total || value % step !== 0) return null;
    return value;
  }

  function syncSideGrid(form) {
    const grid = form.querySelector("[data-side-grid]");
    if (!grid) return;
    grid.hidden = false;
    /* the grid says the chips' problems too: they stay hidden */
    form.querySelectorAll("[data-side-chips]").forEach(function (chips) { chips.hidden = true; });
    const bidder = form.querySelector('input[name="bidder"]:checked');
    const partner = form.querySelector('input[name="partners"]:checked');
    grid.querySelectorAll("input[name=side-pick]").forEach(function (cell) {
      cell.checked = Boolean(bidder && partner) && cell.value === bidder.value + ":" + partner.value;
    });
  }

  function pickSide(form, cell) {
    const parts = cell.value.split(":");
    [["bidder", parts[0]], ["partners", parts[1]]].forEach(function (pair) {
      const input = form.querySelector('input[name="' + pair[0] + '"][value="' + pair[1] + '"]');
      if (input && !input.checked) {
        input.checked = true;
        fire(input);
      }
    });
  }

  function sync(form) {
    syncSideGrid(form);
    const group = form.querySelector("[data-points]");
    const bidInput = form.querySelector('[name="bid"]');
    const bid = bidInput ? num(bidInput) : null;
    form.querySelectorAll("[data-set=bid]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(bid !== null && Number(button.dataset.value) === bid));
    });
    if (!group) return;
    group.querySelectorAll(".won-side").forEach(function (side) { side.classList.remove("is-bidding"); });
    const side = biddingSide(form);
    if (side) {
      side.classList.add("is-bidding");
      /* the badge before the bidding side's name (tablescore.css shows its data-badge) */
      side.querySelectorAll("label").forEach(function (label) {
        label.setAttribute("data-badge", pgettext("badge of the bidding side", "bid"));
      });
    }
    const target = side ? side.querySelector("[data-points-input]") : null;
    const current = target ? num(target) : null;
    const ready = Boolean(side) && bid !== null;
    const title = group.querySelector("[data-pad-title]");
    if (title) {
      title.textContent = ready
        ? interpolate(gettext("%(side)s took (bid %(bid)s):"), { side: side.querySelector(".side-name").textContent, bid: bid }, true)
        : gettext("Choose the bidder and the bid: the points are then one tap.");
    }
    group.querySelectorAll("[data-points-offset]").forEach(function (button) {
      const offset = Number(button.dataset.pointsOffset);
      const value = ready ? padValue(group, bid, offset) : null;
      const shown = button.querySelector("[data-points-value]");
      if (offset === 0) shown.textContent = value === null ? "" : value;
      else shown.textContent = value === null ? (offset > 0 ? "+" + offset : "\u2212" + -offset) : value;
      button.disabled = value === null;
      button.dataset.value = value === null ? "" : value;
      button.setAttribute("aria-pressed", String(value !== null && value === current));
    });
  }

  function tapPoints(form, button) {
    const group = form.querySelector("[data-points]");
    const side = biddingSide(form);
    if (!group || !side || !button.dataset.value) return;
    const target = side.querySelector("[data-points-input]");
    const inputs = Array.from(group.querySelectorAll("[data-points-input]"));
    form.dataset.dirty = "1";
    target.value = button.dataset.value;
    target.dataset.typed = "1";
    target.classList.remove("auto");
    if (inputs.length === 2) {
      inputs.forEach(function (input) { if (input !== target) delete input.dataset.typed; });
    }
    const slam = form.querySelector('[name="all_tricks"][value=""]');
    if (slam && !slam.checked) slam.checked = true;
    fillPoints(group, null);
    fire(target);
  }

  /* Once the bidder and the bid are known the points are next: the pad is brought above the
   * Save bar (it sits under it after a bid low on the screen). */
  function pointsInSight(form) {
    const pad = form.querySelector(".points-pad");
    const bar = form.querySelector(".actions");
    if (!pad || !bar || !biddingSide(form) || num(form.querySelector('[name="bid"]')) === null) return;
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    const bottom = Math.min(view, bar.getBoundingClientRect().top) - 6;
    const topbar = document.querySelector(".topbar");
    const sticky = topbar && getComputedStyle(topbar).position === "sticky";
    const top = (sticky ? topbar.getBoundingClientRect().bottom : 0) + 6;
    const box = pad.getBoundingClientRect();
    if (box.bottom > bottom) window.scrollBy(0, Math.min(box.bottom - bottom, box.top - top));
  }

  /* the Save bar grew (the preview came in) while the points are still to be tapped */
  document.addEventListener("tablescore:save-bar", function () {
    const form = document.querySelector("form[data-entry]");
    const group = form && form.querySelector("[data-points]");
    if (!group || group.querySelector("[data-points-input][data-typed]")) return;
    const box = group.getBoundingClientRect();
    if (box.top < (window.visualViewport ? window.visualViewport.height : window.innerHeight)) pointsInSight(form);
  });

  document.addEventListener("click", function (event) {
    const form = event.target.closest ? event.target.closest("form[data-entry]") : null;
    if (!form) return;
    if (event.target.closest("[data-set=bid]")) {
      window.setTimeout(function () { pointsInSight(form); }, 0);
      return;
    }
    const pad = event.target.closest("[data-points-offset]");
    if (pad) {
      tapPoints(form, pad);
      return;
    }
    if (event.target.closest("[data-keypad]")) {
      const side = biddingSide(form) || form.querySelector("[data-points] .won-side");
      const input = side && side.querySelector("[data-points-input]");
      if (input) input.focus();
    }
  });

  document.addEventListener("input", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches("[data-points-input]") || !event.isTrusted) return;
    input.classList.remove("auto");
    if (input.value.trim() === "") delete input.dataset.typed;
    else input.dataset.typed = "1";
    fillPoints(input.closest("[data-points]"), input);
  });

  document.addEventListener("focusout", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches("[data-points-input]")) return;
    const group = input.closest("[data-points]");
    /* the box the focus goes to is about to be typed in: it is not refilled */
    fillPoints(group, event.relatedTarget);
    const form = group.closest("form[data-entry]");
    if (form) sync(form);
  });

  function tookEveryTrick(form, event) {
    if (event.target.name === "side-pick") {
      form.dataset.dirty = "1";
      pickSide(form, event.target);
      pointsInSight(form);
      return;
    }
    if (event.target.name === "bidder" && event.isTrusted) pointsInSight(form);
    if (event.target.name !== "all_tricks") return;
    const slam = form.querySelector("[data-slam]");
    const group = form.querySelector("[data-points]");
    if (!slam || !group || !slam.hasAttribute("data-fills") || !event.target.value) return;
    const total = Number(group.dataset.total);
    group.querySelectorAll("[data-points-input]").forEach(function (input) {
      input.value = input.closest("[data-side]").dataset.side === event.target.value ? total : 0;
      input.classList.remove("auto");
      delete input.dataset.typed;
    });
    const warning = group.querySelector("[data-won-warning]");
    if (warning) warning.hidden = true;
  }

  window.tablescore.register({ sync: sync, change: tookEveryTrick });
})();
