/* Saved by itself: a tap on a pad that says data-save-when-full, filling its last empty
 * box, saves the round a few seconds later when the round is complete: the Save button
 * counts down ("Saving hand 4 in 3…") beside a Wait button, the preview still in sight, and
 * at 0 the Save button is pressed, so the round goes the way of a Save tap (its key, the
 * outbox). Save saves at once; Wait, or any other tap, choice or typing in the form, stops
 * it and the form keeps everything; a form replaced or a page left never saves. */
(function () {
  "use strict";
  const T = window.tablescore;

  const COUNTDOWN = 3; /* seconds */
  let countdown = null;

  function countdownStatus(bar) {
    let status = bar.querySelector("[data-countdown-status]");
    if (!status) {
      /* there before it speaks: a live region added with its words is often not read */
      status = document.createElement("p");
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      status.setAttribute("data-countdown-status", "");
      bar.appendChild(status);
    }
    return status;
  }
  /* The Save bars of forms saved by themselves get their status line as they load. */
  function countdownBars(root) {
    root.querySelectorAll("form[data-entry] .actions").forEach(function (bar) {
      if (bar.closest("form").querySelector("[data-save-when-full]")) countdownStatus(bar);
    });
  }
  /* The form, its Save button and nothing said against saving (another phone's round). */
  function canSave(form, save) {
    const stale = form.querySelector("[data-stale]");
    return form.isConnected && save.isConnected && !save.disabled && !(stale && !stale.hidden);
  }
  function showCountdown() {
    const save = countdown.save;
    save.textContent = interpolate(gettext("%(saving)s in %(left)s…"), { saving: countdown.saving, left: countdown.left }, true);
    /* too long for a narrow screen: the seconds are what matter */
    if (save.scrollWidth > save.clientWidth + 1) save.textContent = interpolate(gettext("Saving in %(left)s…"), { left: countdown.left }, true);
  }
  function startCountdown(form) {
    const save = form.querySelector("button.save");
    /* a Save button that asks for something else (the desk's correction) is left alone */
    if (!save || !save.dataset.saving || !canSave(form, save) || !T.complete(form)) return;
    stopCountdown();
    const wait = document.createElement("button");
    wait.type = "button";
    wait.className = "wait";
    wait.setAttribute("data-wait", "");
    wait.textContent = gettext("Wait");
    save.after(wait);
    const saving = save.dataset.saving;
    countdown = { form: form, save: save, wait: wait, label: save.textContent, saving: saving, left: COUNTDOWN, timer: null };
    save.classList.add("is-counting");
    save.style.setProperty("--countdown", COUNTDOWN + "s");
    showCountdown();
    countdownStatus(form.querySelector(".actions") || form).textContent =
      interpolate(gettext("%(saving)s in %(count)s seconds. Tap Wait to keep editing."), { saving: saving, count: COUNTDOWN }, true);
    countdown.timer = window.setTimeout(tick, 1000);
  }
  function tick() {
    if (!countdown) return;
    if (!canSave(countdown.form, countdown.save)) {
      stopCountdown();
      return;
    }
    countdown.left -= 1;
    if (countdown.left > 0) {
      showCountdown();
      countdown.timer = window.setTimeout(tick, 1000);
      return;
    }
    const save = countdown.save;
    stopCountdown();
    save.click(); /* as a tap on Save: htmx sends it with action=save */
  }
  function stopCountdown() {
    if (!countdown) return;
    const stopped = countdown;
    countdown = null;
    window.clearTimeout(stopped.timer);
    stopped.save.textContent = stopped.label;
    stopped.save.classList.remove("is-counting");
    stopped.save.style.removeProperty("--countdown");
    const waitHadFocus = document.activeElement === stopped.wait;
    stopped.wait.remove();
    const status = stopped.form.querySelector("[data-countdown-status]");
    if (status) status.textContent = "";
    if (waitHadFocus && stopped.save.isConnected) stopped.save.focus();
  }

  document.addEventListener("tablescore:pad-full", function (event) {
    const form = event.target.closest("form[data-entry]");
    if (form && event.target.closest("[data-save-when-full]")) startCountdown(form);
  });
  /* (caught on the way down: before the tap does anything, Save included) */
  ["click", "input", "change", "submit"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (!countdown || !countdown.form.contains(event.target)) return;
      if (event.isTrusted || type === "submit") stopCountdown();
    }, true);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (countdown && target && target.contains(countdown.form)) stopCountdown();
  });
  window.addEventListener("pagehide", stopCountdown);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") stopCountdown();
  });

  T.countdownBars = countdownBars;
})();
