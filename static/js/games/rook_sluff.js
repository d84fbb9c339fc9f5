/* Rook Sluff at the table: the tricks left to count down to zero (the deal's tricks from
 * data-tricks) and each team's bid. */
(function () {
  "use strict";
  const num = window.tablescore.num;

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

  window.tablescore.register({ sync: syncSluff });
})();
