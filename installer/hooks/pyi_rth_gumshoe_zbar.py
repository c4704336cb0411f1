"""PyInstaller runtime hook: make pyzbar load the zbar library shipped inside the bundle.

pyzbar finds libzbar only through the system search path (`ctypes.util.find_library`) on
Linux and macOS, and through the current directory first on Windows. In the frozen app we
replace `pyzbar.zbar_library.load` by one that loads the bundled copy by absolute path:

* Linux:   <bundle>/libzbar.so.0 (collected by installer/gumshoe.spec from the build machine)
* macOS:   <bundle>/libzbar.0.dylib (from Homebrew's zbar, its own dependencies beside it)
* Windows: <bundle>/pyzbar/libzbar-64.dll + libiconv.dll (shipped in pyzbar's wheel; they need
           the Visual C++ 2013 runtime, msvcr120.dll, which the spec bundles when the build
           machine has it; see docs/install.md)

If the bundled copy is missing, the system's is used as a fallback (and `--self-test` reports
"loaded from outside the app bundle"), unless GUMSHOE_ZBAR_BUNDLED_ONLY=1, which the CI build
sets to prove the bundle is complete: then the system copy is never looked for.
"""

import glob
import os
import re
import sys


def _bundled_zbar():
    """(dependencies to load first, the libzbar path) inside the bundle, or None."""
    base = getattr(sys, "_MEIPASS", None) or os.path.dirname(sys.executable)
    if sys.platform == "win32":
        folder = os.path.join(base, "pyzbar")
        bits = "64" if sys.maxsize > 2**32 else "32"
        main = os.path.join(folder, f"libzbar-{bits}.dll")
        # The VC++ 2013 runtime first (bundled by the spec when the build machine has it), so
        # libzbar's dependency on msvcr120.dll resolves to the copy inside the bundle.
        deps = [os.path.join(base, "msvcr120.dll"), os.path.join(base, "msvcp120.dll"),
                os.path.join(folder, "libiconv.dll" if bits == "64" else "libiconv-2.dll")]
        return (deps, main) if os.path.isfile(main) else None
    name = re.compile(r"libzbar(\.\d+)*\.dylib$" if sys.platform == "darwin" else r"libzbar\.so(\.\d+)*$")
    found = sorted(p for p in glob.glob(os.path.join(base, "libzbar*")) if name.match(os.path.basename(p)))
    return ([], found[0]) if found else None


def _install():
    try:
        import pyzbar.zbar_library as zbar_library
    except ImportError:  # pyzbar not bundled: nothing to do
        return
    system_load = zbar_library.load
    strict = os.environ.get("GUMSHOE_ZBAR_BUNDLED_ONLY") == "1"

    def load():
        from ctypes import cdll

        bundled = _bundled_zbar()
        if bundled is not None:
            deps, main = bundled
            loaded_deps = [cdll.LoadLibrary(d) for d in deps if os.path.isfile(d)]
            return cdll.LoadLibrary(main), loaded_deps
        if strict:
            raise ImportError("the zbar library is not inside the app bundle "
                              "(GUMSHOE_ZBAR_BUNDLED_ONLY=1: the system copy is not used)")
        return system_load()

    zbar_library.load = load


_install()
