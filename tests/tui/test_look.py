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


def contrast(one: Color, other: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(color: Color) -> float:
        red, green, blue = (
            part / 12.92 if part <= 0.03928 else ((part + 0.055) / 1.055) ** 2.4
            for part in (value / 255 for value in color.get_truecolor())
        )
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


async def test_hint_lines_read_well_on_black_and_in_16_colours() -> None:
    from tests.tui.harness import LobbyHarness

    app = TableHarness(catchy_view(3))
    async with app.run_test(size=(80, 24)):
        hints = [app.table.query_one("#connection").rich_style]
    lobby = LobbyHarness()
    async with lobby.run_test(size=(80, 24)):
        hints.append(lobby.lobby.query_one("#lobby-status").rich_style)
    for style in hints:
        assert style.color is not None and style.bgcolor is not None
        # 9:1, not just AAA's 7: $text-muted came out at 7.2 and was reported hard to read
        assert contrast(style.color, style.bgcolor) >= 9, "grey on black is hard to read"
        assert not style.dim
        number = style.color.downgrade(ColorSystem.STANDARD).number
        assert number in {7, 15}, "white in 16 colours, not (bright) black"
