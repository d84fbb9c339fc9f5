/* Names keep their words whole, in one type size per view. A name breaks at its spaces and
 * after its hyphens, never inside a word. Where a word of a name would break (or overflow
 * its column), the type of every name of the same view (the scoreboard, a row of boxes, a
 * grid) is made smaller together, step by step down to SMALLEST_NAME of its size, so the
 * names of a view never differ in size from one another. A word longer still is cut with an
 * ellipsis, the whole name kept in its title (a long press or a screen reader reads it).
 * Fitted again when the phone turns. */
(function () {
  "use strict";
  const T = window.tablescore;

  const SMALLEST_NAME = 0.76;
  const NAMES = [
    "[data-fit-words]",
    "#live .group-title",
    "#live .person",
    ".side-members",
    ".sluff-name .name",
    ".pay-grid tbody th",
    ".pick-grid thead th",
  ].join(", ");
  const VIEW = "[data-fit-view], .scoreboard, .per-grid, .pay-grid, .won-grid, .sluff, fieldset, .card";

  function textOf(el) {
    const text = el.firstChild;
    return text && text.nodeType === Node.TEXT_NODE && text.data.trim() ? text : null;
  }
  /* the box a name's words must stay inside: its own, or its line's when it is inline */
  function column(el) {
    let box = el;
    while (box && window.getComputedStyle(box).display === "inline") box = box.parentElement;
    return box || el;
  }
  function breaksAWord(el) {
    const text = textOf(el);
    if (!text) return false;
    const right = column(el).getBoundingClientRect().right + 0.5;
    const range = document.createRange();
    const words = /[^\s-]+-?/g;
    let word;
    while ((word = words.exec(text.data))) {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = range.getClientRects();
      if (!lines.length) continue;
      if (lines.length > 1 && Math.round(lines[0].top) !== Math.round(lines[lines.length - 1].top)) return true;
      if (lines[lines.length - 1].right > right) return true;
    }
    return false;
  }
  function shown(el) { return el.offsetParent !== null && textOf(el); }

  function fitNames(root) {
    const views = new Map();
    (root.querySelectorAll ? root : document).querySelectorAll(NAMES).forEach(function (el) {
      el.style.fontSize = "";
      el.removeAttribute("data-fit-cut");
      const view = el.parentElement ? el.parentElement.closest(VIEW) || document.body : document.body;
      if (!views.has(view)) views.set(view, []);
      views.get(view).push(el);
    });
    views.forEach(function (names) {
      names = names.filter(shown);
      if (!names.some(breaksAWord)) return;
      const sizes = names.map(function (el) { return parseFloat(window.getComputedStyle(el).fontSize); });
      let scale = 1;
      while (scale > SMALLEST_NAME + 0.001) {
        scale = Math.max(SMALLEST_NAME, scale - 0.06);
        names.forEach(function (el, at) { el.style.fontSize = (sizes[at] * scale).toFixed(1) + "px"; });
        if (!names.some(breaksAWord)) return;
      }
      names.forEach(function (el) {
        if (!breaksAWord(el)) return;
        el.setAttribute("data-fit-cut", "");
        const host = column(el);
        host.setAttribute("data-fit-cut", "");
        if (!el.title) el.title = textOf(el).data.trim();
      });
    });
  }
  let fittedWidth = window.innerWidth;
  window.addEventListener("resize", function () {
    /* a phone turned; not the address bar showing or hiding as the page scrolls */
    if (window.innerWidth === fittedWidth) return;
    fittedWidth = window.innerWidth;
    fitNames(document);
  });

  T.fitNames = fitNames;
})();
