"""``clowder learn GAME``: a coached first game, solo against easy bots, no LAN needed.

The same table as ``clowder play GAME`` (hosted in this process, on loopback),
with the game's coach beside the log: what you may do now and why, and what
each result meant (:mod:`tui.coach`). At a real-time game the first cards or
letters wait for the player to read, and the bots react slowly
(:attr:`tui.coach.Coach.held_moments`, :attr:`tui.coach.Coach.bot_pace`: the
screen asks its host with ``learn``) unless ``--bot-reaction`` says otherwise.
Without GAME it lists the games there are to learn.
"""

from __future__ import annotations

import argparse

from engine import registry
from engine.bots import DEFAULT_REACTION_S
from tui.commands import UsageError
from tui.commands._app import add_bell, add_name, checked_name, need_terminal, run_app
from tui.commands.reaction import reaction_scale

PROG = "clowder learn"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        help=f"the game to learn ({', '.join(registry.names())}); without it, the list",
    )
    parser.add_argument(
        "--bot-reaction",
        type=float,
        default=None,
        metavar="S",
        help="real-time games: a bot's typical reaction in seconds (default here: each game's"
        f" coach's, Black Cat's 2.4, slower than the {DEFAULT_REACTION_S} of a quick person)",
    )
    add_name(parser)
    add_bell(parser)


def games_text() -> str:
    """The games there are to learn, a line each, and how to start one."""
    from tui.screens.dialogs import learn_label

    lines = ["Games to learn (a coached game against easy bots):"]
    lines += [f"  {name:<10} {learn_label(name)}" for name in registry.names()]
    lines.append(f"Start one with: {PROG} GAME   (for example: {PROG} {registry.names()[0]})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        print(games_text())
        return 0
    try:
        game = registry.get(args.game)
    except registry.UnknownGame as error:
        raise UsageError(f"{PROG}: {error}") from None
    name = checked_name(PROG, args.name)
    scale = 1.0  # the coach slows the bots itself (its bot_pace)
    if args.bot_reaction is not None:  # this reaction, whatever the coach's pace
        from tui.games import coach_class

        scale = reaction_scale(args.bot_reaction) / coach_class(game.name).bot_pace
    need_terminal(PROG)
    from tui.app import ClowderApp, PlayRequest
    from tui.screens.dialogs import first_game

    table = first_game(game.name)
    request = PlayRequest(
        game.name, table.options, bots=table.bots, bot_level=table.bot_level, coach=True
    )
    return run_app(ClowderApp(name=name, bell=args.bell, play=request, bot_reaction_scale=scale))
