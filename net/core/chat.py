"""Table chat: a line said at a table, its limits, and who hears it.

Chat is not a game action: it never reaches the engine. The host checks a
line (:func:`clean_line`: trimmed, 1 to :data:`MAX_CHAT` characters; unsafe
characters were already refused by :func:`net.wire.messages.parse` for every
client string), spends the speaker's :class:`ChatBudget`, journals it as a
``chat`` record (a note: restore steps over it, replays show it) and
forwards it to whoever may hear it (:func:`hears`).

A table may keep spectators' chat from its players while the game is on
(the ``spectator_chat`` table option, ``"hidden"``), so that what watchers
say about the game (a spoiler, a hint) does not reach the table: a courtesy
between honest people, since a player may also watch from a second
connection. The players choose:
any of them may hide or show it at any time (:func:`set_rule`), also after
the table was created with it; spectators cannot.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any, Final, Literal

MAX_CHAT: Final = 200
"""The longest chat line, in characters (the wire bound of ``chat.text``)."""

CHAT_BURST: Final = 5
"""Lines one connection may say in a row before the rate applies."""
CHAT_PER_S: Final = 0.5
"""Then one line every two seconds (a budget per connection, kept by the host)."""

SPECTATOR_CHAT_OPTION: Final = "spectator_chat"
"""The table option: ``"shown"`` (default) or ``"hidden"`` (from players while the game is on)."""
SPECTATOR_CHAT_VALUES: Final = ("shown", "hidden")


class PlayersOnly(ValueError):
    """A spectator tried to set the table's ``spectator_chat`` rule; ``code`` ``players_only``."""

    code = "players_only"


class ChatRefused(ValueError):
    """A line the host will not pass on (empty, or said too fast); ``code`` ``chat_refused``."""

    code = "chat_refused"


def clean_line(text: str) -> str:
    """``text`` trimmed of surrounding blanks; refused when nothing is left or it is too long."""
    line = " ".join(text.split())
    if not line:
        raise ChatRefused("Say something: the chat line is empty")
    if len(line) > MAX_CHAT:
        raise ChatRefused(f"A chat line is at most {MAX_CHAT} characters, not {len(line)}")
    return line


@dataclass(slots=True)
class ChatBudget:
    """A token bucket: :data:`CHAT_BURST` lines, refilled at :data:`CHAT_PER_S` a second."""

    burst: int = CHAT_BURST
    per_s: float = CHAT_PER_S
    tokens: float = field(default=float(CHAT_BURST))
    last: float | None = None

    def spend(self, now: float) -> None:
        """Take one line's worth at ``now`` (seconds), or raise :class:`ChatRefused`."""
        if self.last is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.per_s)
        self.last = now
        if self.tokens < 1:
            wait = (1 - self.tokens) / self.per_s
            raise ChatRefused(f"You are chatting fast; say that again in {wait:.0f} s")
        self.tokens -= 1


def check_option(value: Any) -> str:
    """The ``spectator_chat`` option's value, checked."""
    if value not in SPECTATOR_CHAT_VALUES:
        raise ValueError(
            f"{SPECTATOR_CHAT_OPTION} is one of {', '.join(SPECTATOR_CHAT_VALUES)}, not {value!r}"
        )
    return str(value)


def hears(listener_seat: int | None, speaker_seat: int | None, hidden: bool, game_on: bool) -> bool:
    """Whether a listener (``None``: a spectator) is sent a line by a speaker at a table.

    Everyone hears players. Spectators always hear spectators; players do not
    while the game is on and the table hides spectators' chat.
    """
    if speaker_seat is not None or listener_seat is None:
        return True
    return not (hidden and game_on)


def record(seat: int | None, name: str, text: str, now: float) -> dict[str, Any]:
    """The journal record of a chat line (a note: ``net.store.replays.NOTE_KINDS``)."""
    return {"r": "chat", "seat": seat, "name": name, "text": text, "now": now}


def game_on(table: Any) -> bool:
    """Whether a table's game is under way (started, not over)."""
    return bool(table.started) and table.outcome is None


def rule_record(rule: str, seat: int | None, name: str | None, now: float) -> dict[str, Any]:
    """The journal record of the rule set (a note; ``seat``/``name`` ``None``: at creation)."""
    return {"r": "chat_rule", SPECTATOR_CHAT_OPTION: rule, "seat": seat, "name": name, "now": now}


def rule_of(records: list[dict[str, Any]]) -> str:
    """A table's ``spectator_chat`` rule from its journal (the last ``chat_rule`` record)."""
    rule = "shown"
    for entry in records:
        if entry.get("r") == "chat_rule":
            rule = str(entry.get(SPECTATOR_CHAT_OPTION, "shown"))
    return rule


_BUDGETS: weakref.WeakKeyDictionary[Any, ChatBudget] = weakref.WeakKeyDictionary()
"""Each connection's chat budget, forgotten with the connection."""


def say(runner: Any, speaker: Any, text: str, now: float) -> dict[str, Any]:
    """A line said at ``runner``'s table by ``speaker`` (a host connection at that table).

    Checked, budgeted, journaled, then sent to whoever hears it; returns the record.
    Raises :class:`ChatRefused`.
    """
    from net.wire.messages import Chat

    line = clean_line(text)
    budget = _BUDGETS.setdefault(speaker, ChatBudget())
    budget.spend(now)
    table = runner.table
    seat = runner.seat_of(speaker)
    name = (table.seats[seat].name if seat is not None else None) or speaker.name
    entry = record(seat, name, line, runner.now())
    table.journal(entry)
    message = Chat(table=table.id, text=line, name=name, seat=seat)
    hidden, on = runner.spectator_chat == "hidden", game_on(table)
    for attachment in list(runner.attached):
        if hears(attachment.seat, seat, hidden, on):
            attachment.peer.send(message)
    return entry


def set_rule(runner: Any, setter: Any, rule: str) -> dict[str, Any] | None:
    """A player at ``runner``'s table sets its ``spectator_chat`` rule to ``rule``.

    Journaled and told to everyone at the table (spectators too: they should
    know when the players no longer hear them); returns the record, or
    ``None`` when the rule already was ``rule`` (nothing changes, nothing is
    said). Raises :class:`PlayersOnly` for a spectator and ``ValueError`` for
    a rule that is not one of :data:`SPECTATOR_CHAT_VALUES`.
    """
    rule = check_option(rule)
    seat = runner.seat_of(setter)
    if seat is None:
        raise PlayersOnly("Only the players choose whether they hear the spectators")
    if runner.spectator_chat == rule:
        return None
    table = runner.table
    name = table.seats[seat].name or setter.name
    entry = rule_record(rule, seat, name, runner.now())
    table.journal(entry)
    runner.spectator_chat = rule
    tell_rule(runner, [a.peer for a in runner.attached], seat, name)
    return entry


def tell_rule(runner: Any, peers: list[Any], seat: int | None, name: str | None) -> None:
    """Send the table's rule now to ``peers`` (with who set it, when someone did)."""
    from net.wire.messages import ChatRule

    rule: Literal["shown", "hidden"] = "hidden" if runner.spectator_chat == "hidden" else "shown"
    message = ChatRule(table=runner.table.id, spectator_chat=rule, name=name, seat=seat)
    for peer in peers:
        peer.send(message)
