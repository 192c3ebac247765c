// Loto: what the hall needs from the browser itself (no server round trip).
// - player page: keep the screen awake during the evening (Wake Lock API), a short vibration
//   when one of my numbers comes out, and - only if the evening allows the hint - a strong one
//   with "une quine possible !" when a carton can be claimed;
// - hall screen: the last number read aloud in French (speech synthesis, with the traditional
//   phrases as an option), toggled on the screen and remembered by the browser;
// - the claim buttons (`data-claim`): a slip of the thumb never claims. The first tap only arms
//   the button ("Confirmer : QUINE ?" for a few seconds, no server event); a second tap on the
//   same spot claims at once. A second tap within a fraction of a second of the first (a
//   bounce, a pocket) is ignored, and a new number disarms every button (decide again).
(function () {
  "use strict";
  if (window.__lotoLoaded) return;
  window.__lotoLoaded = true;
  // the buttons this script drives ignore touches until it runs (assets/loto.css): before,
  // a claim button would claim on one tap, a voice toggle would do nothing
  document.documentElement.setAttribute("data-loto-ready", "true");

  var PHRASES = {
    1: "le petit", 11: "les deux jambes", 14: "le 14 juillet", 22: "les deux cocottes",
    31: "le réveillon", 69: "l'année érotique", 89: "la Révolution", 90: "le grand-père",
  };
  var lastSeen = null;

  function lastNumber() {
    var el = document.querySelector('[data-testid="last-number"]');
    var n = el ? parseInt(el.textContent, 10) : NaN;
    return isNaN(n) ? null : n;
  }

  // ---------------------------------------------------------------- player page
  var wakeLock = null;
  function keepAwake() {
    if (!document.querySelector('[data-page="player"]') || wakeLock) return;
    if (!("wakeLock" in navigator)) { window.__lotoWakeLock = "unsupported"; return; }
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      window.__lotoWakeLock = "held";
      lock.addEventListener("release", function () {
        wakeLock = null;
        window.__lotoWakeLock = "released";
      });
    }).catch(function (err) {
      window.__lotoWakeLock = "refused: " + err.name; // e.g. battery saver: nothing to do
    });
  }
  document.addEventListener("visibilitychange", keepAwake);

  function vibrate(pattern) {
    if (navigator.vibrate) { try { navigator.vibrate(pattern); } catch (e) { /* ignore */ } }
    window.__lotoVibrations = (window.__lotoVibrations || []).concat([pattern]);
  }

  function rowsOf(carton) {
    var rows = {};
    carton.querySelectorAll('[data-testid^="cell-"]').forEach(function (cell) {
      var r = cell.getAttribute("data-row");
      (rows[r] = rows[r] || []).push(cell);
    });
    return Object.keys(rows).map(function (k) { return rows[k]; });
  }

  function drawn(cells) {
    return cells.every(function (c) { return c.getAttribute("data-drawn") === "true"; });
  }

  function claimable(n) {
    var page = document.querySelector('[data-page="player"]');
    if (!page || page.getAttribute("data-claim-hint") !== "true") return false;
    var pattern = page.getAttribute("data-pattern");
    var need = { one_line: 1, two_lines: 2, full_card: 3 }[pattern];
    if (!need) return false;
    var cartons = document.querySelectorAll('[data-testid^="carton-"][data-plays="true"]');
    return Array.prototype.some.call(cartons, function (carton) {
      if (carton.getAttribute("data-annulled") === "true") return false;
      var rows = rowsOf(carton);
      var full = rows.filter(drawn);
      var withLast = full.some(function (row) {
        return row.some(function (c) { return parseInt(c.textContent, 10) === n; });
      });
      return full.length >= Math.min(need, rows.length) && withLast;
    });
  }

  function onPlayerNumber(n) {
    keepAwake();
    var hint = document.querySelector('[data-testid="quine-hint"]');
    if (claimable(n)) {
      vibrate([300, 100, 300]);
      if (hint) hint.hidden = false;
    } else {
      if (hint) hint.hidden = true;
      var mine = document.querySelector('[data-testid^="cell-"][data-testid$="-' + n + '"]');
      if (mine) vibrate(120);
    }
  }

  // ---------------------------------------------------------------- hall screen
  function pref(name, fallback) {
    var v = window.localStorage.getItem(name);
    return v === null ? fallback : v === "1";
  }

  function setText(el, text, pressed) {
    // only when it changes: this runs from a MutationObserver, which would see its own writes
    if (el.textContent !== text) el.textContent = text;
    if (el.getAttribute("aria-pressed") !== String(pressed)) {
      el.setAttribute("aria-pressed", String(pressed));
    }
  }

  function showPrefs() {
    var voice = document.querySelector('[data-testid="voice-toggle"]');
    var phrases = document.querySelector('[data-testid="phrases-toggle"]');
    if (voice) {
      var on = pref("loto_voice", false);
      setText(voice, on ? "Voix : activée" : "Voix : coupée", on);
    }
    if (phrases) {
      var ph = pref("loto_phrases", true);
      setText(phrases, ph ? "Expressions : activées" : "Expressions : coupées", ph);
    }
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-testid]");
    if (!t) return;
    var id = t.getAttribute("data-testid");
    if (id === "voice-toggle" || id === "phrases-toggle") {
      var key = id === "voice-toggle" ? "loto_voice" : "loto_phrases";
      window.localStorage.setItem(key, pref(key, id !== "voice-toggle") ? "0" : "1");
      showPrefs();
    }
  });

  function sayNumber(n) {
    var text = "Le " + n + (pref("loto_phrases", true) && PHRASES[n] ? ", " + PHRASES[n] : "");
    window.__lotoSpoken = (window.__lotoSpoken || []).concat([text]);
    if (!pref("loto_voice", false) || !("speechSynthesis" in window)) return;
    var u = new SpeechSynthesisUtterance(text);
    u.lang = "fr-FR";
    u.rate = 0.9;
    var fr = window.speechSynthesis.getVoices().filter(function (v) {
      return v.lang && v.lang.indexOf("fr") === 0;
    })[0];
    if (fr) u.voice = fr;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
  }

  // ---------------------------------------------------------------- the claim gesture
  var ARM_MS = 4000; // the armed button waits this long for the confirming tap
  var BOUNCE_MS = 350; // a second tap sooner than this is not a decision
  var armed = null; // {button, at, timer}

  function disarm() {
    if (!armed) return;
    var b = armed.button;
    clearTimeout(armed.timer);
    b.removeAttribute("data-armed");
    b.removeAttribute("aria-label");
    armed = null;
  }

  function arm(button) {
    disarm();
    button.setAttribute("data-armed", "true");
    var confirm = button.getAttribute("data-confirm") || "Confirmer ?";
    button.setAttribute("aria-label", confirm + " Touchez encore pour annoncer.");
    armed = { button: button, at: Date.now(), timer: setTimeout(disarm, ARM_MS) };
    setTimeout(function () { // from now on a tap is a decision, not a bounce
      if (armed && armed.button === button) button.setAttribute("data-armed", "ready");
    }, BOUNCE_MS);
    window.__lotoArmed = (window.__lotoArmed || 0) + 1;
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-claim]");
    if (!button || button.disabled) return;
    if (armed && armed.button === button && button.getAttribute("data-armed") === "ready") {
      disarm(); // the confirming tap: let it through to the app, which claims now
      window.__lotoClaimedAt = Date.now();
      return;
    }
    // the first tap (or a bounce): arm only; the app never sees this click
    e.preventDefault();
    e.stopImmediatePropagation();
    if (!armed || armed.button !== button) arm(button);
  }, true);

  // ---------------------------------------------------------------- watch the last number
  function check() {
    showPrefs();
    var n = lastNumber();
    if (n === null || n === lastSeen) return;
    var first = lastSeen === null;
    lastSeen = n;
    disarm(); // a new number: a claim armed on the previous one must be decided again
    if (first) return; // the page just loaded: nothing new came out
    if (document.querySelector('[data-page="player"]')) onPlayerNumber(n);
    if (document.querySelector('[data-page="screen"]')) sayNumber(n);
  }

  new MutationObserver(check).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true,
  });
  keepAwake();
})();
