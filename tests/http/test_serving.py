"""gunicorn settings, and over-long GET questions answered by the app's own JSON error."""

from __future__ import annotations

import os
import signal
import sys
import time

import httpx
import pytest

from indexer.model.embedder import ort_threads_setting
from indexer.model.settings import ModelError
from service.http.wsgi import (
    LIMIT_REQUEST_LINE,
    exit_worker_now,
    gunicorn_settings,
    web_threads,
    web_workers,
)


def test_workers_and_threads_default_to_the_machine(monkeypatch):
    monkeypatch.delenv("WEB_WORKERS", raising=False)
    monkeypatch.delenv("WEB_THREADS", raising=False)
    monkeypatch.delenv("RULINGS_ORT_THREADS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert web_workers() == 8 and web_threads() == 4
    assert ort_threads_setting() == 1  # one core per worker
    monkeypatch.setenv("WEB_WORKERS", "2")
    assert ort_threads_setting() == 4  # the cores left to each of 2 workers
    settings = gunicorn_settings("127.0.0.1", 9000)
    assert settings["workers"] == 2 and settings["threads"] == 4
    assert (
        settings["worker_class"] == "gthread"
        and settings["limit_request_line"] == LIMIT_REQUEST_LINE
    )
    assert settings["worker_exit"] is exit_worker_now


@pytest.mark.parametrize(
    "name, value", [("WEB_WORKERS", "many"), ("WEB_THREADS", "0"), ("RULINGS_ORT_THREADS", "-1")]
)
def test_bad_serving_settings_are_refused_in_one_line(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ModelError, match=name):
        web_workers(), web_threads(), ort_threads_setting()


@pytest.mark.slow
@pytest.mark.parametrize("question", ["a" * 5000, "é" * 1200], ids=["5000 ascii", "1200 accented"])
def test_long_get_question_gets_the_apps_json_422(live_server, question):
    """gunicorn's request-line limit lets the question through; the app refuses it in JSON."""
    response = httpx.get(f"{live_server}/v1/ask", params={"q": question}, timeout=30)
    assert response.status_code == 422, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "invalid_request"
    assert "too long" in error["message"] and str(len(question)) in error["message"]


def _wait_for(pid: int, failure: str) -> int:
    """The exit status of the forked child `pid`; killed and `failure` reported if it hangs."""
    for _ in range(600):  # a hang, not a speed: give up only after a minute
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail(failure)


@pytest.mark.slow
def test_worker_exit_hook_ends_a_forked_worker_with_its_status(embedder):
    """A forked worker of a process holding an ONNX Runtime session hung in its C++ exit
    handlers; the hook ends it with os._exit and keeps the status gunicorn exits with."""
    assert embedder.encode(["query: warm"]).shape[0] == 1  # this process has run the runtime
    pid = os.fork()
    if pid == 0:  # the "worker": exit as gunicorn's spawn_worker does, through the hook
        try:
            sys.exit(3)
        finally:
            exit_worker_now(None, None)
    status = _wait_for(pid, "the forked worker did not exit")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3


def test_language_detector_loaded_before_the_fork_works_in_a_forked_worker():
    """The detector preloads its models on a thread pool (indexer.language) in the master;
    a forked worker, which has none of those threads, must still detect, and not hang."""
    from indexer.language import detect_language

    assert detect_language("Kann ich zwei obere Aktionen in einem Zug nutzen?") == "de"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            found = [
                detect_language(t)
                for t in (
                    "Wat doet gif precies met een monster?",
                    "¿Puedo usar dos acciones superiores?",
                )
            ]
            os.write(write, ",".join(map(str, found)).encode())
        finally:
            os._exit(0)
    os.close(write)
    _wait_for(pid, "the forked worker did not answer")
    assert os.read(read, 100).decode() == "nl,es"
    os.close(read)
