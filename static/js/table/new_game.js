/* The start page:
 *
 * - Start is sent from the page: a game started opens its table; the form with its messages
 *   comes back in place; too many requests from the address (a venue shares one) or no
 *   connection say so, and when to try again, and keep every name and option typed
 * - back on the start page, the setup of the game chosen comes back
 */
(function () {
  "use strict";
  const T = window.tablescore;

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-new-game]") || !window.fetch || !window.DOMParser) return;
    event.preventDefault();
    const button = form.querySelector("button.start");
    if (button) button.disabled = true;
    const done = function () { if (button) button.disabled = false; };
    const body = new FormData(form);
    if (event.submitter && event.submitter.name) body.append(event.submitter.name, event.submitter.value);
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (response) {
      if (response.status === 429) {
        done();
        T.pageNotice(T.tooMany(T.retryAfterText(response.headers.get("Retry-After"))));
        return null;
      }
      if (response.redirected && response.ok) {
        window.location.assign(response.url);
        return null;
      }
      return response.text().then(function (html) {
        done();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("setup");
        const setup = document.getElementById("setup");
        if (!response.ok || !fresh || !setup) {
          T.pageNotice(interpolate(gettext("Not started: the server had a problem (error %(status)s). What you typed is kept: tap Start again."), { status: response.status }, true));
          return;
        }
        T.pageNotice("");
        setup.replaceWith(fresh);
        if (window.htmx) window.htmx.process(fresh);
        const problem = fresh.querySelector("[role=alert], .has-error");
        if (problem) problem.scrollIntoView({ block: "center" });
      });
    }).catch(function () {
      done();
      T.pageNotice(gettext("Not started: no connection. What you typed is kept: tap Start again when the connection is back."));
    });
  });

  /* Back to the start page: the browser keeps the game chosen but not the setup below it. */
  window.addEventListener("pageshow", function () {
    /* filled from a recent game: Start in reach, the names above it */
    const start = document.querySelector("form[data-new-game] button.start");
    if (start && window.location.hash === "#ready") start.scrollIntoView({ block: "end" });
    const form = document.querySelector("form[data-new-game]");
    if (!form || form.querySelector("[name=players]")) return;
    const chosen = form.querySelector("input[name=game]:checked");
    if (chosen) chosen.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
