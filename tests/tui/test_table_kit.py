"""The TUI half of the game kit: what a game's screen gets from its ``game`` and its folder.

A screen names its game; :class:`~tui.screens.table.TableScreen` finds its
stylesheet and rules beside it and declares its looks, so no screen copies
those lines. The new-table dialog shows each option by its ``label`` and
leaves ``hidden`` ones out; the typing notice is the real-time base's, so the
app names no game.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from textual.app import App
from textual.widgets import Checkbox, Input, Static

from engine import registry
from engine.core import Option
from tui.games import own_screens
from tui.screens.dialogs import CreateDialog, NewTable
from tui.screens.realtime import RealtimeTable
from tui.screens.rules import RulesScreen
from tui.screens.table import RULES_FILE, TableScreen
from tui.styles import TCSS_DIR

TOY_SCREEN = """
from tui.screens.table import TableScreen


class ToyTable(TableScreen):
    game = "toy"
    look_names = ("shout", "hush")


class OwnRulesTable(TableScreen):
    game = "toy"
    rules_text = "Rules of my own."
    look_prefix = "mine"
    look_names = ("shout",)
    COMPONENT_CLASSES = {"extra--one"}


class NoGameYet(TableScreen):
    look_names = ("shout",)
"""

TOY_TCSS = "ToyTable > .toy--shout { color: #ff0000; }\n"


def load_toy(folder: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """Import ``folder/screen.py`` as module ``name`` (a game folder outside the package)."""
    spec = importlib.util.spec_from_file_location(name, folder / "screen.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)  # the class looks its folder up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "screen.py").write_text(TOY_SCREEN, encoding="utf-8")
    (folder / "toy.tcss").write_text(TOY_TCSS, encoding="utf-8")
    (folder / RULES_FILE).write_text("Play **fair**.\n", encoding="utf-8")
    return load_toy(folder, "toy_screen_kit", monkeypatch)


def test_a_screen_gets_its_stylesheet_looks_and_rules_from_its_game_and_folder(
    toy: ModuleType, tmp_path: Path
) -> None:
    table = toy.ToyTable
    assert [TCSS_DIR / "table.tcss", (tmp_path / "toy" / "toy.tcss").resolve()] == table.CSS_PATH
    assert table.look_prefix == "toy"
    assert {"toy--shout", "toy--hush"} == table.COMPONENT_CLASSES
    assert table.rules_text == "Play **fair**.\n"
    assert table.game_folder() == (tmp_path / "toy").resolve()


def test_what_a_screen_sets_itself_is_kept(toy: ModuleType) -> None:
    table = toy.OwnRulesTable
    assert table.rules_text == "Rules of my own."
    assert table.look_prefix == "mine"
    assert {"extra--one", "mine--shout"} == table.COMPONENT_CLASSES


def test_a_class_without_its_own_game_derives_nothing(toy: ModuleType) -> None:
    assert toy.NoGameYet.CSS_PATH == TableScreen.CSS_PATH
    assert toy.NoGameYet.look_prefix == "" and toy.NoGameYet.rules_text == ""
    assert "COMPONENT_CLASSES" not in vars(toy.NoGameYet)


def test_a_folder_without_a_stylesheet_or_rules_keeps_the_shared_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "screen.py").write_text(TOY_SCREEN, encoding="utf-8")
    module = load_toy(folder, "bare_screen_kit", monkeypatch)
    assert module.ToyTable.CSS_PATH == [TCSS_DIR / "table.tcss"]
    assert module.ToyTable.rules_text == ""


async def test_the_derived_stylesheet_styles_the_derived_looks(toy: ModuleType) -> None:
    screen = toy.ToyTable()

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    async with Host().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        color = screen.look("shout").color
        assert color is not None and color.triplet is not None
        assert color.triplet.hex == "#ff0000"


@pytest.mark.parametrize("game", sorted(own_screens()))
def test_every_game_screen_reads_its_rules_and_stylesheet_from_its_folder(game: str) -> None:
    screen = own_screens()[game]
    folder = screen.game_folder()
    assert folder is not None and folder.name == game
    assert screen.rules_text == (folder / RULES_FILE).read_text(encoding="utf-8")
    assert screen.rules_text.strip()
    assert [TCSS_DIR / "table.tcss", folder / f"{game}.tcss"] == screen.CSS_PATH
    assert screen.look_prefix == game
    assert {f"{game}--{name}" for name in screen.look_names} <= screen.COMPONENT_CLASSES
    body = ast.parse(textwrap.dedent(inspect.getsource(screen))).body[0]
    assert isinstance(body, ast.ClassDef)
    assigned = {
        target.id
        for node in body.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    copied = assigned & {"CSS_PATH", "COMPONENT_CLASSES", "look_prefix", "rules_text"}
    assert not copied, f"{game} sets {copied}: the base derives them"


async def test_the_rules_screen_draws_the_rules_file() -> None:
    screen = own_screens()["catchy"]
    first_line = screen.rules_text.strip().splitlines()[0]
    rules = RulesScreen("Catchy!", screen.rules_text)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(rules)

    async with Host().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert first_line in rules.page


# Options in the new-table dialog ---------------------------------------------------------


def visible(game: str) -> list[Option]:
    return [spec for spec in registry.get(game).option_specs if not spec.hidden]


@pytest.mark.parametrize("game", registry.names())
async def test_the_dialog_shows_options_by_label_and_leaves_hidden_ones_out(game: str) -> None:
    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateDialog(game))

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        for spec in registry.get(game).option_specs:
            widgets = dialog.query(f"#option-{spec.name}")
            if spec.hidden:
                assert not widgets, f"{game}: {spec.name} is hidden"
                continue
            (widget,) = widgets
            if isinstance(widget, Checkbox):
                assert str(widget.label) == spec.label
            else:
                assert isinstance(widget, Input)
                labels = [str(label.render()) for label in dialog.query(".option-label")]
                assert any(label.startswith(f"{spec.label} (") for label in labels), labels
        helps = [str(help_.render()) for help_ in dialog.query(".option-help").results(Static)]
        for spec in visible(game):
            assert spec.help in helps


@pytest.mark.parametrize("game", registry.names())
async def test_a_table_made_with_the_dialogs_defaults_is_accepted(game: str) -> None:
    """An option without a default (Kiitos's first leader) read ``None`` and was refused."""
    results: list[NewTable | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateDialog(game), results.append)

    async with Host().run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert results and results[0] is not None, "the dialog refused its own defaults"
    chosen = results[0].options
    assert not {spec.name for spec in registry.get(game).option_specs if spec.hidden} & set(chosen)


@pytest.mark.parametrize(("typed", "expected"), [("", None), ("2", 2)])
async def test_an_option_without_a_default_starts_empty_and_empty_leaves_it_to_the_game(
    typed: str, expected: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = registry.get("catchy")
    first = Option("first", None, "Who leads", minimum=0, maximum=3, label="First leader")
    monkeypatch.setattr(type(game), "option_specs", (*game.option_specs, first))
    results: list[NewTable | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(CreateDialog("catchy"), results.append)

    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = app.screen.query_one("#option-first", Input)
        assert field.value == ""  # not "None", which no option accepts
        field.value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert results and results[0] is not None
    assert results[0].options.get("first") == expected
    assert ("first" in results[0].options) is (expected is not None)


def test_every_option_has_a_label_and_the_fixed_deck_is_hidden() -> None:
    for name in registry.names():
        specs = registry.get(name).option_specs
        labels = [spec.label for spec in specs]
        assert all(labels), f"{name}: an option without a label"
        assert len(set(labels)) == len(labels), f"{name}: two options with one label"
        assert all(len(label) <= 30 for label in labels), labels
        assert [spec.hidden for spec in specs if spec.name == "deck"] == [True]
        described = registry.get(name).describe()["options"]
        assert [(o["label"], o["hidden"]) for o in described] == [
            (spec.label, spec.hidden) for spec in specs
        ]


# The typing notice -------------------------------------------------------------------------


def test_the_typing_notice_is_the_realtime_tables_and_the_app_handles_it() -> None:
    from tui.app import ClowderApp

    katootsie = own_screens()["katootsie"]
    assert issubclass(katootsie, RealtimeTable)
    assert katootsie.Typing is RealtimeTable.Typing
    assert RealtimeTable.Typing.handler_name == "on_realtime_table_typing"
    assert callable(getattr(ClowderApp, RealtimeTable.Typing.handler_name, None))
