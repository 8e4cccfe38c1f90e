"""The Table topic of the ``ddzspec`` command line: ``serve``, the local web table, loaded by
:mod:`ddzspec.cli.group` when first called."""

from __future__ import annotations

import secrets
import socket

import click

from .common import FileName, fail


def _host_names(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
                ) -> tuple[str, ...]:
    from ..web.server import check_host_name
    try:
        return tuple(check_host_name(v) for v in value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind (localhost by default: the table is for this machine). "
                   "Any other address asks for the token printed in the start URL.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--rules", "rules_paths", multiple=True, type=FileName(), metavar="PATH",
              help="A rules file to offer besides the built-ins (repeatable).")
@click.option("--data-dir", type=FileName(), default=None, metavar="DIR",
              help="Where deals are autosaved (default $DDZSPEC_DATA_DIR or the user data "
                   "folder).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              callback=_host_names,
              help="A host name the table answers to besides those of --host (repeatable): "
                   "the name other machines reach it by.")
@click.option("--max-deals", default=None, type=click.IntRange(1, 1_000_000), metavar="N",
              help="Deals (new or uploaded) kept in the data folder; the oldest finished go "
                   "first [default: 1000].")
def serve(host: str, port: int, rules_paths: tuple[str, ...], data_dir: str | None,
          allow_hosts: tuple[str, ...], max_deals: int | None) -> None:
    """Serve the web table: play deals, puzzles and the rules in a browser.

    Prints the address, then serves until interrupted. The browser picks only among the
    built-in rules and the --rules files given here (a file that cannot be loaded stops it
    with one line; a file whose rules are offered already, such as a built-in's, is skipped
    with a warning line; rules that cannot be played out are offered in Learn only, with one
    warning line saying why); every deal is autosaved after each
    action and resumed after a restart. On localhost it answers only to localhost,
    127.0.0.1 and [::1]; on any other address every request needs the token printed in the
    start URL (the page keeps it in a cookie).
    """
    from ..errors import DdzError
    try:
        import uvicorn

        from ..web import create_app
        from ..web.games import MAX_GAMES, Offer
        from ..web.server import allowed_hosts, config, is_loopback, listen
        offer = Offer.build(rules_paths)
        token = None if is_loopback(host) else secrets.token_urlsafe(24)
        app = create_app(rules_paths, data_dir, offer, hosts=allowed_hosts(host, allow_hosts),
                         token=token, max_games=max_deals or MAX_GAMES)
        for note in offer.ignored:
            click.echo(f"ddzspec: warning: {note}", err=True)
        for name in offer.added:
            why = offer.refusal(name)  # computed once, kept for the page
            if why is not None:
                click.echo(f"ddzspec: warning: {why} (offered in Learn only, not for play)",
                           err=True)
    except ImportError as e:
        fail(f"the web table needs starlette and uvicorn: {e}")
    except DdzError as e:
        fail(str(e))
    except OSError as e:  # the data folder (given, or the default) cannot be made or used
        where = f" in {e.filename}" if e.filename is not None else ""
        if data_dir is not None:
            fail(f"--data-dir {data_dir}: cannot autosave deals{where}: {e.strerror or e}")
        fail(f"the data folder: cannot autosave deals{where}: {e.strerror or e}; give "
             "--data-dir DIR (or set DDZSPEC_DATA_DIR)")
    try:
        sock = listen(host, port)
    except OSError as e:
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
    real_port = sock.getsockname()[1]
    if host in ("0.0.0.0", "::"):
        shown = socket.gethostname()
    else:
        shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{real_port}/" + ("" if token is None else f"?token={token}")
    click.echo(f"ddzspec: the table is at {url} (Ctrl-C stops it)")
    if token is not None:
        click.echo("ddzspec: this address is reachable beyond this machine: open the URL "
                   "above, token included (it is asked of every browser)")
    server = uvicorn.Server(config(app))
    server.run(sockets=[sock])
