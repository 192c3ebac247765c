"""Where the app is reached: the public origin every link is built on, the client's address
behind trusted proxies, and this machine's LAN address.

- `public_origin` is the one place that decides the `scheme://host[:port]` of the links the app
  builds (the hall screen's QR code, the organiser's join, screen and invitation links):
  `LOTO_PUBLIC_URL` when set; else, behind a trusted proxy, the scheme and host it forwards; else
  the address this browser used, unless that is loopback (a TV opened on `localhost` must still
  show a QR code that phones can open): then the LAN address, with the same port.
- `client_address` is the address a sign-in attempt is counted against: the peer, or, when the
  peer is a trusted proxy, the first address left of it in `X-Forwarded-For` that is not a
  trusted proxy. Forwarded headers are believed only from `LOTO_TRUSTED_PROXIES` (addresses or
  networks, comma-separated; default loopback: a proxy on the same machine), never from any
  other client: a phone on the hall's Wi-Fi can send any header it likes.
- `lan_address` finds the machine's address on the hall's network (no network at all: None).

Everything here is computed from what it is given (headers, peer, environment) except
`lan_address`, which asks the operating system.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import ipaddress
import logging
import os
import re
import socket
import struct
import sys
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any

log = logging.getLogger(__name__)

PUBLIC_URL_ENV = "LOTO_PUBLIC_URL"
TRUSTED_PROXIES_ENV = "LOTO_TRUSTED_PROXIES"
CREATE_KEY_ENV = "LOTO_CREATE_KEY"
DEFAULT_TRUSTED = "127.0.0.0/8,::1"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# host[:port]: a DNS name, an IPv4 address or a bracketed IPv6 address (what a Host header holds)
_HOST = re.compile(
    r"^(?:(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)|\[(?P<v6>[0-9A-Fa-f:.]{2,45})\])"
    r"(?::(?P<port>\d{1,5}))?$"
)
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "0.0.0.0", "[::]"}
#: Names that only a local network resolves (RFC 6762 .local, RFC 8375 .home.arpa, ...).
LAN_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain", ".test")


# ---------------------------------------------------------------------- parsing


def split_host(host: str) -> tuple[str, int | None] | None:
    """`("example.org", 8443)` from `"example.org:8443"`; None when it is not a host[:port]."""
    m = _HOST.match(host.strip()) if isinstance(host, str) and len(host) <= 260 else None
    if m is None:
        return None
    port = int(m["port"]) if m["port"] else None
    if port is not None and not 0 < port < 65536:
        return None
    if m["v6"]:
        try:
            ipaddress.IPv6Address(m["v6"])
        except ValueError:
            return None
        return f"[{m['v6'].lower()}]", port
    return m["name"].lower(), port


def normalize_origin(url: str) -> str | None:
    """`scheme://host[:port]` of an http(s) URL (path, query and a default port dropped), or
    None when it is not one."""
    if not isinstance(url, str) or len(url) > 300:
        return None
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:  # "http://[" and the like
        return None
    if parts.scheme not in ("http", "https") or parts.username or parts.password:
        return None
    hp = split_host(parts.netloc)
    if hp is None:
        return None
    host, port = hp
    if port == (443 if parts.scheme == "https" else 80):
        port = None
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def parse_ip(text: str) -> Address | None:
    """An IP address (IPv4-mapped IPv6 as its IPv4 address), or None."""
    try:
        ip = ipaddress.ip_address(text.strip().strip("[]"))
    except (ValueError, AttributeError):
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def parse_networks(text: str) -> tuple[Network, ...]:
    """`LOTO_TRUSTED_PROXIES`: addresses or networks, comma- or space-separated.

    Raises:
        ValueError: an entry that is neither.
    """
    nets = []
    for item in re.split(r"[,\s]+", text.strip()):
        if item:
            nets.append(ipaddress.ip_network(item, strict=False))
    return tuple(nets)


@functools.cache
def _trusted_from(text: str) -> tuple[Network, ...]:
    try:
        return parse_networks(text)
    except ValueError as exc:
        log.error(
            "%s=%r is not a list of addresses or networks (%s): trusting loopback only",
            TRUSTED_PROXIES_ENV,
            text,
            exc,
        )
        return parse_networks(DEFAULT_TRUSTED)


def trusted_proxies(env: Mapping[str, str] = os.environ) -> tuple[Network, ...]:
    """The proxies whose forwarded headers are believed (default: loopback)."""
    return _trusted_from(env.get(TRUSTED_PROXIES_ENV, DEFAULT_TRUSTED))


def is_trusted(peer: str, trusted: Iterable[Network]) -> bool:
    """Is `peer` (an address as text) one of the trusted proxies?"""
    ip = parse_ip(peer)
    return ip is not None and any(ip.version == n.version and ip in n for n in trusted)


def is_loopback_host(host: str) -> bool:
    """`localhost`, 127.x.x.x, ::1, 0.0.0.0 and the like: a name only this machine can use."""
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    ip = parse_ip(host)
    return ip is not None and (ip.is_loopback or ip.is_unspecified)


def _first(value: str | None) -> str:
    """The first element of a comma-separated header (the one the first proxy wrote)."""
    return (value or "").split(",")[0].strip()


def _header(headers: Mapping[str, str], name: str) -> str:
    value = headers.get(name)
    return value if isinstance(value, str) else ""


# ---------------------------------------------------------------------- the client


def client_address(
    headers: Mapping[str, str], peer: str, trusted: Iterable[Network] | None = None
) -> str:
    """The client's address: the peer, or behind trusted proxies the first untrusted address
    of `X-Forwarded-For` read from the right (the left part is whatever the client wrote)."""
    trusted = tuple(trusted_proxies() if trusted is None else trusted)
    peer = (peer or "").strip()[:64]
    if not is_trusted(peer, trusted):
        return peer
    hops = [h.strip() for h in _header(headers, "x-forwarded-for").split(",") if h.strip()]
    address = peer
    for hop in reversed(hops[-20:]):
        ip = parse_ip(hop)
        if ip is None:  # garbage a proxy passed on: stop at the last hop it vouched for
            break
        address = str(ip)
        if not is_trusted(address, trusted):
            break
    return address


def forwarded(
    headers: Mapping[str, str], peer: str, trusted: Iterable[Network] | None = None
) -> bool:
    """Did this request come through a trusted proxy (it says whom it forwards for)?"""
    trusted = tuple(trusted_proxies() if trusted is None else trusted)
    return is_trusted(peer, trusted) and bool(_header(headers, "x-forwarded-for").strip())


# ---------------------------------------------------------------------- the public origin


class _Ask:
    """Default of `public_origin(lan=...)`: ask the operating system."""


_ASK = _Ask()


def _host_of(origin: str) -> str:
    hp = split_host(origin.partition("://")[2])
    return hp[0] if hp else ""


def public_origin(
    headers: Mapping[str, str],
    peer: str,
    *,
    env: Mapping[str, str] = os.environ,
    lan: str | _Ask | None = _ASK,
) -> str:
    """The `scheme://host[:port]` players can reach, for every link the app builds.

    Args:
        headers: the request's headers, lower-case names (`host`, `origin`, `x-forwarded-*`).
        peer: the address the request came from.
        env: where `LOTO_PUBLIC_URL` and `LOTO_TRUSTED_PROXIES` are read.
        lan: this machine's LAN address (default: ask `lan_address()`; None: no network).
    """
    configured = env.get(PUBLIC_URL_ENV, "")
    if configured:
        origin = normalize_origin(configured)
        if origin is not None:
            return origin
        _warn_once(
            f"{PUBLIC_URL_ENV}={configured!r:.80} is not an http(s)://host[:port] URL: ignored"
        )
    host_header = _header(headers, "host")
    if is_trusted(peer, trusted_proxies(env)):
        proto = _first(_header(headers, "x-forwarded-proto")).lower()
        fhost = _first(_header(headers, "x-forwarded-host")) or host_header
        if proto in ("http", "https") and (origin := normalize_origin(f"{proto}://{fhost}")):
            if not env.get(CREATE_KEY_ENV) and not lan_host(_host_of(origin)):
                _warn_once(open_without_key(f"the proxy forwards {origin}"))
            return origin
    origin = normalize_origin(_header(headers, "origin")) or normalize_origin(
        f"http://{host_header}"
    )
    if origin is None:
        origin = "http://localhost"
    scheme, _, hostport = origin.partition("://")
    host, port = split_host(hostport) or ("localhost", None)
    if not is_loopback_host(host):
        return origin
    address = lan_address() if isinstance(lan, _Ask) else lan
    if not isinstance(address, str) or not address:
        return origin  # no network: only this machine can follow the links
    return f"{scheme}://{address}" + (f":{port}" if port else "")


def public_origin_of(router: Any) -> str:
    """`public_origin` of the request a Reflex state is handling (`self.router`)."""
    return public_origin(request_headers(router), peer_of(router))


def client_address_of(router: Any) -> str:
    """`client_address` of the request a Reflex state is handling (`self.router`)."""
    return client_address(request_headers(router), peer_of(router))


def request_headers(router: Any) -> Mapping[str, str]:
    """The websocket handshake's headers of a Reflex router (lower-case names)."""
    try:
        raw = router.headers.raw_headers
    except AttributeError:
        return {}
    return {str(k).lower(): v for k, v in raw.items() if isinstance(v, str)}


def peer_of(router: Any) -> str:
    """The address the socket came from (Reflex's `client_ip`, with `trusted_proxy_hops` left
    at 0: the peer, not a forwarded address)."""
    try:
        return str(router.session.client_ip or "")
    except AttributeError:
        return ""


# ---------------------------------------------------------------------- the ASGI scope


def forwarded_scheme(app: Any) -> Any:
    """ASGI middleware: a request that a trusted proxy forwarded over HTTPS is seen as https
    (`scope["scheme"]`), so that the URLs the server itself writes are right: the redirect of
    `/ecran` to `/ecran/` says `https://`, not `http://` behind the proxy. The client address
    (`scope["client"]`) is left alone: `client_address` reads the forwarded one where it counts.
    For `rx.App(api_transformer=...)`."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") in ("http", "websocket"):
            peer = (scope.get("client") or ("",))[0] or ""
            if is_trusted(peer, trusted_proxies()):
                proto = ""
                for name, value in scope.get("headers") or ():
                    if name == b"x-forwarded-proto":
                        proto = value.decode("latin-1").split(",")[0].strip().lower()
                        break
                if proto == "https" and scope.get("scheme") in ("http", "ws"):
                    scope = {**scope, "scheme": "https" if scope["type"] == "http" else "wss"}
        await app(scope, receive, send)

    return wrapped


# ---------------------------------------------------------------------- this machine


SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address


def _route_address() -> str | None:
    """The source address the kernel picks towards a private network (no packet is sent)."""
    for target in ("10.255.255.255", "192.168.255.255", "172.31.255.255", "192.0.2.1"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((target, 9))
                address = s.getsockname()[0]
            except OSError:
                continue
        ip = parse_ip(address)
        if ip is not None and not ip.is_loopback and not ip.is_unspecified:
            return address
    return None


def interface_addresses() -> list[str]:
    """The IPv4 addresses of this machine's interfaces (Linux; elsewhere empty)."""
    if not sys.platform.startswith("linux"):
        return []
    out = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                req = struct.pack("256s", name.encode()[:15])
                out.append(socket.inet_ntoa(fcntl.ioctl(s.fileno(), SIOCGIFADDR, req)[20:24]))
    return out


def lan_address() -> str | None:
    """This machine's address on the local network: the one the kernel routes from, else a
    private address of an interface, else any non-loopback one; None with only loopback."""
    routed = _route_address()
    if routed:
        return routed
    candidates = []
    for a in interface_addresses():
        ip = parse_ip(a)
        if ip is None or ip.is_loopback or ip.is_unspecified or ip.is_link_local:
            continue
        candidates.append((not ip.is_private, a))
    return min(candidates)[1] if candidates else None


def lan_host(host: str) -> bool:
    """Can only the local network (or this machine) reach this host name or address?"""
    host = host.strip("[]").lower()
    ip = parse_ip(host)
    if ip is not None:
        return not ip.is_global
    return "." not in host or host.endswith(LAN_SUFFIXES) or is_loopback_host(host)


def served_beyond_lan(env: Mapping[str, str] = os.environ, addresses: Iterable[str] = ()) -> str:
    """Why this server can be reached from beyond the local network ("" when it cannot tell):
    a public `LOTO_PUBLIC_URL`, or a public address on one of its interfaces."""
    configured = normalize_origin(env.get(PUBLIC_URL_ENV, ""))
    if configured and not lan_host(_host_of(configured)):
        return f"{PUBLIC_URL_ENV} is {configured}"
    for a in addresses:
        ip = parse_ip(a)
        if ip is not None and ip.is_global:
            return f"this machine has the public address {a}"
    return ""


def open_without_key(why: str) -> str:
    """The loud warning of a server reachable from the internet without `LOTO_CREATE_KEY`."""
    bar = "!" * 78
    return (
        f"\n{bar}\n!! {CREATE_KEY_ENV} is not set, and this server is reachable beyond the "
        f"local network\n!! ({why}): anyone who finds /organisation can create evenings.\n"
        f"!! Set {CREATE_KEY_ENV} (see deploy/loto.env.example).\n{bar}"
    )


def warn_if_open(env: Mapping[str, str] = os.environ) -> str:
    """At start: warn loudly (log + stderr) when served beyond the LAN without a create key.

    Returns:
        The warning given ("" when none).
    """
    if env.get(CREATE_KEY_ENV):
        return ""
    addresses = interface_addresses()
    routed = _route_address()
    why = served_beyond_lan(env, [*addresses, *([routed] if routed else [])])
    if not why:
        return ""
    text = open_without_key(why)
    log.warning(text)
    print(text, file=sys.stderr, flush=True)
    return text


_warned: set[str] = set()


def _warn_once(text: str) -> None:
    if text not in _warned:
        _warned.add(text)
        log.warning(text)
