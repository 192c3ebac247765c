// Loto: a QR code read with the phone's camera (loto_app/components/scanner.py).
// A button [data-scan-start=<id>] opens the camera into the scanner's <video>; each frame is
// read with the browser's BarcodeDetector where there is one, with jsQR otherwise (imported
// from the npm registry by the page: window.__lotoJsQR); the first QR code that starts with the
// scanner's prefix (data-accept) stops the camera, goes in the form's field (data-form,
// data-field) and the form is sent, as if typed. Another QR code is named, not taken. What the
// scanner says is written in its status line's data-status (shown by assets/scan.css): this script
// writes no text React renders.
(function () {
  "use strict";
  if (window.__lotoScanLoaded) return;
  window.__lotoScanLoaded = true;
  var active = null; // {id, stream, video, box, timer}

  function say(box, text) {
    var line = box.querySelector(".loto-scan-status");
    if (line) line.setAttribute("data-status", text);
    window.__lotoScanStatus = text;
  }

  function stop() {
    if (!active) return;
    clearTimeout(active.timer);
    active.stream.getTracks().forEach(function (t) { t.stop(); });
    active.video.srcObject = null;
    active.box.removeAttribute("data-scanning");
    active = null;
  }

  function reader() {
    if ("BarcodeDetector" in window) {
      try {
        var detector = new window.BarcodeDetector({ formats: ["qr_code"] });
        window.__lotoScanEngine = "BarcodeDetector";
        return function (video) {
          return detector.detect(video).then(function (codes) {
            return codes.map(function (c) { return c.rawValue; });
          });
        };
      } catch (e) { /* no QR codes in this detector: jsQR */ }
    }
    var jsQR = window.__lotoJsQR;
    if (!jsQR) return null;
    window.__lotoScanEngine = "jsQR";
    var canvas = document.createElement("canvas");
    return function (video) {
      var w = video.videoWidth, h = video.videoHeight;
      if (!w || !h) return Promise.resolve([]);
      canvas.width = w;
      canvas.height = h;
      var ctx = canvas.getContext("2d", { willReadFrequently: true });
      ctx.drawImage(video, 0, 0, w, h);
      var found = jsQR(ctx.getImageData(0, 0, w, h).data, w, h, { inversionAttempts: "dontInvert" });
      return Promise.resolve(found && found.data ? [found.data] : []);
    };
  }

  function start(box) {
    stop();
    var prefix = box.getAttribute("data-accept") || "";
    var form = document.getElementById(box.getAttribute("data-form"));
    var input = form && form.querySelector('[name="' + box.getAttribute("data-field") + '"]');
    if (!form || !input) return;
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      say(box, "Caméra indisponible sur cette adresse (il faut https) : tapez le numéro et le code.");
      return;
    }
    var read = reader();
    if (!read) { say(box, "Lecteur de QR code indisponible : tapez le numéro et le code."); return; }
    say(box, "Ouverture de la caméra…");
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(function (stream) {
        var video = box.querySelector("video");
        video.srcObject = stream;
        video.muted = true;
        var played = video.play();
        if (played && played.catch) played.catch(function () { /* shown anyway */ });
        box.setAttribute("data-scanning", "true");
        say(box, "Visez le QR code, à 20 cm environ.");
        active = { stream: stream, video: video, box: box, timer: null };
        var mine = active;
        function tick() {
          if (active !== mine) return;
          read(video).then(function (texts) {
            if (active !== mine) return;
            var hit = null, other = null;
            texts.forEach(function (t) {
              if (typeof t !== "string") return;
              if (!hit && t.indexOf(prefix) === 0) hit = t; else if (!other) other = t;
            });
            if (hit) {
              stop();
              input.value = hit;
              window.__lotoScanned = (window.__lotoScanned || []).concat([hit]);
              say(box, "QR code lu.");
              form.requestSubmit();
              return;
            }
            if (other) say(box, "Ce QR code n'est pas " + (box.getAttribute("data-what") || "le bon") + ".");
            mine.timer = setTimeout(tick, 120);
          }, function () { mine.timer = setTimeout(tick, 300); });
        }
        tick();
      }, function (err) {
        say(box, err && err.name === "NotAllowedError"
          ? "Caméra refusée : autorisez-la pour cette page, ou tapez le numéro et le code."
          : "Caméra indisponible : tapez le numéro et le code.");
      });
  }

  document.addEventListener("click", function (e) {
    var go = e.target.closest && e.target.closest("[data-scan-start]");
    if (go) {
      var box = document.getElementById(go.getAttribute("data-scan-start"));
      if (box) start(box);
      return;
    }
    if (e.target.closest && e.target.closest("[data-scan-stop]")) stop();
  });
  document.addEventListener("visibilitychange", function () { if (document.hidden) stop(); });
  window.addEventListener("pagehide", stop);
})();
