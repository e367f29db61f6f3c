"""Serving needs no torch: the project installed without extras, in a fresh virtual environment,
serves /v1/ask and the page from a built model and index, and torch cannot be imported there.
The torch backend, asked for without the build extra, stops at start with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import REPO, serving

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base_venv(tmp_path_factory) -> Path:
    """A fresh venv with `pip install .` (no extras), as a serving image installs it."""
    venv = tmp_path_factory.mktemp("lean") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(REPO)],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


def _settings(index_dir: Path) -> dict[str, str]:
    return dict(
        os.environ,
        RULINGS_ARCHIVE_DIR=str(REPO / "rulings"),
        RULINGS_INDEX_DIR=str(index_dir),
        RULINGS_MODEL=str(REPO / "models" / "multilingual-e5-small"),
        ACCESS_LOG="",
    )


@pytest.mark.parametrize("module", ["torch", "sentence_transformers", "transformers"])
def test_the_base_install_holds_no_torch(base_venv, module):
    found = subprocess.run([str(base_venv / "bin" / "python"), "-c", f"import {module}"],
                           capture_output=True, timeout=120)  # fmt: skip
    assert found.returncode != 0


def test_the_base_install_serves_questions_and_the_page(base_venv, index_dir, tmp_path):
    # From another folder than the repository: nothing is found beside the code by chance.
    settings = {k: v for k, v in _settings(index_dir).items() if k.startswith("RULINGS_")}
    with serving(settings, [str(base_venv / "bin" / "rulings")], cwd=tmp_path) as url:
        answer = httpx.get(f"{url}/v1/ask", params={"q": "can I do two top actions?"}, timeout=30)
        assert answer.status_code == 200 and answer.json()["answer"]["id"] in {"fh-it-1", "fh-nl-1"}
        page = httpx.get(f"{url}/", timeout=10)
        assert page.status_code == 200 and "<html" in page.text


def test_the_torch_backend_without_the_build_extra_is_one_line(base_venv, index_dir, tmp_path):
    done = subprocess.run(
        [str(base_venv / "bin" / "rulings"), "ask", "can I do two top actions?"],
        cwd=tmp_path,
        env=dict(_settings(index_dir), RULINGS_BACKEND="torch"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "Error: the torch backend needs the build extra (torch is not installed): "
        "pip install 'rulings[build]', or set RULINGS_BACKEND=onnx"
    ]
