/* Roller Derby at the table: the target is the sum of the dice; all or nothing swaps the
 * inputs (tricks and jokers out, made or failed in). */
(function () {
  "use strict";

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

  window.tablescore.register({ sync: syncDerby });
})();
