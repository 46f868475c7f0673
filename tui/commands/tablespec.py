"""Parsing ``GAME[:opt=val,...]`` table specifications (``clowder host --table``)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from engine import registry
from engine.core import InvalidOptions, parse_options
from tui.commands import UsageError
from tui.commands.level import level_name

TABLE_KEYS = {"seats", "bots", "bot_level", "takeover", "spectator_chat"}
"""Keys about the table rather than the game: seat count, bots, the bots' level, bot
takeover delay (s), whether spectators' chat reaches the players during the game (net.core.chat)."""


@dataclass
class TableSpec:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int | None = None
    bots: int = 0
    bot_level: str | None = None


def parse_table_spec(text: str) -> TableSpec:
    """``"catchy"``, ``"catchy:target=5,bots=1"``; every name and value is checked now."""
    game, _, rest = text.partition(":")
    game = game.strip()
    if game not in registry.names():
        raise UsageError(
            f"--table {text!r}: no game {game!r} (games: {', '.join(registry.names())})"
        )
    spec = TableSpec(game)
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key:
            raise UsageError(f"--table {text!r}: {item!r} is not name=value")
        if key in ("seats", "bots"):
            if not value.isdigit():
                raise UsageError(f"--table {text!r}: {key} is a whole number, not {value!r}")
            setattr(spec, key, int(value))
        elif key == "bot_level":
            try:
                spec.bot_level = level_name(value)
            except argparse.ArgumentTypeError as error:
                raise UsageError(f"--table {text!r}: {error}") from None
        elif key == "takeover":
            try:
                spec.options["takeover"] = float(value)
            except ValueError:
                raise UsageError(f"--table {text!r}: takeover is seconds, not {value!r}") from None
        else:
            spec.options[key] = value
    game_options = {k: v for k, v in spec.options.items() if k not in TABLE_KEYS}
    try:
        parse_options(game, registry.get(game).option_specs, game_options)
    except InvalidOptions as error:
        raise UsageError(f"--table {text!r}: {error}") from None
    return spec
