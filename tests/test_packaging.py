"""The distribution as a new user gets it (issue 33): ``clowder-cards`` (``clowder`` on the
package index is another project), a wheel and an sdist that hold everything the game
needs (code, game data, RULES.md, stylesheets, rules pages, PROTOCOL.md) and nothing it
does not (no tests, no engine/tools), and a wheel that runs with no source tree around.

The build is the one ``python -m build --no-isolation`` makes: setuptools' PEP 517 hooks,
called in a copy of the tree (a build writes build/ and an egg-info where it runs) from
this environment, which holds the build system through the test extra: no network.
"""

from __future__ import annotations

import email
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from importlib.metadata import version as installed_version
from pathlib import Path

import pytest

from tests.needs import lacking
from tui.cli import DISTRIBUTION, main, version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    "*.py[cod]",
    "*.egg-info",
    "build",
    "dist",
    ".*_cache",
    ".hypothesis",
    "snapshot_report.html",
    "state",
)
"""What a clean clone does not have (.gitignore): the copy is the tree CI builds from."""


def shipped_sources(root: Path) -> set[str]:
    """Every file under the three packages, as the game reads them, but engine/tools."""
    found = set()
    for package in ("engine", "net", "tui"):
        for path in (root / package).rglob("*"):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and not relative.startswith("engine/tools/"):
                found.add(relative)
    return found


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")[:3] if part.isdigit())


def needs_the_build_system() -> None:
    """The build system is in this environment at the version pyproject.toml asks (the test
    extra holds it); an older one (a venv installed before it was) skips with the fix,
    except under CI, which installs the extra afresh."""
    wanted = next(r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools"))
    lowest = wanted.split(">=")[1]
    have = installed_version("setuptools")
    if version_tuple(have) < version_tuple(lowest):
        why = f"setuptools {have} is older than the build system's {lowest}"
        lacking(f"{why}: pip install -e '.[test]' again", f"{why}: the test extra installs it")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Path]]:
    """``(tree, wheel, sdist)``: a copy of the source tree and what it builds."""
    needs_the_build_system()
    base = tmp_path_factory.mktemp("build")
    tree = base / "tree"
    shutil.copytree(ROOT, tree, ignore=NOT_COPIED)
    out = base / "dist"
    hooks = (
        "import sys, setuptools.build_meta as hooks\n"
        "out = sys.argv[1]  # read first: the hooks set sys.argv for setuptools\n"
        "wheel = hooks.build_wheel(out)\n"
        "sdist = hooks.build_sdist(out)\n"
        "print('built:', wheel, sdist)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", hooks, str(out)],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    built_line = next(line for line in result.stdout.splitlines() if line.startswith("built:"))
    wheel_name, sdist_name = built_line.split()[1:]
    yield tree, out / wheel_name, out / sdist_name


def test_the_distribution_has_a_name_of_its_own_and_the_command_keeps_its_name() -> None:
    assert PROJECT["name"] == DISTRIBUTION == "clowder-cards"
    assert PROJECT["scripts"] == {"clowder": "tui.cli:main"}
    assert version() == PROJECT["version"]


def test_clowder_version_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"clowder {PROJECT['version']} (clowder-cards)\n"


def test_the_wheel_holds_the_game_and_nothing_else(built: tuple[Path, Path, Path]) -> None:
    tree, wheel, _ = built
    assert wheel.name == f"clowder_cards-{PROJECT['version']}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"clowder_cards-{PROJECT['version']}.dist-info"
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    packaged = {name for name in names if not name.startswith(f"{info}/")}
    expected = shipped_sources(tree)
    assert packaged - expected == set(), "shipped but not the game's"
    assert expected - packaged == set(), "the game's but not shipped"
    for needed in (
        "net/PROTOCOL.md",
        "engine/games/catchy/RULES.md",
        "engine/games/kiitos/data/kiitos-words.txt.gz",
        "engine/games/kiitos/data/kiitos-frequency.txt.gz",
        "engine/games/kiitos/data/kiitos-frequency-LICENSE.txt",
        "tui/app.tcss",
        "tui/games/blackcat/blackcat.tcss",
        "tui/games/kitten/rules.md",
    ):
        assert needed in packaged
    assert not any(name.startswith(("tests/", "engine/tools/")) for name in names)
    assert {name.split("/")[0] for name in names} == {"engine", "net", "tui", info}
    assert metadata["Name"] == "clowder-cards"
    assert metadata["Version"] == PROJECT["version"]
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert str(metadata.get_payload()).startswith("# Clowder")  # the README, for the index's page
    assert "clowder = tui.cli:main" in entry_points


def test_the_sdist_holds_the_sources_and_no_tests(built: tuple[Path, Path, Path]) -> None:
    tree, _, sdist = built
    top = f"clowder_cards-{PROJECT['version']}"
    assert sdist.name == f"{top}.tar.gz"
    with tarfile.open(sdist) as archive:
        names = {
            member.name.removeprefix(f"{top}/")
            for member in archive.getmembers()
            if member.isfile()
        }
    packaged = {name for name in names if name.split("/")[0] in {"engine", "net", "tui"}}
    assert packaged == shipped_sources(tree)
    assert {"pyproject.toml", "README.md", "LICENSE", "PKG-INFO"} <= names
    assert not any(name.startswith(("tests/", "engine/tools/", ".ci/")) for name in names)


@pytest.fixture(scope="module")
def unpacked(built: tuple[Path, Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unpacked away from the source tree: a pure-Python wheel unpacked is
    installed, but for the ``clowder`` script (``python -m tui`` is the same command)."""
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(built[1]) as archive:
        archive.extractall(site)
    return site


def from_the_wheel(site: Path) -> dict[str, str]:
    """The environment of a process that imports engine, net and tui from ``site`` (with
    ``python -P`` and the working directory elsewhere, not from the source tree)."""
    return {**os.environ, "PYTHONPATH": str(site)}


def test_the_wheel_alone_finds_every_game_its_data_stylesheets_and_rules(
    unpacked: Path, tmp_path: Path
) -> None:
    script = (
        "import sys, tui\n"
        "from pathlib import Path\n"
        "assert tui.__file__.startswith(sys.argv[1]), tui.__file__\n"
        "from engine import registry\n"
        "from engine.selfplay import play_game\n"
        "from engine.bots import default_bot\n"
        "from tui.games import screen_class\n"
        "from tui.styles import TCSS_DIR\n"
        "for name in registry.names():\n"
        "    game = registry.get(name)\n"
        "    play_game(game, [default_bot(name)] * game.min_players, seed=1)\n"
        "    screen = screen_class(name)\n"
        "    sheets = [Path(path) for path in screen.CSS_PATH]\n"
        "    assert all(path.is_file() for path in sheets), sheets\n"
        "    assert f'{name}.tcss' in {path.name for path in sheets}, sheets\n"
        "    assert screen.rules_text.strip(), name\n"
        "assert (TCSS_DIR / 'app.tcss').is_file()\n"
        "print(sorted(registry.names()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", script, str(unpacked)],
        cwd=tmp_path,
        env=from_the_wheel(unpacked),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "catchy" in result.stdout and "katootsie" in result.stdout


def test_the_wheel_alone_hosts_and_stops_cleanly(unpacked: Path, tmp_path: Path) -> None:
    where = ["--bind", "127.0.0.1", "--port", "0", "--state-dir", str(tmp_path / "state")]
    host = subprocess.Popen(
        [sys.executable, "-P", "-m", "tui", "host", "--no-discovery", *where, "--table", "catchy"],
        cwd=tmp_path,
        env=from_the_wheel(unpacked),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert host.stdout is not None
        # Up to the table's line (the host opens it just after it listens; a SIGTERM between
        # the two was a stop before any table, under load): each line as it comes, and a
        # host that stops first ends the reading with what it said.
        seen = ""
        for line in host.stdout:
            seen += line
            if "[t1] new Catchy! table" in line:
                break
        else:
            pytest.fail(seen + f"(exit status {host.wait()})")
        assert "listening on 127.0.0.1:" in seen, seen
        host.send_signal(signal.SIGTERM)
        output = seen + host.communicate(timeout=10)[0]
    finally:
        if host.poll() is None:
            host.kill()
            host.communicate()
    assert host.returncode == 0, output
    assert "[t1] new Catchy! table" in output and "Host stopped" in output
