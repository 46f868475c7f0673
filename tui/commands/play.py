"""``clowder play GAME``: host a table in this process, sit at it with bots, play at once.

Works with no network at all: when every other seat is a bot the host
listens on loopback only. With ``--bots`` fewer than the other seats, it
listens on the LAN and advertises the table so friends can join.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine import registry
from engine.core import InvalidOptions, parse_options
from tui.commands import UsageError
from tui.commands._app import add_bell, add_name, checked_name, need_terminal, run_app
from tui.commands.level import add_bot_level
from tui.commands.reaction import add_bot_reaction, reaction_scale

PROG = "clowder play"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", metavar="GAME", help=f"the game ({', '.join(registry.names())})")
    parser.add_argument(
        "--bots",
        type=int,
        metavar="N",
        help="how many seats bots take (default: every seat but yours)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option, e.g. --option target=5 (repeatable)",
    )
    add_bot_level(parser)
    add_bot_reaction(parser)
    add_name(parser)
    add_bell(parser)


def options_from(game_name: str, pairs: list[str]) -> dict[str, Any]:
    """``["target=5"]`` as ``{"target": "5"}``, checked against the game's options."""
    game = registry.get(game_name)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise UsageError(f"{PROG}: --option takes KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    try:
        parsed = parse_options(game.title, game.option_specs, options)
    except InvalidOptions as error:
        raise UsageError(f"{PROG}: {error}") from None
    return {key: parsed[key] for key in options}


def run(args: argparse.Namespace) -> int:
    try:
        game = registry.get(args.game)
    except registry.UnknownGame as error:
        raise UsageError(f"{PROG}: {error}") from None
    options = options_from(game.name, list(args.option))
    if args.bots is not None and not 0 <= args.bots < game.max_players:
        raise UsageError(
            f"{PROG}: {game.title} seats at most {game.max_players} players: "
            f"--bots is 0 to {game.max_players - 1}, not {args.bots}"
        )
    name = checked_name(PROG, args.name)
    scale = reaction_scale(args.bot_reaction)
    from tui.games import has_screen

    if not has_screen(game.name):
        raise UsageError(f"{PROG}: this Clowder cannot show {game.title} tables yet")
    need_terminal(PROG)
    from tui.app import ClowderApp, PlayRequest

    request = PlayRequest(game.name, options, args.bots, args.bot_level)
    return run_app(ClowderApp(name=name, bell=args.bell, play=request, bot_reaction_scale=scale))
