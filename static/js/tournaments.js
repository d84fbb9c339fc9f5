/* The projector: the draw, then the standings, in turn, each in pages that fit the
   screen, so that every table and every row is shown within each cycle. A large event's
   panel holds one slice of its tables or rows at a time: after the slice's last page the
   next slice is asked of the server (data-next), and a panel left on a later slice is
   brought back to its first (data-first) for its next turn. The live part inside is
   swapped by htmx polling, which asks for the slices shown; the panel and page shown are
   kept here and laid again on whatever the swap brought. */
(function () {
  "use strict";
  var SECONDS = 12; // one page on screen
  var ITEMS = { draw: ".draw-table, .byes", standings: ".standings-table tbody tr" };

  function panelOf(screen, name) {
    return screen.querySelector('[data-panel="' + name + '"]');
  }

  // Split a panel's items into pages that fit between its top and the screen's bottom.
  // Items side by side (a grid's row) share their top and go on the same page.
  function pagesOf(screen, name) {
    var panel = panelOf(screen, name);
    if (!panel) return [];
    var items = Array.prototype.slice.call(panel.querySelectorAll(ITEMS[name]));
    items.forEach(function (item) { item.hidden = false; });
    if (!items.length) return [[]];
    var room = window.innerHeight - items[0].getBoundingClientRect().top - 16;
    var pages = [[]];
    var pageTop = null;
    var rowTop = null;
    items.forEach(function (item) {
      var box = item.getBoundingClientRect();
      if (rowTop === null || Math.abs(box.top - rowTop) > 2) rowTop = box.top;
      if (pageTop === null) pageTop = rowTop;
      if (box.bottom - pageTop > room && pages[pages.length - 1].length && rowTop !== pageTop) {
        pages.push([]);
        pageTop = rowTop;
      }
      pages[pages.length - 1].push(item);
    });
    return pages;
  }

  function start() {
    var screen = document.querySelector("[data-projector]");
    if (!screen) return;
    var order = ["draw", "standings"];
    var state = { panel: 0, page: 0 };

    function lay() {
      var name = order[state.panel];
      screen.setAttribute("data-show", name);
      var pages = pagesOf(screen, name);
      if (state.page >= pages.length) state.page = 0;
      pages.forEach(function (items, index) {
        items.forEach(function (item) { item.hidden = index !== state.page; });
      });
      var label = panelOf(screen, name) && panelOf(screen, name).querySelector("[data-page-label]");
      var slice = panelOf(screen, name) && panelOf(screen, name).dataset.slice;
      if (label) {
        /* one page of one slice: the label keeps its room, unseen, so that nothing moves
           when it shows */
        var text = interpolate(
          gettext("page %(page)s of %(pages)s"),
          { page: state.page + 1, pages: Math.max(pages.length, 1) },
          true
        );
        label.textContent = slice ? slice + (pages.length > 1 ? ", " + text : "") : text;
        label.classList.toggle("is-idle", pages.length < 2 && !slice);
      }
      return pages.length;
    }

    // Put the slice at ``url`` in place of the panel ``name``; then ``done``.
    function load(name, url, done) {
      screen.setAttribute("data-loading", name);
      fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
        .then(function (answer) {
          if (!answer.ok) throw new Error("slice " + answer.status);
          return answer.text();
        })
        .then(function (html) {
          var panel = panelOf(screen, name);
          if (panel) panel.outerHTML = html.trim();
        })
        .catch(function () { /* the slice shown stays; the next turn asks again */ })
        .then(function () {
          screen.removeAttribute("data-loading");
          if (done) done();
        });
    }

    function next() {
      if (screen.hasAttribute("data-loading")) return;
      var count = lay();
      var name = order[state.panel];
      var panel = panelOf(screen, name);
      if (state.page + 1 < count) {
        state.page += 1;
      } else if (panel && panel.dataset.next) {
        load(name, panel.dataset.next, function () { state.page = 0; lay(); });
        return;
      } else {
        state.page = 0;
        state.panel = (state.panel + 1) % order.length;
        if (panel && panel.dataset.first) load(name, panel.dataset.first, null);
      }
      lay();
    }

    lay();
    window.setInterval(next, SECONDS * 1000);
    // The poll asks for the slices shown.
    document.body.addEventListener("htmx:configRequest", function (event) {
      if (!screen.contains(event.detail.elt)) return;
      order.forEach(function (name) {
        var panel = panelOf(screen, name);
        if (panel && panel.dataset.page) event.detail.parameters[name + "_page"] = panel.dataset.page;
      });
    });
    document.body.addEventListener("htmx:afterSwap", lay);
    window.addEventListener("resize", lay);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
