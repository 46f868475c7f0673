"""The ``clowder`` command: subcommands, clear one-line errors, reproducible selfplay."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry
from tests import toy_game
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game.registered():
        yield


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "--help")
    assert status == 0
    for command in ("selfplay", "play", "join", "lobby"):
        assert command in out


def test_play_help_shows_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "play", "--help")
    assert status == 0
    for option in ("--bots", "--bot-level", "--option", "--name", "GAME"):
        assert option in out


def test_plain_clowder_opens_the_lobby_which_needs_a_terminal() -> None:
    """With no terminal (as here) the lobby says so in one line instead of drawing."""
    result = run_module("-m", "tui")
    assert result.returncode == 2
    assert result.stderr.strip() == "clowder lobby: needs a terminal (it draws a full-screen UI)"


def test_selfplay_help_shows_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "selfplay", "--help")
    assert status == 0
    for option in ("--players", "--games", "--seed", "--bot"):
        assert option in out


def test_selfplay_prints_each_seat_and_the_speed(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_main(capsys, "selfplay", "toy", "--players", "3", "--games", "12")
    assert (status, err) == (0, "")
    seat_rows = [line for line in out.splitlines() if line[:1] in "123" and "random" in line]
    assert len(seat_rows) == 3, out
    assert sum(int(row.split()[2]) for row in seat_rows) == 12
    assert "games/s" in out


def test_selfplay_is_reproducible_from_its_seed(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    def results(seed: str) -> list[str]:
        _, out, _ = run_main(capsys, "selfplay", "toy", "--games", "30", "--seed", seed)
        return [line for line in out.splitlines() if "games/s" not in line]

    assert results("8") == results("8")
    assert results("8") != results("9")


def test_one_bot_per_seat_in_order(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "selfplay", "toy", "--bot", "random", "--bot", "random")
    assert status == 0
    assert "selfplay: 100 games" in out


LEVEL_TYPO = "there is no bot level 'hardd' (levels: easy, normal, hard)"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["selfplay", "nope"], "There is no game called 'nope'"),
        (["selfplay", "toy", "--bot", "wizard"], "there is no bot 'wizard' for toy"),
        (["selfplay", "toy", "--players", "9"], "Toy is for 2 to 4 players, not 9"),
        (["selfplay", "toy", "--players", "1"], "Toy is for 2 to 4 players, not 1"),
        (["selfplay", "toy", "--games", "0"], "--games must be at least 1, not 0"),
        (["selfplay", "toy", "--games", "many"], "invalid int value: 'many'"),
        (["selfplay", "toy", "--players", "3", "--bot", "random", "--bot", "random"], "3 players"),
        (["selfplay"], "the following arguments are required: GAME"),
        (["dance"], "invalid choice: 'dance'"),
        (["play", "nope"], "There is no game called 'nope'"),
        (["play", "catchy", "--option", "target"], "--option takes KEY=VALUE, not 'target'"),
        (["play", "catchy", "--option", "colour=red"], "has no option 'colour'"),
        (["play", "catchy", "--option", "target=0"], "target"),
        (["play", "catchy", "--bots", "2"], "--bots is 0 to 1, not 2"),
        (["play", "catchy", "--name", "   "], "A name needs at least one letter"),
        (["join", "host:port"], "The port must be a number, not 'port'"),
        (["join", ":7707"], "has a port but no host"),
        (["play", "blackcat", "--bot-reaction", "0.1"], "--bot-reaction is 0.3 to 10.0 seconds"),
        (["lobby", "--bot-reaction", "11"], "not 11"),
        (["host", "--bot-reaction", "fast"], "invalid float value: 'fast'"),
        (["bot", "127.0.0.1", "--table", "t1", "--bot-reaction", "0"], "not 0"),
        (["play", "catchy", "--bot-level", "hardd"], LEVEL_TYPO),
        (["host", "--bot-level", "hardd"], LEVEL_TYPO),
        (["bot", "127.0.0.1", "--table", "t1", "--bot-level", "hardd"], LEVEL_TYPO),
        (["host", "--table", "catchy:bots=1,bot_level=hardd"], LEVEL_TYPO),
        (["bot", "127.0.0.1", "--table", "t1", "--bot", "easy", "--bot-level", "hard"], "not both"),
    ],
)
def test_bad_arguments_are_one_clear_line_and_status_2(
    toy: None, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run_main(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def run_module(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def test_python_m_tui_reports_bad_arguments_without_a_traceback() -> None:
    result = run_module("-m", "tui", "selfplay", "no-such-game")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "There is no game called 'no-such-game'" in result.stderr


def test_help_and_selfplay_do_not_load_the_ui_toolkit() -> None:
    game = registry.names()[0]
    script = (
        "import json, sys\n"
        "from tui.cli import main\n"
        "statuses = [main(['--help']), main(['selfplay', '--help']),\n"
        f"            main(['selfplay', {game!r}, '--games', '2'])]\n"
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'net'})\n"
        "print(json.dumps([statuses, loaded]))\n"
    )
    result = run_module("-c", script)
    assert result.returncode == 0, result.stderr
    statuses, loaded = json.loads(result.stdout.splitlines()[-1])
    assert statuses == [0, 0, 0]
    assert loaded == []


def test_output_piped_into_a_reader_that_leaves_early_is_not_an_error() -> None:
    """``clowder learn | head -1``: the pipe closes under the listing; no traceback."""
    reader = subprocess.Popen(
        [sys.executable, "-m", "tui", "learn"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # the reader is gone before the first line
    errors = reader.stderr.read().decode()
    assert reader.wait(timeout=60) == 0
    assert "Traceback" not in errors and "Broken pipe" not in errors, errors
