/* Tablescore at the table: small helpers around the htmx forms. No build step.
 *
 * - keeps the screen awake while a game is open (Wake Lock, where the browser has it)
 * - steppers and quick picks for numbers
 * - Roolz: the other side's points are the rest of 300; "took every trick" fills 300
 * - Roller Derby: the target is the sum of the dice; all or nothing swaps the inputs
 * - Rook Sluff: tricks left to count down to zero and each team's bid
 * - Rummoli: the widow buyer appears for a sale; who went out has 0 cards left
 * - a form being filled in is not replaced when another phone records a round
 */
(function () {
  "use strict";

  /* ---------------------------------------------------------------- wake lock */
  let wakeLock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) return;
    if (document.visibilityState !== "visible" || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", function () { wakeLock = null; });
    } catch (error) {
      wakeLock = null; /* refused (battery saver, no gesture yet): the game goes on */
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });

  /* ---------------------------------------------------------------- helpers */
  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function num(input) {
    const value = parseInt(input.value, 10);
    return Number.isNaN(value) ? null : value;
  }
  function clamp(value, input) {
    const min = input.min === "" ? -Infinity : Number(input.min);
    const max = input.max === "" ? Infinity : Number(input.max);
    return Math.min(max, Math.max(min, value));
  }

  /* ---------------------------------------------------------------- steppers, quick picks */
  document.addEventListener("click", function (event) {
    const step = event.target.closest("[data-step]");
    if (step) {
      const input = step.closest("[data-stepper]").querySelector("input");
      if (input.disabled) return;
      const by = Number(step.dataset.step);
      const current = num(input);
      const lowest = Number(input.min || 0);
      /* from empty: "+" gives the first step up (the minimum bid, one trick), "-" the minimum */
      const next = current === null ? (by > 0 ? Math.max(lowest, by) : lowest) : current + by;
      input.value = clamp(next, input);
      fire(input);
      return;
    }
    const pick = event.target.closest("[data-set]");
    if (pick) {
      const form = pick.closest("form");
      const input = form.querySelector('[name="' + pick.dataset.set + '"]');
      input.value = pick.dataset.value;
      fire(input);
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const field = document.querySelector(copy.dataset.copy);
      const done = function () { copy.textContent = "Copied"; };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
      } else {
        field.select();
        document.execCommand("copy");
        done();
      }
      return;
    }
    const share = event.target.closest("[data-share]");
    if (share && navigator.share) {
      navigator.share({ title: share.dataset.shareTitle, url: share.dataset.share }).catch(function () {});
    }
  });

  /* ---------------------------------------------------------------- Roolz: rest of 300 */
  const wonOrder = new WeakMap();
  function fillWon(group, edited) {
    const inputs = Array.from(group.querySelectorAll("[data-won]"));
    let order = wonOrder.get(group) || inputs.slice();
    order = order.filter(function (input) { return input !== edited; });
    order.push(edited);
    wonOrder.set(group, order);
    const auto = order[0];
    const others = inputs.filter(function (input) { return input !== auto; });
    if (others.some(function (input) { return num(input) === null; })) return;
    const rest = Number(group.dataset.total) - others.reduce(function (sum, input) { return sum + num(input); }, 0);
    inputs.forEach(function (input) { input.classList.toggle("auto", input === auto); });
    if (rest >= 0) auto.value = rest;
  }

  function markBidder(form) {
    const group = form.querySelector("[data-won-group]");
    const bidder = form.querySelector('input[name="bidder"]:checked');
    if (!group) return;
    group.querySelectorAll(".won-side").forEach(function (side) { side.classList.remove("is-bidding"); });
    if (!bidder) return;
    const label = bidder.closest(".chip").querySelector("small");
    const team = label ? label.textContent.trim() : "bidder";
    const side = group.querySelector('[data-side="' + team + '"]') || group.querySelector('[data-side="bidder"]');
    if (side) side.classList.add("is-bidding");
  }

  /* ---------------------------------------------------------------- Roller Derby */
  function syncDerby(form) {
    const dice = form.querySelector("[data-dice]");
    if (dice) {
      const rolled = Array.from(dice.querySelectorAll("input:checked")).map(function (input) { return Number(input.value); });
      const count = dice.querySelectorAll("fieldset").length;
      const out = dice.querySelector("[data-target]");
      out.textContent = rolled.length === count ? rolled.reduce(function (a, b) { return a + b; }, 0) : "?";
    }
    const aon = form.querySelector("[data-aon]");
    if (aon) {
      form.querySelectorAll("[data-when-aon]").forEach(function (el) { el.hidden = !aon.checked; });
      form.querySelectorAll("[data-unless-aon]").forEach(function (el) { el.hidden = aon.checked; });
    }
  }

  /* ---------------------------------------------------------------- Rook Sluff */
  function syncSluff(form) {
    const block = form.querySelector("[data-sluff]");
    if (!block) return;
    const total = Number(block.dataset.tricks);
    let took = 0;
    const bids = {};
    block.querySelectorAll(".sluff-row").forEach(function (row) {
      const team = row.dataset.team;
      const bid = num(row.querySelector("[data-bid] input"));
      const tricks = num(row.querySelector("[data-took] input"));
      bids[team] = (bids[team] || 0) + (bid || 0);
      took += tricks || 0;
      row.classList.toggle("is-sluff", bid === 0);
    });
    const remaining = block.querySelector("[data-remaining]");
    remaining.textContent = total - took;
    remaining.closest(".remaining").classList.toggle("is-done", total - took === 0);
    remaining.closest(".remaining").classList.toggle("is-over", total - took < 0);
    Object.keys(bids).forEach(function (team) {
      const out = block.querySelector('[data-team-bid="' + team + '"]');
      if (out) out.textContent = bids[team];
    });
  }

  /* ---------------------------------------------------------------- Rummoli */
  function syncRummoli(form, changed) {
    const widow = form.querySelector("[data-widow]");
    if (widow) {
      const mode = widow.querySelector('input[name="widow"]:checked');
      widow.querySelectorAll("[data-when-widow]").forEach(function (el) {
        el.hidden = !mode || mode.value !== el.dataset.whenWidow;
      });
    }
    const end = form.querySelector("[data-end-of-hand]");
    if (end) {
      const out = end.querySelector('input[name="went_out"]:checked');
      end.querySelectorAll("[data-cards-seat]").forEach(function (cell) {
        const input = cell.querySelector("input");
        const isOut = out && out.value === cell.dataset.cardsSeat;
        cell.classList.toggle("is-out-player", Boolean(isOut));
        if (isOut && changed && changed.name === "went_out") input.value = 0;
      });
    }
    form.querySelectorAll(".pay-card select").forEach(function (select) {
      select.closest(".pay-card").classList.toggle("is-claimed", select.value !== "");
    });
  }

  function sync(form, changed) {
    markBidder(form);
    syncDerby(form);
    syncSluff(form);
    syncRummoli(form, changed);
  }

  document.addEventListener("input", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    const group = event.target.closest("[data-won-group]");
    if (group && event.target.matches("[data-won]") && event.isTrusted) fillWon(group, event.target);
    sync(form, event.target);
  });

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (!form) return;
    if (event.isTrusted) form.dataset.dirty = "1";
    if (event.target.name === "all_tricks") {
      const slam = form.querySelector("[data-slam]");
      if (slam && slam.hasAttribute("data-fills") && event.target.value) {
        form.querySelectorAll("[data-won]").forEach(function (input) {
          input.value = input.closest("[data-side]").dataset.side === event.target.value ? 300 : 0;
          input.classList.remove("auto");
        });
      }
    }
    sync(form, event.target);
  });

  /* ---------------------------------------------------------------- htmx glue */
  function init(root) {
    root.querySelectorAll("form[data-entry]").forEach(function (form) { sync(form, null); });
    const share = root.querySelector ? root.querySelector("[data-share]") : null;
    if (share && navigator.share) share.hidden = false;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    /* Another phone recorded a round: refresh the form only if nothing was typed in it. */
    const elt = event.detail.elt;
    if (elt.id !== "entry" || event.detail.requestConfig.verb !== "get") return;
    const form = elt.querySelector("form[data-entry]");
    if (form && form.dataset.dirty) {
      event.preventDefault();
      const stale = form.querySelector("[data-stale]");
      if (stale) stale.hidden = false;
    }
  });

  if (window.htmx) {
    window.htmx.onLoad(function (content) { init(content); keepAwake(); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { init(document); keepAwake(); });
  }
})();
