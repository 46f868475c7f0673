"""Table options and the checks every game's setup shares: the options' specs and parsing,
the players' names, and explicit deck orders (the ``deck`` option)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.errors import InvalidOptions

MAX_NAME_LENGTH = 32
"""The longest player name a game accepts."""


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: its name, default, what it means and what it accepts.

    ``kind`` is ``int``, ``bool``, ``str`` or ``list`` (a list of card codes,
    or a list of such lists). Values given as text (from a command line,
    ``target=5``) are converted; anything else wrong raises
    :class:`InvalidOptions` with a sentence saying what is wrong.

    ``label`` and ``hidden`` are for the new-table dialog: the short name it
    shows (``help`` is the sentence under it), and whether it leaves the option
    out (testing aids like a fixed ``deck``). Neither changes what the option
    accepts: a hidden option is still taken from a command line or a host.
    """

    name: str
    default: Any
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    label: str = ""
    """The option's name for players (``Points to win``); empty: :attr:`name` is shown."""
    hidden: bool = False
    """Not offered in the new-table dialog (a testing or replay aid); still accepted."""

    @property
    def title(self) -> str:
        """What a dialog calls the option: its :attr:`label`, else its :attr:`name`."""
        return self.label or self.name

    def parse(self, value: Any) -> Any:
        if self.kind is bool:
            return self._parse_bool(value)
        if self.kind is int:
            return self._parse_int(value)
        if self.kind is str:
            return self._parse_str(value)
        return self._parse_list(value)

    def _parse_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on"}:
            return True
        if isinstance(value, str) and value.lower() in {"0", "false", "no", "off"}:
            return False
        raise InvalidOptions(f"Option {self.name!r} is yes or no, not {value!r}")

    def _parse_int(self, value: Any) -> int:
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                message = f"Option {self.name!r} is a whole number, not {value!r}"
                raise InvalidOptions(message) from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptions(f"Option {self.name!r} is a whole number, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"Option {self.name!r} is at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"Option {self.name!r} is at most {self.maximum}, not {value}")
        return value

    def _parse_str(self, value: Any) -> str:
        if not isinstance(value, str):
            raise InvalidOptions(f"Option {self.name!r} is text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(self.choices)
            raise InvalidOptions(f"Option {self.name!r} is one of {allowed}; not {value!r}")
        return value

    def _parse_list(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            # Text form: cards separated by commas or spaces, rounds by "/".
            parts = [part.replace(",", " ").split() for part in value.split("/")]
            return parts if len(parts) > 1 else parts[0]
        if not isinstance(value, list | tuple):
            raise InvalidOptions(f"Option {self.name!r} is a list, not {value!r}")
        return [list(item) if isinstance(item, list | tuple) else item for item in value]

    def describe(self) -> dict[str, Any]:
        """The msgpack-ready description shown by lobbies and ``--help``."""
        info: dict[str, Any] = {
            "name": self.name,
            "default": self.default,
            "help": self.help,
            "kind": self.kind.__name__,
            "label": self.title,
            "hidden": self.hidden,
        }
        if self.minimum is not None:
            info["minimum"] = self.minimum
        if self.maximum is not None:
            info["maximum"] = self.maximum
        if self.choices is not None:
            info["choices"] = list(self.choices)
        return info


DECK_OPTION = Option(
    "deck",
    None,
    "Explicit card order (top first) replacing the shuffle; a list of lists gives one per round.",
    kind=list,
    label="Fixed deck",
    hidden=True,
)


def parse_options(
    game: str, specs: Sequence[Option], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Validate ``given`` against ``specs`` and fill in the defaults."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise InvalidOptions(f"Options are a map of names to values, not {given!r}")
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(str(name) for name in given if name not in by_name)
    if unknown:
        known = ", ".join(sorted(by_name))
        raise InvalidOptions(f"{game} has no option {unknown[0]!r} (its options: {known})")
    parsed = {spec.name: spec.default for spec in specs}
    for name, value in given.items():
        spec = by_name[name]
        parsed[name] = None if value is None and spec.default is None else spec.parse(value)
    return parsed


def check_players(game: str, players: Sequence[str], minimum: int, maximum: int) -> list[str]:
    """Validate the player names of a new game (count, non-empty, unique)."""
    if type(players) is not list and (
        isinstance(players, str) or not isinstance(players, Sequence)
    ):
        raise InvalidOptions("Players are a list of names")
    names = list(players)
    if not minimum <= len(names) <= maximum:
        span = f"{minimum}" if minimum == maximum else f"{minimum} to {maximum}"
        raise InvalidOptions(f"{game} is for {span} players, not {len(names)}")
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InvalidOptions(f"A player's name must be non-empty text, not {name!r}")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidOptions(f"A player's name is at most {MAX_NAME_LENGTH} characters")
    if len(set(names)) < len(names):  # (a Counter only when there is a repeat to name)
        repeated = [name for name, count in Counter(names).items() if count > 1]
        raise InvalidOptions(f"Two players are both called {repeated[0]!r}")
    return names


def check_deck(game: str, given: Sequence[Any], full: Sequence[str]) -> list[str]:
    """Check that an explicit deck order is exactly the game's cards, and say what is off."""
    cards = list(given)
    for card in cards:
        if not isinstance(card, str):
            raise InvalidOptions(f"Card codes are text; {card!r} is not a {game} card")
    have, want = Counter(cards), Counter(full)
    unknown = sorted(set(have) - set(want))
    if unknown:
        raise InvalidOptions(f"{unknown[0]!r} is not a {game} card")
    extra = sorted(card for card in have if have[card] > want[card])
    if extra:
        raise InvalidOptions(f"The deck has too many {extra[0]!r}")
    missing = sorted(card for card in want if have[card] < want[card])
    if missing:
        count = f"{len(cards)} of {len(full)} cards"
        raise InvalidOptions(f"The deck is missing {missing[0]!r} ({count})")
    return cards


def deck_orders(option: Any) -> list[list[Any]]:
    """Every explicit deck order the ``deck`` option gives, one per round, checked for shape.

    ``None`` gives none (every round is shuffled). A flat list is the first
    round's order; a list of lists gives one per round. Anything else (an
    empty list, lists mixed with cards) is refused with a sentence.
    """
    if option is None:
        return []
    if not isinstance(option, list) or not option:
        raise InvalidOptions("The deck option is a non-empty list of card codes, top first")
    nested = [isinstance(item, list) for item in option]
    if all(nested):
        if not all(option):
            raise InvalidOptions("Each round's deck order in the deck option needs cards")
        return list(option)
    if any(nested):
        raise InvalidOptions(
            "The deck option is either one list of card codes or a list of them (one per round)"
        )
    return [option]


def deck_for_round(option: Any, round_number: int) -> list[Any] | None:
    """The explicit deck order for ``round_number`` (1-based), if the ``deck`` option gives one.

    A flat list is the first round's order; a list of lists gives one order per
    round. Rounds without one are shuffled.
    """
    if not option:
        return None
    if isinstance(option[0], list):
        return option[round_number - 1] if round_number <= len(option) else None
    return option if round_number == 1 else None
