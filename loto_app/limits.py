"""The sizes the app accepts, each defined once (the engine, the handlers and the forms use
these): a typed value longer or larger than its limit is refused before it reaches a rule.
"""

from __future__ import annotations

#: A join code, a série code or a carton's check code, as typed or scanned (characters).
MAX_CODE = 16
#: A secret (a player's, the animateur's, the organiser's, a desk member's), an invitation
#: token or a creation key (characters): the app issues 12 to 16; a longer one is refused unread.
MAX_SECRET = 64
#: A série code (characters): it is printed on every carton.
MAX_SERIES = MAX_CODE
#: A vendeur's or caissier's name (characters).
MAX_STAFF_NAME = 30
#: A player's name (characters).
MAX_PLAYER_NAME = 30
#: The highest carton number or lot-ticket number a handler accepts.
MAX_CARTON_NO = 100_000
MAX_TICKET_NO = 100_000
#: The highest sale or claim number a handler accepts.
MAX_SALE_NO = 1_000_000
MAX_CLAIM_NO = 1_000_000
#: The highest index of a tariff line a handler accepts (a tariff has far fewer).
MAX_OFFER_INDEX = 63
#: The hall screen's entracte: its message (characters) and how long it may last (minutes).
MAX_PAUSE_MESSAGE = 120
MAX_PAUSE_MINUTES = 180
#: An image the organiser uploads (a lot's photo, a partner's logo): the file's size in bytes,
#: its size in pixels before it is decoded (a decompression bomb is refused on its header), and
#: how many partners an evening shows.
MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000
MAX_PARTNERS = 12
#: A partner's name (characters), shown under its logo.
MAX_PARTNER_NAME = 40
#: The association's own cartons imported from a CSV file on /organisation: the file's size
#: (characters: it travels in one socket event, under the frame guard's 32 KB; ~45 a line, so
#: about 600 cartons a file: a bigger box is imported in several files) and its lines.
MAX_OWN_CSV_CHARS = 30_000
MAX_OWN_CSV_LINES = 1_000
