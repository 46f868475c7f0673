"""One run of the simulator: a host core, its tables' clients, the network, the faults.

:class:`World` is built from ``(game, seed, profile)`` alone. It creates the
host core on a :class:`~tests.sim.store.SimStore`, one table plan (a second
one sometimes) with its people, and the run's fault plan; then it takes
events off the virtual clock one at a time (a *step*): bytes arriving at
the host or at a client, a client's timer, the host's next deadline, a
fault, the host's restart. After every step it drains the core's outputs
onto the links, re-arms the host's wake-up and checks the invariants
(:mod:`tests.sim.invariants`). The first violation ends the run with a
:class:`~tests.sim.invariants.SimFailure` naming the seed.

The host is driven exactly as its asyncio adapter drives it: a new TCP
connection is ``open_connection``, bytes read are ``receive_data`` (then
``handle_more`` while it has more queued), end-of-stream is
``connection_lost``, and ``advance`` fires what is due; every call passes
the virtual ``now_ns``, which never goes backwards.

A host crash is a :class:`~tests.sim.store.SimulatedCrash` raised from a
journal write: the core object is thrown away mid-call (whatever it had not
handed out is lost, as with a killed process), every connection dies, and
after the crash's downtime a new core is built on the same store and
resumes its tables. Clients reconnect with their tokens.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from engine import registry
from engine.core import Game
from net.core.host import Close, HostCore, Send
from net.core.limits import HostLimits
from net.wire.messages import Act, Error, Joined, Left, Message
from net.wire.protocol import ClientProtocol, MessageReceived
from tests.sim.clients import ClaimTruth, Phase, Pipe, Sent, SimClient
from tests.sim.clock import NS_PER_S, EventQueue, ns, seconds
from tests.sim.faults import Crash, Fault, FaultPlan, plan_faults
from tests.sim.invariants import (
    HALF_OPEN_SLACK_S,
    ActCheck,
    FairnessTally,
    FrameChecks,
    SimFailure,
    Violation,
    check_close,
    check_ruling,
)
from tests.sim.network import Chunk, Link, LinkProfile
from tests.sim.profiles import KNOWN_BUGS, Profile
from tests.sim.shadow import JournalDiverged, Shadows
from tests.sim.store import SimStore, SimulatedCrash

IDLE_TIMEOUT_S = 20.0
"""The host's idle timeout in the simulation (short, so half-open sockets are found soon)."""
HANDSHAKE_TIMEOUT_S = 5.0
RESULTS_FOR_S = 20.0
ABANDON_AFTER_S = 90.0
CONTESTED_CHANCE = 0.7
"""Real-time games: the chance that a table gets at least 3 seats, nearly all of them
people, so that claims race each other (a Kiitos challenge is raced only by those who did
not say the word: at 2 seats there is never a contest for the fairness check to judge)."""
MAX_SAME_INSTANT_WAKES = 1000
"""More host wake-ups than this, each asked for at once: the core is spinning."""
DRAIN_S = 120.0
"""After a run, the core's own timers must all have run out within this long."""
LOOP_TURN_NS = 1000
"""How long a real event loop takes to come round to a timer that is due at once."""

NAMES = (
    "Ann",
    "Bea",
    "Cy",
    "Dot",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ida",
    "Jo",
    "Kit",
    "Lou",
    "Max",
    "Ned",
    "Ola",
    "Pip",
    "Quin",
    "Ros",
    "Sam",
    "Tea",
    "Uma",
    "Vic",
    "Wyn",
    "Xia",
)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class HostWake:
    at_ns: int
    """The deadline it was set for; a wake-up overtaken by an earlier one is dropped."""


@dataclass(frozen=True, slots=True)
class Arrive:
    pipe: Pipe
    up: bool
    """True: client to host; False: host to client."""
    chunk: Chunk


@dataclass(frozen=True, slots=True)
class ClientTimer:
    client: SimClient
    kind: str
    gen: int


@dataclass(frozen=True, slots=True)
class FaultDue:
    fault: Fault


@dataclass(frozen=True, slots=True)
class Restart:
    pass


@dataclass(frozen=True, slots=True)
class StartClient:
    client: SimClient


Event = HostWake | Arrive | ClientTimer | FaultDue | Restart | StartClient


# --------------------------------------------------------------------------- plans


@dataclass
class TablePlan:
    """One table the run sets up: who creates it, who joins, who watches."""

    game: str
    seats: int
    bots: int
    options: dict[str, Any]
    creator: SimClient
    others: list[SimClient]
    table_id: str | None = None


@dataclass
class Figures:
    """What one run did, for the figures printed at the end."""

    game: str
    seed: int
    steps: int = 0
    virtual_s: float = 0.0
    table_s: float = 0.0
    """Virtual seconds tables existed (from creation to their close), summed."""
    cpu_s: float = 0.0
    tables: int = 0
    finished_games: int = 0
    frames: int = 0
    views: int = 0
    acts_checked: int = 0
    rulings: int = 0
    fairness_pairs: int = 0
    crashes: int = 0
    faults: int = 0
    refused_writes: int = 0
    """Journal records the full disk refused (each a change the host did not make)."""
    spins: int = 0
    """Host wake-ups asked for at the instant of the previous one (see ``_arm_wake``)."""


@dataclass
class StepState:
    """What happened in the current step (the ``once`` check needs it)."""

    acts: ActCheck = field(default_factory=ActCheck)
    crashed: bool = False


HOST_BUG_SIGNS = ("bug:", "was refused", "could not be applied")
"""What the host logs only when something is wrong inside it: a request that raised, a
bot's move the rules refused, a winning claim that could not be applied."""


# --------------------------------------------------------------------------- the world


class World:
    """One simulated run (see the module docstring)."""

    def __init__(
        self,
        game: str,
        seed: int,
        profile: Profile,
        *,
        breaking: Any = None,
        log: Callable[[str], None] | None = None,
        known_bugs: bool = False,
    ) -> None:
        self.game_name = game
        self.game: Game[Any] = registry.get(game)
        self.seed = seed
        self.profile = profile
        self.breaking = breaking
        self.trace = log
        self.known_bugs = known_bugs
        """Play option values that trigger open bugs (:data:`KNOWN_BUGS`) too."""
        master = random.Random(f"{game}:{seed}")
        self.rng_net = random.Random(master.randrange(1 << 63))
        self.rng_people = random.Random(master.randrange(1 << 63))
        self.rng_host = random.Random(master.randrange(1 << 63))
        rng_faults = random.Random(master.randrange(1 << 63))
        self.start_ns = master.randrange(1 << 33, 1 << 50)
        self.queue: EventQueue[Event] = EventQueue(self.start_ns)
        self.host_log: deque[str] = deque(maxlen=60)
        self.host_bugs: list[str] = []
        """Host log lines that name a bug (a refused bot, a failed request), this step."""
        self.store = SimStore()
        self.shadows = Shadows()
        self.store.on_record.append(self._record)
        self.store.on_archive.append(self.shadows.archived)
        self.store.on_discard.append(self.shadows.discarded)
        self.frames = FrameChecks(self.shadows.tables)
        self.tally = FairnessTally()
        self.truths: dict[tuple[str, int, int, int], ClaimTruth] = {}
        self.epoch = 0
        self.core: HostCore | None = self._new_core()
        self.pipes: dict[int, Pipe] = {}
        """The current host's connections by id (those it holds open)."""
        self.live_pipes: list[Pipe] = []
        self.clients: list[SimClient] = []
        self.plans: list[TablePlan] = []
        self.step = StepState()
        self.deferred: Violation | None = None
        self.wake_at: int | None = None
        self.woke_at: int | None = None
        self.spins = 0
        self.attended_since: dict[str, int] = {}
        self.figures = Figures(game, seed)
        self._ports = 40000
        self._build_tables()
        players = [c.index for c in self.clients if c.player]
        watchers = [c.index for c in self.clients if not c.player]
        self.plan: FaultPlan = plan_faults(rng_faults, profile, players, watchers)
        self.crashes: deque[Crash] = deque(self.plan.crashes)
        self._arm_crash()
        self.store.clock = lambda: self.queue.now_ns
        full = self.plan.disk_full
        if full is not None:
            self.store.fill(full.record, full.keep, ns(full.for_s))
        for fault in self.plan.faults:
            self.queue.at(self.start_ns + ns(fault.at_s), FaultDue(fault))
        if breaking is not None:
            breaking.arm(self)

    # Set-up --------------------------------------------------------------------

    def _new_core(self) -> HostCore:
        core = HostCore(
            name="sim",
            store=self.store,
            rng=random.Random(self.rng_host.randrange(1 << 63)),
            log=self._host_line,
            limits=HostLimits(
                handshake_timeout_s=HANDSHAKE_TIMEOUT_S, idle_timeout_s=IDLE_TIMEOUT_S
            ),
            bot_delay_s=round(self.rng_host.uniform(0.2, 0.8), 3),
            bot_reaction_scale=1.0,
            results_for_s=RESULTS_FOR_S,
            abandon_after_s=ABANDON_AFTER_S,
            run_unattended=False,
            start_countdown_s=3.0,
            allow_fixed_deck=False,
            now_ns=self.queue.now_ns,
        )
        if self.breaking is not None:
            self.breaking.core_made(self, core)
        return core

    def _host_line(self, line: str) -> None:
        stamped = f"{seconds(self.queue.now_ns - self.start_ns):9.3f} host: {line}"
        self.host_log.append(stamped)
        if any(sign in line for sign in HOST_BUG_SIGNS):
            self.host_bugs.append(line)
        if self.trace is not None:
            self.trace(stamped)

    def _options(self) -> dict[str, Any]:
        rng = self.rng_people
        options: dict[str, Any] = {}
        for spec in self.game.option_specs:
            if spec.kind is list:
                continue
            if self.profile.short_games and spec.kind is int and spec.minimum is not None:
                if spec.name == "tie_ms":
                    continue  # a zero tie window would make every tie a win by stamps alone
                options[spec.name] = spec.minimum
            elif spec.kind is bool and rng.random() < 0.3:
                options[spec.name] = rng.random() < 0.5
            elif spec.choices and rng.random() < 0.3:
                options[spec.name] = rng.choice(spec.choices)
            known = (self.game_name, spec.name, options.get(spec.name))
            if not self.known_bugs and known in KNOWN_BUGS:
                del options[spec.name]
        options.pop("first", None)
        options["takeover"] = round(rng.uniform(3.0, 20.0), 1)
        return options

    def _build_tables(self) -> None:
        count = 2 if self.rng_people.random() < self.profile.second_table_chance else 1
        names = iter(NAMES)
        for _ in range(count):
            contested = bool(self.game.claim_types) and self.rng_people.random() < CONTESTED_CHANCE
            fewest, most = self.game.min_players, self.game.max_players
            if contested:
                fewest = max(fewest, min(3, most))
                most = max(fewest, min(4, most))  # a contest needs three, not ten
            seats = self.rng_people.randint(fewest, most)
            humans = self.rng_people.randint(max(1, seats - 1) if contested else 1, seats)
            watchers = self.rng_people.randint(0, self.profile.spectators)
            options = self._options()
            create: dict[str, Any] = {
                "game": self.game_name,
                "options": options,
                "seats": seats,
                "bots": seats - humans,
            }
            people = []
            for number in range(humans + watchers):
                client = SimClient(
                    len(self.clients),
                    next(names),
                    self.game,
                    self,
                    random.Random(self.rng_people.randrange(1 << 63)),
                    player=number < humans,
                    creator=number == 0,
                    create=create if number == 0 else None,
                )
                client.agains = self.profile.max_agains
                client.again_chance = self.profile.again_chance
                self.clients.append(client)
                people.append(client)
            creator, *others = people
            self.plans.append(
                TablePlan(self.game_name, seats, seats - humans, options, creator, others)
            )
            self.queue.after(ns(self.rng_people.uniform(0.0, 2.0)), StartClient(creator))

    # The client environment (tests.sim.clients.ClientEnv) ------------------------

    @property
    def now_ns(self) -> int:
        return self.queue.now_ns

    def connect(self, client: SimClient) -> Pipe | None:
        if self.core is None:
            return None
        self._ports += 1
        address = f"198.18.0.{2 + client.index}:{self._ports}"
        up_profile = LinkProfile.draw(self.rng_net)
        down_profile = LinkProfile.draw(self.rng_net)
        pipe = Pipe(
            client=client,
            up=Link(f"{client.name}>host", up_profile, self.rng_net),
            down=Link(f"host>{client.name}", down_profile, self.rng_net),
            protocol=ClientProtocol(),
            epoch=self.epoch,
            address=address,
        )
        self.live_pipes.append(pipe)
        syn = pipe.up.open(self.now_ns)
        self.queue.at(syn.at_ns, Arrive(pipe, True, syn))
        return pipe

    def send(self, pipe: Pipe, message: Message, *, raw: bool = False) -> None:
        if not pipe.client_open:
            return
        if raw:
            data = pipe.protocol.encode(message)
        else:
            pipe.protocol.send(message)
            data = pipe.protocol.data_to_send()
        for chunk in pipe.up.send(self.now_ns, data, [(len(data), Sent(message, pipe))]):
            self.queue.at(chunk.at_ns, Arrive(pipe, True, chunk))

    def close(self, pipe: Pipe) -> None:
        if not pipe.client_open:
            return
        pipe.client_open = False
        chunk = pipe.up.finish(self.now_ns)
        if chunk is not None:
            self.queue.at(chunk.at_ns, Arrive(pipe, True, chunk))

    def later(self, client: SimClient, delay_ns: int, kind: str, gen: int) -> None:
        self.queue.after(delay_ns, ClientTimer(client, kind, gen))

    def claim_made(self, truth: ClaimTruth) -> None:
        self.truths[(truth.table, truth.seat, truth.reveal, truth.reported_ns)] = truth

    def table_created(self, client: SimClient, table: str) -> None:
        for plan in self.plans:
            if plan.creator is client and plan.table_id is None:
                plan.table_id = table
                for other in plan.others:
                    other.table_known(table)
                    delay = self.rng_people.uniform(0.1, 8.0 if other.player else 60.0)
                    self.queue.after(ns(delay), StartClient(other))

    # Running -------------------------------------------------------------------

    def run(self) -> Figures:
        """Run to the end; raises :class:`SimFailure` at the first broken invariant."""
        started = time.process_time()
        limit = self.start_ns + ns(self.profile.time_limit_s)
        try:
            while True:
                event = self.queue.pop()
                if event is None:
                    break
                if self.queue.now_ns > limit:
                    self._at_limit()
                    break
                if isinstance(event, HostWake) and event.at_ns != self.wake_at:
                    continue  # superseded by an earlier wake-up: not a step
                self._step(event)
                if self._finished():
                    break
            self._at_end()
        except Violation as violation:
            raise self._failure(violation.invariant, violation.detail) from None
        except Exception as error:  # the host (or the simulator) broke: still name the seed
            where = traceback.extract_tb(error.__traceback__)[-3:]
            trail = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno}" for f in where[::-1])
            detail = f"{type(error).__name__}: {error} (at {trail})"
            raise self._failure("exception", detail) from error
        finally:
            self.figures.cpu_s = time.process_time() - started
        self._figures()
        return self.figures

    def _failure(self, invariant: str, detail: str) -> SimFailure:
        context = "  faults: " + self.plan.describe()
        if self.host_log:
            context += "\n  host log (last lines):\n    " + "\n    ".join(list(self.host_log)[-12:])
        breaking = getattr(self.breaking, "name", None)
        return SimFailure(
            invariant,
            detail,
            game=self.game_name,
            seed=self.seed,
            profile=self.profile.name,
            breaking=breaking,
            at_s=seconds(self.queue.now_ns - self.start_ns),
            context=context,
            known_bugs=self.known_bugs,
        )

    def _step(self, event: Event) -> None:
        self.figures.steps += 1
        self.step = StepState()
        self.shadows.now_ns = self.now_ns
        self.shadows.step_records = []
        try:
            self._handle(event)
            self._flush()
        except SimulatedCrash:
            self._crash()
        if self.deferred is not None:
            raise self.deferred
        self._check_step()
        self._arm_wake()

    def _handle(self, event: Event) -> None:
        if isinstance(event, Arrive):
            if event.up:
                self._to_host(event.pipe, event.chunk)
            else:
                self._to_client(event.pipe, event.chunk)
        elif isinstance(event, HostWake):
            self.wake_at = None
            if self.core is not None:
                if self.woke_at is None or self.now_ns > self.woke_at + LOOP_TURN_NS:
                    self.spins = 0
                self.woke_at = self.now_ns
                self.core.advance(self.now_ns)
        elif isinstance(event, ClientTimer):
            event.client.timer(event.kind, event.gen)
        elif isinstance(event, StartClient):
            event.client.start()
        elif isinstance(event, FaultDue):
            self._fault(event.fault)
        elif isinstance(event, Restart):
            self._restart()

    def _to_host(self, pipe: Pipe, chunk: Chunk) -> None:
        tags = pipe.up.deliver(chunk)
        core = self.core
        if tags is None or core is None or pipe.epoch != self.epoch:
            return
        now = self.now_ns
        if pipe.conn is None:
            if chunk.eof:
                return
            pipe.conn = core.open_connection(pipe.address, now)
            pipe.host_open = True
            self.pipes[pipe.conn] = pipe
            return
        if not pipe.host_open:
            return  # the host closed it: these bytes meet a reset
        if chunk.eof:
            pipe.host_open = False
            self.pipes.pop(pipe.conn, None)
            self.step.acts.closed.add(id(pipe))
            core.connection_lost(pipe.conn, now)
            return
        for sent in tags:
            message = sent.message
            if isinstance(message, Act):
                shadow = self.shadows.tables.get(message.table)
                game = shadow.game if shadow is not None else self.game  # next game: another
                if not game.is_claim(message.action):
                    self.step.acts.delivered.append((pipe, message))
        more = core.receive_data(pipe.conn, chunk.data, now)
        while more:
            more = core.handle_more(pipe.conn, now)

    def _to_client(self, pipe: Pipe, chunk: Chunk) -> None:
        if pipe.down.deliver(chunk) is None or not pipe.client_open:
            return
        client = pipe.client
        if chunk.eof:
            client.lost(pipe)
            return
        pipe.protocol.receive_data(chunk.data, seconds(self.now_ns))
        for event in pipe.protocol.events_received():
            if not isinstance(event, MessageReceived):
                raise Violation(
                    "protocol",
                    f"{client.describe()} refused the host's bytes: {event.code}: {event.text}",
                )
            message = event.message
            self.frames.frame(pipe, message)
            self._follow(pipe, message)
            client.receive(pipe, message)
            if not still_open(pipe):  # the client closed it while handling the message
                return
        if pipe.protocol.should_close and pipe.client_open:
            self.close(pipe)
            client.lost(pipe)

    def _follow(self, pipe: Pipe, message: Message) -> None:
        """Keep the pipe's own record of where it sits (what its frames are checked as)."""
        if isinstance(message, Joined) and message.moved_from in pipe.client.left_tables:
            raise Violation(
                "again",
                f"{pipe.client.describe()} said no to playing {message.moved_from} again, "
                f"yet was moved to {message.table}",
            )
        if isinstance(message, Joined):
            pipe.seat, pipe.table, pipe.last_version = message.seat, message.table, None
        elif isinstance(message, Left) or (
            isinstance(message, Error) and message.code in ("seat_taken_over", "table_closed")
        ):
            pipe.last_version = None
            if isinstance(message, Left):
                pipe.table = None

    # Host outputs --------------------------------------------------------------

    def _flush(self) -> None:
        core = self.core
        if core is None:
            return
        for output in core.outputs():
            pipe = self.pipes.get(output.conn)
            if pipe is None:
                raise Violation(
                    "connections", f"the host wrote to connection {output.conn}, which is not open"
                )
            if isinstance(output, Send):
                self._host_sends(pipe, output.data)
            elif isinstance(output, Close):
                check_close(pipe)
                pipe.host_open = False
                self.pipes.pop(output.conn, None)
                self.step.acts.closed.add(id(pipe))
                chunk = pipe.down.finish(self.now_ns)
                if chunk is not None:
                    self.queue.at(chunk.at_ns, Arrive(pipe, False, chunk))

    def _host_sends(self, pipe: Pipe, data: bytes) -> None:
        buffer = pipe.splitter
        buffer += data
        frames: list[bytes] = []
        while len(buffer) >= 4:
            size = int.from_bytes(buffer[:4], "big")
            if len(buffer) < 4 + size:
                break
            frames.append(bytes(buffer[: 4 + size]))
            del buffer[: 4 + size]
        if self.breaking is not None:
            frames = self.breaking.frames(self, pipe, frames)
        out = bytearray()
        tags: list[tuple[int, str]] = []
        for frame in frames:
            kind = frame_type(frame)
            if kind == "error":
                decoded = decode_frame(frame)
                ref = decoded.get("ref")
                if isinstance(ref, int):
                    self.step.acts.refused.add((id(pipe), ref))
                pipe.last_host_frame = decoded
            else:
                pipe.last_host_frame = {"type": kind}
            out += frame
            tags.append((len(out), kind))
        for chunk in pipe.down.send(self.now_ns, bytes(out), tags):
            self.queue.at(chunk.at_ns, Arrive(pipe, False, chunk))

    def _arm_wake(self) -> None:
        """Wake the host at its next deadline. A deadline at or before the instant it was
        last woken (a timer that re-armed itself for "now") is taken one microsecond later,
        as a real event loop comes round; more than :data:`MAX_SAME_INSTANT_WAKES` of those
        in a row is a host spinning without getting anywhere."""
        core = self.core
        if core is None:
            return
        due = core.next_deadline_ns()
        if due is None:
            return
        now = self.now_ns
        if self.woke_at is not None and due <= self.woke_at:
            self.spins += 1
            self.figures.spins += 1
            if self.spins > MAX_SAME_INSTANT_WAKES:
                raise Violation(
                    "progress",
                    f"the host core asked to be woken at once {self.spins} times in a row "
                    f"without time moving (a timer re-arming itself for now: {self._due_timer()})",
                )
            due = self.woke_at + LOOP_TURN_NS
        due = max(due, now)
        if self.wake_at is not None and self.wake_at <= due:
            return
        self.wake_at = due
        self.queue.at(due, HostWake(due))

    def _due_timer(self) -> str:
        core = self.core
        heap = getattr(getattr(core, "timers", None), "_heap", None)
        if not heap:
            return "unknown"
        live = [entry for entry in heap if not entry[2].cancelled]
        if not live:
            return "none"
        timer = min(live, key=lambda entry: (entry[0], entry[1]))[2]
        return str(getattr(getattr(timer, "_callback", timer), "__qualname__", timer))

    # Faults and crashes ----------------------------------------------------------

    def _fault(self, fault: Fault) -> None:
        client = self.clients[fault.client]
        pipe = client.pipe
        if pipe is None or client.phase is not Phase.ONLINE:
            return  # the fault finds nobody to hit
        self.figures.faults += 1
        effect = client.fault(fault.kind, fault.away_s)
        if effect == "reset":
            self._reset(pipe)
        elif effect == "blackhole":
            pipe.blackholed_ns = self.now_ns
            pipe.up.blackhole()
            pipe.down.blackhole()

    def _reset(self, pipe: Pipe) -> None:
        for link, up in ((pipe.up, True), (pipe.down, False)):
            chunk = link.reset(self.now_ns)
            if chunk is not None:
                self.queue.at(chunk.at_ns, Arrive(pipe, up, chunk))

    def _arm_crash(self) -> None:
        while self.crashes and self.crashes[0].record <= self.store.writes:
            self.crashes.popleft()  # a crash point passed while the host was down
        if self.crashes:
            crash = self.crashes[0]
            self.store.crash_at, self.store.crash_keep = crash.record, crash.keep
        else:
            self.store.crash_at = None

    def _crash(self) -> None:
        self.step.crashed = True
        self.figures.crashes += 1
        crash = self.crashes.popleft() if self.crashes else None
        self._host_line("*** crashed (simulated) ***")
        self.core = None
        self.epoch += 1
        self.wake_at = self.woke_at = None
        for pipe in self.live_pipes:
            pipe.host_open = False
            if pipe.client_open:
                chunk = pipe.down.reset(self.now_ns)
                if chunk is not None:
                    self.queue.at(chunk.at_ns, Arrive(pipe, False, chunk))
                pipe.up.blackhole()
        self.pipes.clear()
        self.live_pipes = [p for p in self.live_pipes if p.client_open]
        self._arm_crash()
        down = ns(crash.down_s) if crash is not None else NS_PER_S
        self.queue.after(down, Restart())

    def _restart(self) -> None:
        self._host_line("*** restarts on its journals ***")
        core = self._new_core()
        self.core = core
        core.resume(self.now_ns)

    # Checks --------------------------------------------------------------------

    def _record(self, table_id: str, record: dict[str, Any]) -> None:
        """A record the host kept. Called from inside the core, which turns any exception
        into an ``internal_error`` reply: a problem is kept and raised after the step."""
        try:
            self.shadows.record(table_id, record)
            if record.get("r") == "ruling":
                check_ruling(record, self.truths, table_id, self.tally)
        except JournalDiverged as error:
            self.deferred = self.deferred or Violation("replay", str(error))
        except Violation as violation:
            self.deferred = self.deferred or violation

    def _check_step(self) -> None:
        for plan in self.plans:
            if plan.table_id is None and plan.creator.phase is Phase.GONE:
                for other in plan.others:
                    other.phase = Phase.GONE  # nobody tells them a table: they never come
        if self.figures.steps % 256 == 0:
            self.live_pipes = [
                p
                for p in self.live_pipes
                if p.host_open or p.client_open or not p.up.idle or not p.down.idle
            ]
        if self.host_bugs:
            raise Violation("host_bug", f"the host logged a bug: {self.host_bugs[0]}")
        if self.step.crashed or self.core is None:
            return
        self.figures.acts_checked += self.step.acts.check(self.shadows.step_records)
        now = self.now_ns
        core = self.core
        held = set(core.connections)
        ours = {conn for conn, pipe in self.pipes.items() if pipe.host_open}
        if held != ours:
            raise Violation(
                "connections",
                f"the core holds connections {sorted(held - ours)} the network has closed, "
                f"and lacks {sorted(ours - held)} that are open",
            )
        idle_ns = ns(IDLE_TIMEOUT_S + HALF_OPEN_SLACK_S)
        for pipe in self.pipes.values():
            if pipe.blackholed_ns is not None and now - pipe.blackholed_ns > idle_ns:
                raise Violation(
                    "connections",
                    f"connection {pipe.conn} ({pipe.client.describe()}) has been half-open for "
                    f"{seconds(now - pipe.blackholed_ns):.1f} s and the host still holds it "
                    f"(idle timeout {IDLE_TIMEOUT_S:g} s)",
                )
        attended: set[str] = set()
        for client in self.clients:
            current = client.pipe
            if (
                current is None
                or not client.attached
                or current.epoch != self.epoch
                or not current.host_open
                or current.blackholed_ns is not None
                or current.table is None
            ):
                continue
            attended.add(current.table)
            if client.after_left is None and current.down.idle:
                self._screen(client, current)
        for table_id, table in self.shadows.tables.items():
            if table_id not in attended:
                self.attended_since.pop(table_id, None)
                continue
            since = self.attended_since.setdefault(table_id, now)
            if not table.started or table.over or table.closed_ns is not None:
                continue
            quiet = now - max(table.last_record_ns, since)
            if quiet > ns(self.profile.stall_s):
                raise Violation(
                    "progress",
                    f"table {table_id} has been attended, started and not over, yet its journal "
                    f"has not grown for {seconds(quiet):.0f} s (version {table.version})",
                )

    def _screen(self, client: SimClient, pipe: Pipe) -> None:
        """A screen with nothing on its way to it shows the table as the journal has it."""
        assert pipe.table is not None
        table = self.shadows.tables.get(pipe.table)
        if table is None or table.closed_ns is not None or table.start_version is None:
            return
        latest = table.version
        wanted = table.view(latest, pipe.seat)
        if wanted is None:
            return
        shown_version = pipe.last_version
        if shown_version is None:
            raise Violation(
                "screen",
                f"{client.describe()} sits at {table.id} (version {latest}) and nothing is on its "
                "way to it, yet it never got a view there",
            )
        if shown_version == latest and pipe.counting_down:
            runner = self.core.tables.get(table.id) if self.core is not None else None
            counting = getattr(runner, "counting_down", None)
            if callable(counting) and not counting():
                raise Violation(
                    "screen",
                    f"{client.describe()} still counts down to the start of {table.id}, which "
                    "has begun, and no frame is on its way to it",
                )
            return
        shown = table.view(shown_version, pipe.seat)
        if shown != wanted:
            raise Violation(
                "screen",
                f"{client.describe()} shows version {shown_version} of {table.id}, the journal is "
                f"at {latest}, the views differ, and no frame is on its way to it",
            )

    def _finished(self) -> bool:
        if any(client.phase is not Phase.GONE for client in self.clients):
            return False
        if any(
            pipe.host_open or not pipe.up.idle or not pipe.down.idle for pipe in self.live_pipes
        ):
            return False
        return all(table.closed_ns is not None for table in self.shadows.tables.values())

    def _at_limit(self) -> None:
        for table_id, table in self.shadows.tables.items():
            if table.closed_ns is None:
                state = "over but never closed" if table.over else "neither over nor closed"
                raise Violation(
                    "progress",
                    f"table {table_id} is {state} after {self.profile.time_limit_s:g} virtual "
                    f"seconds (version {table.version}, started: {table.started})",
                )
        waiting = [c.describe() for c in self.clients if c.phase is not Phase.GONE]
        if waiting:
            raise Violation(
                "progress", f"the run did not end: {', '.join(waiting[:4])} still at the host"
            )

    def _at_end(self) -> None:
        """Back to baseline: once the core's last timers have run out (a handshake deadline
        of a connection already gone, say), it holds no table, connection or timer."""
        core = self.core
        if core is None:
            return
        now = self.now_ns
        for _ in range(1000):
            due = core.next_deadline_ns()
            if due is None:
                break
            if due - now > ns(DRAIN_S):
                raise Violation(
                    "connections",
                    f"every table and client is gone, yet the core keeps a timer "
                    f"({self._due_timer()}) due {seconds(due - now):.0f} s later",
                )
            now = max(now, due)
            core.advance(now)
            if core.outputs():
                raise Violation("connections", "the core wrote to a connection after all closed")
        else:
            raise Violation("progress", "the core's timers never run out after the run")
        if core.tables:
            raise Violation(
                "connections",
                f"every table was closed, yet the core still holds {sorted(core.tables)}",
            )
        if core.connections:
            raise Violation(
                "connections",
                "every client left, yet the core still holds connections "
                f"{sorted(core.connections)}",
            )
        timers = getattr(core, "timers", None)
        if timers is not None and len(timers):
            raise Violation("connections", f"the core still holds {len(timers)} timer(s)")

    def _figures(self) -> None:
        figures = self.figures
        figures.virtual_s = seconds(self.now_ns - self.start_ns)
        figures.frames = self.frames.frames_checked
        figures.views = self.frames.views_checked
        figures.rulings = self.tally.rulings
        figures.fairness_pairs = self.tally.judged_pairs
        figures.refused_writes = self.store.refused_writes
        figures.tables = len(self.shadows.tables)
        for table in self.shadows.tables.values():
            end = table.closed_ns if table.closed_ns is not None else self.now_ns
            created = table.created_ns
            figures.table_s += seconds(end - created)
            figures.finished_games += table.over


# --------------------------------------------------------------------------- frames


def still_open(pipe: Pipe) -> bool:
    return pipe.client_open


def frame_type(frame: bytes) -> str:
    """The ``type`` of a host frame, read from its first bytes when the encoder put it first."""
    body = frame[4:]
    if len(body) > 6 and 0x80 <= body[0] <= 0x8F and body[1:6] == b"\xa4type":
        size = body[6] - 0xA0
        if 0 <= size <= 31 and len(body) >= 7 + size:
            return body[7 : 7 + size].decode()
    decoded = decode_frame(frame)
    kind = decoded.get("type")
    return kind if isinstance(kind, str) else "?"


def decode_frame(frame: bytes) -> dict[str, Any]:
    value = msgpack.unpackb(frame[4:], raw=False, use_list=True, strict_map_key=True)
    return value if isinstance(value, dict) else {}


def encode_frame(value: dict[str, Any]) -> bytes:
    body = msgpack.packb(value, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body
