"""``limit serve``: the browser app (lobby, live games, replays) under uvicorn."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

import typer

from limitgames.cli.options import CommandLanguageOption, choose_language
from limitgames.translation import N_
from limitgames.translation import gettext as _
from limitgames.web.computer import COMPUTER_PRIORITIES, DEFAULT_MOVE_SECONDS
from limitgames.web.limits import SERVE_COMPUTER_PAUSE, ServerLimits

_DEFAULT = ServerLimits()

SHUTDOWN_SECONDS = 10
"""Seconds a stopping server (Ctrl-C, SIGTERM) waits for open connections before closing them;
without a bound, a worker process of ``--workers N`` could outlive its supervisor."""

SERVE_HELP = N_("Serve the lobby and live games in the browser: http://HOST:PORT/.")
"""The help of ``limit serve`` (translated when drawn: :class:`~limitgames.cli.options.TranslatedHelpCommand`)."""


def _error(message: str) -> None:
    """Print a one-line error on stderr (``error:`` in the session's language)."""
    typer.echo(_("error:") + " " + message, err=True)


def serve(
    host: Annotated[
        str, typer.Option(help=N_("Address to listen on (0.0.0.0 for every interface)."))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("TCP port."), min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            "--database",
            envvar="LIMIT_DATABASE_URL",
            help=N_(
                "SQLAlchemy database URL (default: a SQLite file in your data directory; "
                "PostgreSQL: postgresql+psycopg://user:password@host/dbname)."
            ),
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help=N_("Server processes on this port (more than 1 needs PostgreSQL and --redis)."),
            min=1,
            max=64,
        ),
    ] = 1,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="LIMIT_REDIS_URL",
            help=N_(
                "Redis URL (redis://host:6379/0) through which several server processes, "
                "on this machine or others, share live updates."
            ),
        ),
    ] = None,
    move_seconds: Annotated[
        float, typer.Option(help=N_("Time limit of one computer move, in seconds."), min=0.1)
    ] = DEFAULT_MOVE_SECONDS,
    computers: Annotated[
        int, typer.Option(help=N_("Workers that think for computer seats."), min=1, max=64)
    ] = 2,
    threads: Annotated[
        bool,
        typer.Option(
            "--threads", help=N_("Think in threads of the server instead of worker processes.")
        ),
    ] = False,
    computer_priority: Annotated[
        str,
        typer.Option(
            metavar="idle|low|normal",
            help=N_(
                "Priority of the computer workers: idle (they think only on CPU time nothing "
                "else wants, so people are answered first; other busy programs can starve "
                "them), low (nice +10) or normal (the server's)."
            ),
        ),
    ] = "idle",
    log_level: Annotated[
        str, typer.Option(help=N_("uvicorn log level (debug, info, warning...)."))
    ] = "info",
    world_data: Annotated[
        list[str] | None,
        typer.Option(
            "--world-data",
            metavar="NAME=FILE",
            help=N_(
                "Offer a TOML data file for world games under NAME (repeat for more); "
                "players pick it by name, never by path."
            ),
        ),
    ] = None,
    messages_per_second: Annotated[
        float,
        typer.Option(help=N_("WebSocket messages one connection may send per second."), min=0.1),
    ] = _DEFAULT.messages_per_second,
    message_burst: Annotated[
        int, typer.Option(help=N_("Messages one connection may send at once."), min=1)
    ] = _DEFAULT.message_burst,
    actions_per_second: Annotated[
        float, typer.Option(help=N_("Actions the people of one game may send per second."), min=0.1)
    ] = _DEFAULT.actions_per_second,
    action_burst: Annotated[
        int, typer.Option(help=N_("Actions one game takes at once."), min=1)
    ] = _DEFAULT.action_burst,
    send_queue: Annotated[
        int,
        typer.Option(
            help=N_(
                "Messages waiting for one connection; a client further behind is told to resync."
            ),
            min=1,
        ),
    ] = _DEFAULT.send_queue,
    connections_per_game: Annotated[
        int,
        typer.Option(help=N_("WebSocket connections on one game (players and spectators)."), min=1),
    ] = _DEFAULT.connections_per_game,
    connections_per_address: Annotated[
        int, typer.Option(help=N_("WebSocket connections from one network address."), min=1)
    ] = _DEFAULT.connections_per_address,
    games_per_hour: Annotated[
        int, typer.Option(help=N_("New games one network address may start per hour."), min=1)
    ] = _DEFAULT.games_per_hour,
    unfinished_per_creator: Annotated[
        int,
        typer.Option(help=N_("Unfinished games started from one network address."), min=1),
    ] = _DEFAULT.unfinished_per_creator,
    chat_per_minute: Annotated[
        float,
        typer.Option(
            help=N_("Chat messages one connection may send per minute (a game: 4 times as many)."),
            min=0.1,
        ),
    ] = _DEFAULT.chat_per_minute,
    chat_burst: Annotated[
        int, typer.Option(help=N_("Chat messages one connection may send at once."), min=1)
    ] = _DEFAULT.chat_burst,
    computer_pause: Annotated[
        float,
        typer.Option(
            help=N_(
                "Least seconds between two decisions shown when the second is a computer's, "
                "in games where a person plays (0: none)."
            ),
            min=0.0,
            max=60.0,
        ),
    ] = SERVE_COMPUTER_PAUSE,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            "--ws-deflate",
            help=N_(
                "Compress WebSocket messages (permessage-deflate): less bandwidth, but each "
                "connection compresses every view on its own (costly with many spectators)."
            ),
        ),
    ] = False,
    abandon_hours: Annotated[
        float,
        typer.Option(
            help=N_("Hours without an action after which an unfinished game is abandoned."),
            min=0.001,
        ),
    ] = _DEFAULT.abandon_after / 3600,
    zombie_after: Annotated[
        float,
        typer.Option(
            help=N_(
                "Seconds a person may be away from a game (no open page) while another "
                "person plays before the computer plays their seat; a game may choose its own "
                "(0: never)."
            ),
            min=0.0,
            max=7 * 24 * 3600.0,
        ),
    ] = _DEFAULT.zombie_after,
    language: CommandLanguageOption = None,
) -> None:
    """``limit serve`` (what ``--help`` says is :data:`SERVE_HELP`).

    ``--language`` is the language of this command's own lines (where games are stored, the
    address to open, its errors); each page's language is its visitor's (docs/translations.md),
    and uvicorn's log lines stay English.
    """
    choose_language(language)
    if computer_priority not in COMPUTER_PRIORITIES:
        _error(
            _("--computer-priority %(given)r is none of %(known)s")
            % {"given": computer_priority, "known": ", ".join(COMPUTER_PRIORITIES)}
        )
        raise typer.Exit(2)
    try:
        import uvicorn
    except ImportError:
        _error(_("the web app needs its extra: pip install 'limitgames[web]'"))
        raise typer.Exit(1) from None
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from limitgames.web.app import check_data_files, create_app
    from limitgames.web.game_socket import socket_options
    from limitgames.web.storage import default_database_url

    if db is None:
        url, path = default_database_url()
        typer.echo(_("games are stored in %(place)s") % {"place": path})
    else:
        url = db
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            _error(
                _("--db %(url)r is not a database URL (e.g. sqlite:///games.sqlite3)")
                % {"url": url}
            )
            raise typer.Exit(2) from None
        typer.echo(_("games are stored in %(place)s") % {"place": shown})
    from limitgames.web.workers import WorkerConfig, run_workers, scale_out_problem

    problem = scale_out_problem(url, workers, redis)
    if problem is not None:
        _error(problem)
        raise typer.Exit(2)
    if redis is not None:
        from limitgames.web.fanout import check_redis, shown_url

        unreachable = check_redis(redis)
        if unreachable is not None:
            _error(unreachable)
            raise typer.Exit(1)
        typer.echo(_("live updates are shared through %(url)s") % {"url": shown_url(redis)})
    data_files: dict[str, dict[str, str]] = {}
    for item in world_data or []:
        name, sep, file = item.partition("=")
        if not sep or not name.strip() or not file.strip():
            _error(_("--world-data %(item)r is not of the form NAME=FILE") % {"item": item})
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
            computer_priority=computer_priority,
            limits=limits,
            data_files=data_files,
            redis_url=redis,
        )
    except ValueError as exc:
        _error(f"--world-data: {exc}")
        raise typer.Exit(2) from None
    for name in data_files.get("world", {}):
        typer.echo(_("world data set offered: %(name)s") % {"name": name})
    address = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
    typer.echo(_("open %(address)s in your browser") % {"address": address})
    options: dict[str, Any] = {
        "log_level": log_level,
        "ws_max_size": 65536,
        **socket_options(),  # a client gone without a close frame is closed within 8 s
        "ws_per_message_deflate": ws_deflate,
        # after Ctrl-C or SIGTERM, open connections get this long to finish, then are closed
        "timeout_graceful_shutdown": SHUTDOWN_SECONDS,
    }
    if workers > 1:
        typer.echo(
            _("%(workers)d server processes on port %(port)d") % {"workers": workers, "port": port}
        )
        config = WorkerConfig(
            database_url=url,
            redis_url=redis,
            move_seconds=move_seconds,
            computer_workers=computers,
            computer_processes=not threads,
            computer_priority=computer_priority,
            limits=asdict(limits),
            data_files=check_data_files(data_files),  # checked by create_app
        )
        run_workers(config, workers, host, port, options)
        return
    uvicorn.run(app, host=host, port=port, **options)
