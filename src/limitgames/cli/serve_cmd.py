"""``limit serve``: the browser app (lobby, live games, replays) under uvicorn."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

import typer

from limitgames.web.computer import DEFAULT_MOVE_SECONDS
from limitgames.web.limits import SERVE_COMPUTER_PAUSE, ServerLimits

_DEFAULT = ServerLimits()

SHUTDOWN_SECONDS = 10
"""Seconds a stopping server (Ctrl-C, SIGTERM) waits for open connections before closing them;
without a bound, a worker process of ``--workers N`` could outlive its supervisor."""


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            "--database",
            envvar="LIMIT_DATABASE_URL",
            help="SQLAlchemy database URL (default: a SQLite file in your data directory; "
            "PostgreSQL: postgresql+psycopg://user:password@host/dbname).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on this port (more than 1 needs PostgreSQL and --redis).",
            min=1,
            max=64,
        ),
    ] = 1,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="LIMIT_REDIS_URL",
            help="Redis URL (redis://host:6379/0) through which several server processes, "
            "on this machine or others, share live updates.",
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
    world_data: Annotated[
        list[str] | None,
        typer.Option(
            "--world-data",
            metavar="NAME=FILE",
            help="Offer a TOML data file for world games under NAME (repeat for more); "
            "players pick it by name, never by path.",
        ),
    ] = None,
    messages_per_second: Annotated[
        float, typer.Option(help="WebSocket messages one connection may send per second.", min=0.1)
    ] = _DEFAULT.messages_per_second,
    message_burst: Annotated[
        int, typer.Option(help="Messages one connection may send at once.", min=1)
    ] = _DEFAULT.message_burst,
    actions_per_second: Annotated[
        float, typer.Option(help="Actions the people of one game may send per second.", min=0.1)
    ] = _DEFAULT.actions_per_second,
    action_burst: Annotated[
        int, typer.Option(help="Actions one game takes at once.", min=1)
    ] = _DEFAULT.action_burst,
    send_queue: Annotated[
        int,
        typer.Option(
            help="Messages waiting for one connection; a client further behind is told to resync.",
            min=1,
        ),
    ] = _DEFAULT.send_queue,
    connections_per_game: Annotated[
        int, typer.Option(help="WebSocket connections on one game (players and spectators).", min=1)
    ] = _DEFAULT.connections_per_game,
    connections_per_address: Annotated[
        int, typer.Option(help="WebSocket connections from one network address.", min=1)
    ] = _DEFAULT.connections_per_address,
    games_per_hour: Annotated[
        int, typer.Option(help="New games one network address may start per hour.", min=1)
    ] = _DEFAULT.games_per_hour,
    unfinished_per_creator: Annotated[
        int,
        typer.Option(help="Unfinished games started from one network address.", min=1),
    ] = _DEFAULT.unfinished_per_creator,
    chat_per_minute: Annotated[
        float,
        typer.Option(
            help="Chat messages one connection may send per minute (a game: 4 times as many).",
            min=0.1,
        ),
    ] = _DEFAULT.chat_per_minute,
    chat_burst: Annotated[
        int, typer.Option(help="Chat messages one connection may send at once.", min=1)
    ] = _DEFAULT.chat_burst,
    computer_pause: Annotated[
        float,
        typer.Option(
            help="Least seconds between two decisions shown when the second is a computer's, "
            "in games where a person plays (0: none).",
            min=0.0,
            max=60.0,
        ),
    ] = SERVE_COMPUTER_PAUSE,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            "--ws-deflate",
            help="Compress WebSocket messages (permessage-deflate): less bandwidth, but each "
            "connection compresses every view on its own (costly with many spectators).",
        ),
    ] = False,
    abandon_hours: Annotated[
        float,
        typer.Option(
            help="Hours without an action after which an unfinished game is abandoned.",
            min=0.001,
        ),
    ] = _DEFAULT.abandon_after / 3600,
    zombie_after: Annotated[
        float,
        typer.Option(
            help="Seconds a person may be away from a game (no open page) while another "
            "person plays before the computer plays their seat; a game may choose its own "
            "(0: never).",
            min=0.0,
            max=7 * 24 * 3600.0,
        ),
    ] = _DEFAULT.zombie_after,
) -> None:
    """Serve the lobby and live games in the browser: http://HOST:PORT/."""
    try:
        import uvicorn
    except ImportError:
        typer.echo("error: the web app needs its extra: pip install 'limitgames[web]'", err=True)
        raise typer.Exit(1) from None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from limitgames.web.app import check_data_files, create_app
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
    from limitgames.web.workers import WorkerConfig, run_workers, scale_out_problem

    problem = scale_out_problem(url, workers, redis)
    if problem is not None:
        typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2)
    if redis is not None:
        from limitgames.web.fanout import check_redis, shown_url

        unreachable = check_redis(redis)
        if unreachable is not None:
            typer.echo(f"error: {unreachable}", err=True)
            raise typer.Exit(1)
        typer.echo(f"live updates are shared through {shown_url(redis)}")
    data_files: dict[str, dict[str, str]] = {}
    for item in world_data or []:
        name, sep, file = item.partition("=")
        if not sep or not name.strip() or not file.strip():
            typer.echo(f"error: --world-data {item!r} is not of the form NAME=FILE", err=True)
            raise typer.Exit(2)
        data_files.setdefault("world", {})[name.strip()] = file.strip()
    limits = ServerLimits(
        messages_per_second=messages_per_second,
        message_burst=message_burst,
        actions_per_second=actions_per_second,
        action_burst=action_burst,
        send_queue=send_queue,
        connections_per_game=connections_per_game,
        connections_per_address=connections_per_address,
        games_per_hour=games_per_hour,
        unfinished_per_creator=unfinished_per_creator,
        abandon_after=abandon_hours * 3600,
        chat_per_minute=chat_per_minute,
        chat_burst=chat_burst,
        computer_pause=computer_pause,
        zombie_after=zombie_after,
    )
    try:
        app = create_app(
            url,
            move_seconds=move_seconds,
            computer_workers=computers,
            computer_processes=not threads,
            limits=limits,
            data_files=data_files,
            redis_url=redis,
        )
    except ValueError as exc:
        typer.echo(f"error: --world-data: {exc}", err=True)
        raise typer.Exit(2) from None
    for name in data_files.get("world", {}):
        typer.echo(f"world data set offered: {name}")
    typer.echo(
        f"open http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/ in your browser"
    )
    options: dict[str, Any] = {
        "log_level": log_level,
        "ws_max_size": 65536,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        "ws_per_message_deflate": ws_deflate,
        # after Ctrl-C or SIGTERM, open connections get this long to finish, then are closed
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
    }
    if workers > 1:
        typer.echo(f"{workers} server processes on port {port}")
        config = WorkerConfig(
            database_url=url,
            redis_url=redis,
            move_seconds=move_seconds,
            computer_workers=computers,
            computer_processes=not threads,
            limits=asdict(limits),
            data_files=check_data_files(data_files),  # checked by create_app
        )
        run_workers(config, workers, host, port, options)
        return
    uvicorn.run(app, host=host, port=port, **options)
