"""The engine and transactions: SQLite in WAL with BEGIN IMMEDIATE writes, or PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from typing import Any, TypeAlias, TypeVar

from anyio import to_thread
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError
from sqlalchemy.orm import Session

T = TypeVar("T")
# What the store's functions run their Core statements on: an ORM session, or a bare connection where
# the ORM would add nothing but time (a command's write).
Executor: TypeAlias = Session | Connection
_QUEUE = text("SELECT pg_advisory_xact_lock(hashtext(:c))")
EXAMPLES = "sqlite:///./fray.db or postgresql+psycopg://user:password@host:5432/fray"


class WouldWait(Exception):
    """A write that must not wait (it runs on the event loop) found the writer's lock taken."""


class DatabaseConfigError(ValueError):
    """FRAY_DATABASE_URL names no database Fray can use."""


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def database_url(url: str) -> URL:
    """The URL checked: SQLite, or PostgreSQL through psycopg 3 (`postgres://` and `postgresql://` too)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseConfigError(
            f"FRAY_DATABASE_URL is not a database URL Fray can read ({url.split(':', 1)[0]}:...): "
            f"write it like {EXAMPLES}."
        ) from None
    backend, _, driver = parsed.drivername.partition("+")
    if backend == "sqlite" and driver in ("", "pysqlite"):
        return parsed
    if backend in ("postgresql", "postgres") and driver in ("", "psycopg"):
        if not parsed.database:
            raise DatabaseConfigError(
                f"FRAY_DATABASE_URL={_shown(parsed)} names no database: add one after the host, "
                "as in postgresql+psycopg://user:password@host:5432/fray."
            )
        return parsed.set(drivername="postgresql+psycopg")
    raise DatabaseConfigError(
        f"FRAY_DATABASE_URL={_shown(parsed)} is not a database this version of Fray knows: use {EXAMPLES}."
    )


def _shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


def make_engine(url: str) -> Engine:
    checked = database_url(url)
    if checked.get_backend_name() == "postgresql":
        engine = create_engine(
            checked,
            pool_size=10,
            max_overflow=20,
            connect_args={"connect_timeout": 10, "application_name": "fray"},
        )
        _ping_when_idle(engine)
        return engine
    engine = create_engine(checked, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event, not the driver, open transactions (the documented recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=30000", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        driver = connection.connection.driver_connection
        if driver.in_transaction:  # a kept writer's transaction, begun on the driver (`_begin_on_driver`)
            return
        # Writes take the write lock up front, so a read-then-write never fails with SQLITE_BUSY.
        immediate = connection.get_execution_options().get("fray_write", False)
        _begin_on_driver(driver, "BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def _begin_on_driver(driver: sqlite3.Connection, statement: str = "BEGIN IMMEDIATE") -> None:
    """Straight to the driver: SQLAlchemy's execution path (events, a cursor result) cost as much as a
    command's INSERT. Errors are wrapped as that path would (a lock timeout is an OperationalError)."""
    try:
        driver.execute(statement)
    except sqlite3.Error as error:
        raise DBAPIError.instance(statement, None, error, sqlite3.Error) from error


def sqlite_driver(connection: Connection) -> sqlite3.Connection:
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver


CHECKPOINT_EVERY = 200  # writes of the kept writers between two checkpoints (SQLite's own: ~1,000 pages)
IDLE_PING = 1.0  # seconds a pooled PostgreSQL connection may rest before it is pinged on checkout


def _ping_when_idle(engine: Engine) -> None:
    """SQLAlchemy's pool_pre_ping, for connections that rested: a server restart is still caught before a
    request uses a dead connection, and a busy process does not pay a round trip (a third of a command's)
    for a connection it used a moment ago. The pool's checkout event, as SQLAlchemy documents it: a
    DisconnectionError there makes the pool retry with a fresh connection."""

    @event.listens_for(engine, "checkin")
    def _rested_from(_dbapi_connection: Any, record: Any) -> None:
        record.info["fray_checkin"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("fray_checkin")
        if since is not None and time.monotonic() - since < IDLE_PING:
            return
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_connection.rollback()
        except engine.dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(str(error)) from error


class Database:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self._writer = self.engine.execution_options(fray_write=True)
        # SQLite has one writer at a time. Threads of this process queue here, and the next one starts as
        # soon as the last commits; left to SQLite, each waiter would sleep in its busy handler's growing
        # steps (up to 100 ms) before trying again. Other processes still wait on the busy timeout.
        # PostgreSQL writes in parallel; its races end in SeqTaken and a retry.
        self._one_writer = threading.Lock() if is_sqlite(url) else nullcontext()
        self.reads_inline = is_sqlite(url)
        self._kept: Connection | None = None  # SQLite's writers' connection, between two writes
        # SQLite's writer on the event loop (`write_now`): it never waits for a lock.
        self._kept_now: Connection | None = None
        # Neither kept writer syncs a checkpoint to disk in its commit: every CHECKPOINT_EVERY of their
        # writes a worker thread checkpoints the WAL.
        self._written_count = 0
        self._checkpointing: Future[tuple[int, int, int]] | None = None
        self._checkpointer: ThreadPoolExecutor | None = None

    @contextmanager
    def read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def write(self, campaign_id: str | None = None) -> Iterator[Session]:
        """A write transaction. Given a campaign, PostgreSQL writers of that campaign take turns on an
        advisory lock held to the commit, so eight players acting at once queue instead of racing for
        the same seq and running out of retries; other campaigns write in parallel. The caller may commit
        inside the block, to act on the commit while this process's other SQLite writers still wait."""
        with self._one_writer, Session(self._writer, expire_on_commit=False) as session, session.begin():
            if campaign_id is not None and not self.reads_inline:
                session.execute(_QUEUE, {"c": campaign_id})
            yield session

    @contextmanager
    def write_core(self, campaign_id: str | None = None, queue: bool = True) -> Iterator[Connection]:
        """`write` without the ORM: a connection in the same kind of transaction, for Core statements.
        `queue=False` skips PostgreSQL's advisory lock (a round trip) for a writer that reads nothing
        and lets the unique keys judge its insert. SQLite's writers, one at a time, share one connection
        kept open: taking one from the pool and giving it back cost a tenth of a command. Its transaction
        is begun and committed on the driver (`commit`), and a command's insert runs there too
        (`log.insert_rows`): SQLAlchemy's transaction and statement machinery were a sixth of a command;
        any statement that does go through SQLAlchemy joins the transaction (`_on_begin`)."""
        if not self.reads_inline:
            with self._writer.connect() as connection:
                if campaign_id is not None and queue:
                    connection.execute(_QUEUE, {"c": campaign_id})
                yield connection
                connection.commit()  # nothing to do if the caller committed; an error rolls back on close
            return
        with self._one_writer:
            connection, self._kept = self._kept or self._connect_kept(), None
            try:
                _begin_on_driver(sqlite_driver(connection))
            except BaseException:
                self._kept = connection
                raise
            try:
                yield connection
                self.commit(connection)
            except BaseException:
                try:
                    self._rollback(connection)  # a refusal or a taken seq: it serves the next writer
                except BaseException:
                    connection.close()  # the next writer opens another
                    raise
                self._kept = connection
                raise
            self._kept = connection
            self._written()

    def commit(self, connection: Connection) -> None:
        """Commit a write. A kept SQLite writer's transaction is begun on the driver, and SQLAlchemy knows
        of it only if a statement went through SQLAlchemy: its commit, then the driver's for the rest."""
        connection.commit()
        if self.reads_inline:
            driver = sqlite_driver(connection)
            if driver.in_transaction:
                driver.commit()

    def _rollback(self, connection: Connection) -> None:
        connection.rollback()
        driver = sqlite_driver(connection)
        if driver.in_transaction:
            driver.rollback()

    def alone(self, session: Executor) -> None:
        """The caller's next statement is its whole write. On PostgreSQL, where nothing has begun yet, it
        then runs without BEGIN and COMMIT: one statement is atomic on its own, and a command on a warm
        cache costs one round trip instead of three. The pool resets the connection when it goes back."""
        if self.reads_inline or not isinstance(session, Connection) or session.in_transaction():
            return
        session.execution_options(isolation_level="AUTOCOMMIT")

    @contextmanager
    def write_now(self) -> Iterator[Connection]:
        """`write_core` for a write on the event loop, on SQLite: a write there is a fraction of a
        millisecond, less than a hop to a worker thread and back. It must never block the loop, so it
        raises WouldWait rather than wait: for this process's other writer (a worker thread), or for
        another process holding SQLite's write lock (a backup, a migration). Its connection does not
        checkpoint the WAL (a checkpoint syncs to disk): a worker thread does, every CHECKPOINT_EVERY."""
        if not self.reads_inline:
            raise WouldWait
        lock: Any = self._one_writer
        if not lock.acquire(blocking=False):
            raise WouldWait
        try:
            connection, self._kept_now = self._kept_now or self._connect_now(), None
            try:
                sqlite_driver(connection).execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:  # another process holds the write lock: wait in a thread
                self._kept_now = connection
                raise WouldWait from error
            try:
                yield connection
                self.commit(connection)
            except BaseException:
                try:
                    self._rollback(connection)
                except BaseException:
                    connection.close()
                    raise
                self._kept_now = connection
                raise
            self._kept_now = connection
            self._written()
        finally:
            lock.release()

    def _connect_now(self) -> Connection:
        connection = self._connect_kept()
        # SQLITE_BUSY at once, not after up to 30 s
        sqlite_driver(connection).execute("PRAGMA busy_timeout=0")
        return connection

    def _connect_kept(self) -> Connection:
        """A connection for this process's SQLite writers. It never checkpoints on its own: SQLite's
        automatic checkpoint runs inside a commit, syncs to disk (about 15 ms here, one commit in 250),
        and would hold the write lock meanwhile. `_written` hands checkpoints to a worker thread."""
        connection = self._writer.connect()
        sqlite_driver(connection).execute("PRAGMA wal_autocheckpoint=0")
        return connection

    def _written(self) -> None:
        """Count a write of the kept connections (under the writers' lock); every CHECKPOINT_EVERY a worker
        thread checkpoints the WAL."""
        self._written_count += 1
        if self._written_count >= CHECKPOINT_EVERY and self._checkpoint_soon():
            self._written_count = 0

    def _checkpoint_soon(self) -> bool:
        """Hand a checkpoint to the worker; False while the last one is still at it (the next write asks
        again)."""
        if self._checkpointing is not None and not self._checkpointing.done():
            return False
        if self._checkpointer is None:
            self._checkpointer = ThreadPoolExecutor(1, thread_name_prefix="fray-checkpoint")
        self._checkpointing = self._checkpointer.submit(self.checkpoint)
        return True

    def checkpoint(self) -> tuple[int, int, int]:
        """Copy the WAL's pages into the database file, without holding up readers or writers: whether
        it was kept from finishing, the WAL's pages, and how many of them are in the file now."""
        with self.engine.connect() as connection:
            busy, pages, copied = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        return busy, pages, copied

    async def run_read(self, read: Callable[..., T], *args: Any) -> T:
        """Run a read from async code. On SQLite it runs right here: WAL readers never wait for a writer
        and a read takes well under a millisecond, less than a hop to a worker thread and back, which
        under load waits its turn for the GIL. A server database's reads cross the network: a thread."""
        if self.reads_inline:
            return read(*args)
        return await to_thread.run_sync(read, *args)

    def dispose(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.shutdown(wait=True)
            self._checkpointer = None
        with self._one_writer:
            for kept in (self._kept, self._kept_now):
                if kept is not None:
                    kept.close()
            self._kept = self._kept_now = None
        self.engine.dispose()


def claim_sqlite(url: str) -> Any:
    """Hold an advisory lock beside a SQLite file while this process serves it with the memory broker.

    A second process on the same file would write to the same log while neither hears the other's
    changes: half the sockets would go stale. It still starts (a short overlap during a restart is
    normal) but says loudly what to do. Returns the open lock file (keep it), or None when another holds it.
    """
    import fcntl
    import logging

    path = make_url(url).database
    if not path or path == ":memory:":
        return True
    handle = open(f"{path}.serving", "a")  # noqa: SIM115 (held for the life of the process)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        logging.getLogger("fray").warning(
            "Another Fray process is already serving %s with the in-memory broker. Its sockets will not "
            "hear this process's changes, nor this one's its. Run one process, or give every process "
            "FRAY_BROKER_URL=redis://host:6379/0 (see docs/deploy.md).",
            path,
        )
        return None
    return handle
