"""``clowder host``, ``clowder bot`` and ``clowder discover``: help and clear refusals."""

from __future__ import annotations

import re

import pytest

from tui.cli import main
from tui.commands.address import BadAddress, parse_address
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
        (["host", "--bot-delay", "-1"], "--bot-delay is seconds, 0 or more, not -1"),
        (["host", "--bot-delay", "nan"], "--bot-delay is seconds, 0 or more"),
        (["host", "--port", "seven"], "invalid int value"),
        (["bot", "127.0.0.1:99999", "--table", "t1"], "The port must be 1 to 65535"),
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
    out = capsys.readouterr().out
    assert "Nothing is listening at 127.0.0.1:1" in out and "Errno" not in out


GOOD_ADDRESSES = [
    ("box", ("box", 7707)),
    ("box:8000", ("box", 8000)),
    ("  box:8000 ", ("box", 8000)),
    ("127.0.0.1:7707", ("127.0.0.1", 7707)),
    ("198.18.0.1", ("198.18.0.1", 7707)),
    ("[::1]:9000", ("::1", 9000)),
    ("[::1]:7707", ("::1", 7707)),
    ("[::1]", ("::1", 7707)),
    ("::1", ("::1", 7707)),
    ("fe80::1", ("fe80::1", 7707)),
    ("box:65535", ("box", 65535)),
]

BAD_ADDRESSES = [
    ("", "Type an address"),
    ("   ", "Type an address"),
    (":7707", "has a port but no host"),
    ("box:", "ends with ':' but no port"),
    ("box:0", "The port must be 1 to 65535, not 0"),
    ("box:65536", "The port must be 1 to 65535, not 65536"),
    ("127.0.0.1:99999", "The port must be 1 to 65535, not 99999"),
    ("box:-1", "The port must be a number, not '-1'"),
    ("box:port", "The port must be a number, not 'port'"),
    ("box:٣", "The port must be a number"),
    ("box:7707:junk", "has more than one ':'"),
    ("[::1]:", "ends with ':' but no port"),
    ("[::1]7707", "after ']'"),
    ("[::1", "never closes it"),
    ("[]:7707", "no address between"),
    ("[box]:7707", "is not an IPv6 address"),
    ("my box", "is not a host name or address"),
]


@pytest.mark.parametrize(("text", "expected"), GOOD_ADDRESSES)
def test_addresses_parse(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(("text", "message"), BAD_ADDRESSES)
def test_bad_addresses_are_refused_with_a_sentence(text: str, message: str) -> None:
    with pytest.raises(BadAddress, match=re.escape(message)):
        parse_address(text)


def test_bad_addresses_are_value_errors_for_the_lobby_dialog() -> None:
    # The dialog shows any ValueError's sentence under the field.
    assert issubclass(BadAddress, ValueError)


def test_the_lobby_dialog_join_and_bot_share_one_parser() -> None:
    from tui.commands import bot, join
    from tui.screens import dialogs

    users = [vars(module)["parse_address"] for module in (dialogs, join, bot)]
    assert users == [parse_address] * 3


@pytest.mark.parametrize(("text", "message"), BAD_ADDRESSES)
def test_join_and_bot_refuse_a_bad_address_alike(
    text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["join", "--", text]) == 2
    joined = capsys.readouterr().err.strip()
    assert main(["bot", "--table", "t1", "--", text]) == 2
    botted = capsys.readouterr().err.strip()
    assert joined.removeprefix("clowder join: ") == botted.removeprefix("clowder bot: ")
    assert message in joined and "\n" not in joined


@pytest.mark.parametrize("text", [text for text, _ in GOOD_ADDRESSES])
def test_join_accepts_every_good_address(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    # The address is fine; what stops it under pytest is the missing terminal.
    assert main(["join", "--", text]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_table_specs_split_table_keys_from_game_options() -> None:
    spec = parse_table_spec("catchy:target=5, bots=1,seats=2,takeover=10")
    assert (spec.game, spec.seats, spec.bots) == ("catchy", 2, 1)
    assert spec.options == {"target": "5", "takeover": 10.0}
