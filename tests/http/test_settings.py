"""One typed settings object (issue 13, item 6): every variable the project reads is a field of
``service.settings.Settings``, nothing else reads the environment, the README's table is the
model's, and a bad value is one line at start."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from service.cli import cli
from service.settings import Settings, SettingsError, settings_table
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
TABLE = re.compile(r"<!-- settings-table: begin -->\n(.*?)<!-- settings-table: end -->", re.S)
# Reading the environment (writes such as os.environ[X] = ... or setdefault are not reads).
READS = re.compile(
    r"os\.environ\.get\(|os\.getenv\(|os\.environ\[[^\]]+\](?!\s*=)|\benviron\.get\(\s*['\"]"
    r"|envvar="
)
SETTINGS_MODULES = {"indexer/model/settings.py", "service/settings.py"}


def test_the_readme_table_is_the_settings_model():
    found = TABLE.search(README)
    assert found, "the README lost its settings table markers"
    assert found.group(1) == settings_table(), (
        "run `python -m service.settings` and paste its table"
    )


def test_every_setting_is_documented_with_help():
    names = [name for name, _, _ in Settings.variables()]
    assert len(names) == len(set(names))
    for name, _, help_ in Settings.variables():
        assert help_, f"{name} has no help text"
    for wanted in (
        "RULINGS_MODEL",
        "RULINGS_BACKEND",
        "WEB_WORKERS",
        "RULINGS_RATE_LIMIT",
        "RULINGS_CORS_ORIGINS",
        "RULINGS_PUBLIC_URL",
        "DISCORD_TOKEN",
        "RULINGS_API_URL",
        "RULINGS_API_KEY",
        "RULINGS_BOT_DB",
        "RULINGS_INDEX_DIR",
        "PORT",
        "ACCESS_LOG",
    ):
        assert wanted in names, wanted


def test_no_product_module_reads_the_environment_itself():
    offenders = []
    for folder in ("indexer", "service", "checker"):
        for path in (REPO / folder).rglob("*.py"):
            rel = path.relative_to(REPO).as_posix()
            if rel in SETTINGS_MODULES:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if READS.search(line):
                    offenders.append(f"{rel}:{number}: {line.strip()}")
    assert not offenders, "read these through service.settings:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("WEB_WORKERS", "many", "WEB_WORKERS='many' is not an integer"),
        ("PORT", "0", "PORT='0' must be at least 1"),
        ("RULINGS_RATE_LIMIT", "lots", "RULINGS_RATE_LIMIT='lots' is not a rate"),
        ("RULINGS_RATE_LIMIT_EXEMPT", "localhost", "which is not an address or network"),
        ("RULINGS_RATE_LIMIT_STORAGE", "redis:6379", "is not a storage URL"),
        (
            "RULINGS_RATE_LIMIT_BURST",
            "3",
            "RULINGS_RATE_LIMIT_BURST=3 must be at least the rate's count",
        ),
        ("DISCORD_PUBLIC_KEY", "not-hex", "is not an Ed25519 public key"),
        ("HF_HUB_OFFLINE", "perhaps", "HF_HUB_OFFLINE='perhaps' is not a yes/no value"),
    ],
)
def test_a_bad_value_is_one_line_naming_it(monkeypatch, runner, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=re.escape(message)):
        Settings.load()
    result = runner.invoke(cli, ["show", "fh-clar-10"])  # any command: refused at start
    lines = result.output.splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert lines[0].startswith("Error: ") and message in lines[0]


def test_the_app_refuses_a_bad_value_at_creation(monkeypatch):
    from service.http.app import create_app

    monkeypatch.setenv("RULINGS_RATE_LIMIT", "fast")
    with pytest.raises(SettingsError, match="RULINGS_RATE_LIMIT='fast'"):
        create_app({"TESTING": True})


def test_empty_means_the_default_except_for_the_access_log(monkeypatch):
    for name in ("WEB_WORKERS", "RULINGS_RATE_LIMIT", "RULINGS_BOT_DB", "DISCORD_TOKEN"):
        monkeypatch.setenv(name, "")
    monkeypatch.setenv("ACCESS_LOG", "")
    settings = Settings.load()
    assert settings.rate_limit == "10/second" and settings.discord_token is None
    assert settings.web_workers is None and str(settings.bot_db) == "build/bot.sqlite3"
    assert settings.access_log == ""  # "" means no access log


def test_the_burst_window(monkeypatch):
    assert Settings.load().burst_window == (20, 2)  # the default: 10/second, a burst of 20
    assert Settings.load(rate_limit="600/minute").burst_window == (1200, 120)
    assert Settings.load(rate_limit="3/second", rate_limit_burst=10).burst_window == (
        10,
        4,
    )  # never over 3/s
    assert Settings.load(rate_limit="off").burst_window is None


def test_secrets_do_not_show_in_the_settings_repr(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "t0ken-value")
    monkeypatch.setenv("RULINGS_API_KEY", "k3y-value")
    settings = Settings.load()
    assert "t0ken-value" not in repr(settings) and "k3y-value" not in repr(settings)
    assert settings.secret("discord_token") == "t0ken-value"


def test_the_table_is_printed_by_the_module():
    out = subprocess.run(
        [sys.executable, "-m", "service.settings"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == settings_table()
