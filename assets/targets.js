// What a unit of cartons still needs for the stage in play, from the server's own target
// lines (loto_app/domain/patterns.py `targets`, sent on each carton as data-targets): a stage
// is complete when `k` of its `lines` are wholly drawn. Nothing here knows a pattern's name or
// its rule: the phone's hint and "Plus qu'un numéro" read what the verdicts read.
// Loaded as a plain script (window.LotoTargets) and by Node in tests/domain/test_targets_js.py.
(function (root) {
  "use strict";

  function missingOf(target, drawn) {
    return target.lines.map(function (line) {
      return line.filter(function (n) { return !drawn.has(n); });
    }).sort(function (a, b) { return a.length - b.length; });
  }

  // Would a claim on number `n` be valid: `k` lines complete, one of them holding `n`?
  function claimable(target, drawn, n) {
    if (!target || !target.lines || !drawn.has(n)) return false;
    var complete = target.lines.filter(function (line) {
      return line.every(function (x) { return drawn.has(x); });
    });
    return complete.length >= target.k && complete.some(function (line) {
      return line.indexOf(n) >= 0;
    });
  }

  // {need, waits}: the fewest numbers still needed, and when one, the numbers it waits for.
  function need(target, drawn) {
    if (!target || !target.lines || target.lines.length < target.k) return null;
    var missing = missingOf(target, drawn);
    var total = 0;
    for (var i = 0; i < target.k; i++) total += missing[i].length;
    var waits = [];
    if (total === 1) {
      missing.forEach(function (m) {
        if (m.length === 1 && waits.indexOf(m[0]) < 0) waits.push(m[0]);
      });
      waits.sort(function (a, b) { return a - b; });
    }
    return { need: total, waits: waits };
  }

  var api = { claimable: claimable, need: need };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.LotoTargets = api;
})(this);
