"""`gumshoe --self-test`: is everything Gumshoe needs present and working on this computer?

Prints one line per check, "ok   name: detail", "FAIL name: reason" or "warn name: reason", then
a summary, and exits 1 if any check failed. A warning is an optional part that is missing or does
not work (today only pyzbar, the second QR reader, and its test read): the line says what is
missing and what still works, and it does not fail the self-test. Families run it when something
does not work; the installer builds run it as their smoke test (see docs/install.md).

Checks: every native dependency imports (Qt, OpenCV with its ArUco module, numpy, zxing-cpp,
pyzbar with the zbar library, Pillow, pyserial, SQLite); the shipped data loads (decks through
the engine, the die, the tag registry); the bundled tag image (assets/selftest/tag.png) is
decoded by every decoder (AprilTag by vision's detector, QR by zxing-cpp and by pyzbar); a
serial `loop://` link echoes a line; the main window opens and closes without being shown.

Nothing here touches the camera, and nothing is written to the family's saved games.
GUMSHOE_SELFTEST_REPORT=FILE also writes the report to FILE. A windowed app started without a
console (the Windows Start-menu "Gumshoe self-test" entry) shows the report in a message box.
"""

from __future__ import annotations

import ctypes
import logging
import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Callable

def _selftest_card() -> str:
    """The card the test picture carries (data: ``assets/selftest/selftest.toml``)."""
    import tomllib

    from engine.paths import assets_dir
    with open(assets_dir() / "selftest" / "selftest.toml", "rb") as fh:
        return tomllib.load(fh)["card"]


SELFTEST_CARD = _selftest_card()
SELFTEST_NAME = "Gandhi's Glasses"
DIST_NAME = "gumshoe-referee"

# Hints printed after a failure or a warning, by check name: what a family (or a packager) can do.
ZBAR_HINTS = {
    "linux": "to have it anyway, install the zbar library (Debian/Ubuntu: sudo apt install libzbar0)",
    "darwin": "to have it anyway, install the zbar library (brew install zbar)",
    "win32": "to have it anyway, install the Microsoft Visual C++ 2013 Redistributable (x64)",
}
HINTS = {
    "pyzbar": ZBAR_HINTS,
    "qt": {"linux": "install Qt's system libraries (Debian/Ubuntu: sudo apt install libxcb-cursor0 libxkbcommon-x11-0 libegl1)"},
    "window": {"linux": "is there a display (DISPLAY / WAYLAND_DISPLAY)? Qt's X11 plugin also needs "
                        "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 (sudo apt install ...)"},
}


class CheckFailed(Exception):
    """A check's own, readable reason for failing (printed without a traceback)."""


# Optional parts, by check name: Gumshoe works without them, so a problem there is a warning, not a
# failure. Each says what still works, provided the checks named with it passed.
OPTIONAL = {
    "pyzbar": (("zxing-cpp",), "Optional: pyzbar is only a second QR reader; QR codes are still read by "
                               "zxing-cpp, and the rest of Gumshoe works"),
    "qr-pyzbar": (("qr-zxing",), "Optional: QR codes are still read by zxing-cpp (the qr-zxing check), and the "
                                 "rest of Gumshoe works"),
}


def frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> Path | None:
    return Path(sys._MEIPASS).resolve() if frozen() and hasattr(sys, "_MEIPASS") else None  # type: ignore[attr-defined]


def tag_image_path() -> Path:
    from engine.paths import assets_dir

    return assets_dir() / "selftest" / "tag.png"


def app_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DIST_NAME)
    except PackageNotFoundError:
        return "unknown"


# ---------------------------------------------------------------- where a native library came from

def library_path(lib: ctypes.CDLL, symbol: str) -> str | None:
    """The file a ctypes-loaded library was loaded from (None if the system will not say)."""
    try:
        if sys.platform == "win32":
            buf = ctypes.create_unicode_buffer(32768)
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            kernel32.GetModuleFileNameW.argtypes = [ctypes.c_void_p, ctypes.c_wchar_p, ctypes.c_uint32]
            n = kernel32.GetModuleFileNameW(ctypes.c_void_p(lib._handle), buf, len(buf))
            return buf.value if n else None

        class DlInfo(ctypes.Structure):
            _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                        ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]

        libc = ctypes.CDLL(None)
        dladdr = libc.dladdr
        dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(DlInfo)]
        info = DlInfo()
        address = ctypes.cast(getattr(lib, symbol), ctypes.c_void_p)
        if dladdr(address, ctypes.byref(info)) and info.dli_fname:
            return os.path.realpath(info.dli_fname.decode(errors="replace"))
    except Exception:  # noqa: BLE001 - diagnostics only
        return None
    return None


def mapped_copies(name: str) -> list[str]:
    """Linux: every file whose name contains `name` mapped into this process."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {line.split(None, 5)[5].strip() for line in maps if len(line.split(None, 5)) == 6}
    except OSError:
        return []
    return sorted(p for p in paths if name in os.path.basename(p))


def inside_bundle(path: str) -> bool:
    base = bundle_dir()
    if base is None:
        return True
    try:
        Path(path).resolve().relative_to(base)
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------- checks

def check_python() -> str:
    where = f"frozen in {bundle_dir()}" if frozen() else f"from source ({sys.executable})"
    return f"Gumshoe {app_version()}, Python {platform.python_version()} on {platform.system()} {platform.machine()}, {where}"


def check_qt() -> str:
    import PySide6
    from PySide6 import QtCore, QtGui, QtWidgets  # noqa: F401

    return f"PySide6 {PySide6.__version__}, Qt {QtCore.qVersion()} (QtCore, QtGui, QtWidgets)"


def check_numpy() -> str:
    import numpy

    return f"numpy {numpy.__version__}"


def check_opencv() -> str:
    import cv2

    if not hasattr(cv2, "aruco") or not hasattr(cv2.aruco, "ArucoDetector"):
        raise CheckFailed(f"OpenCV {cv2.__version__} has no cv2.aruco.ArucoDetector (need OpenCV >= 4.10)")
    cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    return f"OpenCV {cv2.__version__} with cv2.aruco (AprilTag 36h11)"


def check_pillow() -> str:
    import PIL
    from PIL import Image, ImageFont

    ImageFont.load_default(size=12)  # the FreeType font vision prints card names with
    Image.new("L", (2, 2)).tobytes()
    return f"Pillow {PIL.__version__} (FreeType font ok)"


def check_zxing() -> str:
    import zxingcpp

    version = getattr(zxingcpp, "__version__", "") or _dist_version("zxing-cpp")
    return f"zxing-cpp {version}".rstrip()


def check_pyzbar() -> str:
    try:
        from pyzbar import pyzbar
        from pyzbar.wrapper import load_libzbar
        lib = load_libzbar()
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "pyzbar":
            raise
        raise CheckFailed("missing: the pyzbar package is not installed") from None
    except (ImportError, OSError) as exc:
        raise CheckFailed(f"missing: the zbar library (libzbar) is not installed or cannot be loaded ({exc})") from None
    path = library_path(lib, "zbar_version") or "unknown location"
    major, minor = ctypes.c_uint(), ctypes.c_uint()
    try:
        lib.zbar_version(ctypes.byref(major), ctypes.byref(minor))
        zbar = f"{major.value}.{minor.value}"
    except AttributeError:
        zbar = "?"
    if frozen() and path != "unknown location" and not inside_bundle(path):
        raise CheckFailed(f"libzbar was loaded from outside the app bundle: {path}")
    extra = [p for p in mapped_copies("libzbar") if os.path.realpath(p) != path]
    if extra:
        raise CheckFailed(f"more than one libzbar is loaded: {path} and {', '.join(extra)}")
    del pyzbar
    place = "bundled" if frozen() else "system"
    runtime = ""
    if sys.platform == "win32":  # zbar's DLLs need the Visual C++ 2013 runtime
        runtime = f", msvcr120.dll: {_windows_module_path('msvcr120.dll') or 'not loaded'}"
    return f"pyzbar {_dist_version('pyzbar')}, zbar {zbar}, libzbar ({place}): {path}{runtime}"


def _windows_module_path(name: str) -> str | None:
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.GetModuleHandleW.restype = ctypes.c_void_p
    kernel32.GetModuleHandleW.argtypes = [ctypes.c_wchar_p]
    handle = kernel32.GetModuleHandleW(name)
    if not handle:
        return None
    buf = ctypes.create_unicode_buffer(32768)
    kernel32.GetModuleFileNameW.argtypes = [ctypes.c_void_p, ctypes.c_wchar_p, ctypes.c_uint32]
    return buf.value if kernel32.GetModuleFileNameW(ctypes.c_void_p(handle), buf, len(buf)) else None


def check_serial() -> str:
    import serial

    link = serial.serial_for_url("loop://", baudrate=115200, timeout=1)
    try:
        link.write(b"ROLL 17 4\n")
        echoed = link.readline()
    finally:
        link.close()
    if echoed != b"ROLL 17 4\n":
        raise CheckFailed(f"loop:// echoed {echoed!r} instead of b'ROLL 17 4\\n'")
    return f"pyserial {serial.__version__}, loop:// echoed 'ROLL 17 4'"


def check_sqlite() -> str:
    import sqlite3

    with tempfile.TemporaryDirectory(prefix="gumshoe-selftest-") as folder:
        db = sqlite3.connect(Path(folder) / "t.sqlite")
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            db.execute("CREATE TABLE t (x)")
            db.execute("INSERT INTO t VALUES (1)")
            db.commit()
        finally:
            db.close()
    if mode.lower() != "wal":
        raise CheckFailed(f"SQLite {sqlite3.sqlite_version} refused WAL mode (got {mode!r})")
    return f"SQLite {sqlite3.sqlite_version}, WAL ok"


def check_decks() -> str:
    from engine.cards import deck_files, load_deck
    from engine.dice import load_die
    from engine.paths import assets_dir

    files = deck_files()
    if not files:
        raise CheckFailed(f"no deck files in {assets_dir() / 'decks'}")
    cards = 0
    for path in files:
        deck = load_deck(path)
        cards += len(getattr(deck, "cards", ()) or ())
    from engine.games import game_info, rules_for
    from .tables import installed_games
    dice = []
    games = installed_games()
    for game in games:
        rules_for(game)            # its deck(s), boards and other data load
        info = game_info(game)
        if info.die:
            dice.append(load_die(info.die))
    faces = ", ".join(f"{len(d.faces)} faces" for d in dice) or "none"
    return (f"{len(games)} games' rules and data ({', '.join(games)}), {len(files)} deck file(s), {cards} cards, "
            f"dice: {faces}, from {assets_dir()}")


def check_tag_registry() -> str:
    from vision.registry import TagRegistry, missing_cards

    registry = TagRegistry.load()
    missing = missing_cards(registry)
    if missing:
        raise CheckFailed(f"{len(missing)} card(s) have no tag id, e.g. {missing[0]}")
    return f"{len(registry)} tags, every card has one"


def _tag_image():
    import cv2

    path = tag_image_path()
    gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if gray is None:
        raise CheckFailed(f"cannot read the test image {path}")
    return gray


def check_apriltag_library() -> str:
    """The AprilTag C library (inside pupil-apriltags) loads: without it vision falls back to
    OpenCV alone and reads fewer real cards, silently."""
    from vision.apriltag_lib import AprilTagLibrary, AprilTagLibraryError, _library_path

    try:
        AprilTagLibrary.get()
    except (AprilTagLibraryError, OSError) as exc:
        raise CheckFailed(f"the AprilTag library did not load: {exc}") from None
    return f"AprilTag library loaded from {_library_path()}"


def check_apriltag() -> str:
    from vision.detector import TagDetector
    from vision.tags import TagKind

    detector = TagDetector(kinds=[TagKind.APRILTAG])
    cards = {d.card_id for d in detector.detect(_tag_image())}
    if cards != {SELFTEST_CARD}:
        raise CheckFailed(f"the test image read as {sorted(map(str, cards)) or 'nothing'}, expected {SELFTEST_CARD}")
    return f"vision's AprilTag detector read {SELFTEST_CARD}"


def check_tag_reader_process() -> str:
    """The camera reads tags in a worker process (vision.isolated): it starts (in a frozen app that
    is this executable again, through freeze_support), reads the test image, and after it is
    killed, as a crash in native code would end it, a new worker reads the image again."""
    image = _tag_image()
    quiet = logging.getLogger("vision.isolated")
    level = quiet.level
    quiet.setLevel(logging.ERROR)          # the kill below is on purpose: no warning for it
    try:
        _read_kill_read(image)
    finally:
        quiet.setLevel(level)
    return f"tag reader worker read {SELFTEST_CARD}, and a new worker did after the first was killed"


def _read_kill_read(image) -> None:
    import os
    import signal

    from vision.isolated import IsolatedDetector, ReaderCrashed, ReaderUnavailable
    from vision.tags import TagKind

    try:
        reader = IsolatedDetector(kinds=[TagKind.APRILTAG])
    except ReaderUnavailable as exc:
        raise CheckFailed(f"{exc}: the camera would read tags inside the app, unprotected") from None
    with reader:
        first = {d.card_id for d in reader.detect(image)}
        if first != {SELFTEST_CARD}:
            raise CheckFailed(f"the worker read the test image as {sorted(map(str, first)) or 'nothing'}")
        killed = reader.pid
        os.kill(killed, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
        try:
            reader.detect(image)
        except ReaderCrashed:
            pass                          # the frame it was killed on is lost, as in the camera panel
        again = {d.card_id for d in reader.detect(image)}
        if again != {SELFTEST_CARD} or reader.pid in (None, killed):
            raise CheckFailed("after the worker was ended, a new one did not read the test image")


def _qr_check(backend: str) -> str:
    from vision.detector import DecoderUnavailableError, QrReader
    from vision.payload import PayloadError, decode_payload

    try:
        reader = QrReader(backend)
    except DecoderUnavailableError as exc:
        raise CheckFailed(str(exc)) from None
    texts = [text for text, _ in reader.read(_tag_image())]
    if not texts:
        raise CheckFailed("no QR code found in the test image")
    try:
        cards = {decode_payload(t) for t in texts}
    except PayloadError as exc:
        raise CheckFailed(f"QR code read but rejected: {exc}") from None
    if cards != {SELFTEST_CARD}:
        raise CheckFailed(f"QR read as {sorted(cards)}, expected {SELFTEST_CARD}")
    return f"read {SELFTEST_CARD}"


def check_qr_zxing() -> str:
    return "zxing-cpp " + _qr_check("zxing")


def check_qr_pyzbar() -> str:
    return "pyzbar " + _qr_check("pyzbar")


def find_main_window_class():
    """The app's main window class (desktop.main_window.MainWindow, or the first QMainWindow there)."""
    from PySide6.QtWidgets import QMainWindow

    from desktop import main_window

    cls = getattr(main_window, "MainWindow", None)
    if isinstance(cls, type) and issubclass(cls, QMainWindow):
        return cls
    for value in vars(main_window).values():
        if isinstance(value, type) and issubclass(value, QMainWindow) and value is not QMainWindow:
            return value
    raise CheckFailed("desktop.main_window defines no QMainWindow subclass")


def _quiet_window_options(cls) -> dict:
    """Keyword arguments that keep the window from opening the camera or the USB die reader."""
    import inspect

    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return {}
    wanted = {"camera": "off", "die_reader": False}
    return {k: v for k, v in wanted.items() if k in params}


def _qt_message_handler(mode, context, message) -> None:  # pragma: no cover - only on a fatal Qt error
    from PySide6.QtCore import QtMsgType

    if mode == QtMsgType.QtFatalMsg:
        _emit(False, "window", f"Qt stopped: {message.strip()}")
        _emit_hint("window")
        _print("self-test: stopped at the window check: Qt could not open a window")
        os._exit(1)


def check_window() -> str:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    previous = qInstallMessageHandler(_qt_message_handler)
    home = os.environ.get("GUMSHOE_HOME")
    scratch = tempfile.TemporaryDirectory(prefix="gumshoe-selftest-")
    os.environ["GUMSHOE_HOME"] = scratch.name  # the window lists saved games: never the family's own
    try:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        cls = find_main_window_class()
        try:
            from desktop.style import apply_style

            apply_style(app)
        except ImportError:
            pass
        window = cls(**_quiet_window_options(cls))
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)  # drawn, never seen
        window.show()
        app.processEvents()
        pixmap = window.grab()
        shown = window.isVisible() and not pixmap.isNull()
        window.close()
        window.deleteLater()
        app.processEvents()
        if not shown:
            raise CheckFailed(f"{cls.__name__} did not draw")
        return f"{cls.__module__}.{cls.__name__} opened and closed ({pixmap.width()}x{pixmap.height()}, Qt platform '{app.platformName()}')"
    finally:
        qInstallMessageHandler(previous)
        if home is None:
            os.environ.pop("GUMSHOE_HOME", None)
        else:
            os.environ["GUMSHOE_HOME"] = home
        try:
            scratch.cleanup()
        except OSError:
            pass


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("python", check_python),
    ("qt", check_qt),
    ("numpy", check_numpy),
    ("opencv", check_opencv),
    ("pillow", check_pillow),
    ("zxing-cpp", check_zxing),
    ("pyzbar", check_pyzbar),
    ("pyserial", check_serial),
    ("sqlite", check_sqlite),
    ("decks", check_decks),
    ("tag-registry", check_tag_registry),
    ("apriltag-library", check_apriltag_library),
    ("apriltag", check_apriltag),
    ("tag-reader-process", check_tag_reader_process),
    ("qr-zxing", check_qr_zxing),
    ("qr-pyzbar", check_qr_pyzbar),
    ("window", check_window),
]


_lines: list[str] = []  # everything printed, for the message box of a windowed app


def _print(line: str) -> None:
    _lines.append(line)
    if sys.stdout is not None:
        print(line, flush=True)


def _emit(ok: bool | None, name: str, text: str) -> None:
    """One line: ``ok`` (True), ``FAIL`` (False) or ``warn`` (None, an optional part)."""
    text = " ".join(str(text).split())  # one line, always
    _print(f"{'ok  ' if ok else 'FAIL' if ok is False else 'warn'} {name}: {text}")


def _still_works(name: str, passed: set[str]) -> str:
    """What still works without the optional part ``name``, judged on the checks that passed."""
    needs, words = OPTIONAL[name]
    missing = [n for n in needs if n not in passed]
    if missing:
        return f"Optional, but {', '.join(missing)} failed too (see above): QR codes may not be read at all"
    return words


def _emit_hint(name: str) -> None:
    hint = HINTS.get(name, {}).get("linux" if sys.platform.startswith("linux") else sys.platform)
    if hint:
        _print(f"     hint: {hint}")


def _show_in_window(failed: int) -> None:
    """A windowed app started without a console (Windows Start menu) shows the report in a box."""
    try:
        from PySide6.QtWidgets import QApplication, QMessageBox

        app = QApplication.instance() or QApplication(sys.argv[:1])
        box = QMessageBox(QMessageBox.Icon.Warning if failed else QMessageBox.Icon.Information,
                          "Gumshoe self-test", _lines[-1])
        box.setDetailedText("\n".join(_lines))
        box.exec()
        del app
    except Exception:  # noqa: BLE001 - Qt itself is what failed: nothing else can be shown
        pass


def run(checks: list[tuple[str, Callable[[], str]]] = CHECKS) -> int:
    """Runs every check (a failure does not stop the others); returns the number that failed.

    A check of an optional part (``OPTIONAL``) that does not pass is a warning: reported, with
    what still works, but not counted as failed.
    """
    failed: list[str] = []
    warned: list[str] = []
    passed: set[str] = set()
    start = time.perf_counter()
    for name, check in checks:
        try:
            detail = check()
        except CheckFailed as exc:
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - report it, keep checking
            if os.environ.get("GUMSHOE_SELFTEST_TRACEBACK") and sys.stderr is not None:
                traceback.print_exc()
            reason = f"{type(exc).__name__}: {exc}"
        else:
            _emit(True, name, detail)
            passed.add(name)
            continue
        if name in OPTIONAL:
            _emit(None, name, f"{reason.rstrip('.')}. {_still_works(name, passed)}.")
            warned.append(name)
        else:
            _emit(False, name, reason)
            failed.append(name)
        _emit_hint(name)
    seconds = time.perf_counter() - start
    warnings = (f"{len(warned)} warning{'s' if len(warned) > 1 else ''} (optional: {', '.join(warned)})"
                if warned else "")
    if failed:
        _print(f"self-test: {len(failed)} of {len(checks)} checks FAILED{', ' + warnings if warnings else ''} "
               f"({seconds:.1f} s)")
    elif warned:
        _print(f"self-test: ok, {len(checks) - len(warned)} of {len(checks)} checks ok and {warnings}: Gumshoe "
               f"works without them ({seconds:.1f} s)")
    else:
        _print(f"self-test: all {len(checks)} checks ok ({seconds:.1f} s)")
    return len(failed)


def main() -> int:
    """Entry point for `gumshoe --self-test`: exit status 1 when a check failed, else 0 (warnings
    about optional parts included)."""
    failed = run(CHECKS)
    report = os.environ.get("GUMSHOE_SELFTEST_REPORT")  # also to a file: CI runs the windowed Windows app
    if report:
        Path(report).write_text("\n".join(_lines) + "\n", encoding="utf-8")
    if sys.stdout is None and not report:
        _show_in_window(failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
