"""``limit serve``: the browser app (lobby, live games, replays) under uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from limitgames.web.computer import DEFAULT_MOVE_SECONDS


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="LIMIT_DATABASE_URL",
            help="SQLAlchemy database URL (default: a SQLite file in your data directory; "
            "PostgreSQL: postgresql+psycopg://user:password@host/dbname).",
        ),
    ] = None,
    move_seconds: Annotated[
        float, typer.Option(help="Time limit of one computer move, in seconds.", min=0.1)
    ] = DEFAULT_MOVE_SECONDS,
    computers: Annotated[
        int, typer.Option(help="Workers that think for computer seats.", min=1, max=64)
    ] = 2,
    threads: Annotated[
        bool,
        typer.Option(
            "--threads", help="Think in threads of the server instead of worker processes."
        ),
    ] = False,
    log_level: Annotated[
        str, typer.Option(help="uvicorn log level (debug, info, warning...).")
    ] = "info",
) -> None:
    """Serve the lobby and live games in the browser: http://HOST:PORT/."""
    try:
        import uvicorn
    except ImportError:
        typer.echo("error: the web app needs its extra: pip install 'limitgames[web]'", err=True)
        raise typer.Exit(1) from None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from limitgames.web.app import create_app
    from limitgames.web.storage import default_database_url

    if db is None:
        url, path = default_database_url()
        typer.echo(f"games are stored in {path}")
    else:
        url = db
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            typer.echo(
                f"error: --db {url!r} is not a database URL (e.g. sqlite:///games.sqlite3)",
                err=True,
            )
            raise typer.Exit(2) from None
        typer.echo(f"games are stored in {shown}")
    typer.echo(
        f"open http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/ in your browser"
    )
    app = create_app(
        url, move_seconds=move_seconds, computer_workers=computers, computer_processes=not threads
    )
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20
    )
