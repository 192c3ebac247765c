/* The organiser's pictures (a lot's photo, a partner's logo), sent over HTTP.

   A file input marked `data-loto-upload` ("lot" or "logo", loto_app/pages/organisation_media.py)
   sends the chosen picture at once to `POST /media/upload` (its address in `data-url`, on the
   backend's origin), with what it is for (`data-target`: the lot, the partner's name) and the
   code and secret this browser stores for the organiser (the page's sign-in): the request may
   reach any worker of the server, which checks them itself (loto_app/media_upload.py). The
   answer, or the reason the file was not sent (too heavy, not an image), goes to the page's
   own state through a hidden form (`EveningMedia.uploaded`), which shows it and the lists. */
(function () {
  "use strict";
  if (window.__lotoUpload) return;
  window.__lotoUpload = true;

  var MAX_BYTES = 8 * 1024 * 1024; // loto_app/limits.py MAX_IMAGE_BYTES (the server checks again)
  var TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

  function stored(name) {
    try { return window.localStorage.getItem(name) || ""; } catch (e) { return ""; }
  }

  function tell(answer) {
    var form = document.querySelector('[data-testid="media-upload-answer"]');
    var input = form && form.querySelector('input[name="answer"]');
    if (!form || !input || !form.requestSubmit) return;
    input.value = JSON.stringify(answer);
    form.requestSubmit();
  }

  async function send(input, file) {
    if (file.size <= 0) return tell({ reason: "file-too-small" });
    if (file.size > MAX_BYTES) return tell({ reason: "file-too-large" });
    if (TYPES.indexOf(file.type) < 0) return tell({ reason: "file-invalid-type" });
    var body = new FormData();
    body.append("code", stored("loto_organiser_code"));
    body.append("secret", stored("loto_organiser_secret"));
    body.append("kind", input.dataset.lotoUpload);
    body.append("target", input.dataset.target || "");
    body.append("file", file, file.name);
    tell({ sending: true });
    var answer = null;
    try {
      var response = await fetch(input.dataset.url, { method: "POST", body: body });
      answer = await response.json();
    } catch (e) {
      answer = null;
    }
    if (!answer || typeof answer.ok !== "boolean") answer = { failed: true };
    tell(answer);
  }

  function chosen(input) {
    var files = input.files ? Array.prototype.slice.call(input.files) : [];
    input.value = ""; // the same file can be chosen again
    if (files.length > 1) return tell({ reason: "too-many-files" });
    if (files.length === 1) send(input, files[0]);
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input instanceof HTMLInputElement && input.dataset.lotoUpload) chosen(input);
  });
  // The page inserts this script with its section, and the browser runs it once fetched: a
  // picture chosen before that (a quick hand on a slow phone) had its "change" event go by
  // unheard, and is sent now.
  document.querySelectorAll("input[data-loto-upload]").forEach(function (input) {
    if (input.files && input.files.length) chosen(input);
  });
})();
