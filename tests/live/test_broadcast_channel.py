"""Room messages between workers go through a Redis channel of their own per deployment."""

from __future__ import annotations

from loto_app.live.runtime.broadcast import rooms_channel


def test_two_databases_never_share_a_rooms_channel(monkeypatch) -> None:
    monkeypatch.delenv("LOTO_REDIS_CHANNEL", raising=False)
    a = rooms_channel("postgresql+psycopg://root@127.0.0.1:5432/loto_a")
    b = rooms_channel("postgresql+psycopg://root@127.0.0.1:5432/loto_b")
    assert a != b and a.startswith("loto-rooms:") and b.startswith("loto-rooms:")
    assert a == rooms_channel("postgresql+psycopg://root@127.0.0.1:5432/loto_a"), "stable"
    monkeypatch.setenv("LOTO_REDIS_CHANNEL", "salle-des-fetes")
    assert rooms_channel("anything") == "salle-des-fetes"
