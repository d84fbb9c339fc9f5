/* The bracket fits its screen: on a desktop or a projector every round's column is
   shown side by side, scaled down as far as needed so that nothing is cut off (a
   phone keeps scrolling across the rounds). Laid again after every live swap. */
(function () {
  "use strict";
  var DESKTOP = 900; // as bracket.css lays the columns side by side
  var SMALLEST = 0.35; // below this a name is not read: the board scrolls instead
  function fit() {
    var desktop = window.innerWidth >= DESKTOP;
    document.querySelectorAll(".bracket-columns").forEach(function (columns) {
      columns.style.zoom = "";
      if (!desktop) return;
      var scale = columns.clientWidth / columns.scrollWidth;
      if (scale < 1) columns.style.zoom = String(Math.max(SMALLEST, scale));
    });
    // The projector size: the whole board, every section, on one screen.
    var board = document.querySelector(".bracket-big .bracket-board");
    if (!board) return;
    board.style.zoom = "";
    if (!desktop) return;
    var room = window.innerHeight - board.getBoundingClientRect().top - 8;
    var tall = board.scrollHeight / Math.max(1, room);
    if (tall <= 1) return;
    var zoom = Math.max(SMALLEST, 1 / tall);
    board.style.zoom = String(zoom);
    // Rounding and wrapped lines change with the scale: measure once more and settle.
    var over = board.getBoundingClientRect().bottom / (window.innerHeight - 8);
    if (over > 1) board.style.zoom = String(Math.max(SMALLEST, zoom / over));
  }
  function start() {
    fit();
    window.addEventListener("resize", fit);
    document.body.addEventListener("htmx:afterSwap", fit);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
