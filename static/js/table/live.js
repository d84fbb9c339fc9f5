/* The scoreboard and the round form kept in step with the other phones (htmx):
 *
 * - a form being filled in is not replaced when another phone records a round; it says a
 *   round came in meanwhile only when the fresh form is for another round
 * - a poll's late answer is dropped, and an answer goes to the scoreboard shown now
 * - after a save the scoreboard is in sight (and a round waiting for the other side's
 *   confirmation); after a refusal, the message; a change asked of the other side (undo,
 *   reopen, end early) is shown at the scoreboard
 * - a round another phone entered, for this phone to confirm, in sight when it arrives
 */
(function () {
  "use strict";
  const T = window.tablescore;

  function isRefresh(detail) {
    const elt = detail.elt;
    return elt && elt.id === "entry" && detail.requestConfig && detail.requestConfig.verb === "get";
  }

  /* A form being filled in stays as typed. It says a round came in meanwhile only when the
   * fresh form is for another round (a confirmation elsewhere changes nothing in it). */
  function keepTyped(form, freshNumber) {
    const number = form.querySelector("input[name=number]");
    if (number && freshNumber === number.value) return;
    const stale = form.querySelector("[data-stale]");
    if (stale) stale.hidden = false;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const elt = event.detail.elt;
    if (isRefresh(event.detail)) return;
    const form = elt.closest ? elt.closest("form[data-entry]") : null;
    if (form && elt.id !== "preview") {
      const banner = form.querySelector("[data-send-error]");
      if (banner) banner.hidden = true;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    /* The game changed on another phone: the fresh form replaces this one only if nothing was
     * typed or tapped in it, as it is when the fresh form arrives (typing may begin while it
     * is on its way). */
    if (isRefresh(detail)) {
      const form = detail.elt.querySelector("form[data-entry]");
      if (T.touched(form)) {
        detail.shouldSwap = false;
        const found = /name="number" value="(\d+)"/.exec(detail.serverResponse || "");
        keepTyped(form, found ? found[1] : null);
      }
    }
  });

  document.addEventListener("htmx:beforeOnLoad", function (event) {
    /* A poll answers the scoreboard it was asked about. A newer one may have arrived meanwhile
     * (a save, a confirmation, an ending): the late answer is dropped; otherwise it goes to the
     * scoreboard shown now, not to the one replaced while the poll was under way. */
    const detail = event.detail;
    if (!detail.elt.matches || !detail.elt.matches("[data-live-poll]") || !detail.xhr) return;
    let revision = null;
    let clock = "";
    try {
      const changed = JSON.parse(detail.xhr.getResponseHeader("HX-Trigger") || "{}")["table-changed"];
      revision = changed ? Number(changed.revision) : null;
      clock = changed && changed.clock ? String(changed.clock) : "";
    } catch (error) { /* no revision given: swap as usual */ }
    /* The same scoreboard with another clock (a pause, an extension) is swapped too. */
    const older = revision !== null && revision < T.revisionShown();
    const same = revision !== null && revision === T.revisionShown() && clock === T.clockShown();
    if (older || same) {
      event.preventDefault();
      return;
    }
    const live = document.getElementById("live");
    if (live) detail.target = live;
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    if (target && target.id === "entry" && T.touched(target.querySelector("form[data-entry]"))) {
      event.detail.shouldSwap = false;
      const fresh = event.detail.fragment;
      const number = fresh && fresh.querySelector ? fresh.querySelector("input[name=number]") : null;
      keepTyped(target.querySelector("form[data-entry]"), number ? number.value : null);
    }
  });

  /* After a save: the scoreboard from its top; a round waiting for the other side's
   * confirmation, with its buttons, in sight (sideways it may sit below the scoreboard). */
  function savedInSight(entry) {
    const live = document.getElementById("live");
    (live || entry).scrollIntoView({ block: "start" });
    const pending = live && live.querySelector(".pending");
    if (!pending) return;
    const box = pending.getBoundingClientRect();
    const view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    if (box.bottom > view) pending.scrollIntoView({ block: box.height < view ? "end" : "start" });
  }

  /* A change asked of the other side from below the scoreboard (undo, reopen, end early):
   * the request, or why it was refused, is shown at the scoreboard and brought into sight. */
  let asking = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    const asker = event.detail.elt;
    if (asker && asker.closest && asker.closest("#recent, #entry") && asker.getAttribute("hx-target") === "#live") {
      asking = true;
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!asking) return;
    asking = false;
    const live = document.getElementById("live");
    const shown = live && live.querySelector("[data-change-error], [data-change-request]");
    if (shown) shown.scrollIntoView({ block: "center" });
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    /* After a save: the scoreboard and the new round in sight; after a refusal: the message. */
    const entry = event.target;
    const config = event.detail.requestConfig;
    if (!config || config.verb !== "post") return;
    if (entry.id !== "correct-form" && entry.id !== "entry") return;
    if (entry.id === "entry" && entry.querySelector(".notice.ok")) {
      savedInSight(entry);
      return;
    }
    /* a round refused for its boxes: the field at fault in sight (and the Save bar says
     * why); any other refusal (changed meanwhile, recorded first elsewhere): its message,
     * for a correction at the top of the form, which sits below the recorded deal */
    const refusal = entry.querySelector(".conflict, [data-stale-change], .notice.error:not([hidden]):not(.first-problem)");
    const form = entry.querySelector("form[data-entry]");
    if (!refusal && form && form.querySelector("[data-first-problem]")) {
      T.problemInSight(form);
      return;
    }
    T.inSight(entry.querySelector("[role=alert]:not([hidden]), .notice.error:not([hidden]), .has-error"));
  });

  /* A round another phone entered, which this phone may confirm: its card in sight when it
   * arrives (sideways it sits below the scoreboard), unless a round is being filled in here. */
  function toConfirm(root) {
    return Array.prototype.map.call(
      root.querySelectorAll(".pending[data-pending]"),
      function (card) { return card.dataset.pending + (card.querySelector(".confirm-form button") ? "+" : ""); }
    );
  }
  let shownToConfirm = null;
  function newToConfirm() {
    const live = document.getElementById("live");
    if (!live) return;
    const now = toConfirm(live);
    const before = shownToConfirm;
    shownToConfirm = now;
    if (before === null) return;
    const fresh = now.filter(function (key) { return key.slice(-1) === "+" && before.indexOf(key) < 0; });
    if (!fresh.length) return;
    const form = document.querySelector("#entry form[data-entry]");
    if (T.touched(form)) return;
    T.inSight(live.querySelector(".pending[data-pending='" + fresh[0].slice(0, -1) + "']"), true);
  }
  document.addEventListener("DOMContentLoaded", newToConfirm);
  document.addEventListener("htmx:afterSettle", newToConfirm);

  T.savedInSight = savedInSight;
})();
