/* Rummoli at the table: the widow buyer appears for a sale; who went out has no cards left;
 * a claimed pay card's section stands out. */
(function () {
  "use strict";

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
        if (isOut && changed && changed.name === "went_out") {
          input.value = 0;
          input.classList.remove("is-current");
        }
      });
      const pads = window.tablescorePads;
      const pad = end.querySelector("[data-pad]");
      if (changed && changed.name === "went_out" && pads && pad) {
        /* the pad moves on to the first player still to count */
        const current = pads.current(pad);
        pads.take(pad, current && current.value === "" ? current : pads.next(pad, null));
      }
    }
    form.querySelectorAll("[data-pay-section]").forEach(function (head) {
      const claimed = form.querySelector('input[name="' + head.dataset.paySection + '"]:checked');
      head.classList.toggle("is-claimed", Boolean(claimed));
    });
  }

  window.tablescore.register({ sync: syncRummoli });
})();
