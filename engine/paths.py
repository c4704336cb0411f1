"""Where shipped data and the family's own files live."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path


def assets_dir() -> Path:
    """The shipped ``assets/`` folder (override with ``GUMSHOE_ASSETS``)."""
    if env := os.environ.get("GUMSHOE_ASSETS"):
        return Path(env)
    # A frozen app (PyInstaller) unpacks data beside the executable's modules.
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parent.parent))
    return base / "assets"


def user_dir() -> Path:
    """The family's own folder: saved games and deck corrections (``GUMSHOE_HOME``)."""
    if env := os.environ.get("GUMSHOE_HOME"):
        return Path(env)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "Gumshoe"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Gumshoe"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "gumshoe"


def read_toml(path: Path, error: type[Exception]) -> dict:
    """A data file as a dict; ``error`` (naming the file) when it is missing or not TOML."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise error(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    except RecursionError:
        raise error(f"{path}: nested too deeply to be a data file") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror})") from None
