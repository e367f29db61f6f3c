"""gunicorn settings, and over-long GET questions answered by the app's own JSON error."""
from __future__ import annotations

import httpx
import pytest

from indexer.embedder import ModelError, ort_threads_setting
from service.wsgi import LIMIT_REQUEST_LINE, gunicorn_settings, web_threads, web_workers


def test_workers_and_threads_default_to_the_machine(monkeypatch):
    monkeypatch.delenv("WEB_WORKERS", raising=False)
    monkeypatch.delenv("WEB_THREADS", raising=False)
    monkeypatch.delenv("RULINGS_ORT_THREADS", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert web_workers() == 8 and web_threads() == 4
    assert ort_threads_setting() == 1            # one core per worker
    monkeypatch.setenv("WEB_WORKERS", "2")
    assert ort_threads_setting() == 4            # the cores left to each of 2 workers
    settings = gunicorn_settings("127.0.0.1", 9000)
    assert settings["workers"] == 2 and settings["threads"] == 4
    assert settings["worker_class"] == "gthread" and settings["limit_request_line"] == LIMIT_REQUEST_LINE


@pytest.mark.parametrize("name, value", [("WEB_WORKERS", "many"), ("WEB_THREADS", "0"),
                                         ("RULINGS_ORT_THREADS", "-1")])
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
