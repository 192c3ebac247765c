"""A carton's kind in French (`program.carton_kind_label`): what the paper cartons, the
reconciliation and the phone print beside a carton's number."""

from __future__ import annotations

from loto_app.domain.program import KIND_LABELS, Kind, carton_kind_label


def test_a_special_carton_is_spécial_and_the_others_say_their_game() -> None:
    assert carton_kind_label(Kind.SPECIAL) == "Spécial"  # a carton, not a game (Spéciale)
    assert KIND_LABELS[Kind.SPECIAL] == "Spéciale"
    for k in (Kind.CLASSIQUE, Kind.VITRINE, Kind.MAXIQUINE):
        assert carton_kind_label(k) == KIND_LABELS[k]
        assert carton_kind_label(k.value) == KIND_LABELS[k]


def test_an_unknown_kind_is_shown_as_it_is() -> None:
    assert carton_kind_label("ancienne") == "ancienne"
