"""No screen or coach decides "you" by a player's name: only by the seat (issue 36, item 1).

An SSH player who typed the invitation literally (``ssh you@HOST``) was called "you", and
every other player read "Tess took V with ..., beating your Katootsie!" for that player's
call: the screens and the coaches compared a name with the word "you". Two checks here:

* the source: no module of ``tui/`` compares a string with ``"you"`` or ``"your"`` (the
  viewer's word is :data:`tui.you.YOU`, asked with :func:`tui.you.is_you`);
* the behaviour, for every game of ``registry.names()``: a seeded random game is played
  twice, once with seat 0 called by a stand-in name ("yoz") and once called "you" (and
  "Yoz"/"You"). Everything another seat's coach says, at every step, and everything its
  table screen draws (Pilot, 80x24, a sample of steps with the events that led to each
  view), must read the same in both games once the stand-in is written as the name: a
  difference is a sentence that changed because of what the name says.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from engine import registry
from engine.core import visible_events
from tests.contract import Playout, play
from tests.tui.harness import TableHarness
from tui.games import coach_class, screen_class
from tui.widgets.log import GameLog

ROOT = Path(__file__).resolve().parents[2]
WORDS = frozenset({"you", "your"})
"""Words no TUI code may compare a string with (``yours`` is the lobby's own-host key)."""
YOU_WORD = re.compile(r"\byour?\b", re.IGNORECASE)
TEXT_SEARCHES = frozenset(
    {"replace", "startswith", "endswith", "find", "rfind", "index", "count", "removeprefix"}
)
"""Calls that look for a word in a text: finding "you" in a sentence about a name is
telling the viewer from a name by its text too."""
PAIRS = (("yoz", "you"), ("Yoz", "You"))
"""(stand-in, real): seat 0's name in the two games compared."""
OTHERS = ("Bea", "Cy", "Dot", "Eve")
SEED = 36
MAX_STEPS = 160
SCREEN_STEPS = 10
"""Steps drawn on the table screen per game (:func:`moments`)."""
SIZE = (80, 24)
DIGITS = re.compile(r"\d")
TICKING = re.compile(r" *\d+")
BLOCKS = re.compile("[\u2580-\u259f]")
"""Numbers (with the spaces that right-align them) and block elements (time bars, scroll
bars): a countdown ticks, and a log scrolls, between two draws."""
SETTLE_PAUSES = 6
"""Pauses a drawn screen may take to settle (the coach's lines reach the log a refresh later)."""


def strings_in(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [text for element in node.elts for text in strings_in(element)]
    return []


def decides_by_text(node: ast.AST) -> bool:
    """``who == "you"``, ``name in ("you", "You")``, ``text.replace("you's", "your")``..."""
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        return any(text.casefold() in WORDS for side in sides for text in strings_in(side))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        searched = node.args[:1] if node.func.attr in TEXT_SEARCHES else []
        return any(YOU_WORD.search(text) for arg in searched for text in strings_in(arg))
    return False


def test_no_tui_code_tells_you_from_a_name_by_its_text() -> None:
    found = []
    for path in sorted((ROOT / "tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if decides_by_text(node):
                found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}")
                found[-1] += f": {ast.unparse(node)}"
    assert not found, "decide 'you' by seat (tui.you.is_you), not by text:\n" + "\n".join(found)


def test_the_source_check_finds_each_way_of_telling_by_text() -> None:
    for line in (
        'who == "you"',
        'name in ("you", "You")',
        "'your' if caller != 'You' else 1",
        """f"{who}'s arms".replace("you's", "your")""",
        'line.startswith("you ")',
    ):
        assert any(decides_by_text(node) for node in ast.walk(ast.parse(line))), line
    for line in ('origin == "yours"', 'name == "Bea"', 'text.replace("Bea", "you")'):
        assert not any(decides_by_text(node) for node in ast.walk(ast.parse(line))), line


def game_pair(name: str, stand_in: str, real: str) -> tuple[Playout, Playout]:
    """The same seeded random game, seat 0 called ``stand_in`` in one and ``real`` in the
    other (the engine deals and plays alike whatever the names)."""
    game = registry.get(name)
    count = min(game.max_players, max(game.min_players, 3))
    players = list(OTHERS[: count - 1])
    first = play(game, [stand_in, *players], SEED, max_steps=MAX_STEPS)
    second = play(game, [real, *players], SEED, max_steps=MAX_STEPS)
    assert len(first.steps) == len(second.steps)
    return first, second


def as_named(stand_in: str, real: str) -> Callable[[str], str]:
    """Text of the stand-in's game written as the other game's would be, if nothing in it
    depended on what the name says; digits blurred (a countdown may tick between draws)."""

    def rename(text: str) -> str:
        for old, new in ((stand_in, real), (stand_in.upper(), real.upper())):
            text = re.sub(rf"\b{old}\b", new, text)
        if stand_in[:1].islower():
            text = re.sub(rf"\b{stand_in.capitalize()}\b", real.capitalize(), text)
        return DIGITS.sub("#", text)

    return rename


def blur(text: str) -> str:
    """What ticks blurred (:data:`TICKING`)."""
    return BLOCKS.sub(" ", TICKING.sub("#", text))


def same_but_the_name(line: str, other: str, stand_in: str, real: str) -> bool:
    """Whether two drawn rows differ only where one game draws the stand-in name and the
    other the real one, column for column (the names are as long: a sentence that changed
    with the name, "your" for "yoz's", shifts everything after it). Column by column, so a
    name cut at a pane's edge ("…z #, Bea") is still read."""
    if len(line) != len(other):
        return False
    allowed = {
        (a, b)
        for x, y in zip(stand_in, real, strict=True)
        for a, b in ((x, y), (x.upper(), y.upper()), (x.lower(), y.lower()))
        if a != b
    }
    return all(a == b or (a, b) in allowed for a, b in zip(line, other, strict=True))


def views(playout: Playout, seat: int | None) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Each step's view for ``seat`` and the events it may see that led there."""
    game = playout.game
    return [
        (game.view(state, seat), visible_events(events, seat)) for state, events in playout.states()
    ]


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize(("stand_in", "real"), PAIRS)
def test_every_coach_says_you_only_for_its_own_seat(name: str, stand_in: str, real: str) -> None:
    first, second = game_pair(name, stand_in, real)
    rename = as_named(stand_in, real)
    for seat in range(1, len(first.players)):
        coaches = (coach_class(name)(), coach_class(name)())
        befores: list[Any] = [None, None]
        pairs = zip(views(first, seat), views(second, seat), strict=True)
        for step, ((a, _), (b, _)) in enumerate(pairs):
            said = []
            for index, (coach, view) in enumerate(zip(coaches, (a, b), strict=True)):
                before = befores[index]
                lines = coach.opening(view) if before is None else coach.after(before, view)
                said.append([*lines, "|", *coach.now(view)])
                befores[index] = view
            assert [rename(line) for line in said[0]] == [DIGITS.sub("#", x) for x in said[1]], (
                f"{name}, seat {seat}, step {step}: the coach's words for a player called "
                f"{real!r} are not those for {stand_in!r}"
            )


def drawn(screen: Screen[Any]) -> str:
    update = screen._compositor.render_full_update()
    return "\n".join("".join(strip.text for strip in row) for row in update.strips)


async def settled(pilot: Pilot[Any], app: TableHarness) -> str:
    """The screens as drawn once a pause changes nothing more (what ticks aside)."""
    text = None
    for _ in range(SETTLE_PAUSES):
        await pilot.pause()
        for log in app.table.query(GameLog):  # where a log's scroll has got to is not words:
            log.scroll_end(animate=False, immediate=True)  # under load it lagged a line
        now = blur("\n".join(drawn(screen) for screen in app.screen_stack))
        if now == text:
            break
        text = now
    assert text is not None
    return text


async def screens_drawn(name: str, playout: Playout, steps: list[int]) -> list[str]:
    """What seat 1's table screen (coached) shows at each of ``steps``."""
    shown = views(playout, 1)
    presence = [
        {"name": player, "bot": False, "human": True, "connected": True, "covered": False}
        for player in playout.players
    ]
    app = TableHarness(shown[0][0], presence=presence, screen=screen_class(name))
    app.table.coach = coach_class(name)()
    texts = []
    async with app.run_test(size=SIZE) as pilot:
        for step in steps:
            view, events = shown[step]
            app.table.happened(events)
            app.table.received(view)
            texts.append(await settled(pilot, app))
    return texts


def moments(playout: Playout) -> list[int]:
    """The steps drawn: the deal, the end, and those just after seat 0 acted (where a
    screen tells what that player did), spread over the game."""
    acted = [index for index, step in enumerate(playout.steps, start=1) if step.entry[0] == 0]
    wanted = SCREEN_STEPS - 2
    if len(acted) > wanted:
        acted = [acted[round(i * (len(acted) - 1) / (wanted - 1))] for i in range(wanted)]
    return sorted({0, *acted, len(playout.steps)})


@pytest.mark.parametrize("name", registry.names())
async def test_every_screen_says_you_only_for_its_own_seat(name: str) -> None:
    stand_in, real = PAIRS[0]
    first, second = game_pair(name, stand_in, real)
    steps = moments(first)
    one = await screens_drawn(name, first, steps)
    other = await screens_drawn(name, second, steps)
    for step, a, b in zip(steps, one, other, strict=True):
        differ = [
            f"- {x}\n+ {y}"
            for x, y in zip(blur(a).splitlines(), blur(b).splitlines(), strict=True)
            if not same_but_the_name(x, y, stand_in, real)
        ]
        assert not differ, (
            f"{name}, seat 1, step {step}: the screen reads otherwise for a player called "
            f"{real!r}:\n" + "\n".join(differ)
        )


@pytest.mark.parametrize("called", ["you", "You"])
def test_a_katootsie_call_beaten_is_yours_only_if_you_called_it(called: str) -> None:
    """The report: every player read "Tess took V with ..., beating your Katootsie!"."""
    from tui.games.katootsie.screen import KatootsieTable

    game = registry.get("katootsie")
    state = game.new_game([called, "Bea", "Tess"], 1, {})
    result = {"seat": 2, "caller": 0, "how": "caught", "letter": "V", "answer": "Vintage chair"}
    screen = KatootsieTable(table_id="t1")
    for seat in (1, None):
        words = screen._result_words(game.view(state, seat), result)
        assert words == f"Tess took V with “Vintage chair”, beating {called}'s Katootsie!"
    words = screen._result_words(game.view(state, 2), result)
    assert words == f"You took V with “Vintage chair”, beating {called}'s Katootsie!"
    assert "beating your Katootsie!" in screen._result_words(game.view(state, 0), result)


@pytest.mark.parametrize("called", ["you", "You"])
def test_a_kitten_bid_is_yours_only_at_your_seat(called: str) -> None:
    from engine.games.kitten.rules import KittenView
    from tui.games.kitten.screen import bid_words

    game = registry.get("kitten")
    state = game.new_game([called, "Bea"], 1, {})
    bid = {"seat": 0, "thing": "hat", "count": 3}
    assert bid_words(cast(KittenView, game.view(state, 1)), bid) == f"{called}'s 3 hats"
    assert bid_words(cast(KittenView, game.view(state, 0)), bid) == "your 3 hats"
