// Loto: sound that a browser may block (loto_app/components/sound.py).
// - Browsers play nothing (speech, a chime) on a page nobody has touched: a hall screen that
//   reloads with its voice on would stay silent. While the voice or the chime is on and nobody
//   has touched the page (or the speech was refused, or the audio is suspended),
//   <html data-loto-sound="blocked"> shows the large "Activer le son" button (assets/sound.css);
//   a tap on it - any tap on the page - unlocks the sound.
// - The chime: two short notes before each number when its preference is on (`loto_chime`),
//   played with the Web Audio API; assets/loto.js asks `LotoSound.beforeNumber()` before it
//   speaks and waits for the chime to end.
// Nothing here writes into what React renders: only attributes React does not manage.
(function () {
  "use strict";
  if (window.LotoSound) return;
  var ctx = null;
  var unlocked = false;
  var speechRefused = false;
  var CHIME_MS = 900;
  var testing = ""; // a sound test waiting for a tap on "Activer le son"

  function pref(name, fallback) {
    var v = null;
    try { v = window.localStorage.getItem(name); } catch (e) { /* storage blocked */ }
    return v === null ? fallback : v === "1";
  }

  // the sound this page wants: a player's phone its "Annonce sur mon téléphone", the hall
  // screen its voice or its chime (each a preference of the browser, assets/loto.js)
  function player() { return !!document.querySelector('[data-page="player"]'); }
  function wanted() {
    if (testing) return true;
    if (player()) return pref("loto_phone_voice", false);
    return pref("loto_voice", false) || pref("loto_chime", false);
  }

  // A browser lets a page play sound once someone has touched it (a tap, a click, a key): the
  // page sees that input itself, rather than asking `navigator.userActivation`, which a
  // browser driven by a test also sets without any input (what a TV that reloads never sees).
  var touched = false;
  ["pointerdown", "mousedown", "touchend", "keydown"].forEach(function (type) {
    document.addEventListener(type, function (e) { if (e.isTrusted) touched = true; }, true);
  });

  function activated() { return unlocked || touched; }

  function audio() {
    if (!ctx) {
      var AC = window.AudioContext || window.webkitAudioContext;
      if (AC) { try { ctx = new AC(); } catch (e) { ctx = null; } }
    }
    return ctx;
  }

  function blocked() {
    if (!wanted()) return false;
    if (!activated() || speechRefused) return true;
    return pref("loto_chime", false) && !!ctx && ctx.state === "suspended";
  }

  function why() {
    if (!activated()) return "no-activation";
    return speechRefused ? "speech-refused" : "audio-suspended";
  }

  // Once shown, the button stays until a tap (the only thing that unlocks the sound): a
  // browser's own checks are not polled away from under a finger about to touch it.
  var shown = "";
  function show() {
    var root = document.documentElement;
    var state = shown === "blocked" || blocked() ? "blocked" : "ok";
    if (state === "blocked" && shown !== "blocked") window.__lotoSoundWhy = why();
    shown = state;
    if (root.getAttribute("data-loto-sound") !== state) root.setAttribute("data-loto-sound", state);
    var chime = document.querySelector('[data-testid="chime-toggle"]');
    if (chime) {
      var on = String(pref("loto_chime", false));
      if (chime.getAttribute("aria-pressed") !== on) chime.setAttribute("aria-pressed", on);
    }
  }

  function unlock(confirm) {
    unlocked = true;
    speechRefused = false;
    shown = "";
    var c = audio();
    if (c && c.state !== "running") { c.resume().then(show, show); }
    // (the phone says the last number instead: assets/loto.js)
    if (confirm && !player() && pref("loto_voice", false) && "speechSynthesis" in window) {
      try { // speech is unlocked by an utterance within the tap
        var u = new SpeechSynthesisUtterance("Son activé");
        u.lang = "fr-FR";
        window.speechSynthesis.cancel();
        window.speechSynthesis.speak(u);
      } catch (e) { /* no speech here */ }
    }
    if (confirm && pref("loto_chime", false)) chime();
    if (confirm) window.__lotoSoundUnlocked = (window.__lotoSoundUnlocked || 0) + 1;
    show();
    if (testing) test(testing);
  }

  function answer(nonce, result) {
    window.__lotoSoundTests = (window.__lotoSoundTests || []).concat([result]);
    var f = document.querySelector('[data-testid="sound-check-form"]');
    if (!f || !f.requestSubmit) return;
    var values = { nonce: nonce, result: result, voice: pref("loto_voice", false) ? "1" : "0" };
    Object.keys(values).forEach(function (k) {
      var input = f.querySelector('[name="' + k + '"]');
      if (input) input.value = values[k];
    });
    f.requestSubmit();
  }

  function waitForTap(nonce) {
    testing = nonce;
    shown = "";
    show();
    answer(nonce, "blocked");
  }

  function sayTest(nonce) {
    if (!("speechSynthesis" in window)) { answer(nonce, "no-voice"); return; }
    var done = false;
    function end(result) { if (!done) { done = true; answer(nonce, result); } }
    var u = new SpeechSynthesisUtterance("Essai du son de la salle. Le 90, le grand-père.");
    u.lang = "fr-FR";
    u.onstart = function () { end("played"); };
    u.onend = function () { end("played"); };
    u.onerror = function (ev) {
      if (ev && ev.error === "not-allowed") {
        speechRefused = true;
        if (!done) { done = true; waitForTap(nonce); }
      } else end("no-voice");
    };
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(u);
    setTimeout(function () { end(window.speechSynthesis.speaking ? "played" : "no-voice"); }, 8000);
  }

  function test(nonce) {
    if (!activated()) { waitForTap(nonce); return; }
    testing = "";
    var c = audio();
    function go() {
      if (c && c.state !== "running") { waitForTap(nonce); return; }
      if (c) chime();
      setTimeout(function () { sayTest(nonce); }, c ? CHIME_MS : 0);
    }
    if (c && c.state !== "running") c.resume().then(go, go);
    else go();
  }

  function chime() {
    var c = audio();
    if (!c) return 0;
    if (c.state === "suspended") { try { c.resume(); } catch (e) { /* blocked */ } }
    var t = c.currentTime + 0.02;
    [[659.25, 0], [523.25, 0.3]].forEach(function (note) {
      var osc = c.createOscillator();
      var gain = c.createGain();
      osc.type = "sine";
      osc.frequency.value = note[0];
      gain.gain.setValueAtTime(0.0001, t + note[1]);
      gain.gain.exponentialRampToValueAtTime(0.5, t + note[1] + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + note[1] + 0.5);
      osc.connect(gain);
      gain.connect(c.destination);
      osc.start(t + note[1]);
      osc.stop(t + note[1] + 0.55);
    });
    // what the tests read: each chime and whether the audio could play it
    window.__lotoChimes = (window.__lotoChimes || []).concat([c.state]);
    return CHIME_MS;
  }

  document.addEventListener("click", function (e) {
    if (!e.isTrusted) return; // (a script's click is nobody's touch)
    var t = e.target.closest && e.target.closest("[data-testid]");
    var id = t ? t.getAttribute("data-testid") : "";
    if (id === "chime-toggle") {
      try {
        window.localStorage.setItem("loto_chime", pref("loto_chime", false) ? "0" : "1");
      } catch (err) { /* storage blocked */ }
    }
    // any tap on the page is the activation browsers wait for
    unlock(id === "sound-unlock");
  }, true);

  window.LotoSound = {
    // before a number is said: the chime if it is on; how long to wait before speaking (ms)
    beforeNumber: function () { return pref("loto_chime", false) ? chime() : 0; },
    // an utterance about to be spoken: a refusal ("not-allowed") shows the button
    spoken: function (utterance) {
      utterance.addEventListener("error", function (ev) {
        if (ev.error === "not-allowed") { speechRefused = true; show(); }
      });
      window.__lotoSoundChecked = (window.__lotoSoundChecked || 0) + 1;
    },
    blocked: blocked,
    // the check's sound test (see the top of this file)
    test: function (nonce) { if (typeof nonce === "string" && nonce.length <= 32) test(nonce); },
  };
  setInterval(show, 1000);
  show();
})();
