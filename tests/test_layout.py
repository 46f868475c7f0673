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
    "MANIFEST.in",  # keeps tests/ out of the sdist (setuptools adds tests/test*.py unasked)
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
    sample.write_text(
        "import time\nimport net.doors.host as h\nfrom tui import cli\nfrom . import x\n"
    )
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
    # a player gets the ratings (net/store/ratings.py) and can serve browsers
    # (net/doors/web_gateway.py)
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


ROOMS = ("wire", "core", "store", "doors", "client")
"""``net``'s rooms (DESIGN.md, "Layout"; each room's ``__init__`` says what it is)."""

ROOM_MAY_IMPORT: dict[str, set[str]] = {
    "wire": set(),
    "core": {"wire", "store"},
    "store": {"wire"},
    "doors": {"wire", "core", "store"},
    "client": {"wire"},
}
"""The other rooms each room may import: ``wire`` uses nothing of ``net``, the core and the
store stay below the doors, and a client needs only the wire."""

CROSSINGS_ALLOWED = {("net/doors/advertise.py", "net.client.discovery")}
"""Imports across the rules above, each with its reason. Advertising (doors) and browsing
(client) share one mDNS module: one TXT record format, one choice of interfaces and one
way of starting zeroconf; putting those in the wire would bring sockets into it."""

LOOP_AND_SOCKETS = {"asyncio", "socket", "selectors", "asyncssh", "zeroconf", "aiohttp", "ifaddr"}
"""Event loops, sockets and the libraries built on them: the doors' and the client's business."""

ROOM_FORBIDDEN: dict[str, set[str]] = {
    "wire": LOOP_AND_SOCKETS | {"tui", "os", "pathlib", "subprocess", "tempfile", "time"},
    "core": LOOP_AND_SOCKETS | {"tui", "os", "subprocess", "tempfile", "time"},
    "store": LOOP_AND_SOCKETS | {"tui", "subprocess", "time"},
    "doors": {"tui"},
    "client": {"tui"},
}
"""What each room never imports. The core is driven by explicit time, not a loop or a clock;
the wire does no I/O at all; the store reads and writes files, nothing else."""


def room_of(module: str) -> str | None:
    """The room of a dotted ``net.<room>...`` module name (``None`` for anything else)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "net" and len(parts) > 1 and parts[1] in ROOMS else None


PACKAGES = {"engine", "net", "tui"}


def dotted_imports(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, dotted module)`` for every absolute import in ``path`` (``from net import
    doors`` counts as ``net.doors``, so a room or module named in the import list of a
    top-level package is seen too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in PACKAGES:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def crossings(root: Path = ROOT) -> list[str]:
    """Every import from one room of ``net`` into a room it may not use."""
    found = []
    for room in ROOMS:
        for path in sorted((root / "net" / room).rglob("*.py")):
            shown = path.relative_to(root).as_posix()
            for line, module in dotted_imports(path):
                target = room_of(module)
                allowed = ROOM_MAY_IMPORT[room] | {room}
                if target is None or target in allowed:
                    continue
                if any(
                    shown == where and module.startswith(what) for where, what in CROSSINGS_ALLOWED
                ):
                    continue
                found.append(f"{shown}:{line} ({room}) imports {module} ({target})")
    return found


def test_every_module_of_net_lives_in_a_room() -> None:
    loose = sorted(path.name for path in (ROOT / "net").glob("*.py") if path.name != "__init__.py")
    assert loose == []
    assert {path.name for path in (ROOT / "net").iterdir() if path.is_dir()} - {
        "__pycache__"
    } == set(ROOMS)


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_says_what_it_is_and_what_it_may_import(room: str) -> None:
    text = (ROOT / "net" / room / "__init__.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    docstring = ast.get_docstring(tree)
    assert docstring, f"net/{room}/__init__.py has no docstring"
    assert "import" in docstring


def test_rooms_import_only_the_rooms_they_may() -> None:
    assert crossings() == []


def test_a_planted_wrong_import_across_rooms_is_caught(tmp_path: Path) -> None:
    for room in ROOMS:
        (tmp_path / "net" / room).mkdir(parents=True)
    (tmp_path / "net" / "wire" / "framing.py").write_text("from net.core.table import X\n")
    (tmp_path / "net" / "store" / "journal.py").write_text("from net.core.limits import Y\n")
    (tmp_path / "net" / "core" / "table.py").write_text("from net import doors\n")
    (tmp_path / "net" / "client" / "client.py").write_text("import net.core.host\n")
    (tmp_path / "net" / "doors" / "host.py").write_text("from net.client.discovery import Z\n")
    (tmp_path / "net" / "doors" / "advertise.py").write_text("from net.client.discovery import Z\n")
    assert crossings(tmp_path) == [
        "net/wire/framing.py:1 (wire) imports net.core.table (core)",
        "net/core/table.py:1 (core) imports net.doors (doors)",
        "net/store/journal.py:1 (store) imports net.core.limits (core)",
        "net/doors/host.py:1 (doors) imports net.client.discovery (client)",
        "net/client/client.py:1 (client) imports net.core.host (core)",
    ]


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_imports_nothing_it_must_not(room: str) -> None:
    assert python_files(f"net/{room}"), f"net/{room} has no modules"
    assert forbidden_imports(f"net/{room}", ROOM_FORBIDDEN[room]) == []


def test_only_the_doors_and_the_client_use_an_event_loop_or_sockets() -> None:
    users = {
        path.relative_to(ROOT).parts[1]
        for path in python_files("net")
        for _, module in imported_modules(path)
        if module in LOOP_AND_SOCKETS
    }
    assert users == {"doors", "client"}


def test_importing_the_wire_the_core_and_the_store_loads_no_event_loop_or_socket() -> None:
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import net.wire, net.core, net.store\n"
        "for package in (net.wire, net.core, net.store):\n"
        "    prefix = package.__name__ + '.'\n"
        "    for item in pkgutil.walk_packages(package.__path__, prefix):\n"
        "        importlib.import_module(item.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert "net.core.host" in loaded
    assert "net.store.journal" in loaded
    top_levels = {module.split(".")[0] for module in loaded}
    assert top_levels & (LOOP_AND_SOCKETS | {"tui", "textual"}) == set()


ENGINE_CORE_MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "rng": set(),
    "copying": set(),
    "state": {"rng"},
    "options": {"errors"},
    "actions": {"errors", "state"},
    "game": {"copying", "errors", "options", "rng", "state"},
}
"""``engine/core``'s modules and the others each may import: the contract (``game``) on top,
the errors, the generator and the copier at the bottom; ``__init__`` re-exports them all.
Nothing in ``engine/core`` imports the rest of the engine (games, bots, the registry)."""


def engine_core_crossings(root: Path = ROOT) -> list[str]:
    """Every import in ``engine/core`` that breaks :data:`ENGINE_CORE_MAY_IMPORT`."""
    found = []
    folder = root / "engine" / "core"
    for path in sorted(folder.glob("*.py")):
        name = path.stem
        allowed = (
            set(ENGINE_CORE_MAY_IMPORT) if name == "__init__" else ENGINE_CORE_MAY_IMPORT[name]
        )
        for line, module in dotted_imports(path):
            parts = module.split(".")
            if parts[0] != "engine":
                continue
            inside = parts[:2] == ["engine", "core"] and len(parts) > 2
            if not inside or parts[2] not in allowed:
                found.append(f"engine/core/{path.name}:{line} imports {module}")
    return found


def test_engine_core_is_one_module_per_concern() -> None:
    modules = {path.stem for path in (ROOT / "engine" / "core").glob("*.py")} - {"__init__"}
    assert modules == set(ENGINE_CORE_MAY_IMPORT)


def test_engine_core_modules_import_only_those_below_them() -> None:
    assert engine_core_crossings() == []


def test_a_planted_wrong_import_in_engine_core_is_caught(tmp_path: Path) -> None:
    folder = tmp_path / "engine" / "core"
    folder.mkdir(parents=True)
    (folder / "rng.py").write_text("from engine.core.state import GameState\n")
    (folder / "errors.py").write_text("from engine import registry\n")
    (folder / "game.py").write_text("from engine.core.errors import IllegalAction\n")
    assert engine_core_crossings(tmp_path) == [
        "engine/core/errors.py:1 imports engine.registry",
        "engine/core/rng.py:1 imports engine.core.state",
    ]


def test_engine_core_still_exports_the_whole_contract() -> None:
    import engine.core

    for name in ("Game", "GameState", "Event", "Rng", "IllegalAction", "Option", "clone", "replay"):
        assert hasattr(engine.core, name), name
    assert len(set(engine.core.__all__)) == len(engine.core.__all__)


def test_the_host_core_plays_a_game_without_reading_a_clock(
    no_clock_no_global_random: None,
) -> None:
    from net.wire.messages import Act, Join
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


def cancellation_swallowers(path: Path) -> list[str]:
    """Calls in ``path`` that can swallow a task's own cancellation: ``asyncio.wait_for``
    (Python 3.11's returns the result when a cancel arrives together with it) and
    ``contextlib.suppress(asyncio.CancelledError)`` (around ``await task`` it hides a cancel
    of the awaiting task too). Either leaves a task running after it was cancelled: a
    client then reconnects every 5 s for ever, and a test's teardown never ends."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        arguments = [ast.unparse(argument) for argument in node.args]
        if name == "asyncio.wait_for" or (
            name.endswith("suppress") and "asyncio.CancelledError" in arguments
        ):
            found.append(f"{path.name}:{node.lineno} {name}({', '.join(arguments)})")
    return found


def test_no_code_swallows_a_cancel_of_its_own_task() -> None:
    found = [
        f"{package}/{line}"
        for package in ("net", "tui")
        for path in python_files(package)
        for line in cancellation_swallowers(path)
    ]
    assert found == [], "use asyncio.timeout() and asyncio.wait([task]) instead"


def test_the_cancellation_scanner_sees_both_forms(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import asyncio, contextlib\n"
        "async def f(task):\n"
        "    await asyncio.wait_for(task, 1)\n"
        "    with contextlib.suppress(asyncio.CancelledError):\n"
        "        await task\n"
        "    with contextlib.suppress(TimeoutError):\n"
        "        async with asyncio.timeout(1):\n"
        "            await task\n"
    )
    assert cancellation_swallowers(sample) == [
        "sample.py:3 asyncio.wait_for(task, 1)",
        "sample.py:4 contextlib.suppress(asyncio.CancelledError)",
    ]
