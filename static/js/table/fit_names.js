/* A name in a narrow column ([data-fit-words]) keeps its words whole: where a word of it
 * would break across lines its type is made smaller, step by step down to SMALLEST_NAME of
 * its size (a word longer still breaks, as it did). A name breaks at its spaces and after
 * its hyphens. Fitted again when the phone turns. */
(function () {
  "use strict";
  const T = window.tablescore;

  const SMALLEST_NAME = 0.7;
  function breaksAWord(el) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return false;
    const range = document.createRange();
    const words = /[^\s-]+-?/g;
    let word;
    while ((word = words.exec(text.data))) {
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = range.getClientRects();
      if (lines.length > 1 && Math.round(lines[0].top) !== Math.round(lines[lines.length - 1].top)) return true;
    }
    return false;
  }
  function fitNames(root) {
    root.querySelectorAll("[data-fit-words]").forEach(function (el) {
      el.style.fontSize = "";
      if (!breaksAWord(el)) return;
      const size = parseFloat(window.getComputedStyle(el).fontSize);
      for (let scale = 0.94; scale > SMALLEST_NAME - 0.01; scale -= 0.06) {
        el.style.fontSize = (size * scale).toFixed(1) + "px";
        if (!breaksAWord(el)) return;
      }
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
