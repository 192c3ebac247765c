// Loto: what the hall needs from the browser itself (no server round trip).
// - player page: keep the screen awake during the evening (Wake Lock API), a short vibration
//   when one of my numbers comes out, and - only if the evening allows the hint - a strong one
//   with "une quine possible !" when a carton can be claimed;
// - hall screen: the last number read aloud in French (speech synthesis, with the traditional
//   phrases as an option), toggled on the screen and remembered by the browser;
// - player page: the same words spoken by the phone ("Annonce sur mon téléphone", off by
//   default, remembered), "Activer le son" when the browser holds speech back until a touch,
//   "Répéter", a live region that tells a screen reader each number, and - only if the evening
//   allows it - "Plus qu'un numéro !" (what each carton still needs, the closest first);
// - the player's pions (`data-cell`): marked on the phone at once, kept in local storage, sent
//   to the server in batches for safekeeping (see "marks" below);
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
  var lastSeen; // the last number the page showed once ready (undefined: not looked yet)

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

  // The numbers drawn, as the page shows them on my cartons' cells (data-drawn).
  function drawnOnPage() {
    var drawn = new Set();
    document.querySelectorAll('[data-cell][data-drawn="true"]').forEach(function (c) {
      drawn.add(parseInt(c.getAttribute("data-n"), 10));
    });
    return drawn;
  }

  // The server's target lines of this carton's unit for the stage in play (data-targets:
  // a JSON object by pattern, loto_app/live/present/views.py), or null.
  function targetOf(carton, pattern) {
    var raw = carton.getAttribute("data-targets");
    if (!raw || !pattern) return null;
    try { return JSON.parse(raw)[pattern] || null; } catch (e) { return null; }
  }

  function claimable(n) {
    var page = document.querySelector('[data-page="player"]');
    if (!page || page.getAttribute("data-claim-hint") !== "true" || !window.LotoTargets) {
      return false;
    }
    var pattern = page.getAttribute("data-pattern");
    var drawn = drawnOnPage();
    var cartons = document.querySelectorAll('[data-testid^="carton-"][data-plays="true"]');
    return Array.prototype.some.call(cartons, function (carton) {
      if (carton.getAttribute("data-annulled") === "true") return false;
      return window.LotoTargets.claimable(targetOf(carton, pattern), drawn, n);
    });
  }

  function onPlayerNumber(n) {
    keepAwake();
    announce(numberText(n), false);
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

  function setPressed(el, pressed) {
    // only the attribute, and only when it changes: this runs from a MutationObserver, which
    // would see its own writes. Both labels are in the button (pages/screen.py) and loto.css
    // shows the one of its state; writing the text instead, before React has hydrated the
    // page, is a mismatch that makes React render the whole page again (a touch then lost).
    if (el.getAttribute("aria-pressed") !== String(pressed)) {
      el.setAttribute("aria-pressed", String(pressed));
    }
  }

  // The voice of this page: the hall screen's toggle, or the phone's "Annonce sur mon
  // téléphone" (both off by default); the traditional phrases as the hall screen has them.
  var PHONE_VOICE = "loto_phone_voice";
  function voiceKey() {
    return document.querySelector('[data-page="player"]') ? PHONE_VOICE : "loto_voice";
  }

  function showPrefs() {
    var voice = document.querySelector('[data-testid="voice-toggle"]');
    var phrases = document.querySelector('[data-testid="phrases-toggle"]');
    var phone = document.querySelector('[data-testid="phone-voice"]');
    if (voice) setPressed(voice, pref("loto_voice", false));
    if (phrases) setPressed(phrases, pref("loto_phrases", true));
    if (phone) setPressed(phone, pref(PHONE_VOICE, false));
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-testid]");
    if (!t) return;
    var id = t.getAttribute("data-testid");
    if (id === "voice-toggle" || id === "phrases-toggle" || id === "phone-voice") {
      var key = { "voice-toggle": "loto_voice", "phrases-toggle": "loto_phrases" }[id] || PHONE_VOICE;
      var on = !pref(key, id === "phrases-toggle");
      window.localStorage.setItem(key, on ? "1" : "0");
      showPrefs();
      // this touch lets the browser speak: say so at once (and a refusal shows up now)
      if (id === "phone-voice") {
        if (on) speak("Annonce des numéros activée.", PHONE_VOICE);
        else if ("speechSynthesis" in window) window.speechSynthesis.cancel();
      }
    } else if (id === "repeat-number") {
      var n = lastNumber();
      announce(n === null ? "Aucun numéro n'est encore sorti." : numberText(n), true);
    } else if (id === "sound-unlock" && document.querySelector('[data-page="player"]')) {
      // (assets/sound.js unlocks; the phone says the last number)
      var last = lastNumber();
      speak(last === null ? "Son activé." : numberText(last), voiceKey());
    }
  });

  function numberText(n) {
    return "Le " + n + (pref("loto_phrases", true) && PHRASES[n] ? ", " + PHRASES[n] : "");
  }

  // Say `text` in French if this browser's preference `key` is on, after `wait` ms (the
  // chime's time); a refusal of the browser shows "Activer le son" (assets/sound.js).
  function speak(text, key, wait) {
    window.__lotoSpoken = (window.__lotoSpoken || []).concat([text]);
    if (!pref(key, false) || !("speechSynthesis" in window)) return;
    var u = new SpeechSynthesisUtterance(text);
    u.lang = "fr-FR";
    u.rate = 0.9;
    var fr = window.speechSynthesis.getVoices().filter(function (v) {
      return v.lang && v.lang.indexOf("fr") === 0;
    })[0];
    if (fr) u.voice = fr;
    if (window.LotoSound) window.LotoSound.spoken(u); // a refused speech shows "Activer le son"
    setTimeout(function () {
      window.speechSynthesis.cancel();
      window.speechSynthesis.speak(u);
    }, wait || 0);
  }

  function sayNumber(n) {
    // the chime first, when it is on (assets/sound.js): the number is said once it has rung
    var wait = window.LotoSound ? window.LotoSound.beforeNumber() : 0;
    speak(numberText(n), "loto_voice", wait);
  }

  // The player page's live region: a screen reader says each number, and again on "Répéter"
  // (emptied first, so that the same words are announced again); the phone's voice too.
  var liveTimer = null;
  function announce(text, again) {
    var live = document.querySelector('[data-testid="number-live"]');
    if (live) {
      live.textContent = "";
      clearTimeout(liveTimer);
      liveTimer = setTimeout(function () { live.textContent = text; }, again ? 150 : 50);
    }
    window.__lotoAnnounced = (window.__lotoAnnounced || []).concat([text]);
    speak(text, PHONE_VOICE);
  }

  // ---------------------------------------------------------------- "Plus qu'un numéro !"
  // What each carton still needs for the stage in play: the server's target lines
  // (data-targets) against the numbers drawn, by assets/targets.js. One missing: the number(s)
  // it waits for. Marking and claiming stay the player's.
  function setText(el, text) {
    if (el.textContent !== text) el.textContent = text;
  }

  function oneToGo() {
    var page = document.querySelector('[data-page="player"]');
    if (!page) return;
    var on = page.getAttribute("data-one-to-go") === "true";
    var pattern = page.getAttribute("data-pattern");
    var cartons = Array.prototype.slice.call(
      document.querySelectorAll('[data-testid="cartons"] > [data-testid^="carton-"]'));
    var drawn = drawnOnPage();
    cartons.forEach(function (carton) {
      var no = carton.getAttribute("data-testid").slice("carton-".length);
      var box = document.querySelector('[data-testid="togo-' + no + '"]');
      var plays = carton.getAttribute("data-plays") === "true"
        && carton.getAttribute("data-annulled") !== "true";
      var r = on && plays && window.LotoTargets
        ? window.LotoTargets.need(targetOf(carton, pattern), drawn) : null;
      var order = r ? String(r.need) : "999";
      if (carton.style.order !== order) carton.style.order = order;
      if (!box) return;
      if (!r || r.need === 0) {
        if (!box.hidden) box.hidden = true;
        box.removeAttribute("data-need");
        return;
      }
      var text = r.need === 1
        ? "Plus qu'un numéro : le " + r.waits.join(" ou le ") + " !"
        : "Reste " + r.need + " numéros";
      setText(box, text);
      if (box.getAttribute("data-need") !== String(r.need)) {
        box.setAttribute("data-need", r.need === 1 ? "1" : String(r.need));
      }
      if (box.hidden) box.hidden = false;
    });
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
    var confirm = button.getAttribute("data-confirm") || "Confirmer\u202f?";
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

  // ---------------------------------------------------------------- marks (pions)
  // A touch marks at once, on the phone: no server round trip. The phone keeps the ops not yet
  // confirmed ("cell -> marked or not") in local storage (they survive a reload and a dropped
  // connection) and sends them in batches for safekeeping (the server's copy comes back on
  // another device, after a restart). What a cell shows: the op not yet confirmed if any, else
  // the server's pions (rendered in data-marks by the app, or the last ack, whichever came
  // last). loto_app/live/gate/marks_path.py answers the batches.
  // When a batch goes: in this page's slots, one every SPACING_MS (a batch spans the draws of
  // that time: what a mark costs the server is one message, whatever it holds); and at once when
  // the page is hidden or closed (the phone is put away, the player moves to another device) or
  // the connection comes back. The first slot is drawn at random within the spacing after the
  // page's first touch, so that phones that began marking on the same number do not all send in
  // the same second every three minutes (a thousand batches at once, just when the next number
  // is due): spread over the spacing, the server sees a steady trickle. A later batch sent at
  // once (page hidden, connection back) does not move the slots.
  var FLUSH_MS = 1000; // a batch never goes sooner than this after the touch
  // tests: the first slot this long after the first touch instead of a random one
  var FIRST_MS = window.__lotoMarksFirstMs;
  // the slots' spacing: three minutes (the server's copy is a safety net for a phone that dies;
  // a phone put away sends at once): a batch per phone every 180 s is what a broadcast of
  // thousands can afford (bench/load.py, README "Capacité")
  var SPACING_MS = window.__lotoMarksSpacingMs || 180000;
  // a batch unanswered this long is sent again (its ack was lost; the server answers once the
  // batch is committed, with the others of the same 5 s: live/runtime/marks.py GATHER_S)
  var RESEND_MS = 20000;
  var MARKS_KEY = "loto_marks";
  var mk = {
    base: {}, baseAttr: null, ops: {}, game: 0, code: "", sent: null, timer: null, slot: 0,
  };

  function playerMarker() { return document.querySelector('[data-page="player"]'); }

  function mkSave() {
    try {
      window.localStorage.setItem(MARKS_KEY, JSON.stringify({
        code: mk.code, game: mk.game, ops: mk.ops,
      }));
    } catch (e) { /* storage full or blocked: the ops still go to the server */ }
    var pending = Object.keys(mk.ops).length;
    document.documentElement.setAttribute("data-marks-pending", String(pending));
  }

  function mkSetBase(keys) {
    mk.base = {};
    keys.forEach(function (k) { if (k) mk.base[k] = true; });
  }

  // The page's evening and game: a new game (or another evening) drops the ops of the last one.
  // Runs before each render and each touch.
  function mkSync(page) {
    // only once the page knows me and the room (`resume` done): before, the defaults show
    if (page.getAttribute("data-ready") !== "true") return;
    var code = page.getAttribute("data-code") || "";
    var game = parseInt(page.getAttribute("data-game"), 10) || 0;
    var attr = page.getAttribute("data-marks");
    if (attr !== mk.baseAttr) { // the server's pions, freshly rendered (a load, a refresh)
      mk.baseAttr = attr;
      mkSetBase((attr || "").split(" "));
    }
    if (!mk.code) { // first look at the page: the ops this browser kept
      var kept = null;
      try { kept = JSON.parse(window.localStorage.getItem(MARKS_KEY) || "null"); } catch (e) { }
      if (kept && kept.code === code && kept.game === game && kept.ops) mk.ops = kept.ops;
      mk.code = code;
      mk.game = game;
      mkSave();
      if (Object.keys(mk.ops).length) mkSchedule(FLUSH_MS);
      return;
    }
    if (code !== mk.code || game !== mk.game) {
      mk.code = code;
      mk.game = game;
      mk.ops = {};
      mk.sent = null;
      mkSetBase((attr || "").split(" ")); // (the last game's pions kept by `mkAck` go too)
      mkSave();
    }
  }

  function mkMarked(cell, auto) {
    if (auto) return cell.getAttribute("data-drawn") === "true";
    var key = cell.getAttribute("data-cell");
    return Object.prototype.hasOwnProperty.call(mk.ops, key) ? mk.ops[key] === 1 : !!mk.base[key];
  }

  var lastAck = "";
  function mkRender() {
    var page = playerMarker();
    if (!page) return;
    var ack = page.getAttribute("data-marks-ack") || "";
    if (ack !== lastAck) { // the server's answer to a batch (a delta, applied on arrival)
      lastAck = ack;
      try { if (ack) mkAck(JSON.parse(ack)); } catch (e) { /* not an ack */ }
    }
    mkSync(page);
    var auto = page.getAttribute("data-auto-marking") === "true";
    document.querySelectorAll("[data-cell]").forEach(function (cell) {
      var on = mkMarked(cell, auto) ? "true" : "false";
      if (cell.getAttribute("data-marked") !== on) cell.setAttribute("data-marked", on);
      if (cell.getAttribute("aria-pressed") !== on) cell.setAttribute("aria-pressed", on);
      var n = cell.getAttribute("data-n");
      var label = n + (cell.getAttribute("data-drawn") === "true" ? ", sorti" : "")
        + (on === "true" ? ", marqué" : "");
      if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
    });
  }

  var mkMessageTimer = null;
  function mkSay(text) {
    var box = document.querySelector('[data-testid="mark-message"]');
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
    clearTimeout(mkMessageTimer);
    mkMessageTimer = setTimeout(function () { box.hidden = true; }, 4000);
  }

  function mkTouch(cell) {
    var page = playerMarker();
    if (!page || page.getAttribute("data-auto-marking") === "true") return;
    mkSync(page);
    if (page.getAttribute("data-ready") !== "true") return; // (a moment, while it loads)
    var n = cell.getAttribute("data-n");
    var carton = cell.closest('[data-testid^="carton-"]');
    if (page.getAttribute("data-game-over") === "true") {
      mkSay("La partie est terminée.");
      return;
    }
    if (!mk.game || !carton || carton.getAttribute("data-plays") !== "true") {
      mkSay("Ce carton ne joue pas cette partie.");
      return;
    }
    var key = cell.getAttribute("data-cell");
    var marked = mkMarked(cell, false);
    if (!marked && carton.getAttribute("data-annulled") === "true") {
      mkSay("Ce carton est annulé pour cette partie.");
      return;
    }
    if (!marked && cell.getAttribute("data-drawn") !== "true") {
      mkSay("Le " + n + " n'est pas encore sorti.");
      return;
    }
    mk.ops[key] = marked ? 0 : 1;
    mkSave();
    mkRender();
    if (!mk.timer) mkSchedule(mkDelay());
  }

  // How long the ops now pending wait: until this page's next slot at least FLUSH_MS away
  // (the first call draws the first slot).
  function mkDelay() {
    var now = Date.now();
    if (!mk.slot) {
      var first = typeof FIRST_MS === "number" ? FIRST_MS
        : FLUSH_MS + Math.random() * Math.max(0, SPACING_MS - FLUSH_MS);
      mk.slot = now + Math.max(FLUSH_MS, first);
      document.documentElement.setAttribute("data-marks-first-ms", String(Math.round(first)));
    }
    var soonest = now + FLUSH_MS;
    if (mk.slot < soonest) {
      mk.slot += Math.ceil((soonest - mk.slot) / SPACING_MS) * SPACING_MS;
    }
    return mk.slot - now;
  }

  function mkSchedule(ms) {
    clearTimeout(mk.timer);
    mk.timer = setTimeout(mkFlush, ms);
  }

  // The page is put away, or its connection is back: what is pending goes now.
  function mkFlushNow() {
    if (!Object.keys(mk.ops).length) return;
    clearTimeout(mk.timer);
    mkFlush();
  }

  function mkFlush() {
    mk.timer = null;
    var keys = Object.keys(mk.ops);
    if (!keys.length || !mk.game) return;
    if (mk.sent && Date.now() - mk.sent.at < RESEND_MS) { // one batch in flight at a time
      mkSchedule(RESEND_MS - (Date.now() - mk.sent.at));
      return;
    }
    var form = document.querySelector('[data-testid="marks-flush"]');
    var input = document.querySelector('[data-testid="marks-batch"]');
    if (!form || !input || !form.requestSubmit) { mkSchedule(FLUSH_MS); return; }
    var snapshot = {};
    var ops = keys.map(function (k) {
      snapshot[k] = mk.ops[k];
      var p = k.split("-");
      return [parseInt(p[0], 10), parseInt(p[1], 10), mk.ops[k]];
    });
    var id = ((mk.sent && mk.sent.batch.id) || 0) + 1;
    var secret = "";
    try { secret = window.localStorage.getItem("loto_player_secret") || ""; } catch (e) { }
    if (!secret) { mkSchedule(RESEND_MS); return; }
    mk.sent = { at: Date.now(), snapshot: snapshot, batch: { id: id, game: mk.game, ops: ops } };
    // the identity this browser stores goes along: the server checks the batch against it
    input.value = JSON.stringify({
      id: id, game: mk.game, code: mk.code, secret: secret, ops: ops,
    });
    form.requestSubmit(); // the app's hidden form: PlayerState.save_marks
    mkSchedule(RESEND_MS); // unanswered: again
  }

  // The server's answer to a batch, once stored: it holds my pions with the batch's ops
  // applied (but those it skipped as illegal), or it refused the batch (another game, or a
  // finished one: the server keeps no pion of a finished game).
  function mkAck(ack) {
    window.__lotoMarkAcks = (window.__lotoMarkAcks || 0) + 1;
    if (!ack || !mk.sent || ack.id !== mk.sent.batch.id) return; // an answer to an older batch
    var snapshot = mk.sent.snapshot;
    mk.sent = null;
    if (!ack.ok || ack.game !== mk.game) {
      if (ack.game === mk.game) {
        // this game ended before the batch was stored (the last pions of a quick claim on a
        // busy server): nothing more goes, but the player still sees every pion of theirs
        // until "Démarquer" or the next game
        Object.keys(mk.ops).forEach(function (k) {
          if (mk.ops[k] === 1) mk.base[k] = true; else delete mk.base[k];
        });
      }
      mk.ops = {};
    } else {
      var skipped = {};
      (ack.skipped || []).forEach(function (k) { skipped[k] = true; });
      Object.keys(snapshot).forEach(function (k) {
        if (!skipped[k]) {
          if (snapshot[k] === 1) mk.base[k] = true; else delete mk.base[k];
        }
        if (mk.ops[k] === snapshot[k]) delete mk.ops[k];
      });
    }
    mkSave();
    mkRender();
    clearTimeout(mk.timer);
    mk.timer = null;
    if (Object.keys(mk.ops).length) mkSchedule(mkDelay());
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") mkFlushNow();
  });
  window.addEventListener("pagehide", mkFlushNow);

  document.addEventListener("click", function (e) {
    var cell = e.target.closest && e.target.closest("[data-cell]");
    if (cell) { mkTouch(cell); return; }
    var unmark = e.target.closest && e.target.closest('[data-testid="unmark-all"]');
    if (unmark && !unmark.disabled) { // "Démarquer": my pions go at once (the app clears mine)
      mk.ops = {};
      mk.sent = null;
      mk.base = {};
      mkSave();
      mkRender();
    }
  });

  // ------------------------------------------------- "Vous pouvez démarquer !" brought in view
  // The box sits at the top of the page; a player who scrolled down to claim on a lower carton
  // would not see it. When it appears (not when a page loads with it), the page scrolls to it,
  // once, gently unless the phone asks for less motion.
  var unmarkSeen;
  function showUnmarkNow() {
    var box = document.querySelector('[data-testid="unmark-now"]');
    var shown = !!box;
    if (unmarkSeen === false && shown) {
      var r = box.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) {
        var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        box.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
      }
    }
    unmarkSeen = shown;
  }

  // ---------------------------------------------------------------- watch the last number
  var wasOffline = false;
  function check() {
    // the touch gate of assets/loto.css: set again should <html> have lost its attributes
    // (React clears them when a hydration mismatch makes it render the page again: a claim
    // button or the voice toggle must never stay untouchable)
    if (!document.documentElement.hasAttribute("data-loto-ready")) {
      document.documentElement.setAttribute("data-loto-ready", "true");
    }
    showPrefs();
    mkRender();
    oneToGo();
    showUnmarkNow();
    var offline = !!document.querySelector('[data-testid="connection-banner"]');
    if (wasOffline && !offline) mkFlushNow(); // the connection is back: the pending pions go
    wasOffline = offline;
    var n = lastNumber();
    if (lastSeen === undefined) {
      // the number the page shows once it is ready (hydrated, the player known) was out
      // before: not news. From then on, every change is (the first ball of a game too).
      var marker = document.querySelector("[data-page]");
      if (!marker || marker.getAttribute("data-ready") === "true") lastSeen = n;
      return;
    }
    if (n === lastSeen) return;
    lastSeen = n;
    if (n === null) return; // (a new game: no number yet)
    disarm(); // a new number: a claim armed on the previous one must be decided again
    if (document.querySelector('[data-page="player"]')) onPlayerNumber(n);
    if (document.querySelector('[data-page="screen"]')) sayNumber(n);
  }

  new MutationObserver(check).observe(document.documentElement, {
    subtree: true, childList: true, characterData: true, attributes: true,
    // what the pions depend on (not what mkRender writes: data-marked, aria-*)
    attributeFilter: [
      "data-marks", "data-marks-ack", "data-game", "data-game-over", "data-code",
      "data-auto-marking", "data-ready", "data-one-to-go", "data-pattern",
      "data-drawn", "data-plays", "data-annulled", "data-loto-ready",
    ],
  });
  keepAwake();
  check(); // the page may be complete already (the script came last): show the pions now
})();
