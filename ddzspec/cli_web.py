"""``ddzspec serve``: the local web table, loaded lazily by :mod:`ddzspec.cli`."""

from __future__ import annotations

import click

from .cli_common import FileName, fail


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind (localhost by default: the table is for this machine).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--rules", "rules_paths", multiple=True, type=FileName(), metavar="PATH",
              help="A rules file to offer besides the built-ins (repeatable).")
@click.option("--data-dir", type=FileName(), default=None, metavar="DIR",
              help="Where deals are autosaved (default $DDZSPEC_DATA_DIR or the user data "
                   "folder).")
def serve(host: str, port: int, rules_paths: tuple[str, ...], data_dir: str | None) -> None:
    """Serve the web table: play deals, puzzles and the rules in a browser.

    Prints the address, then serves until interrupted. The browser picks only among the
    built-in rules and the --rules files given here (a file that cannot be loaded stops it
    with one line; rules that cannot be played out are offered in Learn only, with one
    warning line saying why); every deal is autosaved after each
    action and resumed after a restart.
    """
    import socket

    from .errors import DdzError
    try:
        import uvicorn

        from .web import create_app
        from .web.games import Offer
        offer = Offer.build(rules_paths)
        app = create_app(rules_paths, data_dir, offer)
        for name in list(offer.rules)[len(offer.rules) - len(rules_paths):]:
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
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)  # connections wait from now on, so the printed address works at once
    except OSError as e:
        sock.close()
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"ddzspec: the table is at http://{shown}:{real_port}/ (Ctrl-C stops it)")
    config = uvicorn.Config(app, log_level="warning")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
