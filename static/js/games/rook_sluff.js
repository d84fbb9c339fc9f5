/* Rook Sluff at the table: the tricks left to count down to zero (the deal's tricks from
 * data-tricks) and each team's bid. A player who bids 0 (a Sluff) plays to take no trick:
 * their tricks are put at 0 (marked as filled by itself, skipped by the pad, one tap on the
 * box to change). Once every bid is in and every player's tricks but one, that one is
 * filled with the rest (and follows the others while nobody types in it). */
(function () {
  "use strict";
  const num = window.tablescore.num;

  function fillLastTook(block, total) {
    const rows = Array.from(block.querySelectorAll(".sluff-row"));
    const bidsIn = rows.every(function (row) { return num(row.querySelector("[data-bid] input")) !== null; });
    const took = rows.map(function (row) { return row.querySelector("[data-took] input"); });
    /* the box being typed in is left as it is: it is filled, if still empty, once it is left */
    const editing = document.activeElement;
    rows.forEach(function (row) {
      const input = row.querySelector("[data-took] input");
      const sluff = num(row.querySelector("[data-bid] input")) === 0;
      const zero = input.dataset.sluffZero && input.classList.contains("auto");
      if (input.dataset.sluffZero && !input.classList.contains("auto")) delete input.dataset.sluffZero;
      if (zero && !sluff) {
        input.value = "";
        input.classList.remove("auto");
        delete input.dataset.sluffZero;
      } else if (sluff && input.value === "" && input !== editing && !input.disabled) {
        input.value = "0";
        input.classList.add("auto");
        input.dataset.sluffZero = "1";
      }
    });
    const rest = function (input) { return input.classList.contains("auto") && !input.dataset.sluffZero; };
    took.forEach(function (input) {
      if (rest(input) && input !== editing) input.value = "";
    });
    const open = took.filter(function (input) { return input.value === "" && !input.disabled; });
    took.forEach(function (input) { if (input !== editing && rest(input)) input.classList.remove("auto"); });
    if (!bidsIn || open.length !== 1 || open[0] === editing) return;
    const sum = took.reduce(function (acc, input) { return acc + (num(input) || 0); }, 0);
    if (sum > total) return;
    open[0].value = total - sum;
    open[0].classList.add("auto");
    if (open[0].classList.contains("is-current")) open[0].classList.remove("is-current");
  }

  function syncSluff(form, changed) {
    const block = form.querySelector("[data-sluff]");
    if (!block) return;
    const total = Number(block.dataset.tricks);
    if (!changed || !changed.classList || !changed.classList.contains("auto")) fillLastTook(block, total);
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

  document.addEventListener("focusout", function (event) {
    const cell = event.target;
    if (!cell.matches || !cell.matches("[data-sluff] input")) return;
    const form = cell.closest("form[data-entry]");
    /* after the focus has moved on, so that the box left is no longer the one in hand */
    if (form) window.setTimeout(function () { syncSluff(form, null); }, 0);
  });

  window.tablescore.register({ sync: syncSluff });
})();
