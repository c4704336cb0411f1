"""What the package-boundary tests share: importing modules in a fresh interpreter and listing the
packages that came with them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def assert_imports_none_of(modules: tuple[str, ...], forbidden: tuple[str, ...]) -> None:
    """Importing ``modules`` in a fresh interpreter (run from the repository's root) loads no module
    of the ``forbidden`` top-level packages; the failure lists those it loaded."""
    code = (f"import sys, {', '.join(modules)}; "
            f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r}); "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
