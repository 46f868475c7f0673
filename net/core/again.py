"""Playing again with the same people: a finished table's proposal and the table it opens.

After a game, any player at the table may ask everyone there to play again (``again``:
the same game and options) or to play another game (``again`` with a ``game``). This is
the rule of it, without I/O, for :class:`net.core.host.HostCore`:

* The proposal opens a **new table at once** (its table record says ``again_of``): each
  person's seat is **reserved** for them (``reserve`` records), the table's bots sit down
  again at their level, and a countdown starts (:data:`AGAIN_FOR_S`, ``clowder host
  --again-for``). The proposer has said yes. Asking the same while it is open is a yes
  too, so two people pressing "play again" at the same instant make one table, never two.
* A **yes** takes the reserved seat, with the seat token the person already holds (their
  client keeps one token, and ``hello`` with it finds the newest table holding it). A
  **no** (or leaving the finished table) frees the seat: anyone may take it from the
  lobby, a spectator of the finished table included; with ``--again-bots`` a bot takes it
  when the countdown ends instead.
* The new game **starts** when every seat is taken (everyone said yes, or newcomers took
  the free ones), or when the countdown ends with at least the game's fewest players
  seated: the seats nobody took are then dropped (``shrink``). A person who dropped and
  never answered keeps their seat exactly as in a running game (a bot covers it after the
  takeover grace, until they come back with their token); a person who is there and did
  not answer has declined.
* When it starts, everyone at the finished table who said yes, and every spectator, is
  **moved** there (``joined`` with ``moved_from``): nobody goes back to the lobby, and
  nobody who left is pulled back in. If the countdown ends without enough people, those
  who said yes are moved to the new table's waiting room, which waits for newcomers as
  any table does.

Everything lives in the new table's journal (the ``again`` note names the finished table,
the proposer and which seat each old seat became), so a host restarted during the
countdown resumes the same choices (the countdown starts afresh). Who starts the new
game follows each game's rulebook: it is dealt anew, with a new seed (every game's
RULES.md says how its first player or dealer is chosen).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from engine import registry
from net.core.session import Session
from net.core.tables import TableError
from net.core.timers import Timer
from net.wire.messages import Again, Joined

if TYPE_CHECKING:
    from net.core.host import HostCore
    from net.core.table import TableRunner

AGAIN_FOR_S: Final = 30.0
"""How long a proposal to play again waits for everyone's answer."""

YES, NO, WAITING = "yes", "no", "waiting"


@dataclass
class Proposal:
    """One finished table's open proposal (see the module docstring)."""

    old: TableRunner
    new: TableRunner
    by: str
    seat_map: dict[int, int]
    """Old seat -> the new table's seat, for the finished table's people and bots."""
    answers: dict[int, str]
    """Each person's old seat -> ``"yes"``, ``"no"`` or ``"waiting"``."""
    ends_at_ns: int
    timer: Timer | None = None
    moved: set[int] = field(default_factory=set)
    """Old seats whose people were moved to the new table."""

    def people(self) -> list[int]:
        return sorted(self.answers)


class Evening:
    """The proposals of one host core (``HostCore.evening``)."""

    def __init__(
        self, core: HostCore, again_for_s: float = AGAIN_FOR_S, bots: bool = False
    ) -> None:
        self.core = core
        self.again_for_s = again_for_s
        self.bots = bots
        """``--again-bots``: a seat nobody took when the countdown ends gets a bot."""
        self.proposals: dict[str, Proposal] = {}
        """By the finished table's id."""
        self.gone: dict[str, set[int]] = {}
        """By the finished table's id: the seats whose people left it, or were moved from it
        to a table that plays again. A later proposal there neither asks nor seats them (a
        seat of theirs would be a dropped player's, and their token would hold two tables)."""

    # Asking and answering -------------------------------------------------------------

    def ask(self, session: Session, old: TableRunner, message: Again) -> None:
        """``again`` from ``session`` at ``old``: open a proposal, or say yes to the open one."""
        seat = self._person_seat(session, old)
        proposal = self.proposals.get(old.table.id)
        if proposal is not None:
            same = message.game is None or message.game == proposal.new.table.game.name
            if not same:
                raise TableError(
                    "proposal_open",
                    f"{proposal.by} already asked to play {proposal.new.table.game.title} "
                    "again: answer that first",
                )
            self.answer(session, old, True)
            return
        self._open(session, old, seat, message)

    def answer(self, session: Session, old: TableRunner, accept: bool) -> None:
        """``again_answer`` from ``session`` at ``old``."""
        seat = self._person_seat(session, old)
        proposal = self.proposals.get(old.table.id)
        if proposal is None:
            raise TableError("no_proposal", f"Nobody asked to play again at table {old.table.id}")
        if proposal.answers.get(seat) != WAITING:
            return  # answered already: the first answer stands
        if accept:
            self._take(proposal, seat)
        else:
            self._decline(proposal, seat)
        self._settle(proposal)

    def left(self, old: TableRunner, seat: int | None) -> None:
        """Someone left the finished table: a person who had not answered declined."""
        if seat is not None:
            self.gone.setdefault(old.table.id, set()).add(seat)
        proposal = self.proposals.get(old.table.id)
        if proposal is None or seat is None or proposal.answers.get(seat) != WAITING:
            return
        self._decline(proposal, seat)
        self._settle(proposal)

    def _person_seat(self, session: Session, old: TableRunner) -> int:
        if session.runner is not old:
            raise TableError("not_at_table", f"You are not at table {old.table.id}")
        seat = old.seat_of(session)
        if seat is None or not old.table.seats[seat].human:
            raise TableError("players_only", "Only the players of a game may ask to play again")
        if old.table.outcome is None:
            raise TableError("not_over", f"The game at table {old.table.id} is not over yet")
        return seat

    # Opening --------------------------------------------------------------------------

    def _open(self, session: Session, old: TableRunner, seat: int, message: Again) -> None:
        table = old.table
        game_name = message.game or table.game.name
        try:
            game = registry.get(game_name)
        except registry.UnknownGame as error:
            raise TableError("unknown_game", str(error)) from None
        same = game_name == table.game.name
        options = dict(table.options) if message.game is None else dict(message.options or {})
        gone = self.gone.get(table.id, set())
        carried = [
            index
            for index, info in enumerate(table.seats)
            if index not in gone and (info.human or (info.bot is not None and not info.gave_up))
        ]
        extra_bots = message.bots or 0
        count = message.seats or (len(table.seats) if same and extra_bots == 0 else None)
        if count is None:
            count = len(carried) + extra_bots
        if not game.min_players <= count <= game.max_players:
            raise TableError(
                "bad_table",
                f"{game.title} is for {game.min_players} to {game.max_players} players; "
                f"{count} would play",
            )
        if same and count == len(table.seats):
            seat_map = {index: index for index in carried}
        else:
            seat_map = {old_seat: new for new, old_seat in enumerate(carried[:count])}
        if not table.seats[seat].human or seat not in seat_map:
            raise TableError("bad_table", "The new table has no seat for you")
        core = self.core
        new = core.create_table(
            game_name,
            {**options, "takeover": table.takeover_s},
            seats=count,
            bots=0,
            created_by=session.name,
            again_of=table.id,
        )
        new.table.journal(
            {
                "r": "again",
                "of": table.id,
                "by": session.name,
                "seats": [[old_seat, new_seat] for old_seat, new_seat in seat_map.items()],
            }
        )
        answers: dict[int, str] = {}
        for old_seat, new_seat in seat_map.items():
            info = table.seats[old_seat]
            if info.human:
                new.table.reserve(new_seat, info.name or f"seat {old_seat}")
                answers[old_seat] = WAITING
            else:
                new.table.add_bot(bot=info.bot, level=info.level, seat=new_seat, name=info.name)
        for _ in range(extra_bots):
            if new.table.free_seats:
                level = next((i.level for i in table.seats if i.level and not i.human), None)
                new.table.add_bot(level=level)
        proposal = Proposal(old, new, session.name, seat_map, answers, 0)
        self._start(proposal)
        core.log(
            f"[{table.id}] {session.name} asks to play {game.title} again: table {new.table.id}"
        )
        self._take(proposal, seat)
        self._settle(proposal)

    def _start(self, proposal: Proposal) -> None:
        """Arm the countdown and tie the two tables together."""
        core = self.core
        proposal.ends_at_ns = core.now_ns + round(self.again_for_s * 1e9)
        proposal.timer = core.timers.call_at(proposal.ends_at_ns, self._countdown_over, proposal)
        self.proposals[proposal.old.table.id] = proposal
        proposal.old.again_status = lambda: self.status(proposal)
        proposal.new.on_start = lambda runner: self._started(proposal)
        proposal.old.broadcast([])

    # Seats ----------------------------------------------------------------------------

    def _take(self, proposal: Proposal, old_seat: int) -> None:
        """Old seat ``old_seat``'s person plays again: their reserved seat, their token.

        Not connected there until they are moved there (or come back with the token): a
        person who says yes and then goes is, at the start, a dropped player (a bot covers
        the seat after the takeover grace), never a seat that waits for nobody.
        """
        info = proposal.old.table.seats[old_seat]
        new_seat = proposal.seat_map[old_seat]
        table = proposal.new.table
        table.sit(info.name or "", new_seat, player=info.player, token=info.token)
        if not any(a.seat == new_seat for a in proposal.new.attached):
            table.disconnect(new_seat, proposal.new.now())
        proposal.answers[old_seat] = YES

    def _decline(self, proposal: Proposal, old_seat: int) -> None:
        new_seat = proposal.seat_map[old_seat]
        proposal.new.table.unsit(new_seat)  # the reservation goes: a free seat
        proposal.answers[old_seat] = NO

    def _settle(self, proposal: Proposal) -> None:
        """After an answer: start when full (the table does), end when nobody is left."""
        self.core._tables_changed()
        if proposal.old.table.id not in self.proposals:
            return  # started (on_start) while a seat was being taken
        if all(answer == NO for answer in proposal.answers.values()):
            self._close(proposal)
            self.core.close_table(proposal.new.table.id, "nobody played again")
            return
        proposal.new.start_if_full()
        if proposal.old.table.id in self.proposals:
            proposal.old.broadcast([])

    def _countdown_over(self, proposal: Proposal) -> None:
        """Time is up: the silent decline, the dropped keep their seat, then start if enough."""
        proposal.timer = None
        if self.proposals.get(proposal.old.table.id) is not proposal:
            return
        old, new = proposal.old, proposal.new
        try:
            for old_seat, answer in list(proposal.answers.items()):
                if answer != WAITING:
                    continue
                if old.table.seats[old_seat].connected:
                    self._decline(proposal, old_seat)
                else:
                    self._take(proposal, old_seat)
            table = new.table
            if self.bots:
                for index, info in enumerate(table.seats):
                    if info.free:
                        table.add_bot(seat=index)
            taken = [index for index, info in enumerate(table.seats) if not info.free]
            if table.free_seats and len(taken) >= table.game.min_players and taken:
                new.shrink(taken)
                proposal.seat_map = {
                    old_seat: taken.index(new_seat)
                    for old_seat, new_seat in proposal.seat_map.items()
                    if new_seat in taken
                }
        except TableError as error:  # not saved (a full disk): the table waits as it is
            self.core.log(f"[{new.table.id}] could not settle playing again: {error}")
        new.start_if_full()
        if self.proposals.get(old.table.id) is proposal:
            self._move(proposal)  # not enough people: the yeses wait at the new table
            self._close(proposal)

    def _started(self, proposal: Proposal) -> None:
        """The new game started: everyone who said yes, and the spectators, go there."""
        if self.proposals.get(proposal.old.table.id) is not proposal:
            return
        self._move(proposal)
        self._close(proposal)

    def _move(self, proposal: Proposal) -> None:
        old, new = proposal.old, proposal.new
        # Everyone who said yes plays at the new table now (a dropped one with their token):
        # none of them is asked again at the finished table.
        yeses = {seat for seat, answer in proposal.answers.items() if answer == YES}
        self.gone.setdefault(old.table.id, set()).update(yeses)
        for attachment in list(old.attached):
            seat = attachment.seat
            if seat is None:
                new_seat = None
            elif proposal.answers.get(seat) == YES and seat not in proposal.moved:
                new_seat = proposal.seat_map[seat]
                proposal.moved.add(seat)
            else:
                continue  # declined: stays with the results until they leave
            peer = attachment.peer
            old.detach(peer, went_to=new.table.id)
            if isinstance(peer, Session):
                peer.runner = new
            token = None if new_seat is None else new.table.seats[new_seat].token
            peer.send(
                Joined(
                    table=new.table.id,
                    role="spectator" if new_seat is None else "player",
                    seat=new_seat,
                    token=token,
                    moved_from=old.table.id,
                )
            )
            new.attach(peer, new_seat)

    def _close(self, proposal: Proposal) -> None:
        self.proposals.pop(proposal.old.table.id, None)
        if proposal.timer is not None:
            proposal.timer.cancel()
            proposal.timer = None
        proposal.old.again_status = None
        proposal.new.on_start = None
        if proposal.old.table.id in self.core.tables:
            proposal.old.broadcast([])

    def closing(self, table_id: str) -> None:
        """A table is being closed: a proposal it has (or is the new table of) ends."""
        self.gone.pop(table_id, None)
        for proposal in list(self.proposals.values()):
            if table_id in (proposal.old.table.id, proposal.new.table.id):
                self._close(proposal)

    # What people see ------------------------------------------------------------------

    def status(self, proposal: Proposal) -> dict[str, Any]:
        """``view.again`` for everyone at the finished table (net/PROTOCOL.md)."""
        old, new = proposal.old, proposal.new
        seats = []
        for old_seat, _new_seat in sorted(proposal.seat_map.items(), key=lambda pair: pair[1]):
            info = old.table.seats[old_seat]
            answer = proposal.answers.get(old_seat, YES)  # bots always play again
            seats.append(
                {
                    "seat": old_seat,
                    "name": info.name or f"seat {old_seat}",
                    "bot": not info.human,
                    "answer": answer,
                }
            )
        left_ns = max(0, proposal.ends_at_ns - self.core.now_ns)
        return {
            "game": new.table.game.name,
            "title": new.table.game.title,
            "table": new.table.id,
            "by": proposal.by,
            "ends_in": round(left_ns / 1e9, 1),
            "seats": seats,
            "free": new.table.free_seats,
        }

    # After a restart ------------------------------------------------------------------

    def resume(self, records_of: Callable[[str], Iterable[Mapping[str, Any]]]) -> None:
        """Tie each table that plays again to its finished table, as the journals say, and
        start the countdown afresh (the answers are in the new table's seats)."""
        core = self.core
        for new in list(core.tables.values()):
            table = new.table
            old = core.tables.get(table.again_of or "")
            if old is None or table.started or old.table.outcome is None:
                continue
            note = next((r for r in records_of(table.id) if r.get("r") == "again"), None)
            if note is None:
                continue
            seat_map = {int(pair[0]): int(pair[1]) for pair in note.get("seats", [])}
            answers: dict[int, str] = {}
            for old_seat, new_seat in seat_map.items():
                if not old.table.seats[old_seat].human or new_seat >= len(table.seats):
                    continue
                info = table.seats[new_seat]
                answers[old_seat] = WAITING if info.reserved else (YES if info.human else NO)
            proposal = Proposal(old, new, str(note.get("by") or "?"), seat_map, answers, 0)
            self._start(proposal)
