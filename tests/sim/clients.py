"""Simulated people: players and spectators speaking the real protocol over simulated links.

A :class:`SimClient` is what one person's Clowder client does, reduced to
the decisions that matter to the host: it says ``hello``, creates or joins
its table, answers pings, and plays its seat from the views it receives
with the game's own bot as its "mind" (the bot sees only the view, as a
person does). Its timing is a person's:

* turn-based moves come after a thinking time (mostly 0.15-0.9 s);
* at a real-time moment the reveal is *drawn* a few milliseconds after its
  view arrives, and the claim is stamped with the client's own clock when
  the reveal was drawn and when the player acted (``drawn_ns``,
  ``acted_ns``), after a reaction time of 0.15-0.9 s;
* a typed answer (Katootsie!) is stamped where typing started, its typing
  notice goes out then, and the text follows after the typing time.

Its clock is its own: ``offset + t * (1 + drift)`` with an arbitrary offset
and up to ±200 ppm of drift, so nothing can work by comparing clocks. The
true reaction of every claim (on the virtual clock) is reported to the
world, which checks the arbiter's rulings against it.

A client keeps its seat token from ``joined``; when its connection drops or
its process is killed it reconnects (0.2 s doubling to 5 s) and presents
the token. Faults are applied through :meth:`SimClient.fault`; what they do
to the links is the world's job (:mod:`tests.sim.world`).
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from engine import registry
from engine.bots import Bot, default_bot, make_bot
from engine.core import Game
from net.wire.messages import (
    PROTOCOL_VERSION,
    Act,
    Again,
    AgainAnswer,
    Created,
    CreateTable,
    Error,
    Hello,
    Join,
    Joined,
    Leave,
    Left,
    Message,
    Ping,
    Pong,
    Typing,
    View,
)
from net.wire.protocol import ClientProtocol
from tests.sim.clock import NS_PER_MS, NS_PER_S, ns
from tests.sim.faults import FaultKind
from tests.sim.network import Link

RECONNECT_FIRST_S = 0.2
RECONNECT_MAX_S = 5.0
WAIT_GIVE_UP_S = 240.0
"""A player whose table has not started after this long leaves it (and the host)."""
MAX_RETRIES_PER_VERSION = 8
"""How often a refused move is thought over again from the same view."""
NEXT_GAME_CHANCE = 0.3
"""When asking, the chance that it is another game (one that fits the people)."""
AGAIN_YES = 0.75
"""The chance that a player asked to play again says yes (else no, at once or late)."""

RACE_CHANCE = 0.6
"""At a real-time moment the person's bot would let pass (no claim), the chance that the
person races for it anyway: Kiitos' bots seldom challenge, and without contests of two
claims the fairness check would judge almost nothing there."""
CLOSE_RACE_CHANCE = 0.5
"""The chance that a claim comes from an attentive person (0.25-0.4 s): races closer than
the links' lag differences, where first-in and truly-first part ways."""
BRAIN_RETRIES = 2
"""Refusals after which the person stops trusting the bot's idea and tries any legal move
(a bot may insist on a word a strict Kiitos table refuses)."""


class Phase(enum.Enum):
    OFFLINE = "offline"
    """Not connected; a (re)connection is scheduled."""
    ONLINE = "online"
    GONE = "gone"
    """Done with this host for good."""


@dataclass(eq=False)
class Sent:
    """A client message on its way to the host (the tag on the link's frame end)."""

    message: Message
    pipe: Pipe


@dataclass(eq=False)
class Pipe:
    """One TCP connection of one client, as the simulator sees both its ends."""

    client: SimClient
    up: Link[Sent]
    """Client to host."""
    down: Link[str]
    """Host to client (tags: the frame types)."""
    protocol: ClientProtocol
    epoch: int
    """Which host process it was opened to (a crash ends every pipe of its epoch)."""
    address: str
    conn: int | None = None
    """The host core's id for it, once the host accepted it."""
    host_open: bool = False
    """The host holds it open: from open_connection until its Close or connection_lost."""
    client_open: bool = True
    blackholed_ns: int | None = None
    """When the path died silently (a half-open socket), if it did."""
    seat: int | None = None
    """The seat this connection's frames belong to (``None``: a spectator or no seat yet)."""
    table: str | None = None
    last_version: int | None = None
    """The newest view version received on this connection."""
    counting_down: bool = False
    """The newest view received still counted down to a real-time start."""
    awaiting_out_of_order: int = 0
    """Duplicate hellos sent and not yet refused."""
    frames_in: int = 0
    hello_token: str | None = None
    """The seat token this connection's ``hello`` presented (the ``tokens`` check)."""
    last_host_frame: dict[str, Any] | None = None
    """The last frame the host sent on it (decoded by the simulator), to check a close."""
    splitter: bytearray = field(default_factory=bytearray)


@dataclass(frozen=True, slots=True)
class ClaimTruth:
    """What really happened for one claim a simulated person made (virtual clock)."""

    table: str
    seat: int
    reveal: int
    reported_ns: int
    drawn_at_ns: int
    acted_at_ns: int

    @property
    def reaction_ns(self) -> int:
        return self.acted_at_ns - self.drawn_at_ns


class ClientEnv(Protocol):
    """What a client asks of the world it lives in."""

    @property
    def now_ns(self) -> int: ...

    def connect(self, client: SimClient) -> Pipe | None:
        """A new connection to the host (``None``: refused, the host is down)."""

    def send(self, pipe: Pipe, message: Message, *, raw: bool = False) -> None:
        """Send ``message`` on ``pipe``; ``raw``: encoded as is, past the protocol object's
        own ordering rules (a second ``hello``, which a well-behaved client never sends)."""

    def close(self, pipe: Pipe) -> None:
        """The client closes this connection (FIN after what it sent)."""

    def later(self, client: SimClient, delay_ns: int, kind: str, gen: int) -> None: ...

    def claim_made(self, truth: ClaimTruth) -> None: ...

    def table_created(self, client: SimClient, table: str) -> None: ...


@dataclass
class Plan:
    """What the player is about to do, from one view."""

    gen: int
    action: dict[str, Any]
    version: int
    reveal: int | None
    claim: bool
    drawn_at_ns: int = 0
    acted_at_ns: int = 0


class ClientClock:
    """A client machine's monotonic clock: its own offset, and drift up to ±200 ppm."""

    def __init__(self, rng: random.Random) -> None:
        self.offset_ns = rng.randrange(0, 1 << 60)
        self.drift_ppm = rng.uniform(-200.0, 200.0)

    def read(self, t_ns: int) -> int:
        """What the client's clock shows at virtual time ``t_ns``."""
        return self.offset_ns + t_ns + round(t_ns * self.drift_ppm / 1e6)


class SimClient:
    """One simulated person (see the module docstring)."""

    def __init__(
        self,
        index: int,
        name: str,
        game: Game[Any],
        env: ClientEnv,
        rng: random.Random,
        *,
        player: bool,
        creator: bool = False,
        create: dict[str, Any] | None = None,
    ) -> None:
        self.index = index
        self.name = name
        self.game = game
        self.env = env
        self.rng = rng
        self.player = player
        self.creator = creator
        self.create = create or {}
        """The ``create_table`` fields (creator only)."""
        self.clock = ClientClock(rng)
        self.brain: Bot = self._new_brain()
        self.uses_notices = rng.random() < 0.8
        """Whether it sends typing notices for typed answers (some clients do not)."""
        self.phase = Phase.OFFLINE
        self.table: str | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.pipe: Pipe | None = None
        self.attached = False
        """At its table on the current connection, by what the host told it."""
        self.last_view: View | None = None
        self.plan: Plan | None = None
        self.gen = 0
        self.refs = 0
        self.retries: dict[int, int] = {}
        self.drawn: dict[int, int] = {}
        """Reveal id -> virtual time it was first drawn on this client's screen."""
        self.backoff_s = RECONNECT_FIRST_S
        self.after_left: str | None = None
        """What to do once the host says ``left``: "away", "gone" or "hop"."""
        self.away_s = 0.0
        self.waiting_since: int | None = None
        self.over = False
        self.held = False
        """The table was held (``view.paused``) when its last view came."""
        self.agains = 0
        """How often this person may still ask to play again (the world sets it from its
        profile, with :attr:`again_chance`)."""
        self.again_chance = 0.0
        """After a game, the chance that this person asks to play again."""
        self.answering: str | None = None
        """The finished table whose proposal this person is about to answer."""
        self.said: set[str] = set()
        """Finished tables whose proposal this person answered (asking is a yes): the
        first answer stands, as at the host."""
        self.left_tables: set[str] = set()
        """Tables this person left (never to be moved from)."""
        self.got_seat_once = False
        self.created_pending = False
        self.old_pipes: list[Pipe] = []
        """Connections replaced by a twin hello, closed a little later."""

    # Identity ------------------------------------------------------------------

    def _new_brain(self) -> Bot:
        return make_bot(self.game, default_bot(self.game), self.rng.randrange(1 << 62))

    def describe(self) -> str:
        role = "player" if self.player else "spectator"
        seat = "" if self.seat is None else f" seat {self.seat}"
        return f"client {self.index} ({self.name}, {role}{seat})"

    def _ref(self) -> int:
        self.refs += 1
        return self.refs

    # Connection ----------------------------------------------------------------

    def start(self) -> None:
        if self.phase is Phase.OFFLINE:
            self._connect()

    def _connect(self) -> None:
        if self.phase is Phase.GONE:
            return
        pipe = self.env.connect(self)
        if pipe is None:
            self._retry()
            return
        self.phase = Phase.ONLINE
        self.pipe = pipe
        self.attached = False
        self.drawn.clear()  # a new connection redraws the screen: moments are stamped anew
        pipe.hello_token = self.token
        self.env.send(pipe, Hello(protocol=PROTOCOL_VERSION, name=self.name, token=self.token))
        if self.token is not None:
            return  # the host seats us again with joined + view
        if self.table is not None:
            self._join(pipe)
        elif self.creator:
            self.created_pending = True
            self.env.send(pipe, CreateTable(ref=self._ref(), **self.create))

    def _join(self, pipe: Pipe) -> None:
        assert self.table is not None
        role: Literal["player", "spectator"] = "player" if self.player else "spectator"
        self.env.send(pipe, Join(table=self.table, role=role, ref=self._ref()))

    def _retry(self) -> None:
        self.phase = Phase.OFFLINE
        self.env.later(self, ns(self.backoff_s), "connect", self.gen)
        self.backoff_s = min(RECONNECT_MAX_S, self.backoff_s * 2)

    def lost(self, pipe: Pipe) -> None:
        """The connection ended (end-of-stream or reset seen by the client)."""
        pipe.client_open = False
        if pipe is not self.pipe:
            return
        self.pipe = None
        self.attached = False
        self._cancel_plan()
        if self.phase is Phase.GONE:
            return
        self._retry()

    def table_known(self, table: str) -> None:
        """The world tells a person which table to go to (a friend says its id)."""
        self.table = table

    def leave_host(self) -> None:
        """Done: close the connection and never come back."""
        self.phase = Phase.GONE
        self._cancel_plan()
        for old in self.old_pipes:
            if old.client_open:
                self.env.close(old)
        self.old_pipes.clear()
        if self.pipe is not None:
            pipe, self.pipe = self.pipe, None
            self.env.close(pipe)

    # Incoming ------------------------------------------------------------------

    def receive(self, pipe: Pipe, message: Message) -> None:
        """A message from the host on ``pipe`` (already checked by the world)."""
        if isinstance(message, Ping):
            self.env.send(
                pipe, Pong(id=message.id, t=message.t, at=self.clock.read(self.env.now_ns))
            )
            return
        if pipe is not self.pipe:
            return  # an older connection (after a twin hello): only its pings matter
        if isinstance(message, Created):
            self.created_pending = False
            self.table = message.table
            self.env.table_created(self, message.table)
            self._join(pipe)
        elif isinstance(message, Joined):
            self._joined(pipe, message)
        elif isinstance(message, View):
            if message.table == self.table:
                self._view(message)
        elif isinstance(message, Left):
            self._left(message)
        elif isinstance(message, Error):
            self._error(pipe, message)

    def _joined(self, pipe: Pipe, message: Joined) -> None:
        if message.moved_from is not None:  # the table plays again: a new game, anew
            self.table = message.table
            self.over = False
            self.last_view = None
            self.retries.clear()
            self.drawn.clear()
            self.waiting_since = None  # a new wait: one who waits too long goes home
            self.brain = self._new_brain()  # a new game: nothing remembered of the last
            self._cancel_plan()
        self.attached = True
        self.backoff_s = RECONNECT_FIRST_S
        pipe.seat = message.seat
        pipe.table = message.table
        if message.token is not None:
            self.token = message.token
            self.seat = message.seat
            self.got_seat_once = True
        if self.waiting_since is None:
            self.waiting_since = self.env.now_ns
            self.env.later(self, ns(WAIT_GIVE_UP_S), "waited", self.gen)
        elif self.after_left == "gone" and message.moved_from is None:
            # It had asked to leave, and the host crashed before saving that (a torn
            # record): back at the seat it wanted to give up, it asks again.
            self.env.send(pipe, Leave(table=message.table, ref=self._ref()))

    def _left(self, message: Left) -> None:
        self.attached = False
        self._cancel_plan()
        then, self.after_left = self.after_left, None
        if then == "away" and self.pipe is not None:
            self.env.close(self.pipe)
            self.pipe = None
            self.phase = Phase.OFFLINE
            self.env.later(self, ns(self.away_s), "connect", self.gen)
        elif then == "hop":
            self.env.later(self, ns(self.away_s), "rejoin", self.gen)
        else:
            self.leave_host()

    def _error(self, pipe: Pipe, message: Error) -> None:
        code = message.code
        if code == "out_of_order" and pipe.awaiting_out_of_order:
            pipe.awaiting_out_of_order -= 1
        elif code == "table_closed":
            self.token = None  # the Left that follows ends this client
        elif code == "host_storage":
            if message.about in ("join", "create_table"):  # tries again in a while
                self.env.later(self, ns(self.rng.uniform(3.0, 15.0)), "try_again", self.gen)
            return  # at a held table: the view that says it goes on brings a new plan
        elif code == "bad_token":
            self.token = None
            self.leave_host()
        elif code == "seat_taken_over":
            self.attached = False
        elif message.about in ("join", "create_table"):
            self.leave_host()  # table started, full, gone: this person goes home
        elif message.about == "action" and self.last_view is not None and self.plan is None:
            last_reveal = self.last_view.open_reveal
            if last_reveal is not None:
                self.drawn[last_reveal] = self.env.now_ns  # looks again, anew
            version = self.last_view.version
            tries = self.retries.get(version, 0)
            if tries < MAX_RETRIES_PER_VERSION:
                self.retries[version] = tries + 1
                self._plan(self.last_view, again=True)

    def _view(self, message: View) -> None:
        self.last_view = message
        if message.game_outcome is not None and message.again is not None:
            self._asked(message)
        if message.paused:
            self.held = True
            self._cancel_plan()  # nobody may act while it is held: a person waits
            return
        if self.held:
            self.held = False
            self.retries.pop(message.version, None)  # held refusals were not the rules'
            self._cancel_plan()  # a claim cut short by the hold is made again, anew
        if message.game_outcome is not None:
            if not self.over:
                self.over = True
                self._cancel_plan()
                if self.player and self.agains and self.rng.random() < self.again_chance:
                    self.agains -= 1
                    self.env.later(self, ns(self.rng.uniform(0.5, 8.0)), "again", self.gen)
                elif self.rng.random() < 0.4:  # some leave once they have read the results
                    self.env.later(self, ns(self.rng.uniform(2.0, 30.0)), "leave_now", self.gen)
            return
        reveal = message.open_reveal
        if reveal is not None and reveal not in self.drawn:
            self.drawn[reveal] = self.env.now_ns + self.rng.randint(2, 25) * NS_PER_MS
        if not self.player or not self.attached:
            return
        plan = self.plan
        if plan is not None:
            if plan.claim and plan.reveal is not None and plan.reveal == reveal:
                return  # still reacting to the same moment
            if self.rng.random() < 0.05:
                return  # acts on what it saw a moment ago: the host may refuse it
            self._cancel_plan()
        self._plan(message)

    # Playing -------------------------------------------------------------------

    def _cancel_plan(self) -> None:
        self.plan = None
        self.gen += 1

    def _plan(self, message: View, *, again: bool = False) -> None:
        view = message.view
        if view is None or message.starting or message.paused:
            return  # before the deal, the real-time countdown, or held: nobody may act now
        if view.get("game") != self.game.name:  # moved to another game ("next game")
            self.game = registry.get(str(view.get("game")))
            self.brain = self._new_brain()
        legal = view.get("legal") or []
        if not legal:
            return
        if self.retries.get(message.version, 0) > BRAIN_RETRIES:
            action: dict[str, Any] | None = dict(self.rng.choice(legal))
        else:
            action = self.brain.choose(dict(view))
        reveal = message.open_reveal
        if reveal is not None and (action is None or not self.game.is_claim(action)):
            claims = [option for option in legal if self.game.is_claim(option)]
            if claims and self.rng.random() < RACE_CHANCE:
                action = dict(self.rng.choice(claims))
        if action is None:
            return
        claim = reveal is not None and self.game.is_claim(action)
        self.gen += 1
        plan = Plan(self.gen, dict(action), message.version, reveal, claim)
        now = self.env.now_ns
        if reveal is None:
            think = (
                self.rng.uniform(0.15, 0.9) if self.rng.random() < 0.9 else self.rng.uniform(1, 6)
            )
            plan.acted_at_ns = now + ns(think + (0.3 if again else 0.0))
            self.plan = plan
            self.env.later(self, plan.acted_at_ns - now, "act", plan.gen)
            return
        plan.drawn_at_ns = self.drawn.get(reveal, now)
        start = max(plan.drawn_at_ns, now)
        typed = claim and action.get("type") in self.game.typed_claims
        if typed:
            plan.acted_at_ns = start + ns(self.rng.uniform(0.3, 3.0))
            text = str(action.get("text", ""))
            typing = ns(len(text) * self.rng.uniform(0.08, 0.25))
            self.plan = plan
            if self.uses_notices:
                self.env.later(self, plan.acted_at_ns - now, "typing", plan.gen)
            self.env.later(self, plan.acted_at_ns + typing - now, "act", plan.gen)
            return
        if claim and action.get("type") == "katootsie":
            reaction = self.rng.uniform(1.0, 5.0)
        elif claim and self.rng.random() < CLOSE_RACE_CHANCE:
            reaction = self.rng.uniform(0.25, 0.4)  # attentive: a close race with the others
        elif claim:
            reaction = self.rng.uniform(0.15, 0.9)
        else:
            reaction = self.rng.uniform(0.3, 2.0)
        plan.acted_at_ns = start + ns(reaction)
        self.plan = plan
        self.env.later(self, plan.acted_at_ns - now, "act", plan.gen)

    def _send_plan(self, typing_only: bool) -> None:
        plan, pipe = self.plan, self.pipe
        if plan is None or pipe is None or self.table is None:
            return
        if not plan.claim:
            self.plan = None
            self.env.send(pipe, Act(table=self.table, action=plan.action, ref=self._ref()))
            return
        assert plan.reveal is not None
        drawn = self.clock.read(plan.drawn_at_ns)
        acted = self.clock.read(plan.acted_at_ns)
        if typing_only:
            self.env.send(
                pipe,
                Typing(table=self.table, reveal=plan.reveal, drawn_ns=drawn, acted_ns=acted),
            )
            return
        self.plan = None
        assert self.seat is not None
        self.env.claim_made(
            ClaimTruth(
                self.table,
                self.seat,
                plan.reveal,
                acted - drawn,
                plan.drawn_at_ns,
                plan.acted_at_ns,
            )
        )
        self.env.send(
            pipe,
            Act(
                table=self.table,
                action=plan.action,
                reveal=plan.reveal,
                drawn_ns=drawn,
                acted_ns=acted,
                ref=self._ref(),
            ),
        )

    # Timers --------------------------------------------------------------------

    def timer(self, kind: str, gen: int) -> None:
        """A timer this client set (``gen``: the plan generation it belongs to)."""
        if self.phase is Phase.GONE:
            return
        if kind == "connect":
            if self.phase is Phase.OFFLINE and self.pipe is None:
                self._connect()
        elif kind in ("act", "typing"):
            if self.plan is not None and self.plan.gen == gen:
                self._send_plan(typing_only=kind == "typing")
        elif kind == "rejoin":
            if self.pipe is not None and self.table is not None:
                self._join(self.pipe)
        elif kind == "try_again":  # after the host could not save a join or a new table
            if self.pipe is None or self.attached:
                return
            if self.table is not None:
                self._join(self.pipe)
            elif self.creator:
                self.created_pending = True
                self.env.send(self.pipe, CreateTable(ref=self._ref(), **self.create))
        elif kind == "close_old":
            for old in self.old_pipes:
                if old.client_open:
                    self.env.close(old)
            self.old_pipes.clear()
        elif kind == "leave_now":
            self.leave_host()
        elif kind == "again":
            self._ask_again()
        elif kind == "answer":
            self._answer_again()
        elif kind == "waited":
            view = self.last_view
            waiting = view is None or view.view is None
            if waiting and not self.over and self.pipe is not None and self.table is not None:
                self.after_left = "gone"
                self.env.send(self.pipe, Leave(table=self.table, ref=self._ref()))
            elif waiting and self.pipe is None:
                self.leave_host()
        elif kind == "wake":
            # A half-open connection noticed at last: give it up, connect anew.
            pipe = self.pipe
            if pipe is not None and pipe.blackholed_ns is not None:
                pipe.client_open = False
                self.pipe = None
                self.attached = False
                self._cancel_plan()
                self._connect()

    # Faults --------------------------------------------------------------------

    # Playing again ------------------------------------------------------------------

    def _ask_again(self) -> None:
        """Ask everyone to play again: the same game, or now and then another that fits."""
        view = self.last_view
        if self.pipe is None or not self.attached or view is None or view.game_outcome is None:
            return
        game = None
        players = len((view.view or {}).get("players") or [])
        if self.rng.random() < NEXT_GAME_CHANCE and players:
            fits = [
                name
                for name in registry.names()
                if registry.get(name).min_players <= players <= registry.get(name).max_players
            ]
            game = self.rng.choice(fits) if fits else None
        if view.table in self.said:
            return  # answered someone's proposal already
        self.said.add(view.table)
        self.env.send(self.pipe, Again(table=view.table, game=game))

    def _asked(self, message: View) -> None:
        """A proposal is open: answer it after a while (if this person has not yet)."""
        status = message.again or {}
        mine = next((s for s in status.get("seats") or [] if s.get("seat") == self.seat), None)
        if mine is None or mine.get("answer") != "waiting" or self.answering == message.table:
            return
        self.answering = message.table
        self.env.later(self, ns(self.rng.uniform(0.3, 12.0)), "answer", self.gen)

    def _answer_again(self) -> None:
        view = self.last_view
        if self.pipe is None or view is None or view.again is None or self.answering is None:
            return
        table, self.answering = self.answering, None
        if table in self.said:
            return
        self.said.add(table)
        if self.rng.random() < AGAIN_YES:
            self.env.send(self.pipe, AgainAnswer(table=table, accept=True))
        else:
            self.left_tables.add(table)  # never to be moved from it
            self.env.send(self.pipe, AgainAnswer(table=table, accept=False))
            self.env.later(self, ns(self.rng.uniform(1.0, 20.0)), "leave_now", self.gen)

    def fault(self, kind: FaultKind, away_s: float) -> str | None:
        """Apply a fault to this client's side; returns what the world must do to its links.

        ``"reset"``: tear the current connection down; ``"blackhole"``: let its
        path die silently; ``None``: nothing (or the fault does not apply now).
        """
        pipe = self.pipe
        if self.phase is not Phase.ONLINE or pipe is None:
            return None
        if kind is FaultKind.DROP:
            return "reset"
        if kind is FaultKind.KILL:
            self.pipe = None
            self.attached = False
            self._cancel_plan()
            self.brain = self._new_brain()
            self.last_view = None
            self.drawn.clear()
            self.retries.clear()
            self.phase = Phase.OFFLINE
            self.env.later(self, ns(away_s), "connect", self.gen)
            pipe.client_open = False
            return "reset"
        if kind is FaultKind.HALF_OPEN:
            self.env.later(self, ns(away_s), "wake", self.gen)
            return "blackhole"
        if kind is FaultKind.DUP_HELLO:
            pipe.awaiting_out_of_order += 1
            hello = Hello(protocol=PROTOCOL_VERSION, name=self.name, token=self.token)
            self.env.send(pipe, hello, raw=True)
            return None
        if not self.attached or self.table is None:
            return None
        if kind is FaultKind.TWIN and self.token is not None:
            twin = self.env.connect(self)
            if twin is None:
                return None
            self.pipe = twin
            self.attached = False
            self._cancel_plan()
            twin.hello_token = self.token
            self.env.send(twin, Hello(protocol=PROTOCOL_VERSION, name=self.name, token=self.token))
            self.old_pipes.append(pipe)
            self.env.later(self, ns(self.rng.uniform(0.5, 5.0)), "close_old", self.gen)
            return None
        if kind is FaultKind.STEP_AWAY and self.token is not None and not self.over:
            self.after_left, self.away_s = "away", away_s
            self.env.send(pipe, Leave(table=self.table, for_now=True, ref=self._ref()))
        elif kind is FaultKind.GIVE_UP and self.player and not self.over:
            self.after_left = "gone"
            self.env.send(pipe, Leave(table=self.table, ref=self._ref()))
        elif kind is FaultKind.HOP and not self.player:
            self.after_left, self.away_s = "hop", away_s
            self.env.send(pipe, Leave(table=self.table, ref=self._ref()))
        return None


def seconds_between(a_ns: int, b_ns: int) -> float:
    return (b_ns - a_ns) / NS_PER_S
