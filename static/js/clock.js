/* The round clock: counts down from the seconds the server said were left when the
   page (or its live part) was drawn, and says "Last deal" at zero. A paused clock
   stands still. htmx swaps bring a fresh count. */
(function () {
  "use strict";
  var LAST_DEAL = gettext("Last deal");
  function text(seconds) {
    if (seconds <= 0) return LAST_DEAL;
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function arm(root) {
    (root || document).querySelectorAll("[data-clock]").forEach(function (clock) {
      if (clock.dataset.armed) return;
      clock.dataset.armed = "1";
      clock.dataset.until = String(Date.now() + Number(clock.dataset.clockLeft) * 1000);
    });
  }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      if (clock.dataset.clockState !== "running") return;
      var left = Math.max(0, Math.round((Number(clock.dataset.until) - Date.now()) / 1000));
      var shown = clock.querySelector("[data-clock-text]");
      if (shown) shown.textContent = text(left);
      clock.classList.toggle("is-up", left <= 0);
    });
  }
  function start() {
    arm(document);
    tick();
    window.setInterval(tick, 1000);
    document.body.addEventListener("htmx:afterSwap", function () { arm(document); tick(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
