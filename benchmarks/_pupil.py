"""pupil-apriltags as a baseline reader, freed in the right order.

Its ``Detector.__del__`` destroys the tag families before the detector, whose own destroy then
reads the freed families: a use-after-free that kills the process at exit on some runs (seen as
SIGSEGV after vision_realphotos.py had printed its table). ``detector`` frees them the other way
round when the process ends, and leaves nothing for that ``__del__`` to do.
"""

from __future__ import annotations

import atexit


def detector(**kwargs):
    """A ``pupil_apriltags.Detector`` that is freed safely (raises ImportError without the package)."""
    import pupil_apriltags

    det = pupil_apriltags.Detector(**kwargs)
    atexit.register(_free, det)
    return det


def _free(det) -> None:
    ptr = det.tag_detector_ptr
    if ptr is None:
        return
    det.tag_detector_ptr = None          # its __del__ now does nothing
    det.libc.apriltag_detector_destroy.restype = None
    det.libc.apriltag_detector_destroy(ptr)   # frees the detector's tables of each family first
    for family, tf in det.tag_families.items():
        destroy = getattr(det.libc, f"{family}_destroy")
        destroy.restype = None
        destroy(tf)
