"""Colours come from the stylesheet and keep their meaning in a 16-colour terminal.

A 16-colour terminal gets Rich's downgrade of each colour to the nearest of
the standard sixteen; these tests make the same downgrade.
"""

from __future__ import annotations

from rich.color import Color, ColorSystem
from rich.style import Style

from tests.tui.harness import TableHarness, catchy_view
from tui.widgets.cards import FACE_LOOKS
from tui.widgets.connection import ConnectionLine
from tui.widgets.hand import Hand
from tui.widgets.look import PLAIN, read_look
from tui.widgets.prompt import PromptLine
from tui.widgets.scores import Scoreboard

STANDARD = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")


def sixteen(color: Color | None) -> str:
    """The colour's name once downgraded to 16 colours, without ``bright_``."""
    assert color is not None
    number = color.downgrade(ColorSystem.STANDARD).number
    assert number is not None
    return STANDARD[number % 8]


def test_a_look_nobody_styled_is_plain() -> None:
    assert PLAIN("red") == Style()


async def test_card_colours_keep_their_colour_in_16_colours() -> None:
    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)):
        look = app.table.query_one(Hand).card_look
        faces = {name: sixteen(look(name).bgcolor) for name in FACE_LOOKS}
        assert faces == {
            "red": "red",
            "green": "green",
            "blue": "blue",
            "yellow": "yellow",
            "white": "white",
        }
        back = sixteen(look("back").bgcolor)
        assert back not in faces.values(), "a face-down card must not look like a face"
        for name in FACE_LOOKS:  # the label on a face is black or white, never its own colour
            assert sixteen(look(name).color) in ("black", "white")
            assert sixteen(look(name).color) != faces[name]


async def test_turn_errors_and_links_read_in_16_colours() -> None:
    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)):
        table = app.table
        turn = read_look(table.query_one(Scoreboard), "scores", ["turn"])("turn")
        assert sixteen(turn.color) == "yellow" and turn.bold
        error = read_look(table.query_one(PromptLine), "prompt", ["error"])("error")
        assert sixteen(error.color) == "red" and error.bold
        link = read_look(table.query_one(ConnectionLine), "connection", ["up", "down"])
        assert sixteen(link("up").color) == "green"
        assert sixteen(link("down").color) == "red" and link("down").bold
