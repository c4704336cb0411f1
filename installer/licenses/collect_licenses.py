"""Collects the licence texts of everything shipped in the frozen app into one folder.

The PyInstaller spec calls `collect(out_dir, binaries)` after its analysis, with the exact list
of native libraries being bundled, and ships `out_dir` as `licenses/` in the bundle:

* Python distributions: Gumshoe's runtime dependencies (recursively) and PyInstaller's
  bootloader: the licence files listed in each distribution's metadata, or a text from
  `texts/` for the wheels that carry none (PySide6/shiboken6: LGPL-3.0, pyserial: BSD-3-Clause).
* Python itself: the interpreter's LICENSE.txt.
* Native libraries that did not come from a wheel (zbar and what it needs):
  Debian/Ubuntu: the owning package's /usr/share/doc/<package>/copyright (found with dpkg -S);
  Homebrew: LICENSE/COPYING files of the keg; Windows (pyzbar's DLLs): LGPL-2.1 for zbar and
  libiconv. Libraries that came with a wheel are covered by that wheel's licence files.

`THIRD-PARTY-NOTICES.txt` lists every component, its licence and where its text is.

Standalone: `python installer/licenses/collect_licenses.py OUT_DIR` (Python side + zbar).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXTS = HERE / "texts"
APP_DIST = "gumshoe-referee"
EXTRA_DISTS = ["pyinstaller"]  # its bootloader is inside every frozen app (GPL-2.0+ with a bundling exception)
LICENSE_FILE = re.compile(r"(^|/)(LICEN[CS]E|COPYING|NOTICE|AUTHORS|COPYRIGHT)[^/]*$", re.I)

# Wheels without licence files: (licence, copyright line, text files from texts/, note)
FALLBACKS = {
    "pyside6-essentials": ("LGPL-3.0-only", "Copyright (C) The Qt Company Ltd.",
                           ["LGPL-3.0.txt", "GPL-3.0.txt"],
                           "PySide6 and the Qt 6 libraries it ships are used under the LGPL-3.0. They are "
                           "dynamically linked and can be replaced in the app folder. Qt sources: "
                           "https://download.qt.io/official_releases/qt/ ; PySide6 sources: "
                           "https://download.qt.io/official_releases/QtForPython/"),
    "shiboken6": ("LGPL-3.0-only", "Copyright (C) The Qt Company Ltd.", ["LGPL-3.0.txt", "GPL-3.0.txt"],
                  "Sources: https://download.qt.io/official_releases/QtForPython/"),
    "pyserial": ("BSD-3-Clause", "Copyright (c) 2001-2020 Chris Liechti <cliechti@gmx.net>", ["BSD-3-Clause.txt"],
                 "https://github.com/pyserial/pyserial"),
}

WINDOWS_NATIVE = {  # pyzbar's wheel ships these DLLs but only pyzbar's own MIT licence
    "libzbar": ("zbar", "LGPL-2.1-or-later", "Copyright (C) 2007-2010 Jeff Brown and the zbar contributors",
                "Sources: https://github.com/mchehab/zbar"),
    "libiconv": ("libiconv", "LGPL-2.1-or-later", "Copyright (C) Free Software Foundation, Inc.",
                 "Sources: https://ftp.gnu.org/pub/gnu/libiconv/"),
}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_distributions(root: str = APP_DIST) -> list[str]:
    """`root` and everything it needs at run time (extras and markers that do not apply are skipped)."""
    from packaging.requirements import Requirement  # shipped with pip/setuptools/PyInstaller

    seen: dict[str, str] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        try:
            dist = distribution(name)
        except PackageNotFoundError:
            continue
        key = _norm(dist.metadata["Name"])
        if key in seen:
            continue
        seen[key] = dist.metadata["Name"]
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            todo.append(req.name)
    return sorted(seen.values(), key=str.lower)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _copy_dist(name: str, out: Path) -> tuple[str, str, list[str]]:
    dist = distribution(name)
    meta = dist.metadata
    licence = meta.get("License-Expression") or ((meta.get("License") or "").strip().splitlines() or ["see files"])[0]
    folder = out / f"{_norm(meta['Name'])}-{dist.version}"
    copied = []
    for f in dist.files or []:
        if LICENSE_FILE.search(str(f)) and not str(f).endswith((".py", ".pyc")):
            src = Path(dist.locate_file(f))
            if src.is_file():
                dest = folder / str(f).replace("/", "__")
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest)
                copied.append(dest.name)
    fallback = FALLBACKS.get(_norm(meta["Name"]))
    if not copied and fallback:
        licence, copyright_line, texts, note = fallback
        _write(folder / "NOTICE.txt", f"{meta['Name']} {dist.version}\n{copyright_line}\nLicence: {licence}\n{note}\n")
        copied.append("NOTICE.txt")
        for t in texts:
            shutil.copyfile(TEXTS / t, folder / t)
            copied.append(t)
    if not copied:
        _write(folder / "NOTICE.txt", f"{meta['Name']} {dist.version}\nLicence (from its metadata): {licence}\n"
                                      f"Home page: {meta.get('Home-page') or meta.get('Project-URL') or '?'}\n")
        copied.append("NOTICE.txt")
    return f"{meta['Name']} {dist.version}", licence, [f"{folder.name}/{c}" for c in copied]


def _python_licence(out: Path) -> tuple[str, str, list[str]]:
    candidates = [Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt", Path(sys.base_prefix) / "LICENSE.txt",
                  Path(sys.base_prefix) / "LICENSE"]
    version = ".".join(map(str, sys.version_info[:3]))
    folder = out / f"python-{version}"
    for c in candidates:
        if c.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(c, folder / "LICENSE.txt")
            return f"Python {version}", "PSF-2.0", [f"{folder.name}/LICENSE.txt"]
    _write(folder / "NOTICE.txt", "Python is distributed under the PSF License Agreement: https://docs.python.org/3/license.html\n")
    return f"Python {version}", "PSF-2.0", [f"{folder.name}/NOTICE.txt"]


def _dpkg_owner(path: str) -> str | None:
    if not shutil.which("dpkg"):
        return None
    for candidate in {path, str(Path(path).resolve())}:
        for variant in {candidate, candidate.replace("/usr/lib/", "/lib/", 1), candidate.replace("/lib/", "/usr/lib/", 1)}:
            r = subprocess.run(["dpkg", "-S", variant], capture_output=True, text=True)
            if r.returncode == 0 and ":" in r.stdout:
                return r.stdout.split(":", 1)[0].strip()
    return None


def _native_licence(name: str, src: str, out: Path) -> tuple[str, str, list[str]] | None:
    """Licence of a native library that did not come from a wheel; None if a wheel covers it."""
    if "site-packages" in src or "dist-packages" in src:
        base = Path(name).name.lower()
        if sys.platform == "win32" or name.lower().startswith("pyzbar"):
            for key, (component, licence, copyright_line, note) in WINDOWS_NATIVE.items():
                if base.startswith(key):
                    folder = out / component
                    _write(folder / "NOTICE.txt", f"{component} ({Path(name).name}, shipped in pyzbar's wheel)\n"
                                                  f"{copyright_line}\nLicence: {licence}\n{note}\n")
                    shutil.copyfile(TEXTS / "LGPL-2.1.txt", folder / "LGPL-2.1.txt")
                    return component, licence, [f"{component}/NOTICE.txt", f"{component}/LGPL-2.1.txt"]
        return None
    package = _dpkg_owner(src)
    if package:
        pkg = package.split(":")[0]
        copyright_file = Path("/usr/share/doc") / pkg / "copyright"
        if copyright_file.is_file():
            dest = out / "system" / f"{pkg}.copyright.txt"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(copyright_file, dest)
            return f"{pkg} (Debian package, {Path(name).name})", "see file", [f"system/{dest.name}"]
    real = Path(src).resolve()
    if "Cellar" in real.parts:  # Homebrew keg: <prefix>/Cellar/<formula>/<version>/lib/...
        i = real.parts.index("Cellar")
        keg = Path(*real.parts[: i + 3])
        files = [f for f in keg.iterdir() if f.is_file() and LICENSE_FILE.search(f.name)]
        if files:
            folder = out / "homebrew" / f"{real.parts[i + 1]}-{real.parts[i + 2]}"
            folder.mkdir(parents=True, exist_ok=True)
            for f in files:
                shutil.copyfile(f, folder / f.name)
            return f"{real.parts[i + 1]} {real.parts[i + 2]} (Homebrew)", "see files", [
                f"homebrew/{folder.name}/{f.name}" for f in files]
    if Path(name).name.lower().startswith("libzbar"):
        folder = out / "zbar"
        _write(folder / "NOTICE.txt", "zbar\nCopyright (C) 2007-2010 Jeff Brown and the zbar contributors\n"
                                      "Licence: LGPL-2.1-or-later\nSources: https://github.com/mchehab/zbar\n")
        shutil.copyfile(TEXTS / "LGPL-2.1.txt", folder / "LGPL-2.1.txt")
        return "zbar", "LGPL-2.1-or-later", ["zbar/NOTICE.txt", "zbar/LGPL-2.1.txt"]
    return f"{Path(name).name} (from {src})", "unknown: licence text not found", []


def collect(out_dir: Path | str, binaries: list[tuple[str, str]] | None = None) -> list[tuple[str, str, list[str]]]:
    """Writes every licence text into `out_dir`; `binaries`: (name in bundle, source path) pairs."""
    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    rows = [_python_licence(out)]
    for name in runtime_distributions() + EXTRA_DISTS:
        try:
            rows.append(_copy_dist(name, out))
        except PackageNotFoundError:
            continue
    if binaries is None:
        import ctypes.util

        found = ctypes.util.find_library("zbar")
        binaries = [(Path(found).name, found)] if found else []
    seen = set()
    for name, src in binaries:
        row = _native_licence(name, src, out)
        if row and row[0] not in seen:
            seen.add(row[0])
            rows.append(row)
    lines = ["Gumshoe ships with the following third-party components. Each one's licence text is",
             "in the file(s) named below, relative to this folder.", ""]
    for component, licence, files in rows:
        lines.append(f"{component}\n    licence: {licence}\n    text: {', '.join(files) or '-'}\n")
    _write(out / "THIRD-PARTY-NOTICES.txt", "\n".join(lines))
    return rows


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: collect_licenses.py OUT_DIR")
    for component, licence, files in collect(sys.argv[1]):
        print(f"{component:45s} {licence:35s} {len(files)} file(s)")
