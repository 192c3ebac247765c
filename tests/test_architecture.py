"""What the layers' contracts (import-linter, `make lint`) cannot say: no Reflex state is
declared in a page module; every exception that carries a French message for a person is a
`Refusal` (one root: a page tells `exc.user_message` whatever layer refused); and every move
made outside the runtime goes the one way (a page state's `_play`, the upload's
`registry.attempt`), so that a refusal is logged and said alike everywhere."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import reflex as rx

import loto_app
from loto_app.refusal import Refusal


def app_modules() -> list[object]:
    """Every module of the app (the domain is a namespace package: walked by its files)."""
    import loto_app.loto_app  # (the state tree, as the server builds it)

    root = Path(loto_app.__file__).parent
    names = [
        ".".join(("loto_app", *p.relative_to(root).with_suffix("").parts))
        for p in sorted(root.rglob("*.py"))
        if p.name != "__init__.py"
    ]
    return [importlib.import_module(n) for n in names]


def declared(module: object, base: type) -> list[type]:
    return [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, base) and c.__module__ == module.__name__
    ]


def test_no_state_is_declared_in_a_page_module() -> None:
    pages = [m for m in app_modules() if m.__name__.startswith("loto_app.pages.")]
    assert len(pages) >= 9
    assert {m.__name__: declared(m, rx.State) for m in pages if declared(m, rx.State)} == {}


def test_every_exception_with_a_french_message_is_a_refusal() -> None:
    from loto_app.domain.errors import LotoError
    from loto_app.live.input.guards import BadInput
    from loto_app.live.input.program_form import FormProblem
    from loto_app.live.runtime.pairing import Refused
    from loto_app.live.runtime.signin_limit import TooManyAttempts
    from loto_app.storage.access import AccessError

    exceptions = [c for m in app_modules() for c in declared(m, BaseException)]
    assert len(exceptions) > 40  # (the domain's errors among them)
    for cls in exceptions:
        if "user_message" in inspect.getsource(cls):
            assert issubclass(cls, Refusal), cls.__qualname__
    for cls in (LotoError, AccessError, BadInput, FormProblem, Refused, TooManyAttempts):
        assert issubclass(cls, Refusal) and cls in exceptions


def test_a_refusal_keeps_its_detail_and_its_french_message() -> None:
    from loto_app.domain.errors import InvalidNumber
    from loto_app.live.input.guards import BadInput
    from loto_app.live.runtime.signin_limit import TooManyAttempts

    assert (str(BadInput("carton: 'x'")), BadInput("x").user_message) == (
        "carton: 'x'",
        "Requête invalide.",
    )
    assert InvalidNumber("91").user_message.startswith("Le numéro doit")
    assert InvalidNumber("91", "Autre.").user_message == "Autre."
    assert "3 minutes" in TooManyAttempts("10.0.0.1", 150).user_message


def test_every_move_outside_the_runtime_is_played_the_one_way() -> None:
    """No module outside live/runtime/ calls `registry.play` itself (the page states play
    through `BrowserSession._play`, the HTTP upload through `registry.attempt`), and no state
    class has a `_play` of its own."""
    from loto_app.live.states.session import BrowserSession

    root = Path(loto_app.__file__).parent
    callers = [
        p.relative_to(root).as_posix()
        for p in sorted(root.rglob("*.py"))
        if "registry.play(" in p.read_text() and p.parent.name != "runtime"
    ]
    assert callers == []
    states = [c for m in app_modules() for c in declared(m, rx.State)]
    assert len(states) > 15
    assert [c for c in states if "_play" in vars(c)] == [BrowserSession]
