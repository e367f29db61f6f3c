"""A throwaway PostgreSQL cluster for the question log's tests and benchmark: initdb into a
temp folder, the server on a free loopback port (its socket in that folder). As root it runs as
the ``postgres`` user (``nobody`` without one): PostgreSQL refuses to run as root.

No pytest here: ``bench/asklog.py`` uses it too (the tests' conftest adds the installing).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

TOOLS = ("initdb", "pg_ctl", "postgres")


def _complete(folder: Path) -> bool:
    return all((folder / tool).is_file() for tool in TOOLS)


def postgres_bindir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres (the newest Debian version), if any."""
    on_path = shutil.which("pg_ctl")
    # /usr/local/bin/pg_ctl may be a link into Debian's folder; Debian's /usr/bin holds only
    # wrappers (no initdb), hence the check that all three tools stand together.
    if on_path and _complete(Path(on_path).resolve().parent):
        return Path(on_path).resolve().parent
    debian = sorted(
        (Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return next((p for p in reversed(debian) if _complete(p)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A throwaway PostgreSQL cluster in a temp folder, on a free loopback port."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres").pw_name
            except KeyError:
                self.user = "nobody"
        self.root = Path(tempfile.mkdtemp(prefix="rulings-pg-"))
        if self.user:
            shutil.chown(self.root, self.user)
        self.data = self.root / "data"
        self.port = free_port()
        self._names = itertools.count()

    def _run(self, tool: str, *args: str, timeout: float = 120) -> None:
        done = subprocess.run(
            [str(self.bindir / tool), *args],
            user=self.user,
            cwd=self.root,  # the server's user may not enter the test's folder
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            raise RuntimeError(f"{tool} {' '.join(args)} failed: {done.stdout}{done.stderr}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")  # fmt: skip

    def start(self, *, durable: bool = False) -> None:
        """Start the server (tests: without syncing to disk; `durable`: as configured)."""
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w",
                  "-t", "60", "-o", options, "start")  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"asklog_{next(self._names)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
