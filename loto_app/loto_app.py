"""Reflex entry module: builds the app, registers every page and wires the room broadcast."""

import reflex as rx

from loto_app.live import broadcast
from loto_app.live.animateur import AnimateurState
from loto_app.live.hall import HallView
from loto_app.live.player import PlayerState
from loto_app.live.screen import ScreenState
from loto_app.pages import animateur, join, player, screen

app = rx.App(html_lang="fr")

# Routes are added here rather than with @rx.page: Reflex 0.10 re-applies decorated pages on
# each compile and warns "Page ... is being redefined" in `reflex run --env prod`.
app.add_page(join.index, route="/", title=join.TITLE, on_load=join.JoinPrefill.read_link)
app.add_page(player.index, route="/jouer", title=player.TITLE, on_load=PlayerState.resume)
app.add_page(
    animateur.index, route="/animateur", title=animateur.TITLE, on_load=AnimateurState.resume
)
app.add_page(screen.index, route="/ecran", title=screen.TITLE, on_load=ScreenState.watch)

broadcast.bind(app, HallView, f"{PlayerState.get_full_name()}.refresh")
