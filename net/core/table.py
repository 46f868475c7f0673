"""The live side of one table on the host: its clock, timers, bots and broadcasts.

:class:`net.core.tables.Table` is the bookkeeping; a :class:`TableRunner` brings
it to life on the host core's clock (:class:`net.core.timers.Timers`), with
no I/O and no clock of its own: it is driven by the times the core is given,
so the same code runs on the real clock and in the simulator. It keeps the
table's clock, fires the engine's timers when they are due, lets bots play
their seats (after a short, human-readable pause), covers dropped players
after the grace period, and after every change sends each attached peer
*its own* view: players their seat's, spectators the public one. Hidden
cards never reach a peer because the only things sent are
``game.view(state, seat)`` and the events visible to that seat.

At a real-time table (a game that says so, :attr:`engine.core.Game.realtime`,
like Black Cat) the game may open a real-time moment (:meth:`Game.reveal`):
after each broadcast the runner opens the arbiter for it (:mod:`net.core.realtime`),
takes stamped claims from players and, after their reaction time, from its
bots, and at the arbiter's deadline applies the winning claim and tells the
table why it won. While a moment is open, whatever a bot chooses goes through
the arbiter after its reaction time; while none is, bots act at the table's
pace, as at a turn-based table.

A person alone with bots may learn the game there (:meth:`TableRunner.learn`, the
``learn`` message): the runner then holds the first moments in which they may claim
(table time stands still, bots and timers wait, as when nobody is here, but the learner
may act) until they claim or let the moment go on, and its bots react slower.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.bots import Bot, make_bot
from engine.core import Event, IllegalAction, visible_events
from net.core import chat
from net.core.arbiter import NO_LAG, Arbiter, LagSource, Refused
from net.core.realtime import (
    NO_TYPED_CLAIMS,
    UNMEASURED,
    Referee,
    Sync,
    bot_reaction_ns,
    claim_problem,
)
from net.core.tables import Table, TableError
from net.core.timers import Timer, Timers
from net.wire.messages import Joined, Message, Presence, View

BOT_DELAY_S = 0.6
"""How long a bot waits before acting, so people can follow what it does."""

START_COUNTDOWN_S = 3.0
"""Real-time tables: the visible countdown between every player's screen being ready and
the first moment opening (nobody, bot or person, may act before it ends)."""

STORAGE_RETRY_S = 2.0
"""A table held because its journal could not be written tries a write again this often
(:meth:`TableRunner.hold_for_storage`), and goes on by itself once one succeeds."""

STORAGE_LOG_QUIET_S = 60.0
"""A table's holds are logged at most once this often: a disk with a few bytes free lets a
small write through now and then, and a table that holds and goes on again every few
seconds is one line a minute, with how often it happened."""


class Peer(Protocol):
    """A connection as the runner sees it."""

    name: str

    @property
    def clock(self) -> LagSource | None:
        """The connection's clock estimate (``None``: not measured)."""

    def send(self, message: Message, frame: bytes | None = None) -> None: ...

    def encode(self, message: Message, *, shape_tested: bool = False) -> bytes: ...

    @property
    def rtt_ms(self) -> float | None: ...


def table_arbiter(table: Table) -> Arbiter:
    """The arbiter for ``table``: the host's, with the game's own tie threshold if it has one."""
    threshold_s = table.game.tie_threshold_s(table.options)
    if threshold_s is None:
        return Arbiter()
    return Arbiter(tie_threshold_ns=round(threshold_s * 1e9))


def lag_of(peer: Peer) -> LagSource:
    """A peer's lag figures for the arbiter: its clock estimate, if it has one."""
    return UNMEASURED if peer.clock is None else peer.clock


@dataclass(eq=False)
class Attachment:
    """A peer at this table: its seat (``None``: spectator)."""

    peer: Peer
    seat: int | None


class TableRunner:
    """Runs one :class:`Table` on the host core's clock."""

    def __init__(
        self,
        table: Table,
        timers: Timers,
        *,
        clock_start: float = 0.0,
        bot_delay_s: float = BOT_DELAY_S,
        bot_reaction_scale: float = 1.0,
        arbiter: Arbiter | None = None,
        log: Callable[[str], None] = print,
        on_change: Callable[[TableRunner], None] | None = None,
        on_over: Callable[[TableRunner], None] | None = None,
        run_unattended: bool = False,
        start_countdown_s: float = START_COUNTDOWN_S,
    ) -> None:
        self.table = table
        self.run_unattended = run_unattended
        """Let bots and timers go on while no person is here (tests, benchmarks). Otherwise a
        table nobody sits at or watches holds still: bots never play on their own."""
        self.start_countdown_s = start_countdown_s
        self._awaiting_ready = False
        """Real-time: the game is dealt, the countdown waits for every player's screen."""
        self._starts_at: float | None = None
        """Real-time: table time when the countdown ends and the first moment opens."""
        self._countdown_handle: Timer | None = None
        self.bot_delay_s = bot_delay_s
        self.bot_reaction_scale = bot_reaction_scale
        """Real-time tables: bots' reaction times are multiplied by this (tests, demos)."""
        self.referee = Referee(arbiter or table_arbiter(table), table.game.typed_claims)
        self.log = log
        self.on_change = on_change
        self.on_over = on_over
        """Called once when the game is seen to end, before the views that show the end are
        built, so what it sets (:attr:`ratings`) goes out with them."""
        self.ratings: list[dict[str, int] | None] | None = None
        """Once the game is over and rated: each seat's rating and its change
        (``{"rating", "change"}``; ``None``: that seat was not rated). Sent with every view."""
        self.attached: list[Attachment] = []
        self._timers = timers
        # Table time continues from where the journal ended (time down is skipped).
        self._offset = clock_start - timers.now
        self._bots: dict[int, Bot] = {}
        self._bot_handle: Timer | None = None
        self._tick_handle: Timer | None = None
        self._takeover_handle: Timer | None = None
        self._storage_retry: Timer | None = None
        self.on_start: Callable[[TableRunner], None] | None = None
        """Called once the game is dealt (a table that plays again moves its people here)."""
        self.again_status: Callable[[], dict[str, Any]] | None = None
        """A finished table's open proposal to play again, as ``view.again`` shows it."""
        self.tonight: Callable[[], dict[str, Any] | None] | None = None
        """Tonight's standings on this host, sent with the views of a finished game."""
        self.storage_problem: str | None = None
        """Why the table is held (its journal could not be written: a full disk), as players
        read it; ``None``: not held. See :meth:`hold_for_storage`."""
        self._storage_logged_at: float | None = None
        self._holds_unlogged = 0
        self._hold_logged = False
        self._storage_reason = ""
        self._announced_end = self.table.outcome is not None
        self.ended_at: float | None = timers.now if self._announced_end else None
        """Loop time when the game was seen to end (the host closes the table a while later)."""
        self.ended_now: float | None = clock_start if self._announced_end else None
        """Table time when the game was seen to end (how long it lasted: it began at 0; a
        restored game that was over ended at its last journaled time)."""
        self.spectator_chat = "shown"
        """The table's ``spectator_chat`` rule (net.core.chat): "hidden" keeps watchers' chat from
        the players while the game is on."""
        self.unattended_since: float | None = timers.now
        """Host time since which no person has been here (``None``: someone is)."""
        self.learner: int | None = None
        """The seat of the person learning the game here, alone with bots (``learn``)."""
        self.learner_pace = 1
        """The learner's bots react this many times slower (``learn.pace``)."""
        self._holds_left = 0
        """How many more moments to hold for the learner (``learn.hold``)."""
        self._held_reveal: int | None = None
        """The moment held for the learner now (``None``: none is)."""
        self._looked_at: int | None = None
        """The last moment :meth:`_follow_hold` considered holding (each is held once)."""
        self._held_at: float | None = timers.now if self.paused() else None
        """Host time since which table time has stood still (``None``: it runs); see
        :meth:`_follow_presence`."""
        self._decide_handle: Timer | None = None
        self._bot_claims: dict[int, Timer | None] = {}
        self._claims_version = -1
        """The table version the bots' choices for the open reveal were made at."""
        """Real-time: the bots that already chose for the open reveal (``None``: they pass)."""
        self._sync_reveal()
        self._arm_takeover()

    def now(self) -> float:
        """Table time in seconds (what the engine's ``now`` means for this table).

        It stands still while the table is paused (nobody here), so a game's
        clocks resume where they were when someone comes back, instead of every
        timer that fell due meanwhile firing at once.
        """
        return (self._timers.now if self._held_at is None else self._held_at) + self._offset

    def _follow_presence(self) -> None:
        """Hold table time when the table pauses; let it run on, from where it stood, when
        someone comes back (a countdown left running is re-armed for what it had left)."""
        if self.paused():
            if self._held_at is None:
                self._held_at = self._timers.now
            return
        if self._held_at is None:
            return
        self._offset -= self._timers.now - self._held_at
        self._held_at = None
        left = self.starts_in()
        if left is not None:
            if self._countdown_handle is not None:
                self._countdown_handle.cancel()
            self._countdown_handle = self._timers.call_later(left, self._count_down_over)
        self._arm_takeover()

    @property
    def realtime(self) -> bool:
        """Whether this table's game has real-time moments (claims raced for a reveal)."""
        return self.table.game.realtime

    def open_reveal(self) -> int | None:
        """The game's real-time moment open now (``None``: none, or not a real-time game)."""
        state = self.table.state
        if not self.realtime or state is None or self.table.outcome is not None:
            return None
        if self.counting_down() or self.storage_problem is not None:
            return None
        return self.table.game.reveal(state)

    @property
    def attended(self) -> bool:
        """Whether a person is here: a connected player in a human seat, or a spectator."""
        return any(a.seat is None or self.table.seats[a.seat].human for a in self.attached)

    def paused(self) -> bool:
        """Bots and timers hold still: nobody is here (unless told to run unattended), the
        table cannot be saved (:meth:`hold_for_storage`), or a moment is held for the
        learner (:meth:`learn`). Table time stands still too."""
        if self.storage_problem is not None or self._held_reveal is not None:
            return True
        return not self.run_unattended and not self.attended

    def counting_down(self) -> bool:
        """Real-time: the game is dealt but has not begun (waiting for screens, or counting)."""
        if self._awaiting_ready:
            return True
        return self._starts_at is not None and self.now() < self._starts_at

    def starts_in(self) -> float | None:
        """Seconds until a real-time game begins (``None``: not counting down)."""
        if self._starts_at is None or self._awaiting_ready:
            return None
        left = self._starts_at - self.now()
        return left if left > 0 else None

    def _maybe_count_down(self) -> None:
        """Start the countdown once every human seat is here (or covered by a bot)."""
        if not self._awaiting_ready:
            return
        ready = all(info.connected or info.bot is not None for info in self.table.seats)
        if not ready or self.paused():
            return
        self._awaiting_ready = False
        self._starts_at = self.now() + self.start_countdown_s
        self.log(f"[{self.table.id}] starts in {self.start_countdown_s:g} s")
        self._countdown_handle = self._timers.call_later(
            self.start_countdown_s, self._count_down_over
        )

    def _count_down_over(self) -> None:
        self._countdown_handle = None
        self.broadcast([])

    def covered_shares(self) -> list[float]:
        """Per seat, the share of the game so far (or, once over, of the whole game) that a
        bot played for a person (:meth:`net.core.tables.Table.covered_shares`)."""
        end = self.ended_now if self.ended_now is not None else self.now()
        return self.table.covered_shares(end)

    def names(self) -> dict[int, str]:
        return {index: seat.name or f"seat {index}" for index, seat in enumerate(self.table.seats)}

    # Peers ---------------------------------------------------------------------

    def attach(self, peer: Peer, seat: int | None) -> None:
        self.detach(peer)
        self.attached.append(Attachment(peer, seat))
        if seat is None:
            self.table.spectators += 1
        else:
            self.table.connect(seat, self.now())
            self._bots.pop(seat, None)  # a bot that covered the seat hands it back
            self._drop_bot_claim(seat)
        if self.attended:
            self.unattended_since = None
        self._follow_presence()
        self._arm_takeover()
        self._maybe_count_down()
        self._follow_hold()
        self._send_view(self.attached[-1], [])
        chat.tell_rule(self, [peer], None, None)  # also "shown": a client back may hold "hidden"
        self.broadcast_presence()
        self._schedule()
        self._sync_reveal()

    def detach(self, peer: Peer, *, went_to: str | None = None) -> None:
        """``peer`` is no longer here; a player's seat is kept for their token. ``went_to``:
        the table they went on to (play again, or a join elsewhere), for the log: they did
        not drop."""
        for attachment in [a for a in self.attached if a.peer is peer]:
            self.attached.remove(attachment)
            if attachment.seat is None:
                self.table.spectators -= 1
            elif not any(a.seat == attachment.seat for a in self.attached):
                self.table.disconnect(attachment.seat, self.now())
                how = "dropped" if went_to is None else f"went to {went_to}"
                self.log(f"[{self.table.id}] {peer.name} {how} (seat kept)")
            if not self.attended and self.unattended_since is None:
                self.unattended_since = self._timers.now
            self._follow_presence()
            self._arm_takeover()
            self.broadcast_presence()

    def seat_given_up(self, seat: int) -> None:
        """A player gave ``seat`` up for good: a fresh bot plays it from now on."""
        self._bots.pop(seat, None)
        self._maybe_count_down()
        self.broadcast_presence()
        self._schedule()
        self._sync_reveal()

    def shrink(self, keep: list[int]) -> None:
        """Keep only the seats ``keep`` (a table that plays again, without the seats nobody
        took): the table's seats and every attached peer's seat number follow, and a player
        whose seat number changed is told with a ``joined`` of its new one."""
        self.table.shrink(keep)
        for attachment in self.attached:
            if attachment.seat is None:
                continue
            old, new = attachment.seat, keep.index(attachment.seat)
            attachment.seat = new
            if new != old:
                token = self.table.seats[new].token
                attachment.peer.send(
                    Joined(table=self.table.id, role="player", seat=new, token=token)
                )

    def seat_of(self, peer: Peer) -> int | None:
        return next((a.seat for a in self.attached if a.peer is peer), None)

    # Changes -------------------------------------------------------------------

    def start_if_full(self) -> None:
        """Deal the game once every seat is taken. A start that cannot be saved (a full
        disk) holds the table (:meth:`hold_for_storage`, from the journal's append) and is
        not an error of whoever took the last seat: the storage retry starts it once saved.
        """
        try:
            started = self.table.start_if_full()
        except TableError as error:
            if error.code != "host_storage" or self.storage_problem is None:
                raise
            return
        if started:
            # A game starts at table time 0 (the engine's new_game has no clock: its first
            # timers count from 0). Nothing before the start was journaled with a time.
            self._offset = -(self._timers.now if self._held_at is None else self._held_at)
            for info in self.table.seats:  # a grace period counts from the start (table time 0)
                if info.dropped_at is not None:
                    info.dropped_at = 0.0
            self._arm_takeover()
            names = ", ".join(seat.name or "?" for seat in self.table.seats)
            self.log(f"[{self.table.id}] {self.table.game.title} starts: {names}")
            if self.realtime and self.start_countdown_s > 0:
                self._awaiting_ready = True
                self._maybe_count_down()
            self.broadcast([])
            if self.on_start is not None:
                self.on_start(self)

    def act(
        self, seat: int, action: Mapping[str, Any], explained_by: Iterable[Event] = ()
    ) -> list[Event]:
        """Apply a seat's action; raises :class:`IllegalAction` or :class:`TableError`.

        ``explained_by``: host events sent before the game's own (a claim's ruling).
        """
        events = self.table.act(seat, action, self.now())
        self.broadcast([*explained_by, *events])
        return events

    def broadcast(self, events: list[Event]) -> None:
        """Send every attached peer its own view and the events it may see."""
        sent_at_ns = self._timers.now_ns
        self._follow_hold()
        outcome = self.table.outcome
        if outcome is not None and not self._announced_end:
            self._announced_end = True
            self.ended_at = self._timers.now
            self.ended_now = self.now()
            names = " and ".join(self.table.seats[s].name or "?" for s in outcome.winners)
            self.log(f"[{self.table.id}] game over: {names} won, scores {list(outcome.scores)}")
            if self.on_over is not None:
                self.on_over(self)
        # One view (and one encoding) per seat: spectators all share one frame.
        frames: dict[int | None, tuple[View, bytes]] = {}
        for attachment in self.attached:
            shared = frames.get(attachment.seat)
            if shared is None:
                message = self._view_message(attachment.seat, events)
                # A view's shape is the game's, checked by the contract tests.
                frame = attachment.peer.encode(message, shape_tested=True)
                shared = frames[attachment.seat] = (message, frame)
            attachment.peer.send(*shared)
        self._schedule()
        self._sync_reveal(sent_at_ns)
        if self.on_change is not None:
            self.on_change(self)

    def broadcast_presence(self) -> None:
        seats = self.presence()
        for attachment in self.attached:
            attachment.peer.send(Presence(table=self.table.id, seats=seats))
        if self.on_change is not None:
            self.on_change(self)

    def presence(self) -> list[dict[str, Any]]:
        """Each seat's public info plus its player's round trip, for the connection line."""
        seats = [seat.public() for seat in self.table.seats]
        for attachment in self.attached:
            if attachment.seat is not None:
                rtt = attachment.peer.rtt_ms
                seats[attachment.seat]["rtt_ms"] = None if rtt is None else round(rtt, 1)
        return seats

    def _send_view(self, attachment: Attachment, events: list[Event]) -> None:
        attachment.peer.send(self._view_message(attachment.seat, events))

    def _view_message(self, seat: int | None, events: list[Event]) -> View:
        """The ``view`` message for ``seat``: its own view and the events it may see.

        The game's view goes out as the game built it; what only the host knows (who
        sits here before the deal, the real-time start countdown) goes beside it, so a
        client gets the view type its game declares.
        """
        view = self.table.view(seat)
        waiting = None
        if view is None:
            waiting = {"seats": self.presence(), "seat": seat}
        starting = view is not None and self.counting_down()
        left = self.starts_in() if starting else None
        return View(
            table=self.table.id,
            version=self.table.version,
            view=view,
            events=visible_events(events, seat),
            waiting=waiting,
            starting=True if starting else None,
            starts_in=None if left is None else round(left, 2),
            ratings=self.ratings if self.table.outcome is not None else None,
            again=self.again_status() if self.again_status is not None else None,
            tonight=(
                self.tonight()
                if self.tonight is not None and self.table.outcome is not None
                else None
            ),
            paused=self.storage_problem,
            contests=(
                self.table.contests.to_data()
                if self.realtime and self.table.outcome is not None
                else None
            ),
            held=True if self._held_reveal is not None else None,
        )

    # Timers and bots -----------------------------------------------------------

    def _schedule(self) -> None:
        """(Re)arm the engine timer and the bots' next move after any change."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        holding = self.paused() or self.counting_down()
        deadline = self.table.deadline()
        if deadline is not None and not holding:
            delay = max(0.0, deadline - self.now())
            self._tick_handle = self._timers.call_later(delay, self._fire_timers)
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None
        if (
            self.table.started
            and not holding
            and self.table.outcome is None
            and self.table.bot_seats()
            and self.open_reveal() is None  # while one is open, bots claim: _sync_reveal
        ):
            self._bot_handle = self._timers.call_later(self.bot_delay_s, self._play_bots)

    def _fire_timers(self) -> None:
        self._tick_handle = None
        before = self.table.state
        try:
            events = self.table.tick(self.now())
        except TableError:  # not saved (the table is now held): the timer fires once it goes on
            return
        if not events and self._same_views(before, self.table.state):
            self._schedule()  # a change nobody can see (Black Cat's stall clock): no broadcast
            return
        self.broadcast(events)

    def _same_views(self, before: Any, after: Any) -> bool:
        """Whether every seat (and a spectator) sees the same in ``before`` and ``after``."""
        if before is after:
            return True
        if before is None or after is None:
            return False
        game = self.table.game
        seats: list[int | None] = [None, *range(len(self.table.seats))]
        return all(game.view(before, seat) == game.view(after, seat) for seat in seats)

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            name = self.table.seats[seat].bot or "random"
            bot = self._bots[seat] = make_bot(self.table.game.name, name, self.table.seed + seat)
        return bot

    def _play_bots(self) -> None:
        """Let the first bot that wants to act do so; the broadcast re-arms the next."""
        self._bot_handle = None
        if self.paused() or self.counting_down():
            return
        for seat in self.table.bot_seats():
            bot = self._bot(seat)
            view = self.table.view(seat)
            action = None if view is None else bot.choose(view)
            if action is None:
                continue
            try:
                self.act(seat, action)
            except (IllegalAction, TableError) as error:  # a bot bug must not stall the table
                if self.storage_problem is not None:
                    return  # not saved: the table is held, and the bot plays once it goes on
                self.log(f"[{self.table.id}] bot at seat {seat} was refused: {error}")
                if self._play_a_listed_action(seat, view):
                    return
                continue
            return

    def _play_a_listed_action(self, seat: int, view: Mapping[str, Any] | None) -> bool:
        """A bot's choice was refused: play the first of the view's legal actions that the
        rules take instead, so a bot's bug costs a move, not the table (it would otherwise
        propose the same refused move at every turn). Returns whether one was played."""
        for action in (view or {}).get("legal") or []:
            try:
                self.act(seat, action)
            except (IllegalAction, TableError):
                if self.storage_problem is not None:
                    return True  # held: nothing more is tried now
                continue
            return True
        return False

    def _arm_takeover(self) -> None:
        """Arm the check for the first dropped seat whose grace period will run out.

        Grace periods count in table time, which stands still while nobody is
        here: a paused table arms nothing (coming back re-arms it).
        """
        if self._takeover_handle is not None:
            self._takeover_handle.cancel()
            self._takeover_handle = None
        table = self.table
        if self.paused() or table.takeover_s <= 0 or not table.started or table.outcome:
            return
        dropped = [
            info.dropped_at
            for info in table.seats
            if info.human and info.bot is None and info.dropped_at is not None
        ]
        if dropped:
            delay = min(dropped) + table.takeover_s - self.now()
            self._takeover_handle = self._timers.call_later(delay, self._take_over)

    def _take_over(self) -> None:
        """A bot covers each dropped seat whose grace period has run out."""
        self._takeover_handle = None
        for seat in self.table.takeover_due(self.now()):
            self.table.cover(seat, self.now())
            self._bots.pop(seat, None)
            self.log(f"[{self.table.id}] a bot plays for {self.table.seats[seat].name} for now")
            self._maybe_count_down()
            self.broadcast_presence()
            self._schedule()
            self._sync_reveal()
        self._arm_takeover()

    # Real-time moments -----------------------------------------------------------

    def claim(
        self,
        seat: int,
        action: Mapping[str, Any],
        reveal: int,
        reaction_ns: int,
        arrived_ns: int,
        stamps: tuple[int, int] | None = None,
    ) -> None:
        """Take a seat's claim on ``reveal``; the ruling comes at the arbiter's deadline.

        ``stamps`` (``drawn_ns``, ``acted_ns``) match a typed answer to its typing notice.

        Raises :class:`TableError` (``claim_refused``, or ``not_started``) and,
        for an action the rules refuse, :class:`IllegalAction`: a claim the
        engine could not apply must not win the card from a valid one.
        """
        if self.table.state is None:
            raise TableError("not_started", f"Table {self.table.id} is waiting for players")
        problem = claim_problem(action, reveal)
        if problem is not None:
            raise TableError("claim_refused", problem)
        if reveal == self.referee.current_reveal:
            self.table.game.apply(self.table.state, seat, dict(action), self.now())
        result = self.referee.claim(seat, dict(action), reveal, reaction_ns, arrived_ns, stamps)
        if isinstance(result, Refused):
            raise TableError("claim_refused", self.referee.refusal_text(result, self.names()))
        self._arm_decision()

    def typing_notice(
        self, seat: int, reveal: int, drawn_ns: int, acted_ns: int, arrived_ns: int
    ) -> None:
        """Take a seat's typing notice (Katootsie's answers); raises :class:`TableError`.

        The answer that follows with these stamps is credited against this
        arrival, and a decision it could still win or tie waits for it (bounded).
        """
        if self.table.state is None:
            raise TableError("not_started", f"Table {self.table.id} is waiting for players")
        if not self.referee.typed_claims:
            raise TableError("invalid_action", NO_TYPED_CLAIMS)
        refused = self.referee.notice(seat, reveal, drawn_ns, acted_ns, arrived_ns)
        if refused is not None:
            raise TableError("claim_refused", self.referee.refusal_text(refused, self.names()))
        self._arm_decision()  # a decision this typist could still win now waits for the answer

    def _claim_seats(self) -> dict[int, LagSource]:
        """Who may claim now: bots with no lag, attached players with their connection's."""
        seats: dict[int, LagSource] = {seat: NO_LAG for seat in self.table.bot_seats()}
        for attachment in self.attached:
            if attachment.seat is not None and attachment.seat not in seats:
                seats[attachment.seat] = lag_of(attachment.peer)
        return seats

    def _sync_reveal(self, sent_at_ns: int | None = None) -> None:
        """After a broadcast (sent at ``sent_at_ns``), open or close the arbiter to match."""
        if not self.realtime:
            return
        now = self._timers.now_ns if sent_at_ns is None else sent_at_ns
        result = self.referee.sync(self.open_reveal(), now, self._claim_seats())
        if result in (Sync.OPENED, Sync.CLOSED):
            self._cancel_claims()
        elif self._claims_version != self.table.version:
            # The moment is the same but the table changed (Black Cat's stall): bots that
            # passed look again; a bot already reacting keeps its claim.
            for seat in [seat for seat, handle in self._bot_claims.items() if handle is None]:
                del self._bot_claims[seat]
        self._claims_version = self.table.version
        if self.referee.current_reveal is not None:
            self._schedule_bot_claims(self.referee.current_reveal)

    def _cancel_claims(self) -> None:
        if self._decide_handle is not None:
            self._decide_handle.cancel()
            self._decide_handle = None
        for handle in self._bot_claims.values():
            if handle is not None:
                handle.cancel()
        self._bot_claims.clear()

    def _drop_bot_claim(self, seat: int) -> None:
        """A bot's pending claim for ``seat`` is withdrawn (its player is back)."""
        handle = self._bot_claims.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _schedule_bot_claims(self, reveal: int) -> None:
        """Each bot taking part picks its action now and claims after its reaction time."""
        if self.paused():
            return
        for seat in self.table.bot_seats():
            if seat in self._bot_claims or not self.referee.takes_part(seat):
                continue
            bot = self._bot(seat)
            view = self.table.view(seat)
            action = None if view is None else bot.choose(view)
            if action is None:
                self._bot_claims[seat] = None
                continue
            reaction = bot_reaction_ns(
                bot,
                self.bot_reaction_scale * self.learner_pace,
                self.referee.arbiter.min_reaction_ns,
            )
            self._bot_claims[seat] = self._timers.call_later(
                reaction / 1e9, self._bot_claim, seat, reveal, dict(action), reaction
            )

    def _bot_claim(self, seat: int, reveal: int, action: dict[str, Any], reaction_ns: int) -> None:
        sent_at = self.referee.sent_at_ns
        if self.referee.current_reveal != reveal or sent_at is None:
            return
        if seat not in self.table.bot_seats():
            return  # the player came back meanwhile
        arrived = self._timers.now_ns
        reported = min(reaction_ns, arrived - sent_at)  # never more than has passed
        try:
            if self.table.game.is_claim(action):
                self.claim(seat, action, reveal, reported, arrived)
            else:
                # An ordinary move while a moment is open (Kiitos' next letter while a word
                # may be challenged) is applied as a person's is: at once, no claim event.
                self.act(seat, action)
        except (IllegalAction, TableError) as error:  # a bot bug must not stall the table
            if self.storage_problem is not None:
                return  # not saved: the table is held, as a person's move would be refused
            self.log(f"[{self.table.id}] bot at seat {seat} was refused: {error}")

    def _arm_decision(self) -> None:
        """(Re)arm the timer for the arbiter's deadline, which each new claim may move."""
        if self._decide_handle is not None:
            self._decide_handle.cancel()
            self._decide_handle = None
        deadline = self.referee.deadline_ns()
        if deadline is not None:
            self._decide_handle = self._timers.call_at(
                max(deadline, self._timers.now_ns), self._decide
            )

    def _decide(self) -> None:
        """At the deadline: apply the winning claim, explained to everyone."""
        self._decide_handle = None
        ruling = self.referee.decide(self._timers.now_ns, self.names(), self.table.game.settle_tie)
        if ruling is None:
            self._arm_decision()
            return
        self.log(f"[{self.table.id}] {ruling.events[0].text.splitlines()[0]}")
        # Kept for replays (net.store.replays: a note, not a change; restore steps over it).
        told = [event.to_data() for event in ruling.events if event.visible_to(None)]
        try:
            self.table.ruling(ruling.seat, told)
            self.act(ruling.seat, ruling.action, explained_by=ruling.events)
        except (IllegalAction, TableError) as error:
            if self.storage_problem is not None:
                return  # not saved: the moment opens again when the table goes on
            # The claim was checked on arrival and nothing changed since, so this is a bug;
            # the reveal opens again and the table goes on.
            self.log(f"[{self.table.id}] the winning claim could not be applied: {error}")
            self.broadcast(list(ruling.events))

    # Learning ------------------------------------------------------------------------

    def learn(self, seat: int, *, hold: int | None = None, pace: int | None = None) -> None:
        """The person at ``seat``, alone with bots, learns the game; raises :class:`TableError`.

        ``hold``: how many of the next moments in which they may claim are held for them
        (``None``: as many as before); ``pace``: the bots react this many times slower
        (``None``: as before). A moment held now goes on (a learner who has read it lets
        the bots have their go): its reactions count from now, for everyone.
        """
        others = [info for index, info in enumerate(self.table.seats) if index != seat]
        if any(info.human or info.free for info in others):
            raise TableError(
                "not_alone",
                "Only a person alone with bots learns at a table: here others play too",
            )
        if self.learner is None:
            self._looked_at = self.open_reveal()  # a moment open already goes on as it is
        self.learner = seat
        if pace is not None:
            self.learner_pace = pace
        if hold is not None:
            self._holds_left = hold
        held = self._held_reveal
        if held is None:
            return
        self._held_reveal = None
        self._follow_presence()
        if self.referee.current_reveal == held:
            self.referee.restart(self._timers.now_ns, self._claim_seats())
        self.log(f"[{self.table.id}] the learner lets moment {held} go on")
        self.broadcast([])

    def _follow_hold(self) -> None:
        """Before views go out: hold a new moment for the learner (if they may claim in it and
        holds are left), or end the hold of a moment that closed."""
        if self.learner is None:
            return
        held = self._held_reveal
        reveal = self.open_reveal()
        if held is not None and reveal != held:
            self._held_reveal = None
        if reveal is not None and reveal != self._looked_at:
            self._looked_at = reveal
            if self._holds_left > 0 and self._learner_may_claim():
                self._holds_left -= 1
                self._held_reveal = reveal
        if (held is None) != (self._held_reveal is None):
            self._follow_presence()

    def _learner_may_claim(self) -> bool:
        """Whether the learner is here and may claim the open moment."""
        seat = self.learner
        if seat is None or not any(a.seat == seat for a in self.attached):
            return False
        view = self.table.view(seat)
        legal = [] if view is None else view.get("legal") or []
        return any(self.table.game.is_claim(action) for action in legal)

    def held_for_learner(self) -> bool:
        """Whether a moment is held for the learner now."""
        return self._held_reveal is not None

    # Held for storage ----------------------------------------------------------------

    def held_for_storage(self) -> bool:
        """Whether the table is held because its journal cannot be written."""
        return self.storage_problem is not None

    def hold_for_storage(self, reason: str) -> None:
        """The table's journal could not be written (``reason``: "its disk is full"): hold
        the table until a write succeeds.

        The change that was being written was refused (it is not in the journal, so it
        was never applied or shown). While held, nobody may act (``host_storage``), bots
        and timers wait and table time stands still, as when nobody is here; every peer is
        told (``view.paused``) and the host's log gets one line. Every
        :data:`STORAGE_RETRY_S` a ``resume`` note is written; the first that is saved lets
        the table go on by itself, with no one needing to do anything.
        """
        if self.storage_problem is not None:
            return
        self.storage_problem = (
            f"The host cannot save this table: {reason}. The game waits, and goes on by "
            "itself once the host can save again."
        )
        self._storage_reason = reason
        self._log_hold()
        self._follow_presence()
        self._arm_takeover()
        self.broadcast([])
        self._storage_retry = self._timers.call_later(STORAGE_RETRY_S, self._retry_storage)

    def _log_hold(self) -> None:
        reason = self._storage_reason
        self._log_storage(
            f"held: the host cannot save it ({reason}); it goes on once a write succeeds"
        )

    def _log_storage(self, what: str) -> None:
        """A hold's line, at most every :data:`STORAGE_LOG_QUIET_S` per table (the holds in
        between are counted in the next), and the line of its end when its start was told."""
        if what.startswith("goes on"):
            if self._hold_logged:
                self.log(f"[{self.table.id}] {what}")
                self._hold_logged = False
            return
        now = self._timers.now
        last = self._storage_logged_at
        if last is not None and now - last < STORAGE_LOG_QUIET_S:
            self._holds_unlogged += 1
            return
        again = f" (held {self._holds_unlogged} more times since)" if self._holds_unlogged else ""
        self.log(f"[{self.table.id}] {what}{again}")
        self._storage_logged_at, self._holds_unlogged, self._hold_logged = now, 0, True

    def _retry_storage(self) -> None:
        """Write a ``resume`` note; once one is saved, the table goes on from where it was."""
        self._storage_retry = None
        if self.storage_problem is None:
            return
        try:
            self.table.journal({"r": "resume"})
        except TableError:
            last = self._storage_logged_at
            if not self._hold_logged and (
                last is None or self._timers.now - last >= STORAGE_LOG_QUIET_S
            ):
                self._log_hold()  # a hold that lasts is told, though the last was just now
            self._storage_retry = self._timers.call_later(STORAGE_RETRY_S, self._retry_storage)
            return
        self.storage_problem = None
        self._log_storage("goes on: the host can save it again")
        self._follow_presence()
        self._arm_takeover()
        self.start_if_full()  # the start itself may be what could not be saved
        if self.held_for_storage():
            return  # held again (start_if_full's journal): the next retry tries once more
        self._maybe_count_down()
        self.broadcast([])

    def close(self) -> None:
        """Stop every timer of this table (it is being closed)."""
        handles = (self._tick_handle, self._bot_handle, self._countdown_handle)
        for handle in (*handles, self._takeover_handle, self._storage_retry):
            if handle is not None:
                handle.cancel()
        self._cancel_claims()
