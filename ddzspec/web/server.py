"""Running the web table with uvicorn: the listening socket (TCP, so every accepted
connection gets ``TCP_NODELAY``), the host names and token a bind address calls for, uvicorn's
bounds (concurrent connections, keep-alive), and a server in a thread (tests, ``bench/``).

The app itself (routes, shared state, error handlers) is built by
:func:`ddzspec.web.app.create_app`; ``ddzspec serve`` (``ddzspec/cli/web.py``) calls :func:`listen`,
:func:`allowed_hosts` and :func:`config` here.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import resource
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .guard import LOOPBACK_HOSTS

if TYPE_CHECKING:
    import uvicorn
    from starlette.types import ASGIApp

#: Connections (and requests in progress) served at once: beyond, uvicorn answers 503.
MAX_CONNECTIONS = 500
#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE_SECONDS = 5


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address) is this machine only: localhost, 127.x (also in the
    short forms the socket accepts, such as 127.1), ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:  # inet_aton reads what bind() reads: 127.1, 0x7f.1, …
        return ipaddress.IPv4Address(socket.inet_aton(host)).is_loopback
    except OSError:
        return False


#: What ``--allow-host`` takes: a host name or an IPv4 address (letters, digits, '-' and '.'),
#: or an IPv6 address in brackets; never a pattern ('*') or a port.
_HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]")


def check_host_name(name: str) -> str:
    """``name`` as an extra host name the table answers to (``--allow-host``). Raises
    ValueError for a pattern (Starlette would read ``*`` as any host and ``*.x`` as every
    name under x, which would open the table to DNS-rebinding pages), a port (the port is
    not part of the name compared) or anything else that is no host name."""
    if "*" in name:
        raise ValueError(f"{name!r}: a host name, not a pattern ('*' would let any page's "
                         "host name in)")
    if not _HOST_NAME.fullmatch(name):
        raise ValueError(f"{name!r}: not a host name (letters, digits, '-' and '.'; an IPv6 "
                         "address in brackets; no port)")
    return name


def allowed_hosts(host: str, extra: Sequence[str] = ()) -> list[str] | None:
    """The host names a server bound to ``host`` answers to: the loopback names and ``host``
    for a loopback bind; the address itself (and ``extra``) for another one; None (any, the token
    guarding it) for a wildcard bind (0.0.0.0, ::) with no ``extra`` names."""
    given = f"[{host}]" if ":" in host and not host.startswith("[") else host
    if is_loopback(host):  # the loopback names and the address as given (127.0.0.2, 127.1)
        return list(dict.fromkeys([*LOOPBACK_HOSTS, given, *extra]))
    if host in ("0.0.0.0", "::", ""):
        if not extra:
            return None
        return [*LOOPBACK_HOSTS, socket.gethostname(), socket.getfqdn(), *extra]
    return [given, *extra]


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (connections wait from now on,
    so an address printed next works at once). Made with ``IPPROTO_TCP``: asyncio then sets
    ``TCP_NODELAY`` on every accepted connection (with protocol 0 it does not, and each
    answer on a reused connection waited ~40 ms for the peer's delayed ACK). OSError when
    the address cannot be used."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


class _OneLine(logging.Filter):
    """asyncio's "socket.accept() out of system resource" (too many open files) as one line
    without its traceback, at most one every :data:`QUIET` seconds (asyncio retries the
    accept many times a second while the files are out)."""

    QUIET = 5.0

    def __init__(self) -> None:
        super().__init__()
        self.last = -self.QUIET
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if "accept" not in str(record.msg) or not record.exc_info:
            return True
        now = time.monotonic()
        if now - self.last < self.QUIET:
            self.dropped += 1
            return False
        text = "; ".join(record.getMessage().splitlines())
        more = f" ({self.dropped} more since)" if self.dropped else ""
        record.msg = f"{text}: {record.exc_info[1]}{more}"
        record.args = None
        record.exc_info = None
        self.last, self.dropped = now, 0
        return True


def config(app: ASGIApp) -> uvicorn.Config:
    """uvicorn's Config for ``app``: warnings only, :data:`MAX_CONNECTIONS`, an idle
    connection closed after :data:`KEEP_ALIVE_SECONDS`; the open-file limit raised to its
    hard limit and accept() failures logged in one line."""
    import uvicorn
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = max(soft, 65536) if hard == resource.RLIM_INFINITY else hard
        if soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass
    logging.getLogger("asyncio").addFilter(_OneLine())
    return uvicorn.Config(app, log_level="warning", limit_concurrency=MAX_CONNECTIONS,
                          timeout_keep_alive=KEEP_ALIVE_SECONDS)


@contextmanager
def running(app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` in a thread (uvicorn, :func:`config`) while the block runs; yields its
    base URL ``http://127.0.0.1:PORT``. For tests and ``bench/``."""
    import uvicorn
    sock = listen(host, port)
    srv = uvicorn.Server(config(app))
    th = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        if not srv.started:
            raise RuntimeError("uvicorn did not start")
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        th.join(10)
        sock.close()


__all__ = ["KEEP_ALIVE_SECONDS", "MAX_CONNECTIONS", "allowed_hosts", "config", "is_loopback",
           "listen", "running"]
