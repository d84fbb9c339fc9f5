/* The screen kept awake while a game is open ([data-wake-lock]), where the browser has the
 * Wake Lock (a secure context: https or localhost); taken again when the page comes back. */
(function () {
  "use strict";
  const T = window.tablescore;

  let wakeLock = null;
  async function keepAwake() {
    if (!("wakeLock" in navigator) || !document.querySelector("[data-wake-lock]")) return;
    if (document.visibilityState !== "visible" || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", function () { wakeLock = null; });
    } catch (error) {
      wakeLock = null; /* refused (battery saver, no gesture yet): the game goes on */
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("click", keepAwake, { once: true });

  T.keepAwake = keepAwake;
})();
