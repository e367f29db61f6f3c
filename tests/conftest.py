"""Shared fixtures: the real model, archive and index, loaded once per test session.

`app` / `client` / `runner` follow flaskr; `live_server` starts the real app under gunicorn on
a free loopback port for the few tests that need a real HTTP server. `fast_app` /
`fast_client` run the same app over a fake embedder and its tiny index, for plumbing tests
(shapes, errors, the catalogue) that need no model.

A test that uses a real-model fixture is marked `slow` here, whatever its file says, so
`make test-fast` (``-m "not slow and not browser"``) selects by what a test really needs.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DEV_SET = SHARED / "eval" / "dev.yaml"
IDS_FILE = SHARED / "eval" / "ids.yaml"

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The tests' asks go to a question log of their own (every server they start inherits it),
# never to the developer's build/asks.sqlite3; a test that needs another log sets its own.
os.environ["RULINGS_LOG"] = str(Path(tempfile.mkdtemp(prefix="rulings-test-log-")) / "asks.sqlite3")

# The fixtures that load the real model (directly or through the index / engine / server).
REAL_MODEL_FIXTURES = {"embedder", "index_dir", "engine", "app", "client", "live_server"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if REAL_MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def archive():
    from indexer.archive.load import load_archive

    return load_archive(REPO / "rulings")


@pytest.fixture(scope="session")
def embedder():
    """The real model (built by `make model`), loaded once."""
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.model.rebuild.model import build_model

    setting = model_setting()
    if Path(setting).is_absolute() and not Path(setting).exists():
        build_model(Path(setting))
    return load_embedder(setting)


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory, archive, embedder) -> Path:
    """A fresh index of the real archive, built once for the session in a temp folder."""
    from indexer.search.index import build_index

    path = tmp_path_factory.mktemp("index") / "index"
    build_index(archive, embedder, path, show_progress=False)
    return path


@pytest.fixture(scope="session")
def engine(index_dir):
    from service.engine import Engine, EngineConfig

    return Engine(EngineConfig(archive_dir=REPO / "rulings", index_dir=index_dir))


@pytest.fixture(scope="session")
def app(engine, index_dir):
    from service.http.app import create_app

    app = create_app({"TESTING": True, "INDEX_DIR": str(index_dir)})
    app.extensions["rulings_engine"] = engine  # share the session's engine: one model in memory
    return app


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def fake_embedder():
    from tests.fakes import FakeEmbedder

    return FakeEmbedder()


@pytest.fixture(scope="session")
def fake_engine(tmp_path_factory, archive, fake_embedder):
    """The engine over the real archive, with a fake embedder and its index (no model)."""
    from indexer.search.index import build_index
    from indexer.search.question import QuestionAnalyser
    from indexer.search.searcher import Searcher
    from service.engine import Engine, EngineConfig

    path = tmp_path_factory.mktemp("fake-index") / "index"
    index, _ = build_index(archive, fake_embedder, path, show_progress=False)
    searcher = Searcher(archive, index, fake_embedder, analyser=QuestionAnalyser(archive))
    return Engine(
        EngineConfig(archive_dir=REPO / "rulings", index_dir=path),
        archive=archive,
        searcher=searcher,
    )


@pytest.fixture(scope="session")
def fast_app(fake_engine):
    from service.http.app import create_app

    app = create_app({"TESTING": True})
    app.extensions["rulings_engine"] = fake_engine
    return app


@pytest.fixture()
def fast_client(fast_app):
    return fast_app.test_client()


@pytest.fixture()
def runner():
    from click.testing import CliRunner

    return CliRunner()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(settings: dict[str, str], rulings: list[str] | None = None, cwd: Path = REPO):
    """`rulings serve` (gunicorn) on a free loopback port with these environment settings;
    yields its URL once /healthz answers. `rulings`: the command to run (default: this
    Python's `-m service.cli`), from `cwd`."""
    port = free_port()
    env = dict(os.environ, PORT=str(port), ACCESS_LOG="", **settings)
    proc = subprocess.Popen(
        [*(rulings or [sys.executable, "-m", "service.cli"]), "serve", "--port", str(port)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stdout.read()[-2000:]}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        proc.kill()
        raise RuntimeError("server did not start within 120 s")
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def live_server(index_dir):
    """The real server (gunicorn via `rulings serve`) on a free loopback port; yields its URL."""
    with serving({"RULINGS_INDEX_DIR": str(index_dir)}) as url:
        yield url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium, installed on first use; skip with the reason if it cannot be."""
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        try:
            subprocess.run(
                ["apt-get", "update", "-qq"], check=True, capture_output=True, timeout=300
            )
            subprocess.run(
                ["apt-get", "install", "-y", "-qq", "chromium"],
                check=True,
                capture_output=True,
                timeout=900,
                env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"),
            )
        except (OSError, subprocess.SubprocessError) as exc:
            pytest.skip(f"Chromium is not installed and cannot be installed here: {exc}")
    if not Path(path).exists():
        pytest.skip("Chromium is not installed and apt-get did not provide /usr/bin/chromium")
    return path
