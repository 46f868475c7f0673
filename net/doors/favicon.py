"""The web page's icon (``/favicon.ico``): a cat's head, drawn here as a PNG.

A browser asks every site for ``/favicon.ico`` unless its page names an icon, and the
web door answered 404: an error in the browser's console and in every log that counts
them (issue 36, item 10). The icon is made from the picture below at import, so no
binary file has to be shipped or kept in step with it; PNG is what every browser
takes at that address (the ``.ico`` name is only the address).
"""

from __future__ import annotations

import struct
import zlib
from typing import Final

CAT: Final = (
    "................",
    ".##..........##.",
    ".###........###.",
    ".####......####.",
    ".##############.",
    ".##############.",
    ".###..####..###.",
    ".###..####..###.",
    ".##############.",
    ".######..######.",
    ".##############.",
    "..############..",
    "...##########...",
    "....########....",
    "................",
    "................",
)
"""The head, a pixel a character: ``#`` the cat, ``.`` clear (the eyes and nose too)."""
COLOUR: Final = (0xF0, 0xA0, 0x30)
"""The cat's orange: the dialogs' accent, bright on a light tab bar and a dark one."""
SCALE: Final = 2
"""Each pixel of the picture is this many on a side: 32x32, sharp on a phone's screen."""


def favicon_png(picture: tuple[str, ...] = CAT, scale: int = SCALE) -> bytes:
    """``picture`` as a PNG (8-bit RGBA, each character ``scale`` pixels on a side)."""
    red, green, blue = COLOUR
    rows = []
    for line in picture:
        pixels = b"".join(
            bytes((red, green, blue, 255)) if char == "#" else bytes(4)
            for char in line
            for _ in range(scale)
        )
        rows.extend([b"\0" + pixels] * scale)  # each row: filter "none", then its pixels
    width, height = len(picture[0]) * scale, len(picture) * scale
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


FAVICON: Final = favicon_png()
