"""schemathesis, all checks, against the real server's /openapi.json: zero failures.

The run is bounded (fixed seed, 50 examples per operation, see schemathesis.toml) so it stays
well under two minutes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_schemathesis_all_checks_against_the_running_service(live_server, tmp_path):
    cli = Path(sys.executable).with_name("schemathesis")
    result = subprocess.run(
        [
            str(cli),
            "--config-file",
            str(REPO / "schemathesis.toml"),
            "--no-color",
            "run",
            "--checks",
            "all",
            f"{live_server}/openapi.json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    summary = result.stdout[-6000:]
    assert result.returncode == 0, summary
    assert "Failures:" not in summary and "generated" in summary, summary
