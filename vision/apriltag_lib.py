"""The reference AprilTag C library (AprilRobotics apriltag 3, BSD), as shipped in the pupil-apriltags wheel.

pupil-apriltags' own Python class can hold only one tag family per detector (its family
selection is an if/elif chain) and truncates `decode_sharpening` to an integer, so vision
talks to the same shared library directly through ctypes: one detector with several families
(one quad search, each quad decoded against every family), the quad-threshold knobs, and
`apriltag_to_image` to draw any family's codewords for printing.

>>> lib = AprilTagLibrary.get()
>>> det = LibDetector(families={"tag36h11": 0}, quad_decimate=1.0)
>>> modules = lib.tag_image("tag36h11", 14)          # 10x10, white quiet ring included
>>> img = np.pad(np.kron(modules, np.ones((12, 12), np.uint8)), 30, constant_values=255)
>>> [(t.family, t.tag_id, t.hamming) for t in det.detect(img)]
[('tag36h11', 14, 0)]
"""

from __future__ import annotations

import ctypes
import platform
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np

# Families the wheel's library provides, with their size (number of codewords).
FAMILY_SIZES = {"tag36h11": 587, "tagStandard41h12": 2115, "tagStandard52h13": 48714}


class AprilTagLibraryError(RuntimeError):
    """The AprilTag C library (pupil-apriltags wheel) is missing or unusable."""


class _ImageU8(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("stride", ctypes.c_int),
                ("buf", ctypes.POINTER(ctypes.c_uint8))]


class _Matd(ctypes.Structure):
    _fields_ = [("nrows", ctypes.c_int), ("ncols", ctypes.c_int), ("data", ctypes.c_double * 1)]


class _ZArray(ctypes.Structure):
    _fields_ = [("el_sz", ctypes.c_size_t), ("size", ctypes.c_int), ("alloc", ctypes.c_int),
                ("data", ctypes.c_void_p)]


class _Family(ctypes.Structure):
    _fields_ = [("ncodes", ctypes.c_uint32), ("codes", ctypes.POINTER(ctypes.c_uint64)),
                ("width_at_border", ctypes.c_int), ("total_width", ctypes.c_int),
                ("reversed_border", ctypes.c_bool), ("nbits", ctypes.c_uint32),
                ("bit_x", ctypes.POINTER(ctypes.c_uint32)), ("bit_y", ctypes.POINTER(ctypes.c_uint32)),
                ("h", ctypes.c_int32), ("name", ctypes.c_char_p)]


class _Detection(ctypes.Structure):
    _fields_ = [("family", ctypes.POINTER(_Family)), ("id", ctypes.c_int), ("hamming", ctypes.c_int),
                ("decision_margin", ctypes.c_float), ("H", ctypes.POINTER(_Matd)),
                ("c", ctypes.c_double * 2), ("p", (ctypes.c_double * 2) * 4)]


class _QuadThreshParams(ctypes.Structure):
    _fields_ = [("min_cluster_pixels", ctypes.c_int), ("max_nmaxima", ctypes.c_int),
                ("critical_rad", ctypes.c_float), ("cos_critical_rad", ctypes.c_float),
                ("max_line_fit_mse", ctypes.c_float), ("min_white_black_diff", ctypes.c_int),
                ("deglitch", ctypes.c_int)]


class _Detector(ctypes.Structure):
    # The leading fields of struct apriltag_detector (apriltag 3.1, the version in the wheel).
    _fields_ = [("nthreads", ctypes.c_int), ("quad_decimate", ctypes.c_float), ("quad_sigma", ctypes.c_float),
                ("refine_edges", ctypes.c_int), ("decode_sharpening", ctypes.c_double), ("debug", ctypes.c_int),
                ("qtp", _QuadThreshParams)]


def _library_path() -> Path:
    try:
        import pupil_apriltags
    except ImportError as exc:
        raise AprilTagLibraryError(f"pupil-apriltags is not installed: {exc}") from None
    pattern = {"Darwin": "libapriltag*.dylib", "Windows": "*apriltag*.dll"}.get(platform.system(), "libapriltag*.so*")
    base = Path(pupil_apriltags.__file__).parent
    for sub in ("lib", "lib64"):
        hits = sorted((base / sub).glob(pattern))
        if hits:
            return hits[0]
    raise AprilTagLibraryError(f"no AprilTag library ({pattern}) inside {base}")


class AprilTagLibrary:
    """The loaded shared library and its tag families (created once per process)."""

    _instance: "AprilTagLibrary | None" = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        path = _library_path()
        if platform.system() == "Windows":  # its pthreads DLL lies beside it
            import os

            os.add_dll_directory(str(path.parent))
        self.c = ctypes.CDLL(str(path))
        c = self.c
        c.apriltag_detector_create.restype = ctypes.POINTER(_Detector)
        c.apriltag_detector_add_family_bits.restype = None
        c.apriltag_detector_add_family_bits.argtypes = [ctypes.POINTER(_Detector), ctypes.POINTER(_Family), ctypes.c_int]
        c.apriltag_detector_detect.restype = ctypes.POINTER(_ZArray)
        c.apriltag_detector_detect.argtypes = [ctypes.POINTER(_Detector), ctypes.POINTER(_ImageU8)]
        c.apriltag_detections_destroy.restype = None
        c.apriltag_detections_destroy.argtypes = [ctypes.POINTER(_ZArray)]
        c.apriltag_detector_destroy.restype = None
        c.apriltag_detector_destroy.argtypes = [ctypes.POINTER(_Detector)]
        c.apriltag_to_image.restype = ctypes.POINTER(_ImageU8)
        c.apriltag_to_image.argtypes = [ctypes.POINTER(_Family), ctypes.c_int]
        c.image_u8_destroy.restype = None
        c.image_u8_destroy.argtypes = [ctypes.POINTER(_ImageU8)]
        self._families: dict[str, ctypes._Pointer] = {}

    @classmethod
    def get(cls) -> "AprilTagLibrary":
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def family(self, name: str) -> "ctypes._Pointer":
        """The C family struct (created once, kept for the life of the process)."""
        if name not in FAMILY_SIZES:
            raise ValueError(f"unsupported tag family {name!r} (known: {', '.join(FAMILY_SIZES)})")
        if name not in self._families:
            self._families[name] = self.new_family(name)  # read-only use: codes and bit layout
        return self._families[name]

    def new_family(self, name: str) -> "ctypes._Pointer":
        """A fresh C family struct, for one detector (free it with destroy_family)."""
        if name not in FAMILY_SIZES:
            raise ValueError(f"unsupported tag family {name!r} (known: {', '.join(FAMILY_SIZES)})")
        create = getattr(self.c, f"{name}_create")
        create.restype = ctypes.POINTER(_Family)
        return create()

    def destroy_family(self, name: str, fam: "ctypes._Pointer") -> None:
        destroy = getattr(self.c, f"{name}_destroy")
        destroy.restype = None
        destroy(fam)

    def tag_image(self, family: str, tag_id: int) -> np.ndarray:
        """Modules of one tag as uint8 (0 black, 255 white), as the library draws it.

        tag36h11: 10x10 (the white quiet ring, the black ring, 6x6 data);
        tagStandard41h12: 9x9 (data cells outside and inside a black ring; the outermost ring is data).
        """
        return _tag_image(self, family, int(tag_id)).copy()


@lru_cache(maxsize=4096)
def _tag_image(lib: AprilTagLibrary, family: str, tag_id: int) -> np.ndarray:
    # Drawn from the family's codewords and bit layout as apriltag_to_image() does (that C function
    # in the wheel's library version misplaces the white ring of tag36h11).
    fam = lib.family(family).contents
    if not 0 <= tag_id < fam.ncodes:
        raise ValueError(f"{family} has no tag {tag_id} (0..{fam.ncodes - 1})")
    total, at_border = fam.total_width, fam.width_at_border
    out = np.zeros((total, total), np.uint8)
    white = at_border + (0 if fam.reversed_border else 2)
    s = (total - white) // 2
    out[s, s:s + white] = out[s + white - 1, s:s + white] = 255  # the one-cell white ring
    out[s:s + white, s] = out[s:s + white, s + white - 1] = 255
    start = (total - at_border) // 2
    code, nbits = int(fam.codes[tag_id]), fam.nbits
    for i in range(nbits):
        if code >> (nbits - 1 - i) & 1:
            x = ctypes.c_int32(fam.bit_x[i]).value  # stored unsigned; may be negative (outside the border)
            y = ctypes.c_int32(fam.bit_y[i]).value
            out[y + start, x + start] = 255
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class LibTag:
    """One tag decoded by the C library."""

    family: str
    tag_id: int
    hamming: int
    margin: float  # the library's decision margin (grey levels; real tags ~30-150, phantoms < 10)
    corners: np.ndarray  # 4x2 float32, in OpenCV ArucoDetector order (tag's top-left first, clockwise)


class LibDetector:
    """One apriltag_detector with several families; not shared between threads.

    `families` maps family name -> error bits the library may correct (0 keeps its lookup
    table small; our policy accepts only exact codewords anyway).
    """

    def __init__(self, families: Mapping[str, int] = {"tag36h11": 0}, quad_decimate: float = 2.0,
                 quad_sigma: float = 0.0, refine_edges: bool = True, decode_sharpening: float = 0.25,
                 min_white_black_diff: int = 5, max_line_fit_mse: float = 10.0) -> None:
        self.lib = AprilTagLibrary.get()
        c = self.lib.c
        self._ptr = c.apriltag_detector_create()
        # Each detector owns its family structs: the library keeps a decode table inside the family
        # and frees it when a detector using it is destroyed, so sharing one would leave a dangling table.
        self._families = []
        for name, bits in families.items():
            fam = self.lib.new_family(name)
            self._families.append((name, fam))
            c.apriltag_detector_add_family_bits(self._ptr, fam, int(bits))
        d = self._ptr.contents
        q = d.qtp
        if (q.max_nmaxima, q.max_line_fit_mse, q.min_white_black_diff) != (10, 10.0, 5):
            # Not the struct layout this binding was written for (another library version): refuse
            # rather than write knobs into the wrong fields.
            c.apriltag_detector_destroy(self._ptr)
            self._ptr = None
            raise AprilTagLibraryError("unexpected apriltag_detector layout in the AprilTag library "
                                       f"(defaults read {q.max_nmaxima}, {q.max_line_fit_mse}, {q.min_white_black_diff})")
        d.nthreads = 1
        d.quad_sigma = float(quad_sigma)
        d.refine_edges = int(bool(refine_edges))
        d.decode_sharpening = float(decode_sharpening)
        d.qtp.min_white_black_diff = int(min_white_black_diff)
        d.qtp.max_line_fit_mse = float(max_line_fit_mse)
        self.quad_decimate = quad_decimate
        self._img = None

    @property
    def quad_decimate(self) -> float:
        return float(self._ptr.contents.quad_decimate)

    @quad_decimate.setter
    def quad_decimate(self, value: float) -> None:
        value = float(value)
        if not 1.0 <= value <= 64.0:  # NaN included
            raise ValueError(f"quad_decimate must be between 1 and 64, not {value}")
        self._ptr.contents.quad_decimate = value

    def __del__(self) -> None:
        ptr = getattr(self, "_ptr", None)
        if ptr is not None:
            self.lib.c.apriltag_detector_destroy(ptr)
            self._ptr = None
            for name, fam in self._families:
                self.lib.destroy_family(name, fam)

    def detect(self, gray: np.ndarray, region: tuple[int, int, int, int] | None = None) -> list[LibTag]:
        """Every tag in an 8-bit grey image, or in the `region` (x0, y0, x1, y1) of it.

        The region is clipped to the image and the corners are given in the whole image's
        coordinates. Whatever is asked, the library is only handed an image it can read
        (`library_image`): a region or image too small for the current decimation reads nothing.
        """
        gray = checked_gray(gray)
        h, w = gray.shape
        x0, y0, x1, y1 = (0, 0, w, h) if region is None else clip_region(region, w, h)
        crop = library_image(gray[y0:y1, x0:x1], self.quad_decimate)
        if crop is None:
            return []
        ch, cw = crop.shape
        img = _ImageU8(cw, ch, crop.strides[0], crop.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)))
        zs = self.lib.c.apriltag_detector_detect(self._ptr, ctypes.byref(img))
        out: list[LibTag] = []
        if not zs:
            return out
        try:
            z = zs.contents
            ptrs = (ctypes.POINTER(_Detection) * z.size).from_address(z.data) if z.size > 0 and z.data else ()
            for p in ptrs:
                t = p.contents
                pts = np.array(t.p, np.float64)
                if not np.isfinite(pts).all():
                    continue  # a degenerate quad: no outline to hand on
                # The library lists corners counter-clockwise from the tag's bottom-left (image y down);
                # OpenCV's order is top-left, top-right, bottom-right, bottom-left.
                corners = pts[[3, 2, 1, 0]].astype(np.float32) + np.float32((x0, y0))
                out.append(LibTag(t.family.contents.name.decode(), int(t.id), int(t.hamming),
                                  float(t.decision_margin), corners))
        finally:
            self.lib.c.apriltag_detections_destroy(zs)
        return out


# The C library reads past its buffers or divides by zero on an image that is too small once it
# is decimated (measured with tests/robustness/test_vision_native.py's probe: fewer than 3 rows
# after decimation, or no column, crash it). No tag with its quiet ring fits in fewer than
# ~10 px anyway, so anything under this many pixels a side (after decimation) is not handed over.
MIN_LIBRARY_SIDE = 8
# Larger than any camera frame; the library indexes pixels with C ints.
MAX_LIBRARY_SIDE = 16384


def checked_gray(gray: np.ndarray) -> np.ndarray:
    """`gray` as a 2-D uint8 array, or a ValueError that says what is wrong with it."""
    if not isinstance(gray, np.ndarray):
        raise ValueError(f"an image must be a numpy array, not {type(gray).__name__}")
    if gray.ndim != 2:
        raise ValueError(f"the AprilTag library reads a grey image (2-D); this one has shape {gray.shape}")
    if gray.dtype != np.uint8:
        raise ValueError(f"the AprilTag library reads 8-bit images (uint8); this one is {gray.dtype}")
    return gray


def clip_region(region: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) clipped to a w x h image; an empty region (x1 <= x0) when it lies outside."""
    x0, y0, x1, y1 = (int(v) for v in region)
    x0, x1 = min(max(x0, 0), w), min(max(x1, 0), w)
    y0, y1 = min(max(y0, 0), h), min(max(y1, 0), h)
    return x0, y0, max(x0, x1), max(y0, y1)


def library_image(gray: np.ndarray, quad_decimate: float) -> np.ndarray | None:
    """The pixels exactly as the library may be handed them (C-contiguous 2-D uint8, within the
    sizes it reads), or None when it is too small to hold a tag at this decimation."""
    gray = checked_gray(gray)
    h, w = gray.shape
    if max(h, w) > MAX_LIBRARY_SIDE:
        raise ValueError(f"an image of {w}x{h} is larger than the AprilTag library reads "
                         f"({MAX_LIBRARY_SIDE} px a side)")
    if min(h, w) < MIN_LIBRARY_SIDE * max(1.0, float(quad_decimate)):
        return None
    return np.ascontiguousarray(gray)
