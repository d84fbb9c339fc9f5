/* Rook Sluff at the table: each team's bid (the sum of its players' bids) as the bids come
 * in; a player who bids 0 (a Sluff) is offered "took a trick" beside their bid (one tap,
 * none taken until told); and the tricks of one team are the rest of the deal's tricks
 * (data-tricks) once the other team's are in (filled by itself, skipped by the pad, one tap
 * on the box to change it). */
(function () {
  "use strict";
  const num = window.tablescore.num;

  /* The team box nobody typed in is the rest; a box filled by itself empties again when
   * the other is cleared. */
  function fillTheRest(block, total) {
    const boxes = Array.from(block.querySelectorAll(".team-took input"));
    if (boxes.length !== 2) return;
    const editing = document.activeElement;
    const typed = boxes.filter(function (box) { return box.value !== "" && !box.classList.contains("auto"); });
    boxes.forEach(function (box) {
      if (typed.length !== 1 && box.classList.contains("auto") && box !== editing) {
        box.value = "";
        box.classList.remove("auto");
      }
    });
    if (typed.length !== 1) return;
    const other = boxes.find(function (box) { return box !== typed[0]; });
    if (other === editing && !other.classList.contains("auto") && other.value !== "") return;
    const rest = total - num(typed[0]);
    if (rest < 0) {
      if (other.classList.contains("auto")) { other.value = ""; other.classList.remove("auto"); }
      return;
    }
    if (other.value === "" || other.classList.contains("auto")) {
      other.value = rest;
      other.classList.add("auto");
      other.classList.remove("is-current");
    }
  }

  function syncSluff(form, changed) {
    const block = form.querySelector("[data-sluff]");
    if (!block) return;
    const total = Number(block.dataset.tricks);
    if (!changed || !changed.classList || !changed.classList.contains("auto")) fillTheRest(block, total);
    const bids = {};
    block.querySelectorAll(".sluff-row").forEach(function (row) {
      const team = row.dataset.team;
      const bid = num(row.querySelector("[data-bid] input"));
      bids[team] = (bids[team] || 0) + (bid || 0);
      const sluff = bid === 0;
      row.classList.toggle("is-sluff", sluff);
      const took = row.querySelector("[data-sluff-took]");
      if (took) {
        const box = took.querySelector("input");
        took.hidden = !sluff;
        box.disabled = !sluff;
        if (!sluff) box.checked = false;
      }
    });
    Object.keys(bids).forEach(function (team) {
      const out = block.querySelector('[data-team-bid="' + team + '"]');
      if (out) out.textContent = bids[team];
    });
  }

  document.addEventListener("focusout", function (event) {
    const cell = event.target;
    if (!cell.matches || !cell.matches("[data-sluff] .team-took input")) return;
    const form = cell.closest("form[data-entry]");
    /* after the focus has moved on, so that the box left is no longer the one in hand */
    if (form) window.setTimeout(function () { syncSluff(form, null); }, 0);
  });

  window.tablescore.register({ sync: syncSluff });
})();
