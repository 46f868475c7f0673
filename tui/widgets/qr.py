"""A QR code of the host's web address, drawn with text, for a phone's camera.

Two rows of modules go in one line of text (the half blocks ``▀ ▄ █``), so the
code of ``http://198.18.0.1:8080/`` (version 2: 25 modules, and a border of
2) takes 29 columns and 15 lines: it fits beside the waiting room's text at
80x24. A camera wants dark modules on a light ground; a terminal's ground is
mostly dark, so the drawing paints both explicitly (black on white) where it
may use colours: in the client (:func:`qr_text`) and in the host's log on a
terminal (:func:`qr_ansi_lines`, colour codes around each line: it scans on a
light terminal as on a dark one). Only plain text without colours
(:func:`qr_lines`: ``NO_COLOR``, or ``--qr`` into a file) draws the *light*
modules in ink, which reads right on the dark terminals that show logs.

segno (the well-kept pure-Python QR library) comes with the ``web`` extra;
without it there is no drawing and the address is shown as text alone.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

BORDER = 2
"""Light modules around the code (the standard asks 4; phones read 2 well, and it saves
rows at 80x24)."""

_DARK = Style(color="black", bgcolor="white")
"""Ink (the top half) black, ground (the bottom half) white: ``▀`` is dark over light."""


def qr_modules(data: str) -> list[list[bool]] | None:
    """The code's modules with the border, ``True`` for dark; ``None`` without segno."""
    try:
        import segno
    except ModuleNotFoundError:
        return None
    code = segno.make(data, error="l", boost_error=False, micro=False)
    return [[bool(module) for module in row] for row in code.matrix_iter(border=BORDER)]


def _pairs(modules: list[list[bool]]) -> list[list[tuple[bool, bool]]]:
    """Each text line's cells: (top dark, bottom dark); an odd last row pairs with light."""
    rows = [*modules, [False] * len(modules[0])] if len(modules) % 2 else modules
    return [list(zip(rows[i], rows[i + 1], strict=True)) for i in range(0, len(rows), 2)]


def qr_lines(data: str) -> list[str] | None:
    """The code as plain text for a dark terminal (light modules in ink); ``None`` without
    segno."""
    modules = qr_modules(data)
    if modules is None:
        return None
    glyphs = {(True, True): " ", (True, False): "▄", (False, True): "▀", (False, False): "█"}
    return ["".join(glyphs[cell] for cell in line) for line in _pairs(modules)]


BLACK_ON_WHITE = "\x1b[30;47m"
"""ANSI: black ink on a white ground (the terminal's own colours do not matter)."""
RESET = "\x1b[0m"


def qr_ansi_lines(data: str) -> list[str] | None:
    """The code in black on white with ANSI colour codes, one string per line, for a
    terminal of any background (the host's log: issue 36, item 11 found its plain drawing
    unreadable to a phone on a light terminal); ``None`` without segno."""
    modules = qr_modules(data)
    if modules is None:
        return None
    glyphs = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    return [
        BLACK_ON_WHITE + "".join(glyphs[cell] for cell in line) + RESET for line in _pairs(modules)
    ]


def qr_text(data: str) -> Text | None:
    """The code in black on white whatever the terminal's colours; ``None`` without segno."""
    modules = qr_modules(data)
    if modules is None:
        return None
    text = Text(no_wrap=True, overflow="crop")
    for index, line in enumerate(_pairs(modules)):
        if index:
            text.append("\n")
        for top, bottom in line:
            if top == bottom:
                text.append("█", Style(color="black" if top else "white"))
            else:
                text.append("▀" if top else "▄", _DARK)
    return text


def qr_size(data: str) -> tuple[int, int] | None:
    """Columns and lines the drawing of ``data`` takes (``None`` without segno)."""
    modules = qr_modules(data)
    if modules is None:
        return None
    return len(modules[0]), (len(modules) + 1) // 2
