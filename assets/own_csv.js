/* The association's own cartons (loto_app/pages/organisation_own.py): a file input marked
   `data-own-csv` reads the chosen CSV file in the browser and puts its text in the form's
   text area (`data-own-csv-text`), which the organiser sends with "Importer". A file over the
   limit is not read: the page says so (the server checks again, loto_app/limits.py). */
(function () {
  "use strict";
  if (window.__lotoOwnCsv) return;
  window.__lotoOwnCsv = true;

  var MAX_CHARS = 30000; // loto_app/limits.py MAX_OWN_CSV_CHARS

  function say(input, text) {
    var status = document.querySelector("[data-own-csv-status]");
    if (status) status.textContent = text;
  }

  function read(input) {
    var file = input.files && input.files[0];
    var area = document.querySelector("[data-own-csv-text]");
    if (!file || !area) return;
    if (file.size > MAX_CHARS * 2) {
      area.value = "";
      say(input, "Fichier trop gros (30\u202f000 caractères, environ 600 cartons, au plus)\u00a0: coupez-le en plusieurs fichiers.");
      return;
    }
    var reader = new FileReader();
    reader.onload = function () {
      var text = String(reader.result || "");
      if (text.length > MAX_CHARS) {
        area.value = "";
        say(input, "Fichier trop gros (30\u202f000 caractères, environ 600 cartons, au plus)\u00a0: coupez-le en plusieurs fichiers.");
        return;
      }
      area.value = text;
      var lines = text.split(/\r?\n/).filter(function (l) { return l.trim(); }).length;
      say(input, "«\u00a0" + file.name + "\u00a0» lu (" + lines + " lignes)\u00a0: vérifiez le nom de la série, puis importez.");
    };
    reader.onerror = function () { say(input, "Le fichier n'a pas pu être lu."); };
    reader.readAsText(file);
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.hasAttribute("data-own-csv")) read(input);
  });
  // The page inserts this script with the section, and the browser runs it when it has
  // fetched it: a file chosen before that (a quick hand on a slow phone) had its "change"
  // event go by unheard, and is read now.
  document.querySelectorAll("input[data-own-csv]").forEach(function (input) {
    if (input.files && input.files.length) read(input);
  });
})();
