"""What the organiser's page, its state and the upload endpoint share of a picture's upload: the
endpoint's address, and the French sentences for a file the page did not send or an answer that
did not come. A leaf, below every layer: the page (pages/organisation_media.py) and the state
(live/states/organisation_media.py) read it without importing the endpoint
(loto_app/media_upload.py), which imports the live game.
"""

from __future__ import annotations

#: The endpoint the page sends a picture to (assets/upload.js; loto_app/media_http.py routes it).
PATH = "/media/upload"

#: Said when the upload failed on the way (a malformed form or answer, a failure of the server).
BROKEN = "L'envoi n'a pas abouti : réessayez."

#: Why the page did not send a file (assets/upload.js; react-dropzone's codes), as the organiser
#: reads them.
DROP_REASONS = {
    "file-invalid-type": (
        "Ce fichier n'est pas une image : envoyez une photo JPEG, PNG, WebP ou GIF."
    ),
    "file-too-large": "Fichier trop lourd : 8 Mo au plus. Envoyez une photo plus légère.",
    "file-too-small": "Le fichier est vide : choisissez une photo.",
    "too-many-files": "Une image à la fois.",
}
