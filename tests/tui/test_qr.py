"""The QR code of a host's web address (issue 36, item 11): the host's log on a terminal
draws it black on white with colour codes, so a phone reads it on a light terminal as on
a dark one; plain text (no colours) keeps the drawing for dark terminals."""

from __future__ import annotations

import io
import re

import pytest

pytest.importorskip("segno")

from net.core.host import Doors
from tui.commands import host as host_command
from tui.commands.host_log import HostLog
from tui.widgets.qr import BLACK_ON_WHITE, RESET, _pairs, qr_ansi_lines, qr_lines, qr_modules

URL = "http://198.18.0.1:8080/"
CODES = re.compile(r"\x1b\[[0-9;]*m")


def dark_cells(line: str, ink_is_dark: bool) -> list[tuple[bool, bool]]:
    """Each cell's (top dark, bottom dark), reading ink as dark or as light."""
    ink = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    cells = [ink[glyph] for glyph in CODES.sub("", line)]
    return cells if ink_is_dark else [(not top, not bottom) for top, bottom in cells]


def test_the_coloured_drawing_is_the_code_in_black_ink_on_white() -> None:
    modules = qr_modules(URL)
    lines = qr_ansi_lines(URL)
    assert modules is not None and lines is not None
    assert all(line.startswith(BLACK_ON_WHITE) and line.endswith(RESET) for line in lines)
    assert [dark_cells(line, ink_is_dark=True) for line in lines] == _pairs(modules)


def test_the_plain_drawing_is_the_same_code_with_light_ink() -> None:
    modules = qr_modules(URL)
    lines = qr_lines(URL)
    assert modules is not None and lines is not None
    assert [dark_cells(line, ink_is_dark=False) for line in lines] == _pairs(modules)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("colour", [True, False])
def test_the_host_log_draws_black_on_white_where_it_may_use_colours(
    colour: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not colour:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    out = Terminal()
    monkeypatch.setitem(host_command._logs, "host", HostLog(out))
    host_command.say_doors("198.18.0.1", 7707, Doors(web=8080))
    drawn = [line[4:] for line in out.getvalue().splitlines() if line.startswith("    ")]
    expected = qr_ansi_lines(URL) if colour else qr_lines(URL)
    assert drawn and drawn == expected
