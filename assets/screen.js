// Loto: the hall screen's entracte (loto_app/components/hall_scenes.py): the time left until
// the games resume, every second. Only an attribute React does not manage is written
// (`data-left`, shown by assets/screen.css): a text written before React has hydrated the page
// would make it render the whole page again.
(function () {
  "use strict";
  if (window.__lotoScreenLoaded) return;
  window.__lotoScreenLoaded = true;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    document.querySelectorAll("[data-pause-until]").forEach(function (el) {
      var until = parseInt(el.getAttribute("data-pause-until"), 10);
      if (!until) return;
      var left = Math.round((until * 1000 - Date.now()) / 1000);
      var text;
      if (left <= 0) {
        text = "Reprise imminente";
      } else if (left < 60) {
        text = "dans " + left + " s";
      } else {
        var h = Math.floor(left / 3600);
        var m = Math.floor((left % 3600) / 60);
        text = "dans " + (h ? h + " h " + two(m) + " min" : m + " min " + two(left % 60) + " s");
      }
      if (el.getAttribute("data-left") !== text) el.setAttribute("data-left", text);
    });
  }
  setInterval(tick, 1000);
  new MutationObserver(tick).observe(document.documentElement, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-pause-until"],
  });
  tick();
})();
