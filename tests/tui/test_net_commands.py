"""``clowder host``, ``clowder bot`` and ``clowder discover``: help and clear refusals."""

from __future__ import annotations

import pytest

from tui.cli import main
from tui.commands import UsageError
from tui.commands.address import parse_address
from tui.commands.tablespec import parse_table_spec


@pytest.mark.parametrize("command", ["host", "bot", "discover"])
def test_help_works(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "--help"]) == 0
    assert f"clowder {command}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["host", "--port", "70000"], "not a port number"),
        (["host", "--bind", "everywhere"], "not an IPv4 address"),
        (["host", "--table", "chess"], "no game 'chess'"),
        (["host", "--table", "catchy:target=zero"], "whole number"),
        (["host", "--table", "catchy:colour=red"], "no option 'colour'"),
        (["host", "--table", "catchy:bots"], "is not name=value"),
        (["host", "--bot-delay", "-1"], "cannot be negative"),
        (["host", "--port", "seven"], "invalid int value"),
        (["bot", "127.0.0.1:99999", "--table", "t1"], "not a port number"),
        (["bot", "127.0.0.1", "--table", "t1", "--seats", "0"], "--seats is 1 to 10"),
        (["bot", "127.0.0.1"], "--table"),
        (["discover", "--timeout", "0"], "--timeout is more than 0"),
    ],
)
def test_bad_arguments_exit_2_with_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err.strip()
    assert message in error and "\n" not in error and "Traceback" not in error


def test_bot_reports_an_unreachable_host(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "127.0.0.1:1", "--table", "t1"]) == 1
    assert "Cannot reach 127.0.0.1:1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("box", ("box", 7707)),
        ("box:8000", ("box", 8000)),
        ("198.18.0.1:7707", ("198.18.0.1", 7707)),
        ("[::1]:9000", ("::1", 9000)),
        ("[::1]", ("::1", 7707)),
    ],
)
def test_addresses_parse(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", [":7707", "box:0", "box:port"])
def test_bad_addresses_are_refused(text: str) -> None:
    with pytest.raises(UsageError):
        parse_address(text)


def test_table_specs_split_table_keys_from_game_options() -> None:
    spec = parse_table_spec("catchy:target=5, bots=1,seats=2,takeover=10")
    assert (spec.game, spec.seats, spec.bots) == ("catchy", 2, 1)
    assert spec.options == {"target": "5", "takeover": 10.0}
