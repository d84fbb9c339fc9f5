/* The desk's "check in by pass" box: after each answer the box is emptied and focused
 * again for the next pass (a USB scanner types the link and Enter by itself); where the
 * browser has a BarcodeDetector, a camera scans the pass's QR code and sends it. Without
 * a camera (or this script) the box is a plain form: typing or pasting works the same.
 */
(function () {
  "use strict";

  const form = document.querySelector("[data-pass-form]");
  if (!form) return;
  const input = form.querySelector("input[name=pass]");
  const scan = document.querySelector("[data-scan]");
  const start = scan.querySelector("[data-scan-start]");
  const stop = scan.querySelector("[data-scan-stop]");
  const video = scan.querySelector("[data-scan-video]");
  const REPEAT_MS = 4000; // the same pass held in view is sent once, not again and again
  let stream = null;
  let timer = 0;
  let last = { text: "", at: 0 };

  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.elt !== form) return;
    input.value = "";
    if (!stream) input.focus();
  });

  function send(text) {
    const now = Date.now();
    if (text === last.text && now - last.at < REPEAT_MS) return;
    last = { text: text, at: now };
    input.value = text;
    form.requestSubmit();
  }

  function halt() {
    window.clearInterval(timer);
    timer = 0;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    video.hidden = true;
    stop.hidden = true;
    start.hidden = false;
  }

  if (!("BarcodeDetector" in window) || !navigator.mediaDevices) return;
  scan.hidden = false;
  let detector = null;
  try {
    detector = new window.BarcodeDetector({ formats: ["qr_code"] });
  } catch (error) {
    scan.hidden = true;
    return;
  }

  start.addEventListener("click", function () {
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (found) {
        stream = found;
        video.srcObject = found;
        video.hidden = false;
        stop.hidden = false;
        start.hidden = true;
        return video.play();
      })
      .then(function () {
        timer = window.setInterval(function () {
          if (video.readyState < 2) return;
          detector.detect(video).then(function (codes) {
            if (codes.length) send(codes[0].rawValue);
          }).catch(function () {});
        }, 300);
      })
      .catch(function () {
        halt();
        input.focus();
      });
  });
  stop.addEventListener("click", halt);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") halt();
  });
})();
