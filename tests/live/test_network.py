"""The public origin every link is built on, and the client address behind trusted proxies
(`loto_app.network`): examples and properties. The real network paths are exercised by
tests/e2e/test_lan.py (a network namespace) and tests/e2e/test_https.py (Caddy)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loto_app import network as n

LOOPBACK = n.parse_networks(n.DEFAULT_TRUSTED)
ips = st.one_of(
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(str),
)
public_ips = ips.filter(lambda a: ipaddress.ip_address(a).is_global)


def origin(headers: dict[str, str], peer: str = "192.168.1.30", env=None, lan="192.168.1.20"):
    return n.public_origin(headers, peer, env=env or {}, lan=lan)


# ---------------------------------------------------------------------- public origin


def test_the_configured_public_url_wins() -> None:
    env = {"LOTO_PUBLIC_URL": "https://Loto.Example.org/some/path/"}
    assert origin({"host": "localhost:3000"}, env=env) == "https://loto.example.org"
    env = {"LOTO_PUBLIC_URL": "http://192.168.1.20:3000"}
    assert origin({"host": "127.0.0.1:3000"}, env=env) == "http://192.168.1.20:3000"
    env = {"LOTO_PUBLIC_URL": "https://loto.example.org:443"}
    assert origin({}, env=env) == "https://loto.example.org"


@pytest.mark.parametrize("bad", ["loto.example.org", "ftp://x.org", "https://u:p@x.org", "http://"])
def test_a_wrong_public_url_is_ignored(bad: str) -> None:
    got = origin({"host": "192.168.1.20:3000"}, env={"LOTO_PUBLIC_URL": bad})
    assert got == "http://192.168.1.20:3000"


def test_a_tv_on_localhost_gets_the_lan_address_and_port() -> None:
    for host in ("localhost:3000", "127.0.0.1:3000", "[::1]:3000", "0.0.0.0:3000"):
        headers = {"host": host, "origin": f"http://{host}"}
        assert origin(headers, peer="127.0.0.1") == "http://192.168.1.20:3000"
    assert origin({"host": "localhost"}, peer="127.0.0.1") == "http://192.168.1.20"


def test_with_no_network_the_links_stay_on_this_machine() -> None:
    assert origin({"host": "localhost:3000"}, lan=None) == "http://localhost:3000"


def test_the_address_a_phone_used_is_kept() -> None:
    headers = {"host": "192.168.1.20:3000", "origin": "http://192.168.1.20:3000"}
    assert origin(headers) == "http://192.168.1.20:3000"
    assert origin({"host": "loto-salle.local:3000"}) == "http://loto-salle.local:3000"
    # the browser's Origin carries the scheme it used
    assert origin({"host": "loto.example.org", "origin": "https://loto.example.org"}) == (
        "https://loto.example.org"
    )


def test_behind_a_trusted_proxy_the_forwarded_scheme_and_host_count() -> None:
    headers = {
        "host": "127.0.0.1:3000",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "loto.example.org",
        "x-forwarded-for": "203.0.113.9",
    }
    env = {"LOTO_CREATE_KEY": "k"}
    assert origin(headers, peer="127.0.0.1", env=env) == "https://loto.example.org"
    # Caddy keeps the Host header and says only the scheme
    headers = {"host": "loto.test", "x-forwarded-proto": "https", "x-forwarded-for": "1.2.3.4"}
    assert origin(headers, peer="127.0.0.1", env=env) == "https://loto.test"
    # a proxy on another machine, once configured
    env = {"LOTO_TRUSTED_PROXIES": "10.0.0.0/8", "LOTO_CREATE_KEY": "k"}
    assert origin(headers, peer="10.1.2.3", env=env) == "https://loto.test"


def test_a_phone_cannot_forge_forwarded_headers() -> None:
    forged = {
        "host": "192.168.1.20:3000",
        "origin": "http://192.168.1.20:3000",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example",
        "x-forwarded-for": "10.9.9.9",
    }
    assert origin(forged, peer="192.168.1.31") == "http://192.168.1.20:3000"
    # nor when the proxies are configured, from outside them
    env = {"LOTO_TRUSTED_PROXIES": "10.0.0.1"}
    assert origin(forged, peer="10.0.0.2", env=env) == "http://192.168.1.20:3000"


@given(
    st.dictionaries(
        st.sampled_from(["host", "origin", "x-forwarded-proto", "x-forwarded-host", "x"]),
        st.text(max_size=80),
    ),
    ips,
)
def test_any_headers_give_an_http_origin_without_a_path(headers, peer) -> None:
    got = n.public_origin(headers, peer, env={}, lan="192.168.1.20")
    assert n.normalize_origin(got) == got
    assert got.startswith(("http://", "https://"))


# ---------------------------------------------------------------------- client address


def test_the_client_is_the_peer_unless_the_peer_is_a_trusted_proxy() -> None:
    xff = {"x-forwarded-for": "6.6.6.6"}
    assert n.client_address(xff, "192.168.1.31", LOOPBACK) == "192.168.1.31"
    assert n.client_address(xff, "127.0.0.1", LOOPBACK) == "6.6.6.6"
    assert n.client_address({}, "127.0.0.1", LOOPBACK) == "127.0.0.1"


def test_the_rightmost_untrusted_hop_is_the_client() -> None:
    trusted = n.parse_networks("127.0.0.1, ::1, 10.0.0.0/8")
    # the client wrote "1.1.1.1" itself; the first proxy saw 203.0.113.5; a second proxy 10.0.0.7
    xff = {"x-forwarded-for": "1.1.1.1, 203.0.113.5, 10.0.0.7"}
    assert n.client_address(xff, "127.0.0.1", trusted) == "203.0.113.5"
    assert n.client_address({"x-forwarded-for": "10.0.0.9, 10.0.0.7"}, "127.0.0.1", trusted) == (
        "10.0.0.9"
    )
    # garbage a proxy passed on: the last hop it vouched for
    assert n.client_address({"x-forwarded-for": "junk, 10.0.0.7"}, "127.0.0.1", trusted) == (
        "10.0.0.7"
    )
    assert n.client_address({"x-forwarded-for": "::ffff:203.0.113.5"}, "::1", trusted) == (
        "203.0.113.5"
    )


@given(st.lists(st.one_of(ips, st.text(max_size=20)), max_size=8), public_ips)
def test_an_untrusted_peer_is_always_its_own_address(hops, peer) -> None:
    headers = {"x-forwarded-for": ", ".join(hops)}
    assert n.client_address(headers, peer, LOOPBACK) == peer


@given(st.lists(st.one_of(ips, st.text(max_size=20)), max_size=8), public_ips)
def test_behind_the_proxy_what_the_client_wrote_never_counts(written, real) -> None:
    """A proxy appends the address it saw: whatever the client wrote before it is ignored."""
    headers = {"x-forwarded-for": ", ".join([*written, real])}
    assert n.client_address(headers, "127.0.0.1", LOOPBACK) == str(n.parse_ip(real))


def test_trusted_proxies_come_from_the_environment() -> None:
    assert n.trusted_proxies({}) == LOOPBACK
    nets = n.trusted_proxies({"LOTO_TRUSTED_PROXIES": "10.0.0.1 192.168.0.0/16"})
    assert n.is_trusted("192.168.4.4", nets) and not n.is_trusted("127.0.0.1", nets)
    assert n.trusted_proxies({"LOTO_TRUSTED_PROXIES": "nonsense"}) == LOOPBACK


# ---------------------------------------------------------------------- beyond the LAN


@pytest.mark.parametrize(
    ("env", "addresses", "beyond"),
    [
        ({}, ["127.0.0.1", "192.168.1.20"], False),
        ({}, ["10.1.2.3", "172.16.0.4"], False),
        ({}, ["127.0.0.1", "51.15.20.30"], True),
        ({"LOTO_PUBLIC_URL": "https://loto.example.org"}, [], True),
        ({"LOTO_PUBLIC_URL": "http://192.168.1.20:3000"}, [], False),
        ({"LOTO_PUBLIC_URL": "http://loto-salle.local:3000"}, [], False),
        ({"LOTO_PUBLIC_URL": "https://loto.test"}, [], False),
    ],
)
def test_served_beyond_the_lan(env, addresses, beyond: bool) -> None:
    assert bool(n.served_beyond_lan(env, addresses)) is beyond


def test_no_warning_with_a_create_key() -> None:
    env = {"LOTO_PUBLIC_URL": "https://loto.example.org", "LOTO_CREATE_KEY": "k"}
    assert n.warn_if_open(env) == ""
    text = n.warn_if_open({"LOTO_PUBLIC_URL": "https://loto.example.org"})
    assert "LOTO_CREATE_KEY is not set" in text and "https://loto.example.org" in text


def test_this_machine_s_lan_address_is_one_of_its_own() -> None:
    got = n.lan_address()
    own = n.interface_addresses()
    assert got is None or got in own or n._route_address() == got
    assert got is None or not ipaddress.ip_address(got).is_loopback


# ---------------------------------------------------------------------- the ASGI scope


def _through(scope: dict) -> dict:
    seen: list[dict] = []

    async def app(s, _receive, _send) -> None:
        seen.append(s)

    import asyncio

    asyncio.run(n.forwarded_scheme(app)(scope, None, None))
    return seen[0]


def test_a_request_the_proxy_forwarded_over_https_is_https() -> None:
    https = [(b"x-forwarded-proto", b"https"), (b"x-forwarded-for", b"203.0.113.5")]
    got = _through({"type": "http", "scheme": "http", "client": ("127.0.0.1", 5), "headers": https})
    assert got["scheme"] == "https" and got["client"] == ("127.0.0.1", 5)
    got = _through({"type": "websocket", "scheme": "ws", "client": ("::1", 5), "headers": https})
    assert got["scheme"] == "wss"
    # a phone saying so itself is not believed
    got = _through(
        {"type": "http", "scheme": "http", "client": ("192.168.1.31", 5), "headers": https}
    )
    assert got["scheme"] == "http"
    plain = [(b"x-forwarded-proto", b"http")]
    got = _through({"type": "http", "scheme": "http", "client": ("127.0.0.1", 5), "headers": plain})
    assert got["scheme"] == "http"
    assert _through({"type": "lifespan"}) == {"type": "lifespan"}
