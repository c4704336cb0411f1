"""Every benchmark still runs (issue 21, part 5): each file in benchmarks/ with `--smoke`, in its own process.

A benchmark is only run by hand, so a refactor can break it unnoticed (app_bench.py stopped
on a table attribute that no longer existed). `--smoke` runs every part of it on the smallest
sizes, in seconds; the figures it prints are not checked here (a shared machine's timings
mean nothing), only that it ends normally and reports. A new benchmark without `--smoke`
fails here too (argparse refuses the flag).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if not p.name.startswith("_"))


def test_the_benchmarks_are_found():
    assert {"app_bench.py", "vision_bench.py", "engine_bench.py"} <= set(BENCHMARKS)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_benchmark_runs_in_smoke_mode(name, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "GUMSHOE_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / name), "--smoke"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"{name} --smoke ended with {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert len(r.stdout.strip().splitlines()) >= 3, f"{name} --smoke printed no report:\n{r.stdout}"
