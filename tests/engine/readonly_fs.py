"""Read-only places for tests: a read-only file system (root: a tmpfs remounted read-only),
and a check run as an unprivileged user (root may write to a read-only file or folder)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@contextlib.contextmanager
def read_only_fs(prepare=None):
    """A folder on its own tmpfs; ``prepare(folder)`` runs while it is writable, then it is
    remounted read-only. Needs root (skipped otherwise)."""
    if not IS_ROOT or not shutil.which("mount"):
        pytest.skip("mounting a read-only file system needs root")
    folder = Path(tempfile.mkdtemp(prefix="gumshoe-rofs-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        folder.rmdir()
        pytest.skip("cannot mount a tmpfs here")
    try:
        if prepare is not None:
            prepare(folder)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True, capture_output=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
        with contextlib.suppress(OSError):
            folder.rmdir()


def run_unprivileged(code: str) -> subprocess.CompletedProcess:
    """Run Python ``code`` from the project root as an ordinary user (``nobody`` when we are
    root, so that read-only permissions bite)."""
    cmd = [sys.executable, "-c", code]
    if IS_ROOT:
        if not shutil.which("setpriv"):
            pytest.skip("needs setpriv to drop root")
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": "/tmp"}
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


def shared_tmp() -> Path:
    """A temporary folder an unprivileged user can enter (pytest's own is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="gumshoe-ro-"))
    folder.chmod(0o755)
    return folder
