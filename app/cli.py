"""`fray serve | db upgrade | demo | backup | export | import`."""

from __future__ import annotations

import typer

from app.settings import get_settings

cli = typer.Typer(
    help="Fray: a rules-aware virtual tabletop.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
db_cli = typer.Typer(help="The database.", no_args_is_help=True)
cli.add_typer(db_cli, name="db")


WS_PROTOCOL = "app.web.ws_protocol:FrayWebSocketProtocol"


def tune_garbage_collector() -> None:
    """Python's cyclic collector stops the whole process while it runs, and a push to 200 phones makes
    objects enough to trigger a full collection every few pushes: tens of milliseconds in which no
    table is served. What start-up built (modules, templates) is frozen out of every collection, and the
    older generations are collected rarely (after 50 and 1,000 passes of the one below, not 10 and 10).
    With those, and the youngest at 50,000, the loop's longest stall under a 200-seat table's pushes fell
    from about 80 ms to about 30.

    The youngest generation is collected after 10,000 new objects rather than 700. A pass looks at each
    young object, so the threshold sets the usual pause: at 50,000 a pass held the loop 20-64 ms (the
    longest stall of 64 own seats and of 50 tables at once), at 10,000 8-18 ms there, for the same CPU per
    command. The count is objects made less objects freed, so a young generation can hold several times
    the threshold: with 200 tables at once (1,200 phones) passes of up to 31-46 ms, and a pass of the
    middle generation 120-140 ms about once a minute (docs/performance.md, 2026-11-26)."""
    import gc

    from app.realtime import quiet_gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 1000)
    quiet_gc.turn_on()  # and collected between pushes rather than inside them


def share_the_interpreter_finely() -> None:
    """Commands run in worker threads (the database) while the event loop renders pushes, and a thread
    waiting for the interpreter waits up to the switch interval each time it wants it back (5 ms by
    default, several times per command). At 1 ms a small table's command is not held up by a big
    table's push for long: bench/fanout.py's interference case, 8 players beside 200, p99 232 -> 162 ms
    (docs/performance.md)."""
    import sys

    sys.setswitchinterval(0.001)


@cli.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 for your whole network)."),
    port: int = typer.Option(8000, help="Port to listen on."),
    migrate: bool = typer.Option(True, help="Apply database migrations first."),
    ws: str = typer.Option(
        "fray",
        help="WebSocket implementation: fray (sans-I/O websockets, each message compressed alone), "
        "websockets-sansio, websockets or wsproto.",
    ),
) -> None:
    """Run the server."""
    import uvicorn

    from app.main import create_app
    from app.store.migrate import upgrade

    settings = get_settings()
    app = create_app(settings)  # checks FRAY_DATABASE_URL and FRAY_BROKER_URL before anything else
    if migrate:
        upgrade(settings.database_url)
    tune_garbage_collector()
    share_the_interpreter_finely()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Fray is on http://{shown}:{port}  ·  open it and create a campaign to get your GM console.")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws=WS_PROTOCOL if ws == "fray" else ws,
        ws_max_size=settings.max_ws_message_bytes * 4,
        ws_per_message_deflate=True,
        proxy_headers=True,
        log_level="warning",
        # No access log (docs/deploy.md): and uvicorn words each request's line before the logger drops it.
        access_log=False,
    )


@db_cli.command("upgrade")
def db_upgrade() -> None:
    """Apply every migration to FRAY_DATABASE_URL (default: SQLite at ./fray.db)."""
    from app.store.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    typer.echo(f"Database is up to date: {settings.database_url}")


@cli.command()
def backup(
    path: str = typer.Argument(..., help="Where to write the copy (a new file)."),
    force: bool = typer.Option(False, help="Replace the file at PATH if there is one."),
) -> None:
    """Copy the SQLite database while the server runs (consistent; for PostgreSQL use pg_dump)."""
    from pathlib import Path

    from app.store.backup import BackupError, backup_sqlite

    try:
        size = backup_sqlite(get_settings().database_url, Path(path), force)
    except BackupError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(2) from None
    typer.echo(f"Backed up to {path} ({size / 1024 / 1024:.1f} MB).")


def _offline_fray():
    """The services without a server: for the commands that read or write a campaign directly."""
    from app.realtime.broker import MemoryBroker
    from app.services.context import Fray
    from app.store.db import Database
    from app.store.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    return Fray(settings=settings, db=Database(settings.database_url), broker=MemoryBroker())


@cli.command("export")
def export_campaign(
    campaign_id: str = typer.Argument(..., help="The campaign's id (from its address: /c/ID/...)."),
    output: str = typer.Option(..., "-o", "--output", help="The file to write, e.g. table.fray.json.gz."),
) -> None:
    """Write a campaign (its log, seats and images) to one file, to keep or to move to another server."""
    from pathlib import Path

    from app.rules.errors import RuleError
    from app.services import transfer

    try:
        data = transfer.export(_offline_fray(), campaign_id)
    except RuleError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(2) from None
    Path(output).write_bytes(data)
    typer.echo(f"Exported {campaign_id} to {output} ({len(data) / 1024:.1f} KB).")


@cli.command("import")
def import_campaign(
    file: str = typer.Argument(..., help="A file made by `fray export` or the GM's Download a backup."),
    keep_seats: bool = typer.Option(False, help="Keep every seat's link valid (moving to a new server)."),
    base_url: str = typer.Option(
        "http://127.0.0.1:8000", help="Where the server is reached, for the GM link."
    ),
) -> None:
    """Create a campaign from an export: the same id when it is free; the last line printed is the id."""
    from pathlib import Path

    from app.rules.errors import RuleError
    from app.services import transfer

    try:
        done = transfer.import_campaign(_offline_fray(), Path(file).read_bytes(), keep_seats)
    except (RuleError, OSError) as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(2) from None
    if not done.same_id:
        typer.echo("That campaign id is taken here, so the copy has a new one.")
    typer.echo(f"Imported {done.events} events.")
    if done.gm_token:
        link = f"{base_url.rstrip('/')}/c/{done.campaign_id}/seat/{done.gm_token}"
        typer.echo(f"GM link (the old seat links no longer work): {link}")
    typer.echo(done.campaign_id)


@cli.command()
def demo(
    base_url: str = typer.Option("http://127.0.0.1:8000", help="Where the server is reached, for the links."),
) -> None:
    """Create a ready-made demo campaign for each game system and print its links."""
    from app.demo import create_demos
    from app.store.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    for demo_campaign in create_demos(settings, base_url.rstrip("/")):
        typer.echo(f"\n{demo_campaign.title}: {demo_campaign.name}")
        typer.echo(f"  GM console:   {demo_campaign.gm_link}")
        for label, link in demo_campaign.player_links:
            typer.echo(f"  {label + ':':<13} {link}")
        typer.echo(f"  Invite:       {demo_campaign.invite_url}")
        typer.echo(f"  Table view:   {demo_campaign.spectator_url}")


def main() -> None:
    try:
        cli()
    except Exception as error:
        # A misconfigured or unreachable database or broker is a sentence, not a traceback.
        from sqlalchemy.exc import OperationalError

        from app.realtime.broker import BrokerConfigError
        from app.store.db import DatabaseConfigError

        if isinstance(error, DatabaseConfigError | BrokerConfigError):
            typer.echo(f"Error: {error}", err=True)
            raise SystemExit(2) from None
        if isinstance(error, OperationalError):
            reason = str(error.orig or error).strip().splitlines()[0]
            typer.echo(f"Error: Fray cannot reach its database (FRAY_DATABASE_URL): {reason}", err=True)
            raise SystemExit(1) from None
        raise


if __name__ == "__main__":
    main()
