/* The bracket on the wall turns its slides: the matches being played ("now playing"),
   then a few slides of the whole bracket, then "now playing" again, until every slide has
   been shown, and round again. Each slide stays data-seconds. A live swap (a new board
   from the server) keeps the slide on screen when it is still there. */
(function () {
  "use strict";
  var timer = null;
  var shown = ""; // the key of the slide on screen
  var step = 0;

  function board() { return document.getElementById("wall-board"); }

  // The order of one cycle, by key: now, a few of the rest, now, a few more, ...
  function cycle(root) {
    var slides = Array.prototype.slice.call(root.querySelectorAll("[data-slide]"));
    var now = slides.filter(function (s) { return s.classList.contains("is-now"); });
    var rest = slides.filter(function (s) { return !s.classList.contains("is-now"); });
    var between = Math.max(1, parseInt(root.dataset.rest, 10) || 3);
    if (!now.length) return rest;
    var order = [];
    for (var i = 0; i < rest.length; i += between) {
      order = order.concat(now, rest.slice(i, i + between));
    }
    return rest.length ? order : now;
  }

  function show(root, order, index) {
    var slide = order[index];
    if (!slide) return;
    root.querySelectorAll("[data-slide]").forEach(function (s) { s.hidden = s !== slide; });
    shown = slide.dataset.slide;
    step = index;
    var label = root.querySelector("[data-wall-label]");
    var count = root.querySelector("[data-wall-count]");
    if (label) label.textContent = slide.dataset.label;
    if (count) {
      // "{index} of {count}" in the page's language (the template translates it).
      var pattern = count.getAttribute("data-pattern") || gettext("{index} of {count}");
      count.textContent = pattern.replace("{index}", index + 1).replace("{count}", order.length);
    }
    root.dataset.shown = shown;
  }

  function start() {
    var root = board();
    if (timer) window.clearInterval(timer);
    timer = null;
    if (!root) return;
    var order = cycle(root);
    if (!order.length) return;
    var keys = order.map(function (s) { return s.dataset.slide; });
    var at = step < keys.length && keys[step] === shown ? step : keys.indexOf(shown);
    show(root, order, at < 0 ? 0 : at);
    var seconds = Math.max(2, parseInt(root.dataset.seconds, 10) || 10);
    timer = window.setInterval(function () {
      var live = board();
      if (live !== root) { start(); return; }
      show(root, order, (step + 1) % order.length);
    }, seconds * 1000);
  }

  function ready() {
    start();
    document.body.addEventListener("htmx:afterSwap", start);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
