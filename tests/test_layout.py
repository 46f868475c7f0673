"""The architecture's fixed points: import direction, a pure engine, the top-level layout.

``tui -> net -> engine``: the engine imports neither net nor tui nor anything
that does I/O or reads a clock, and net never imports tui. These are checked
twice: statically (every import statement, by AST) and dynamically (what
importing the engine actually loads, and a game played with the clocks and
the global random generator booby-trapped).
"""

from __future__ import annotations

import ast
import fnmatch
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from engine.bots import default_bot
from engine.selfplay import play_game
from tests import toy_game

ROOT = Path(__file__).resolve().parent.parent

ENGINE_FORBIDDEN = {
    "net",
    "tui",
    "asyncio",
    "socket",
    "time",
    "datetime",
    "textual",
    "msgpack",
    "zeroconf",
}
NET_FORBIDDEN = {"tui", "textual"}

TOP_LEVEL = {
    "pyproject.toml",
    "README.md",
    "LICENSE",
    ".gitignore",
    ".ci",
    "engine",
    "net",
    "tui",
    "tests",
}


def python_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, top-level module)`` for every absolute import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def forbidden_imports(package: str, forbidden: set[str]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in python_files(package)
        for line, module in imported_modules(path)
        if module in forbidden
    ]


def test_the_import_scanner_sees_every_form_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import time\nimport net.host as h\nfrom tui import cli\nfrom . import x\n")
    found = [module for _, module in imported_modules(sample)]
    assert found == ["time", "net", "tui"]


def test_engine_imports_no_io_clock_or_outer_layer() -> None:
    assert python_files("engine"), "no engine modules found"
    assert forbidden_imports("engine", ENGINE_FORBIDDEN) == []


def test_net_never_imports_tui() -> None:
    assert forbidden_imports("net", NET_FORBIDDEN) == []


def test_registered_games_and_bots_live_in_the_engine() -> None:
    games = [registry.get(name) for name in registry.names()]
    targets = [type(game).__module__ for game in games]
    targets += [target for game in games for _, target in game.bots]
    assert targets
    assert [target for target in targets if not target.startswith("engine.")] == []


def test_importing_every_engine_module_loads_no_outer_layer_or_io() -> None:
    script = (
        "import importlib, json, pkgutil, sys, engine\n"
        "names = [i.name for i in pkgutil.walk_packages(engine.__path__, 'engine.')]\n"
        "for name in names: importlib.import_module(name)\n"
        "print(json.dumps([names, sorted(sys.modules)]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    names, loaded = json.loads(result.stdout)
    assert "engine.core" in names
    assert "engine.selfplay" in names
    # "time" is loaded by the interpreter itself at startup; the AST test covers it.
    top_levels = {module.split(".")[0] for module in loaded}
    assert top_levels & (ENGINE_FORBIDDEN - {"time"}) == set()


def _trap(name: str) -> object:
    def trapped(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the engine called {name}")

    return trapped


@pytest.fixture
def no_clock_no_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every clock and the global random generator raise if anything calls them."""
    clocks = ["time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns"]
    clocks += ["process_time", "process_time_ns", "sleep"]
    for name in clocks:
        monkeypatch.setattr(time, name, _trap(f"time.{name}"))
    randoms = ["random", "randint", "randrange", "choice", "choices", "shuffle", "sample"]
    randoms += ["uniform", "getrandbits", "seed", "gauss", "randbytes"]
    for name in randoms:
        monkeypatch.setattr(random, name, _trap(f"random.{name}"))


def test_the_booby_traps_work(no_clock_no_global_random: None) -> None:
    with pytest.raises(AssertionError, match=r"time\.monotonic"):
        time.monotonic()
    with pytest.raises(AssertionError, match=r"random\.choice"):
        random.choice([1, 2])


@pytest.mark.parametrize("name", registry.names())
def test_registered_games_read_no_clock_and_no_global_random(
    name: str, no_clock_no_global_random: None
) -> None:
    game = registry.get(name)
    for bot in (default_bot(name), "random"):
        _, outcome = play_game(game, [bot] * game.min_players, seed=7)
        assert outcome.winners or outcome.scores


def test_timed_games_run_without_a_clock(no_clock_no_global_random: None) -> None:
    _, outcome = play_game(toy_game.GAME, ["random"] * 3, seed=7, options={"mode": "together"})
    assert sum(outcome.scores) == toy_game.CARDS


def readme_fenced_lines() -> list[str]:
    lines, fenced = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        elif fenced and line.strip():
            lines.append(line.strip())
    return lines


def test_readme_opens_with_the_play_and_test_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_fence, first_section = text.index("```"), text.index("\n## ")
    assert first_fence < first_section, "the commands must come before the tour"
    play, test = readme_fenced_lines()[:2]
    assert play.startswith("python3 -m venv .venv && ")
    # a player gets the ratings (net/ratings.py) and can serve browsers (net/web_gateway.py)
    assert "pip install '.[ratings,web]'" in play
    assert "clowder " in play
    assert test.startswith("python3 -m venv .venv && ")
    assert ".[test]" in test
    assert test.endswith("-m pytest")


def test_ci_runs_exactly_the_readme_commands() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run"), "--print-commands"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    found = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    play, test = readme_fenced_lines()[:2]
    assert found["play"] == play
    assert f"{found['install']} && {found['test']}" == test
    assert "pip install" in found["install"]
    assert found["test"] == ".venv/bin/python -m pytest"


def test_ci_script_is_executable() -> None:
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111


def ignored_by_git(name: str) -> bool:
    """Whether a top-level entry is clutter .gitignore keeps out (venvs, caches, builds)."""
    patterns = [
        line.strip().strip("/")
        for line in (ROOT / ".gitignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return name == ".git" or any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


def test_top_level_layout_is_exactly_as_designed() -> None:
    present = {entry.name for entry in ROOT.iterdir() if not ignored_by_git(entry.name)}
    assert present - TOP_LEVEL == set(), "unexpected top-level entries"
    assert TOP_LEVEL - present == set(), "missing top-level entries"


CORE_FORBIDDEN = {"asyncio", "socket", "selectors", "time", "zeroconf", "asyncssh", "tui"}
"""What the host core (``net/core``) never imports: it is driven by explicit time, not a loop."""


def test_the_host_core_imports_no_event_loop_socket_or_clock() -> None:
    assert python_files("net/core"), "no host core modules found"
    assert forbidden_imports("net/core", CORE_FORBIDDEN) == []


def test_importing_the_host_core_loads_no_event_loop_or_socket() -> None:
    script = (
        "import json, sys\nimport net.core.host, net.core.store\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    top_levels = {module.split(".")[0] for module in json.loads(result.stdout)}
    assert top_levels & (CORE_FORBIDDEN - {"time"}) == set()


def test_the_host_core_plays_a_game_without_reading_a_clock(
    no_clock_no_global_random: None,
) -> None:
    from net.messages import Act, Join
    from tests.net.core_driver import CoreDriver

    driver = CoreDriver(rng=random.Random(5), bot_delay_s=0.5)
    runner = driver.core.create_table("catchy", {"target": 1}, bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    seat = next(i for i, info in enumerate(runner.table.seats) if info.human)
    for _ in range(2000):
        if runner.table.outcome is not None:
            break
        view = runner.table.view(seat)
        if view is not None and view["legal"]:
            driver.send(ann, Act(table=runner.table.id, action=view["legal"][0]))
        driver.run_for(0.5)
    assert runner.table.outcome is not None


def game_screen_imports(path: Path) -> list[str]:
    """The ``tui.games.<game>`` modules ``path`` imports (``from tui.games import x`` counts
    when ``x`` is a game's folder; ``from tui.games import screen_class`` does not)."""
    games = {entry.name for entry in (ROOT / "tui" / "games").iterdir() if entry.is_dir()}

    def of_a_game(name: str) -> bool:
        parts = name.split(".")
        return parts[:2] == ["tui", "games"] and len(parts) > 2 and parts[2] in games

    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if not of_a_game(node.module):
                names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [f"{shown}:{node.lineno} imports {name}" for name in names if of_a_game(name)]
    return found


def test_the_app_and_shared_screens_import_no_game_screen() -> None:
    """A game is its folders: the app and the shared screens find game screens through
    ``tui.games`` by name, so adding or removing a game never touches them."""
    paths = [ROOT / "tui" / "app.py", *sorted((ROOT / "tui" / "screens").glob("*.py"))]
    assert len(paths) > 2
    assert [line for path in paths for line in game_screen_imports(path)] == []


def test_the_game_screen_import_scanner_sees_both_forms(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from tui.games import screen_class\nimport tui.games.catchy.screen\n"
        "from tui.games.kitten.screen import KittenTable\nfrom tui.games import kiitos\n"
    )
    found = [line.rsplit(" ", 1)[1] for line in game_screen_imports(sample)]
    assert found == ["tui.games.catchy.screen", "tui.games.kitten.screen", "tui.games.kiitos"]
