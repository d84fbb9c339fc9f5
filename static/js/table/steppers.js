/* Taps that fill a field or hand something on:
 *
 * - steppers (data-step in a data-stepper): "+" and "-" by the step, within the field's
 *   limits; from empty, "+" gives the first step up (the minimum bid, one trick), "-" the
 *   minimum
 * - quick picks (data-set, data-value): a value put in a named field
 * - a copy button (data-copy: the field to copy) and a share button (data-share: the link),
 *   shown only where the browser can share
 */
(function () {
  "use strict";
  const T = window.tablescore;

  document.addEventListener("click", function (event) {
    const step = event.target.closest("[data-step]");
    if (step) {
      const input = step.closest("[data-stepper]").querySelector("input");
      if (input.disabled) return;
      T.touch(input);
      const by = Number(step.dataset.step);
      const current = T.num(input);
      const lowest = Number(input.min || 0);
      const next = current === null ? (by > 0 ? Math.max(lowest, by) : lowest) : current + by;
      input.value = T.clamp(next, input);
      T.fire(input);
      return;
    }
    const pick = event.target.closest("[data-set]");
    if (pick) {
      const form = pick.closest("form");
      const input = form.querySelector('[name="' + pick.dataset.set + '"]');
      T.touch(input);
      input.value = pick.dataset.value;
      T.fire(input);
      return;
    }
    const copy = event.target.closest("[data-copy]");
    if (copy) {
      const field = document.querySelector(copy.dataset.copy);
      const done = function () { copy.textContent = gettext("Copied"); };
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

  function showShare(root) {
    const share = root.querySelector ? root.querySelector("[data-share]") : null;
    if (share && navigator.share) share.hidden = false;
  }

  T.showShare = showShare;
})();
