/* Roolz at the table: the bidder's side stands out among the points won, and a side that
 * took every trick gets the whole of the round's points (the total from data-total). */
(function () {
  "use strict";

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

  function tookEveryTrick(form, event) {
    if (event.target.name !== "all_tricks") return;
    const slam = form.querySelector("[data-slam]");
    const group = form.querySelector("[data-won-group]");
    if (!slam || !group || !slam.hasAttribute("data-fills") || !event.target.value) return;
    const total = Number(group.dataset.total);
    group.querySelectorAll("[data-won]").forEach(function (input) {
      input.value = input.closest("[data-side]").dataset.side === event.target.value ? total : 0;
      input.classList.remove("auto");
      delete input.dataset.typed;
    });
    const warning = group.querySelector("[data-won-warning]");
    if (warning) warning.hidden = true;
  }

  window.tablescore.register({ sync: markBidder, change: tookEveryTrick });
})();
