"""Every character Clowder's screens draw is one that terminals and the browser page draw
(issue 36, item 10: "the browser shows ``⏱`` as an empty box").

The countdown's stopwatch (U+23F1) is in neither DejaVu nor Liberation, the fonts a
Debian browser or terminal draws with, only in emoji fonts: without one it was an empty
box. Here every character of the strings in the screens' code (the TUI's, the games' and
the host's; docstrings and comments aside) must be ASCII, Latin-1, one of :data:`SAFE`
(each in DejaVu Sans Mono, which Menlo is made from: ``fc-list :charset=HEX``), or a box
drawing or block character, which xterm.js draws itself in the browser and every
terminal font has. A new sign needs a look at where it is drawn before it joins
:data:`SAFE`. tests/web/test_page_in_browser.py checks the same characters in Chromium.
"""

from __future__ import annotations

import ast
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("tui", "engine/games", "net")
"""Where the text the screens draw comes from (engine/tools builds data: not drawn)."""
SAFE = frozenset("·»×“”…←↑→↓⏎▶▸◀◆○●★♠♣♥♦✓✗\ufffd")  # noqa: RUF001
"""The signs beyond Latin-1 the screens may draw (U+FFFD: what ``clean_text`` puts for a
character it refuses)."""
DRAWN_BY_XTERM = range(0x2500, 0x25A0)
"""Box drawing and block elements: xterm.js draws them itself (its ``customGlyphs``), and
every terminal font has them."""


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are statements of their own: docstrings (of
    modules, classes, functions and attributes), never drawn."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def drawn_characters(root: Path = ROOT) -> dict[str, set[str]]:
    """Each character beyond ASCII in the string constants of :data:`SOURCES` (not in
    docstrings, not a control or format character: those are cleaned away, never drawn),
    with the files it is in."""
    found: dict[str, set[str]] = {}
    for source in SOURCES:
        for path in sorted((root / source).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skipped = _docstrings(tree)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                    continue
                if id(node) in skipped:
                    continue
                for char in node.value:
                    if ord(char) > 0x7E and unicodedata.category(char) not in ("Cc", "Cf"):
                        found.setdefault(char, set()).add(str(path.relative_to(root)))
    return found


def safe(char: str) -> bool:
    return ord(char) <= 0xFF or char in SAFE or ord(char) in DRAWN_BY_XTERM


def test_the_screens_draw_only_characters_every_terminal_and_the_browser_draw() -> None:
    unsafe = {
        f"U+{ord(char):04X} {char} {unicodedata.name(char, '?')}": sorted(files)
        for char, files in drawn_characters().items()
        if not safe(char)
    }
    assert not unsafe, unsafe


def test_the_check_finds_a_stopwatch_in_a_screen_s_string(tmp_path: Path) -> None:
    for source in SOURCES:
        (tmp_path / source).mkdir(parents=True)
    (tmp_path / "tui" / "timer.py").write_text(
        '"""``⏱ 7s``: a docstring, never drawn."""\n'
        "# ⌛ a comment\n"
        'LEFT = f"⏱ {7}s"\n'
        'BIDI = "\\u202e"\n',
        encoding="utf-8",
    )
    found = drawn_characters(tmp_path)
    assert found == {"⏱": {"tui/timer.py"}}
    assert not safe("⏱") and safe("⏎") and safe("─") and safe("é")
