"""Remote play anchored to the hall (domain/remote.py, domain/evening/remote.py): off by
default, a cap and the warning confirmed when on, the association's invitations each admitting
one phone, never more remote players than the cap, whatever the order of the joins."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loto_app.domain import errors as err
from loto_app.domain import events as ev
from loto_app.domain.engine import Evening
from loto_app.domain.errors import InvalidProgram
from loto_app.domain.program import Program, Settings, demo_program
from loto_app.domain.remote import CONFIRM_LABEL, LIVE_ONLY, MAX_REMOTE_CAP, WARNING_LINES


def remote_program(cap: int = 3) -> Program:
    return demo_program().with_settings(remote_play=True, remote_cap=cap, remote_confirmed=True)


def test_remote_play_is_off_by_default_and_a_remote_join_is_refused():
    assert Settings().remote_play is False and Settings().remote_cap == 0
    e = Evening(demo_program())
    with pytest.raises(err.RemoteRefused):
        e.join("p1", "Marie", "remote", 1)
    with pytest.raises(err.InvitationRefused) as refused:
        e.invite(["Marie"])
    assert "pas ouvert" in refused.value.user_message
    assert e.players == {} and e.invitations == {}


def test_remote_play_needs_a_cap_and_the_warning_confirmed():
    p = demo_program()
    with pytest.raises(InvalidProgram) as no_cap:
        p.with_settings(remote_play=True, remote_confirmed=True)
    assert "nombre maximum de joueurs à distance" in no_cap.value.user_message
    with pytest.raises(InvalidProgram) as no_ack:
        p.with_settings(remote_play=True, remote_cap=10)
    assert "cochez la case" in no_ack.value.user_message
    for bad in (-1, MAX_REMOTE_CAP + 1, True, "10", 2.5):
        with pytest.raises(InvalidProgram):
            p.with_settings(remote_play=True, remote_cap=bad, remote_confirmed=True)
    ok = p.with_settings(remote_play=True, remote_cap=MAX_REMOTE_CAP, remote_confirmed=True)
    assert Program.from_dict(ok.to_dict()) == ok  # (the confirmation recorded with the program)


def test_a_program_stored_with_the_old_shared_link_loads_with_remote_play_off():
    d = demo_program().to_dict()
    st_ = {k: v for k, v in d["settings"].items() if k not in ("remote_cap", "remote_confirmed")}
    old = Program.from_dict({**d, "settings": {**st_, "remote_play": True}})
    assert old.settings.remote_play is False


def test_the_warning_cites_the_answer_and_the_conditions_of_l322_4():
    text = " ".join(WARNING_LINES)
    for said in (*WARNING_LINES, CONFIRM_LABEL, LIVE_ONLY):
        assert "{" not in said and " :" not in said and " ;" not in said, said
    for words in (
        "17-2417",
        "20 janvier 2026",
        "cercle restreint",
        "internet",
        "L322-4",
        "aucun texte",
        "20\u00a0€",
        "un seul téléphone",
        "en direct dans la salle",
    ):
        assert words in text, words


def test_an_invitation_admits_one_phone_and_the_cap_the_next_player_is_refused():
    e = Evening(remote_program(cap=2))
    invited = e.invite(["Marie", "Paul", "Jeanne"])
    assert [(x.no, x.name) for x in invited] == [(1, "Marie"), (2, "Paul"), (3, "Jeanne")]
    assert e.join("p1", "Marie", "remote", 1)[-1] == ev.InvitationUsed(1, "p1")
    before = e.fingerprint()
    with pytest.raises(err.InvitationAlreadyUsed) as used:
        e.join("p2", "Marie", "remote", 1)
    assert "déjà servi sur un autre téléphone" in used.value.user_message
    with pytest.raises(err.UnknownInvitation):
        e.join("p2", "X", "remote", 99)
    with pytest.raises(err.UnknownInvitation):
        e.join("p2", "X", "remote", 0)
    assert e.fingerprint() == before  # (nothing of a refused join)
    e.join("p2", "Paul", "remote", 2)
    with pytest.raises(err.RemoteCapReached) as full:
        e.join("p3", "Jeanne", "remote", 3)
    assert "maximum de joueurs à distance est atteint" in full.value.user_message
    e.join("h1", "Dans la salle", "hall")  # (the hall is not capped)
    assert e.remote_players == 2


def test_invitations_refuse_a_repeated_or_bad_name_whole():
    e = Evening(remote_program())
    e.invite(["Marie"])
    with pytest.raises(err.InvitationRefused) as twice:
        e.invite(["Paul", "marie"])
    assert "Ligne 2" in twice.value.user_message and "déjà invité" in twice.value.user_message
    with pytest.raises(err.InvitationRefused) as bad:
        e.invite(["Paul", "   "])
    assert "Ligne 2" in bad.value.user_message
    with pytest.raises(err.InvitationRefused):
        e.invite([])
    assert [i.name for i in e.invitations.values()] == ["Marie"]


def test_the_cap_cannot_be_amended_below_the_remote_players_in():
    e = Evening(remote_program(cap=3))
    e.invite(["A", "B"])
    e.join("p1", "A", "remote", 1)
    e.join("p2", "B", "remote", 2)
    with pytest.raises(err.AmendmentRefused) as low:
        e.amend_program(remote_program(cap=1))
    assert "2 joueurs à distance" in low.value.user_message
    e.amend_program(remote_program(cap=2))
    assert e.program.settings.remote_cap == 2


@settings(max_examples=120, deadline=None)
@given(
    cap=st.integers(1, 6),
    invited=st.integers(1, 10),
    tries=st.lists(st.integers(0, 11), max_size=30),
)
def test_never_more_remote_players_than_the_cap_nor_two_phones_an_invitation(cap, invited, tries):
    """Whatever the order of the joins (invitations tried again, unknown ones, the hall among
    them): at most `cap` remote players, each invitation used by at most one, and the replay
    of the log gives the same state."""
    e = Evening(remote_program(cap=cap))
    e.invite([f"Membre {i}" for i in range(1, invited + 1)])
    for n, no in enumerate(tries):
        pid = f"p{n}"
        try:
            if no == 11:
                e.join(pid, "Salle", "hall")
            else:
                e.join(pid, "Joueur", "remote", no)
        except err.RemoteRefused as exc:
            used = e.invitations.get(no)
            if isinstance(exc, err.InvitationAlreadyUsed):
                assert used is not None and used.player_id
            elif isinstance(exc, err.RemoteCapReached):
                assert e.remote_players == cap
            else:
                assert used is None
            assert pid not in e.players
    remote = [p for p, o in e.origins.items() if o == "remote"]
    assert len(remote) <= cap
    users = [i.player_id for i in e.invitations.values() if i.player_id]
    assert sorted(users) == sorted(remote)  # one invitation each, one phone each
    fresh = sorted({no for no in tries if 1 <= no <= invited})
    assert len(remote) == min(cap, len(fresh))
    again = Evening.replay(e.program, e.history)
    assert again.fingerprint() == e.fingerprint()
