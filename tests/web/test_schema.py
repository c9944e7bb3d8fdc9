"""schemathesis over the OpenAPI schema a real `paperscope serve` serves: every operation, generated
valid and invalid requests, the stateful links between them, all of its checks."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import serving

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = 10  # per operation and phase: about 1,000 cases, under a minute on a loaded two-core machine


@pytest.mark.slow
def test_schemathesis_finds_no_failure(seeded_db, tmp_path):
    db = tmp_path / "api.db"
    shutil.copy(seeded_db, db)  # its writes (tags, notes, saved searches) stay in this copy
    with serving(db) as url:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(CONFIG),
                "run",
                f"{url}/openapi.json",
                "--checks",
                "all",
                "--header",
                "X-Paperscope: 1",
                "--max-examples",
                str(EXAMPLES),
                "--workers",
                "1",
                "--request-timeout",
                "30",
                "--seed",
                "21",
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
            cwd=tmp_path,  # its cache stays out of the repo
        )
    summary = run.stdout[run.stdout.rfind("SUMMARY") :]
    assert run.returncode == 0, summary or run.stdout[-3000:] + run.stderr[-3000:]
    assert re.search(r"Tested: (\d+)", summary).group(1) == re.search(r"Selected: (\d+)/\1", summary).group(1)
    assert "failure" not in summary.lower().replace("0 failures", "")
