"""Every game's prompt line shows its whole text, at 80x24 and on a phone's 48 columns.

Issue 36, item 1. The prompt line was one row: a long prompt or a refusal in the engine's
words was cut at the screen's edge (only Black Cat's stylesheet let it wrap). It now wraps
onto up to three rows at every table, and the board keeps its essential parts whole
(:attr:`~tui.screens.table.TableScreen.essential`) while it does.

For each registered game (``registry.names()``; only :data:`MODES` names games) a seeded random
game is played with the most players, each with a long name. The texts fed to the
screen's prompt line:

- the refusals its engine can produce: each ``raise`` of an :class:`IllegalAction` in the
  game's engine package, its message's longest form with every value in it written as a
  long name (a template's every branch, also those random play rarely reaches), and the
  longest refusals met in the game (every seat trying the actions seen in it, nudged,
  at states along it); malformed actions (:class:`InvalidAction`) are a client's bug,
  never sent by the screens, and left out;
- its prompts: the screen's :meth:`prompt_text` for views of every seat and a spectator
  along the game, also while a real-time game counts down, while a claim waits for the
  host, and in the screen's own modes (:data:`MODES`).

Each is shown on a mid-game board and must be on screen whole, the essential parts too.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from textual.widget import Widget

from engine import registry
from engine.core import Game, IllegalAction, InvalidAction, Rng
from tests.contract import Playout, play
from tests.tui.harness import TableHarness, shown_whole
from tui.games import screen_class
from tui.widgets.prompt import PromptLine

pytestmark = pytest.mark.timeout(60)

SIZES = [(80, 24), (48, 40)]
NAMES = (
    "Bartholomew",
    "Maximiliana",
    "Christopher",
    "Genevieve",
    "Alexandria",
    "Konstantin",
    "Evangeline",
    "Jacqueline",
    "Wilhelmina",
    "Sebastian",
    "Theodora",
    "Nathaniel",
)
"""Long names (as the Black Cat notices' test's Bartholomew): names are in many texts."""
FILL = NAMES[0]
"""What a value in an engine's message is written as: a long name (numbers, cards and
letters are shorter)."""
SEED = 3
STATES = 8
"""States along the game at which every seat tries the actions seen in it."""
ACTIONS = 30
"""The actions seen in the game that are tried (a seeded sample; Kitten Me! sees hundreds)."""
VIEWS = 4
"""Views along the game for each seat and the spectator, for the prompts."""
LONGEST = 8
"""The longest this many prompts, and refusals met in play, are shown (shorter ones of the
same kinds fit where these do)."""

MODES: dict[str, list[dict[str, Any]]] = {
    "catchy": [{"swapping": True}],
    "kitten": [{"mode": "bid"}, {"mode": "fish"}],
    "blackcat": [{"calling": True}],
    "katootsie": [{"_keys_mode": True}],
    "kiitos": [{"choices": [{}, {}]}],
}
"""A screen's own states that change its prompt (a bar open, a key awaiting the next)."""


def game_package(game: Game[Any]) -> ModuleType:
    """The engine package of ``game`` (``engine.games.kitten``)."""
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0])


def longest_text(node: ast.expr) -> str:
    """The longest text an expression for a message can give, values written as :data:`FILL`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            longest_text(part) if isinstance(part, ast.Constant) else FILL for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return longest_text(node.left) + longest_text(node.right)
    if isinstance(node, ast.IfExp):
        return max(longest_text(node.body), longest_text(node.orelse), key=len)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
        return max((longest_text(value) for value in node.value.values), key=len)
    return FILL


def engine_messages(game: Game[Any]) -> list[str]:
    """Each refusal the game's engine package raises, in its longest form (:func:`longest_text`)."""
    package = game_package(game)
    messages: list[str] = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.args
            ):
                continue
            kind = getattr(module, node.exc.func.id, None)
            if not (isinstance(kind, type) and issubclass(kind, IllegalAction)):
                continue
            if issubclass(kind, InvalidAction):
                continue
            text = longest_text(node.exc.args[0])
            if text != FILL and text not in messages:
                messages.append(text)
    return messages


def nudged(action: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``action``, and it with each whole number one more, one less, 0 and 99."""
    yield action
    for key, value in action.items():
        if type(value) is int:
            for other in (value + 1, value - 1, 0, 99):
                yield {**action, key: other}


def spread(total: int, wanted: int) -> list[int]:
    """``wanted`` indexes of ``range(total)`` spread evenly (all of them if fewer)."""
    if total <= wanted:
        return list(range(total))
    return sorted({round(i * (total - 1) / (wanted - 1)) for i in range(wanted)})


def refusals_met(playout: Playout) -> list[str]:
    """The refusals met when every seat tries the actions seen in the game, at states along it."""
    game, count = playout.game, len(playout.players)
    seen: list[dict[str, Any]] = []
    for _, action in playout.legal_seen():
        if action not in seen:
            seen.append(action)
    Rng.from_seed(SEED).shuffle(seen)
    tried = [{"type": kind} for kind in sorted({str(a["type"]) for a in seen})]
    tried += [action for seen_action in seen[:ACTIONS] for action in nudged(seen_action)]
    met: set[str] = set()
    for index in spread(len(playout.steps), STATES):
        step = playout.steps[index]
        for seat in range(count):
            for action in tried:
                try:
                    game.apply(step.state, seat, action, step.entry[2] + 1.0)
                except InvalidAction:
                    pass
                except IllegalAction as error:
                    met.add(str(error))
    return longest(met)


def longest(texts: set[str]) -> list[str]:
    """The :data:`LONGEST` longest of ``texts``, one of each kind (texts that differ only in
    numbers and suits are of a kind)."""
    kinds: dict[str, str] = {}
    for text in sorted(texts, key=lambda text: (-len(text), text)):
        kinds.setdefault(re.sub(r"[\d♠♥♦♣]+", "#", text), text)
    return list(kinds.values())[:LONGEST]


async def prompts(playout: Playout) -> list[str]:
    """The screen's prompts for views of every seat and the spectator along the game, in
    its modes too, the longest first (read on a screen of their own: the views open what
    their moments open, a reveal, a dialog)."""
    game = playout.game
    app = TableHarness(
        playout.game.view(playout.first, 0), presence=[], screen=screen_class(game.name)
    )
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        return read_prompts(app.table, playout)


def read_prompts(table: Any, playout: Playout) -> list[str]:
    """:func:`prompts`, read on ``table``."""
    game = playout.game
    states = [state for state, _ in playout.states()]
    texts: set[str] = set()

    def read(view: dict[str, Any]) -> None:
        if view["outcome"] is not None:  # read, not shown: the results would open
            texts.add(table.prompt_text(view))
            return
        table.view = view
        texts.add(table.prompt_text(view))
        for mode in MODES.get(game.name, []):
            before = {name: getattr(table, name) for name in mode}
            for name, value in mode.items():
                setattr(table, name, value)
            texts.add(table.prompt_text(view))
            for name, value in before.items():
                setattr(table, name, value)
        if game.realtime:  # a RealtimeTable
            reveal = view.get("reveal")
            legal = [a for a in view["legal"] if game.is_claim(a)]
            if reveal is not None and legal:  # a claim sent, the host deciding
                table._claimed = {reveal: legal[0]}
                texts.add(table.prompt_text(view))
                table._claimed = {}
            for starts_in in (3.0, None):  # the start's countdown
                table.starting, table.starts_in = True, starts_in
                texts.add(table.prompt_text(view))
            table.starting, table.starts_in = False, None

    for seat in [None, *range(len(playout.players))]:
        for index in spread(len(states), VIEWS):
            read(game.view(states[index], seat))
    return longest(texts)


def cut_parts(app: TableHarness, table: Any) -> list[str]:
    """The essential parts of the board not shown whole (cut by the screen's edge, their
    container, or under the prompt line)."""
    prompt = table.query_one(PromptLine).region
    cut = []
    for selector in table.essential:
        widget: Widget = table.query_one(selector)
        if not widget.display:
            continue  # a spectator has no hand
        geometry = app.screen.find_widget(widget)
        whole = geometry.clip.contains_region(geometry.region)
        if not whole or geometry.region.bottom > prompt.y:
            cut.append(selector)
    return cut


def board_view(playout: Playout) -> dict[str, Any]:
    """A view of the game under way for seat 0 (its hand, if any, on show)."""
    states = [state for state, _ in playout.states()]
    view: dict[str, Any] = playout.game.view(states[len(states) // 3], 0)
    return view


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", registry.names())
async def test_every_prompt_and_refusal_is_read_whole(name: str, size: tuple[int, int]) -> None:
    game: Game[Any] = registry.get(name)
    players = list(NAMES[: game.max_players])
    playout = play(game, players, SEED, max_steps=400)
    refusals = list(dict.fromkeys([*engine_messages(game), *refusals_met(playout)]))
    assert refusals, f"{name}: no refusal found in its engine"
    screen = screen_class(name)
    assert screen.essential, f"{name}'s screen names no essential part of its board"
    view = board_view(playout)
    texts = await prompts(playout)
    app = TableHarness(view, presence=[], screen=screen)
    async with app.run_test(size=size) as pilot:
        table: Any = app.table
        await pilot.pause()
        shown = [part for part in table.essential if table.query_one(part).display]
        assert len(shown) == len(table.essential), f"{name}: seat 0 has parts hidden"
        assert cut_parts(app, table) == [], "the board is cut with a one-row prompt"
        prompt = table.query_one(PromptLine)
        cut: list[str] = []
        squeezed: list[str] = []
        for text in texts:
            # The board redraws its view when a wrapped prompt changes its width (a scroll
            # bar comes or goes): the view's prompt is then this text too.
            table.prompt_text = lambda view, text=text: text
            prompt.prompt(text)
            if not await shown_whole(pilot, app, prompt, text):
                cut.append(text)
            elif cut_parts(app, table):
                squeezed.append(f"{cut_parts(app, table)} under {text!r}")
        del table.prompt_text  # the screen's own again
        for reason in refusals:
            table.refused(reason)
            if not await shown_whole(pilot, app, prompt, f"! {reason}"):
                cut.append(f"! {reason}")
            elif cut_parts(app, table):
                squeezed.append(f"{cut_parts(app, table)} under {reason!r}")
        assert cut == [], f"{name}: texts cut at {size}"
        assert squeezed == [], f"{name}: the board's essential parts cut at {size}"
