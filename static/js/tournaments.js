/* The projector: show the draw, then the standings, in turn. The live part inside is
   swapped by htmx polling; the panel shown is kept on the outer element. */
(function () {
  "use strict";
  var SECONDS = 15;
  function start() {
    var screen = document.querySelector("[data-projector]");
    if (!screen) return;
    var panels = ["draw", "standings"];
    var shown = 0;
    window.setInterval(function () {
      shown = (shown + 1) % panels.length;
      screen.setAttribute("data-show", panels[shown]);
    }, SECONDS * 1000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
