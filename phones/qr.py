"""QR codes of the players' links, made by zxing-cpp (already shipped to read QR tags; docs/phones.md
says why it was chosen over segno).

>>> modules = qr_modules("http://192.168.1.20:8000/p/abc/")
>>> modules.shape[0] == modules.shape[1] >= 21, modules.dtype
(True, dtype('bool'))
"""

from __future__ import annotations

import numpy as np
import zxingcpp


def qr_modules(text: str) -> np.ndarray:
    """The QR code of ``text``: a square boolean array, True for a dark module, without the quiet
    zone (the screen draws its own white margin)."""
    if hasattr(zxingcpp, "create_barcode"):           # zxing-cpp 3.x
        barcode = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
        image = np.asarray(barcode.to_image(scale=1, add_quiet_zones=False))
    else:                                             # zxing-cpp 2.x
        image = np.asarray(zxingcpp.write_barcode(zxingcpp.BarcodeFormat.QRCode, text, width=0, height=0,
                                                  quiet_zone=0))
    return image < 128
