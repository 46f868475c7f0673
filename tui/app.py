"""The Clowder app: lobby, tables and the connections behind them.

Screens never touch the network. This app owns it: the LAN browser, one
short-lived :class:`net.client.client.Client` per host to list its tables, the
embedded host (:mod:`tui.hosting`) when the player opens a table, and one
reconnecting client for the table the player sits at, whose incoming
messages one worker pumps to the table screen (views, presence, errors,
link state).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from textual.binding import Binding, BindingType

from net.wire.text import clean_data, clean_text
from tui.config import Settings
from tui.keygate import KeyGateApp
from tui.screens.lobby import HostEntry, LobbyScreen
from tui.seats import HeldSeat, SeatStore
from tui.styles import TCSS_DIR

# Only what draws the lobby is imported here. The network client and its messages,
# the host, LAN discovery (zeroconf), the games and their table screens are imported
# where they are first used: the lobby is drawn before they load.
if TYPE_CHECKING:
    from textual.driver import Driver
    from textual.timer import Timer
    from textual.worker import Worker

    from net.client.client import Client
    from net.client.discovery import HostEvent
    from net.wire.messages import Joined
    from tui.hosting import EmbeddedHost
    from tui.screens.dialogs import NewTable
    from tui.screens.realtime import RealtimeTable
    from tui.screens.table import TableScreen

RETURN_TIMEOUT_S = 5.0
"""How long the host may take to answer a seat token with ``joined`` (or ``bad_token``)."""

LIST_EVERY_S = 1.5
"""How often the lobby re-lists the highlighted host's tables."""
STILL_LISTINGS = 4
STILL_LOOK_S = 30.0
"""After :data:`STILL_LISTINGS` listings in a row that changed nothing, the lobby's tick
stops and the lobby looks again only after this long: an idle lobby (an SSH or browser
player's, on the host's own machine) costs its host and its client next to nothing. A host
sends a lobby its tables as they change (net/PROTOCOL.md, ``tables``), so it is up to date
all the same; the look is for a host that never does (an older Clowder's). Choosing a host
lists it at once."""

CLIENT_PING_S = 30.0
"""How often the app's clients ping their host. Nothing here reads a client's own round
trip (the connection line shows the host's measurements, from its own pings), so a
ping is only a check that the link still answers; once a second, it woke every
player's process and the host for nothing (each SSH or browser player's runs on the
host's own machine)."""

TAKEOVER_ASK_S = 2.0
"""How long ``q`` at a table waits for the host to say its takeover (else the leave dialog
says it less exactly)."""

LOOPBACK = "127.0.0.1"
"""This computer (as :data:`tui.hosting.LOOPBACK`, without importing the host)."""


class HostSource(Protocol):
    """Where the lobby learns about hosts: :class:`net.client.discovery.Browser`, or a fake in
    tests."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def events(self) -> AsyncIterator[HostEvent]: ...


def lan_browser() -> HostSource:
    from net.client.discovery import Browser

    return Browser()


@dataclass
class PlayRequest:
    """``clowder play``: the game, its options, how many seats bots take (``None``: all but one)
    and their level (``None``: the game's default)."""

    game: str
    options: dict[str, Any]
    bots: int | None = None
    bot_level: str | None = None
    coach: bool = False
    """A coached first game (``clowder learn``): the table screen gets the game's coach."""


@dataclass
class AtTable:
    """The table this player sits at (or watches) and the connection that serves it."""

    client: Client
    table: str
    screen: TableScreen[Any]
    host: str = ""
    """``address:port`` of the host, the key of the held seat (empty: not remembered)."""


COVERED_NOTICE = "A bot played your seat while you were away: its moves are in the log"
"""Said to a player who comes back to a seat a bot covered (issue 36, item 4)."""


def was_covered(summary: dict[str, Any] | None, seat: int | None) -> bool:
    """Whether the table ``summary`` (the lobby's last listing) shows a bot covering
    ``seat`` for its player (the seat map's ``covered``: the host's data, so checked)."""
    seats = summary.get("seats") if summary is not None else None
    if seat is None or not isinstance(seats, list) or not 0 <= seat < len(seats):
        return False
    info = seats[seat]
    return isinstance(info, dict) and info.get("covered") is True


def host_summary(event_host: Any) -> str:
    """``1 waiting · 2 playing`` from a discovered host's advertisement (tables waiting for
    players, tables playing).

    A host advertises its tables that are not over and which of them have free seats (only
    a table still waiting has any); "4 tables, 4 open" beside a list that also showed a
    finished table read as a miscount (issue 36, item 11).
    """
    count = int(event_host.table_count)
    waiting = min(count, len(event_host.open_tables) + int(event_host.open_tables_omitted))
    parts = [f"{waiting} waiting"] if waiting else []
    if count > waiting:
        parts.append(f"{count - waiting} playing")
    return " · ".join(parts) or "no tables yet"


class ClowderApp(KeyGateApp[int]):
    """``clowder``: the lobby (default), or straight to a table (``play``) or host (``join``)."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss", *LobbyScreen.CSS_PATH]
    """The lobby's file too: it is the first screen, and a screen's file that is read when
    the screen is pushed makes Textual parse every style again and restyle the whole app."""
    ENABLE_COMMAND_PALETTE = False
    TITLE = "Clowder"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "quit", show=False)]

    def __init__(
        self,
        *,
        name: str | None = None,
        config_dir: Path | None = None,
        play: PlayRequest | None = None,
        join: tuple[str, int] | None = None,
        discovery: Callable[[], HostSource] | None = lan_browser,
        host_bind: str | None = None,
        advertise: bool = True,
        bot_delay_s: float | None = None,
        bot_reaction_scale: float = 1.0,
        start_countdown_s: float | None = None,
        state_dir: Path | None = None,
        only_host: bool = False,
        shown_as: str | None = None,
        bell: bool | None = None,
        ask_name: str | None = None,
        player_folders: Path | None = None,
        ssh_key: str | None = None,
        ssh_door: int | None = None,
        web_page: tuple[str, int] | None = None,
    ) -> None:
        super().__init__()
        self._bell_given = bell
        """``--bell`` / ``--no-bell`` for this run (``None``: the player's setting)."""
        self.only_host = only_host and join is not None
        """``clowder join --only-this-host`` (an SSH gateway's players): tables are created on
        that host, and no other host is reached from this process."""
        self.shown_as = shown_as if join is not None else None
        """``clowder join --shown-as``: the joined host's address as other people reach it."""
        self.config_dir = config_dir
        if state_dir is None and config_dir is not None:
            state_dir = config_dir / "state"  # a test's own folder: never the real one
        self.seats = SeatStore(state_dir)
        """The seat tokens this player holds, kept between runs (:mod:`tui.seats`)."""
        self._return_pending = join is not None
        """``clowder join HOST``: go straight back to a seat held there, once."""
        self.ask_name = ask_name
        """``clowder join --ask-name=USER``: an SSH gateway's player whose user name cannot
        be their name (a word such as "you", or another player's name): the name is asked
        first, whatever is remembered."""
        self.player_folders = player_folders if ask_name is not None else None
        """``--player-folders``: the gateway's players' folders; the settings and seats are
        those of the folder of the name given (with ``ssh_key``), the one ``ssh NAME@HOST``
        opens next time (:func:`net.doors.ssh_access.player_folder`)."""
        self.ssh_key = ssh_key
        self.ssh_door = ssh_door if join is not None else None
        """``--door=ssh:PORT``: this player came in by the host's SSH gateway on ``PORT``;
        their way back is ``ssh -p PORT NAME@ADDRESS``, not ``clowder join``."""
        self.web_page = web_page if join is not None else None
        """``--door=web:HOST[:PORT]``: this player plays in a browser, at the host's web page
        as their browser addressed it; their way back is that page, in that browser (a
        browser has no ``clowder``, and its cookie goes to that name only)."""
        # A folder to be chosen by the name asked: nothing read from the stand-in's one.
        self.settings = Settings() if self.player_folders else Settings.load(config_dir)
        self.given_name = name
        self.play_request = play
        self.join_address = join
        self.discovery = discovery
        self.host_bind = host_bind
        self.advertise = advertise
        self.bot_delay_s = bot_delay_s
        """How long the embedded host's bots wait before a move (None: the host's default)."""
        self.bot_reaction_scale = bot_reaction_scale
        """Real-time tables this app hosts: bots' reaction times are multiplied by this."""
        self.start_countdown_s = start_countdown_s
        """Real-time tables this app hosts count down this long before the game (None: the
        host's default; tests shorten it)."""
        self.embedded: EmbeddedHost | None = None
        self.at_table: AtTable | None = None
        self.lobby: LobbyScreen | None = None
        self.hosts: dict[str, HostEntry] = {}
        self.listers: dict[str, Client] = {}
        self._source: HostSource | None = None
        self._looking: str | None = None
        """The lobby's status line the LAN browsing last said (``None``: not browsing)."""
        self._shut_down = False
        self._wins_for: dict[str, list[dict[str, Any]]] = {}
        """Each host's tables when its wins were last asked for: the lobby lists tables every
        1.5 s, and asking for wins too cost every idle lobby (and its host) the same again."""
        self._still_listings = 0
        """Listings in a row that found the tables as they were."""
        self._refused_hosts: set[str] = set()
        """Hosts that refused this Clowder's protocol version: not listed at each tick (only
        when chosen again, or on ``r``)."""
        self._pushing: set[str] = set()
        """Hosts whose lister connection was sent the tables unasked: they keep the lobby up to
        date by themselves, and are not asked at each tick."""
        self._lister_readers: dict[str, Worker[None]] = {}
        self._listing_timer: Timer | None = None
        """The lobby's listing tick: paused while the highlighted host sends the tables
        itself, or while they stand still (each tick woke the player's process)."""

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, with an input thread that sleeps while nothing is typed
        (:mod:`tui.drivers`): a process per player all evening, on the host's box for SSH and
        browser players."""
        from tui.drivers import quiet_driver

        return quiet_driver(super().get_driver_class())

    @property
    def player(self) -> str:
        return self.given_name or self.settings.name or "Player"

    @property
    def bell_on(self) -> bool:
        """Whether tables ring the terminal's bell for the player's attention
        (:mod:`tui.bell`): this run's ``--bell``/``--no-bell``, else the player's setting."""
        return self.settings.bell if self._bell_given is None else self._bell_given

    def toggle_bell(self) -> bool:
        """The lobby's ``b``: the bell off (or on again), kept in the player's settings; the
        table on show follows at once. Returns the new setting."""
        self._bell_given = None
        self.settings.bell = not self.settings.bell
        self._save_settings()
        if self.at_table is not None:
            self.at_table.screen.bell_on = self.settings.bell
        return self.settings.bell

    # Start ----------------------------------------------------------------------

    def on_mount(self) -> None:
        if self.ask_name is not None:
            from tui.screens.dialogs import NameDialog, asked_because

            why = asked_because(self.ask_name)
            self.push_screen(NameDialog(why=why), self._named_first)
        elif self.given_name is None and self.settings.name is None:
            from tui.screens.dialogs import NameDialog

            self.push_screen(NameDialog(), self._named_first)
        else:
            if self.settings.name is None and self.given_name:
                self._remember(self.given_name)
            self._begin()

    def _named_first(self, name: str | None) -> None:
        if not name:
            self.exit(1, message="clowder: a name is needed to play")
            return
        if self.player_folders is not None:
            self._use_player_folder(name)
        self._remember(name)
        self._begin()

    def _use_player_folder(self, name: str) -> None:
        """An SSH player named in the dialog: their settings and seats from now on are in
        the folder of that name and their key, where ``ssh NAME@HOST`` finds them again."""
        from net.doors.ssh_access import player_folder  # only an SSH gateway's client

        assert self.player_folders is not None
        folder = player_folder(self.player_folders, name, self.ssh_key)
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            self.notify(f"Could not make your folder: {error}", severity="warning")
        self.config_dir = folder / "config"
        self.seats = SeatStore(folder / "state")
        self.settings = Settings.load(self.config_dir)

    @property
    def reached_host(self) -> str | None:
        """The joined host's address as this player reaches it (``--shown-as``, else the
        address joined); ``None`` when no host was joined."""
        if self.join_address is None:
            return None
        if self.shown_as:
            from tui.commands.address import BadAddress, parse_address

            with contextlib.suppress(BadAddress):
                return parse_address(self.shown_as)[0]
        return self.join_address[0]

    def way_back(self, host: str) -> str:
        """What this player does to come back to the host ``host`` (``address:port``), by
        the way they came: ``ssh -p PORT NAME@ADDRESS`` for an SSH gateway's player (with
        the address they reached, and their own name: the folder that keeps their seats),
        the page's address for a browser's player, else ``clowder join HOST``."""
        reached = self.reached_host
        joined = self.join_address
        key = f"{joined[0]}:{joined[1]}" if joined is not None else None  # as _sit keeps it
        if host == key and self.web_page is not None:
            from net.client.discovery import web_url

            return f"open {web_url(*self.web_page)} again in this browser"
        if self.ssh_door is not None and reached is not None and host == key:
            from net.client.discovery import ssh_command

            return ssh_command(reached, self.ssh_door, user=self.player)
        if host == key and self.shown_as:  # joined at 127.0.0.1: named as the player reached it
            return f"clowder join {self.shown_as}"
        return f"clowder join {host}"

    def _remember(self, name: str) -> None:
        self.settings.name = name
        self._save_settings()

    def _save_settings(self) -> None:
        try:
            self.settings.save(self.config_dir)
        except OSError as error:
            self.notify(f"Could not save your settings: {error}", severity="warning")

    def _client(self, endpoint: tuple[str, int], **options: Any) -> Client:
        """A connection to a host as this player (name and player key)."""
        from net.client.client import Client

        key, made = self.settings.key_for(self.player)
        if made:  # once per name: kept, so every host knows this player again
            self._save_settings()
        options.setdefault("ping_interval_s", CLIENT_PING_S)
        options.setdefault("shown_as", self.shown_for(endpoint))
        return Client(endpoint[0], endpoint[1], self.player, player_key=key, **options)

    def shown_for(self, endpoint: tuple[str, int]) -> str | None:
        """The joined host's ``--shown-as`` address when ``endpoint`` is that host (``None``:
        its own address is the one to show). An SSH or browser player's client reaches the
        host at 127.0.0.1, which to that player means their own computer: every text names
        the address they reached it at ("Nothing is listening at 127.0.0.1:7707" was seen
        while the host restarted, issue 36, item 4)."""
        joined = self.join_address
        if self.shown_as and joined is not None and tuple(joined) == tuple(endpoint):
            return self.shown_as
        return None

    def _begin(self) -> None:
        if self.play_request is not None:
            self.run_worker(self._start_play(self.play_request), exclusive=True, group="play")
            return
        at = ""
        if self.only_host and self.join_address is not None:
            at = self.shown_as or f"{self.join_address[0]}:{self.join_address[1]}"
        self.lobby = LobbyScreen(self.player, creates_at=at)
        self.push_screen(self.lobby)
        if self.join_address is not None:
            address, port = self.join_address
            shown = self.shown_as or ""
            key, label = f"addr:{address}:{port}", shown or f"{address}:{port}"
            self._add_host(HostEntry(key, label, address, port, "address", shown=shown))
        elif self.discovery is not None:
            # The LAN search (zeroconf) is imported and started once the lobby is drawn.
            self.call_after_refresh(self._start_browsing, self.discovery)
        self._listing_timer = self.set_interval(LIST_EVERY_S, self._timed_listing)

    # clowder play ------------------------------------------------------------------

    async def _start_play(self, request: PlayRequest) -> None:
        from engine import registry
        from net.core.tables import TableError, fixed_deal_options
        from tui.hosting import EVERYWHERE

        game = registry.get(request.game)
        seats = game.min_players
        bots = seats - 1 if request.bots is None else request.bots
        seats = max(seats, bots + 1)
        friends = seats - 1 - bots
        fixed = fixed_deal_options(game, request.options)
        if fixed and friends:
            self.exit(
                2,
                message=f"clowder play: a fixed deck ({', '.join(fixed)}) is a testing aid for a "
                "solo game, where every other seat is a bot; leave out --bots or the option",
            )
            return
        bind = self.host_bind or (LOOPBACK if friends == 0 else EVERYWHERE)
        # Solo, nobody else can join this host: the player may fix their own deal.
        embedded = await self._ensure_host(
            bind, advertise=friends > 0 and self.advertise, allow_fixed_deck=bool(fixed)
        )
        try:
            runner = embedded.host.create_table(
                game.name,
                request.options,
                seats=seats,
                bots=bots,
                bot_level=request.bot_level,
                created_by=self.player,
            )
        except TableError as error:
            await self.shutdown()
            self.exit(2, message=f"clowder play: {error}")
            return
        await self._sit(
            embedded.endpoint,
            runner.table.id,
            game.name,
            "player",
            embedded.address,
            coach=request.coach,
        )

    async def _ensure_host(
        self, bind: str, *, advertise: bool, allow_fixed_deck: bool = False
    ) -> EmbeddedHost:
        if self.embedded is None:
            from net.core.table import BOT_DELAY_S, START_COUNTDOWN_S
            from tui.hosting import EmbeddedHost

            self.embedded = EmbeddedHost(
                name=self.player,
                bind=bind,
                advertise=advertise,
                allow_fixed_deck=allow_fixed_deck,
                bot_delay_s=BOT_DELAY_S if self.bot_delay_s is None else self.bot_delay_s,
                bot_reaction_scale=self.bot_reaction_scale,
                start_countdown_s=(
                    START_COUNTDOWN_S if self.start_countdown_s is None else self.start_countdown_s
                ),
            )
            await self.embedded.start()
            self._add_host(
                HostEntry("yours", f"{self.player} (you)", LOOPBACK, self.embedded.port, "yours")
            )
        return self.embedded

    # Sitting at a table --------------------------------------------------------------

    async def _sit(
        self,
        endpoint: tuple[str, int],
        table: str,
        game: str,
        role: str,
        place: str,
        *,
        coach: bool = False,
        listed: dict[str, Any] | None = None,
    ) -> bool:
        """Connect to ``endpoint``, join ``table`` and show it; False (and say why) on failure.

        ``coach``: the screen coaches the player through the game (:mod:`tui.coach`).
        ``listed``: the table's summary as the lobby last listed it: a seat a bot covered
        while its player was away is said to be so when they come back to it."""
        from net.client.client import ClientError
        from tui.games import NoScreen, coach_class, screen_class

        try:
            screen_type = screen_class(game)
        except NoScreen as error:
            self._say(str(error))
            return False
        own = self.embedded is not None and endpoint == self.embedded.endpoint
        key = "" if own else f"{endpoint[0]}:{endpoint[1]}"  # our own host dies with us
        held = self.seats.find(key, table, self.player) if key and role != "spectator" else None
        client = self._client(endpoint, token=held.token if held else None)
        try:
            await client.connect()
            joined = await self._returned(client, table) if held is not None else None
            returned = joined
            if held is not None and joined is None:
                self.seats.drop(key, table, self.player)  # the host no longer knows it
                client.token = None
            if joined is None:
                joined = await client.join(table, "spectator" if role == "spectator" else "player")
        except ClientError as error:
            await client.close()
            if error.code == "table_started":
                self._say(f"{error.message}, and you hold no seat there: press w to watch it")
            else:
                self._say(error.message)
            return False
        if key and joined.token is not None:
            self.seats.keep(HeldSeat(key, joined.table, joined.token, game, name=self.player))
            if self.seats.problem:
                self.notify(self.seats.problem, severity="warning")
        coached = coach_class(game)() if coach else None
        screen = screen_type(table_id=joined.table, place=place, coach=coached)
        screen.bell_on = self.bell_on
        welcome = client.welcome
        if welcome is not None:  # the waiting room tells friends every way in
            screen.doors = (welcome.ssh, welcome.web)
        self.at_table = AtTable(client, joined.table, screen, key)
        if returned is not None and was_covered(listed, returned.seat):
            screen.notice(COVERED_NOTICE)
        self.run_worker(self._pump(client), group="table")
        await self.push_screen(screen)
        return True

    async def _returned(self, client: Client, table: str) -> Joined | None:
        """The host's ``joined`` for the seat token ``client`` said hello with (``None``: no seat).

        The host answers a token with ``joined`` (and the full view after it), or with
        ``bad_token``; what comes before either is of no use yet.
        """
        from net.client.client import ClientError
        from net.wire.messages import Error, Joined

        async for message in client.arrivals(RETURN_TIMEOUT_S):
            if isinstance(message, Joined) and message.table == table:
                return message
            if isinstance(message, Joined):  # the token held another table's seat
                return None
            if isinstance(message, Error) and message.code == "bad_token":
                return None
        raise ClientError("timeout", "The host did not answer with your seat in time")

    async def _pump(self, client: Client) -> None:
        """Hand every message for our table to its screen, in order."""
        from net.client.client import ConnectionState
        from net.wire.messages import Act, Chat, ChatRule, Error, Joined, Presence, View
        from tui.screens.results import ResultsScreen

        told_going = False  # the host said it goes (host_shutdown): the drop is no news
        while True:
            message = await client.incoming.get()
            seat = self.at_table
            if seat is None or seat.client is not client:
                return
            # Everything the host sends is cleaned before a screen draws it (net.wire.text).
            if isinstance(message, View) and message.table == seat.table:
                over = message.view is not None and message.view.get("outcome") is not None
                if over and seat.host:
                    self.seats.drop(seat.host, seat.table)  # over: nothing to come back to
                if message.ratings is not None:
                    seat.screen.rated(clean_data(message.ratings))
                if message.contests is not None:
                    seat.screen.contested(clean_data(message.contests))
                seat.screen.evening(clean_data(message.again), clean_data(message.tonight))
                seat.screen.happened(clean_data(message.events))
                seat.screen.received(
                    clean_data(message.view),
                    waiting=clean_data(message.waiting),
                    starting=bool(message.starting),
                    starts_in=message.starts_in,
                    paused=clean_text(message.paused) if message.paused else None,
                    held=bool(message.held),
                )
            elif isinstance(message, Chat) and message.table == seat.table:
                name = clean_text(message.name or "?")
                seat.screen.said(name, message.seat, clean_text(message.text))
            elif isinstance(message, ChatRule) and message.table == seat.table:
                setter = clean_text(message.name) if message.name else None
                seat.screen.chat_rule(setter, message.spectator_chat)
            elif isinstance(message, Presence) and message.table == seat.table:
                seat.screen.presence(clean_data(message.seats))
            elif isinstance(message, Joined) and message.moved_from == seat.table:
                await self._moved(seat, message)
            elif isinstance(message, Error) and message.code == "table_closed":
                if seat.host:
                    self.seats.drop(seat.host, seat.table)
                self.notify(clean_text(message.message), timeout=8)
            elif isinstance(message, Error) and message.code == "host_shutdown":
                # A notice, not a refusal of a move: the host stops or restarts, and the
                # client comes back by itself when it can (the connection line says so).
                told_going = True
                self.notify(clean_text(message.message), title="The host", timeout=10)
            elif isinstance(message, Error) and message.ref is None:
                # ``about`` is the refused message's wire type: an ``action`` is a move or
                # claim this screen may still count as sent (a ``typing`` notice is not).
                if message.about == Act.TYPE:
                    seat.screen.act_refused(clean_text(message.message))
                else:
                    seat.screen.refused(clean_text(message.message))
                if isinstance(self.screen, ResultsScreen):  # the prompt is under the results
                    self.notify(clean_text(message.message), severity="warning", timeout=5)
            elif isinstance(message, ConnectionState):
                seat.screen.link(message.connected, message.detail)
                if not message.connected and not told_going:
                    self.notify(message.detail, severity="warning", timeout=3)
                told_going = told_going and not message.connected

    async def _moved(self, seat: AtTable, joined: Joined) -> None:
        """The host moved us from the finished table to the one its people play again at (or
        we took a seat there): that table's screen replaces the old one and its results,
        and the seat token (the same one) is kept for the new table."""
        from tui.games import NoScreen, coach_class, screen_class

        old = seat.screen
        game = str((old.again or {}).get("game") or "")
        if not game:
            tables = await seat.client.list_tables()
            game = next((str(t["game"]) for t in tables if t["id"] == joined.table), "")
        try:
            screen_type = screen_class(game)
        except NoScreen as error:
            self._say(str(error))
            return
        if seat.host:
            self.seats.drop(seat.host, seat.table)
            if joined.token is not None:
                self.seats.keep(HeldSeat(seat.host, joined.table, joined.token, game, self.player))
        coached = coach_class(game)() if old.coach is not None else None
        screen = screen_type(table_id=joined.table, place=old.place, coach=coached)
        screen.bell_on = self.bell_on
        screen.doors = old.doors
        screen.tonight = old.tonight
        self.at_table = AtTable(seat.client, joined.table, screen, seat.host)
        while self.screen is not old and len(self.screen_stack) > 1:
            self.pop_screen()  # the results (and a dialog over them)
        await self.switch_screen(screen)

    async def on_results_screen_play_again(self, message: Any) -> None:
        await self._from_table(lambda seat: seat.client.again(seat.table))

    async def on_results_screen_answer(self, message: Any) -> None:
        accept = bool(message.accept)
        await self._from_table(lambda seat: seat.client.again_answer(seat.table, accept))

    async def on_results_screen_take_seat(self, message: Any) -> None:
        from net.client.client import ClientError

        seat = self.at_table
        if seat is None:
            return
        try:
            joined = await seat.client.join(str(message.table), "player")
        except ClientError as error:
            self.notify(clean_text(error.message), severity="warning", timeout=5)
            return
        await self._moved(seat, joined)

    def on_results_screen_next_game(self, message: Any) -> None:
        from tui.screens.next_game import NextGame, NextGameDialog

        seat = self.at_table
        if seat is None or seat.screen.view is None:
            return
        players = len(seat.screen.view["players"])

        def chosen(choice: NextGame | None) -> None:
            if choice is not None:
                game, bots = choice.game, choice.bots or None
                self.run_worker(
                    self._from_table(lambda at: at.client.again(at.table, game, bots=bots)),
                    group="next-game",
                )

        self.push_screen(NextGameDialog(players, seat.screen.game), chosen)

    async def _from_table(self, send: Callable[[AtTable], Awaitable[None]]) -> None:
        """Send something for the table we are at; the host's refusal goes to its prompt."""
        from net.client.client import ClientError

        seat = self.at_table
        if seat is None:
            return
        try:
            await send(seat)
        except ClientError as error:
            seat.screen.refused(clean_text(error.message))

    async def on_table_screen_say(self, message: TableScreen.Say) -> None:
        """A chat line for the host (net.core.chat): never a game action."""
        await self._from_table(lambda seat: seat.client.chat(seat.table, message.text))

    async def on_table_screen_set_chat_rule(self, message: TableScreen.SetChatRule) -> None:
        """A player hides or shows the spectators' chat (net.core.chat.set_rule)."""
        await self._from_table(lambda seat: seat.client.chat_rule(seat.table, message.rule))

    async def on_table_screen_act(self, message: TableScreen.Act) -> None:
        from net.client.client import ClientError

        seat = self.at_table
        if seat is None:
            return
        stamps = message.stamps
        try:
            if stamps is None:
                await seat.client.act(seat.table, message.action)
            else:
                await seat.client.act(
                    seat.table,
                    message.action,
                    reveal=stamps.reveal,
                    drawn_ns=stamps.drawn_ns,
                    acted_ns=stamps.acted_ns,
                )
        except ClientError as error:
            seat.screen.act_refused(clean_text(error.message))
        else:
            seat.screen.sent_off(message.action)  # on its way: drawn as sent, if it can be

    async def on_realtime_table_typing(self, message: RealtimeTable.Typing) -> None:
        """A typing run started on a real-time table's answer line (Katootsie!'s): send the
        host a typing notice."""
        from net.client.client import ClientError

        seat = self.at_table
        if seat is None:
            return
        stamps = message.stamps
        with contextlib.suppress(ClientError):  # optional: the answer is judged on arrival
            await seat.client.typing(
                seat.table, reveal=stamps.reveal, drawn_ns=stamps.drawn_ns, acted_ns=stamps.acted_ns
            )

    async def on_realtime_table_learn(self, message: RealtimeTable.Learn) -> None:
        """A coached real-time table: hold moments for the learner and slow the bots, or let a
        held moment go on (``Learning`` in net/PROTOCOL.md)."""
        await self._from_table(
            lambda seat: seat.client.learn(seat.table, hold=message.hold, pace=message.pace)
        )

    def _playing(self, seat: AtTable | None) -> bool:
        """Whether ``seat`` is a player's seat in a game that is on (leaving it needs asking)."""
        if seat is None or seat.screen.seat is None:
            return False
        view = seat.screen.view
        return view is not None and view["outcome"] is None

    async def _takeover_of(self, seat: AtTable) -> float | None:
        """The seconds before the host has a bot cover a seat left at ``seat``'s table (the
        table summary's ``takeover``; ``None``: not known, an older host or no answer), so
        that the leave dialog says what really happens (issue 36, item 4)."""
        from net.client.client import ClientError

        if not seat.client.connected:
            return None
        try:
            async with asyncio.timeout(TAKEOVER_ASK_S):
                tables = await seat.client.list_tables()
        except (ClientError, TimeoutError):
            return None
        summary = next((t for t in tables if t.get("id") == seat.table), None)
        takeover = summary.get("takeover") if summary is not None else None
        if not isinstance(takeover, int | float) or isinstance(takeover, bool):
            return None  # the host's data: anything else is not known
        return max(0.0, float(takeover)) if math.isfinite(takeover) else None

    async def on_table_screen_leave(self, message: TableScreen.Leave) -> None:
        from net.client.client import ClientError
        from tui.screens.leave import LeaveDialog
        from tui.screens.table import TableScreen

        seat = self.at_table
        if self.lobby is not None and message.choice is None and self._playing(seat):
            assert seat is not None

            def chosen(choice: str | None) -> None:
                if choice is not None:
                    seat.screen.post_message(TableScreen.Leave(choice))

            back = "Enter on it in the lobby (it says 'your seat')"
            if seat.host:
                back += f", or {self.way_back(seat.host)}"
            takeover = await self._takeover_of(seat)
            self.push_screen(LeaveDialog(seat.table, back_by=back, takeover_s=takeover), chosen)
            return
        if self.lobby is None and message.choice is None and self._playing(seat):
            from tui.screens.end_game import EndGameDialog

            def ended(choice: str | None) -> None:
                if choice is not None and self.at_table is seat:
                    assert seat is not None
                    seat.screen.post_message(TableScreen.Leave(choice))

            self.push_screen(EndGameDialog(), ended)  # the game lives in this process only
            return
        self.at_table = None
        if self.lobby is None:
            await self.shutdown()
            self.exit(0)
            return
        if seat is not None:
            for_now = message.choice == "for_now"
            with contextlib.suppress(ClientError):
                await seat.client.leave(seat.table, for_now=for_now)
            if not for_now and seat.host:
                self.seats.drop(seat.host, seat.table, self.player)
            await seat.client.close()
        while self.screen is not self.lobby and len(self.screen_stack) > 1:
            self.pop_screen()
        await self._list_selected()

    # Lobby -------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        text = clean_text(text)  # often a host's error message
        if self.lobby is not None and self.screen is self.lobby:
            self.lobby.status(text)
        self.notify(text, severity="error", timeout=5)

    def _add_host(self, entry: HostEntry) -> None:
        self.hosts[entry.key] = entry
        self._publish_hosts()

    def _publish_hosts(self) -> None:
        order = {"yours": 0, "lan": 1, "address": 2}
        entries = sorted(
            self.hosts.values(), key=lambda e: (order.get(e.origin, 3), e.name.casefold())
        )
        if self.lobby is not None:
            self.lobby.set_hosts(entries)
            self._say_looking()

    def _say_looking(self) -> None:
        """The lobby's status while the LAN is browsed: how many hosts it has found so far
        (it said "Looking for hosts..." beside a listed host), replacing only its own line,
        never a message said since (an error, a hint)."""
        if self.lobby is None or self._looking is None:
            return
        if self._looking and self.lobby.shown_status != self._looking:
            return  # something else was said since: it stays
        found = sum(1 for entry in self.hosts.values() if entry.origin == "lan")
        if found:
            words = f"{found} host{'s' if found != 1 else ''} found on the LAN, still looking"
        else:
            words = "Looking for hosts on the LAN..."
        self._looking = clean_text(f"{words} (a: join by address)")
        self.lobby.status(self._looking)

    def _start_browsing(self, factory: Callable[[], HostSource]) -> None:
        if not self._shut_down:
            self.run_worker(self._browse(factory), group="discovery")

    async def _browse(self, factory: Callable[[], HostSource]) -> None:
        from net.client.discovery import DiscoveryError

        source = self._source = factory()
        try:
            await source.start()
        except DiscoveryError as error:
            if self.lobby is not None:
                self.lobby.status(f"{error} Press a to type an address.")
            return
        self._looking = ""
        self._say_looking()
        async for event in source.events():
            self._host_event(event)

    def _host_event(self, event: HostEvent) -> None:
        from net.client.discovery import ChangeKind

        info = event.host
        advertiser = self.embedded.advertiser if self.embedded is not None else None
        if advertiser is not None and advertiser.running and advertiser.instance == info.instance:
            return  # our own host, listed as "yours"
        key = f"lan:{info.instance}"
        if event.kind is ChangeKind.REMOVED:
            self.hosts.pop(key, None)
            gone = self._forget_lister(key)
            if gone is not None:
                self.run_worker(gone.close(), group="listers")
        else:
            address = info.addresses[0] if info.addresses else LOOPBACK
            self.hosts[key] = HostEntry(
                key,
                info.name,
                address,
                info.port,
                "lan",
                host_summary(info),
                info.ssh_port,
                web_port=info.web_port,
            )
        self._publish_hosts()

    async def on_lobby_screen_host_chosen(self, message: LobbyScreen.HostChosen) -> None:
        if message.host is not None:
            self._refused_hosts.discard(message.host.key)  # chosen (or r): asked again
        self._tick_listing()
        await self._list_selected()

    async def _timed_listing(self) -> None:
        """The lobby's regular listing, each tick while the tables change; never for a host
        that sends them as they change. Away from the lobby, its connections are closed (the
        host would go on sending them the tables all game long)."""
        if self.lobby is None or self.screen is not self.lobby:
            if self.listers:
                await self._close_listers()
            return
        selected = self.lobby.selected
        lister = self.listers.get(selected.key) if selected is not None else None
        if lister is not None and lister.connected and selected and selected.key in self._pushing:
            return  # the host keeps this lobby up to date
        if selected is not None and selected.key in self._refused_hosts:
            return  # a host of another version: asked again on r, not every tick
        await self._list_selected()
        if self._still_listings >= STILL_LISTINGS and self._listing_timer is not None:
            self._listing_timer.pause()  # still: look again later (or as the host sends)
            self.set_timer(STILL_LOOK_S, self._tick_listing)

    async def _close_listers(self) -> None:
        for key in list(self.listers):
            client = self._forget_lister(key)
            if client is not None:
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(2.0):
                        await client.close()

    def _forget_lister(self, key: str) -> Client | None:
        """Stop following host ``key``'s lister connection, and return it to be closed."""
        self._pushing.discard(key)
        reader = self._lister_readers.pop(key, None)
        if reader is not None:
            reader.cancel()
        return self.listers.pop(key, None)

    async def _read_lister(self, host: HostEntry, client: Client) -> None:
        """What the host sends a lobby's connection unasked: the tables as they change."""
        from net.client.client import ConnectionState
        from net.wire.messages import Tables

        while True:
            message = await client.incoming.get()
            if isinstance(message, ConnectionState) and not message.connected:
                self._pushing.discard(host.key)
                self._tick_listing()
                return  # the next tick connects again and asks
            if not isinstance(message, Tables) or message.ref is not None:
                continue
            if self.listers.get(host.key) is not client:
                return  # replaced or closed
            lobby = self.lobby
            if lobby is None or self.screen is not lobby:
                self._tick_listing()  # away from the lobby: its ticks close this, and list
                return  # again once it is back
            self._pushing.add(host.key)
            await self._show_tables(host, client, message.tables)
            selected = lobby.selected is not None and lobby.selected.key == host.key
            if selected and self._listing_timer is not None:
                self._listing_timer.pause()  # the host keeps this lobby up to date

    def _tick_listing(self) -> None:
        """Tick the lobby's listing again (the host stopped sending, or another is chosen)."""
        if self._listing_timer is not None:
            self._listing_timer.resume()

    async def _list_selected(self) -> None:
        """Ask the highlighted host for its tables (while the lobby is on screen)."""
        from net.client.client import Client, ClientError

        lobby = self.lobby
        if lobby is None or self.screen is not lobby or self._shut_down:
            return
        host = lobby.selected
        if host is None:
            return
        client = self.listers.get(host.key)
        try:
            if client is None or not client.connected:
                stale = self._forget_lister(host.key)  # its reader too
                if stale is not None:
                    with contextlib.suppress(Exception):
                        await stale.close()
                client = Client(
                    host.address,
                    host.port,
                    self.player,
                    reconnect=False,
                    ping_interval_s=CLIENT_PING_S,
                    shown_as=host.shown or None,
                )
                await client.connect()
                self.listers[host.key] = client
                self._lister_readers[host.key] = self.run_worker(
                    self._read_lister(host, client), group="listers"
                )
                self._name_from_welcome(host, client)
            tables = await client.list_tables()
        except ClientError as error:
            self._forget_lister(host.key)
            if client is not None:
                await client.close()
            lasting = error.code == "unsupported_version"
            if lasting:
                self._refused_hosts.add(host.key)
            lobby.set_tables(host.key, None, error.message, lasting=lasting)
            return
        await self._show_tables(host, client, tables)

    async def _show_tables(
        self, host: HostEntry, client: Client, tables: list[dict[str, Any]]
    ) -> None:
        """Show ``host``'s tables in the lobby (asked for, or sent as they changed); its wins
        are asked again when they changed, and a player coming back is seated again."""
        from tui.widgets.wins import fetch_wins

        lobby = self.lobby
        if lobby is None:
            return
        tables = self._mark_mine(host, tables)
        lobby.set_tables(host.key, tables)
        changed = self._wins_for.get(host.key) != tables
        self._still_listings = 0 if changed else self._still_listings + 1
        if changed:  # wins change only as tables do
            self._wins_for[host.key] = tables
            wins = await fetch_wins(client)
            if wins is not None:
                lobby.set_wins(host.key, wins)
        if self._return_pending and host.origin == "address":
            self._return_pending = False
            mine = [t for t in tables if t.get("yours") and t.get("status") != "over"]
            if mine:
                table = mine[0]
                await self._sit(
                    (host.address, host.port),
                    str(table["id"]),
                    str(table.get("game")),
                    "player",
                    host.public_endpoint,
                    listed=table,
                )

    def _name_from_welcome(self, host: HostEntry, client: Client) -> None:
        """A host typed in by address is listed by the name it gives itself, once known."""
        welcome = client.welcome
        if host.origin != "address" or welcome is None:
            return
        name = clean_text(welcome.host_name)
        if name and name != host.name:
            self._add_host(dataclasses.replace(host, name=name))

    def _mark_mine(self, host: HostEntry, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``tables`` with ``yours`` set where this player holds a seat; forgets seats gone."""
        if host.origin == "yours":
            return tables
        listed = {str(table.get("id")) for table in tables}
        for gone in self.seats.tables_at(host.endpoint) - listed:
            self.seats.drop(host.endpoint, gone)  # the table is gone: anyone's seat there
        mine = self.seats.tables_at(host.endpoint, self.player)
        return [{**t, "yours": True} if str(t.get("id")) in mine else t for t in tables]

    async def on_lobby_screen_join_table(self, message: LobbyScreen.JoinTable) -> None:
        host = message.host
        tables = self.lobby.tables.get(host.key, []) if self.lobby is not None else []
        listed = next((t for t in tables if t.get("id") == message.table), None)
        game = listed.get("game") if listed is not None else None
        if game is None:
            self._say(f"Table {message.table} is gone from {host.name}")
            return
        await self._sit(
            (host.address, host.port),
            message.table,
            str(game),
            message.role,
            host.public_endpoint,
            listed=listed,
        )

    async def on_lobby_screen_create(self, message: LobbyScreen.Create) -> None:
        from net.core.tables import TableError
        from tui.hosting import EVERYWHERE

        new: NewTable = message.new_table
        if self.only_host and self.join_address is not None:
            await self._create_on(self.join_address, new)
            return
        if new.at is not None:  # another host, chosen in the dialog: its players see it
            await self._create_on(new.at, new)
            return
        try:
            embedded = await self._ensure_host(
                self.host_bind or EVERYWHERE, advertise=self.advertise
            )
            runner = embedded.host.create_table(
                new.game,
                new.options,
                seats=new.seats,
                bots=new.bots,
                bot_level=new.bot_level,
                created_by=self.player,
            )
        except (TableError, OSError) as error:
            self._say(f"Could not create the table: {error}")
            return
        await self._sit(
            embedded.endpoint,
            runner.table.id,
            new.game,
            "player",
            embedded.address,
            coach=new.coach,
        )

    async def _create_on(self, endpoint: tuple[str, int], new: NewTable) -> None:
        """Create ``new`` on the host at ``endpoint`` (not in this process) and sit there."""
        from net.client.client import ClientError

        client = self._client(endpoint)
        try:
            await client.connect()
            table = await client.create_table(
                new.game, new.options, new.seats, new.bots, bot_level=new.bot_level
            )
        except ClientError as error:
            self._say(f"Could not create the table: {error.message}")
            return
        finally:
            await client.close()
        # Where friends reach this host (an SSH player's client reaches it on 127.0.0.1).
        place = self.shown_for(endpoint) or f"{endpoint[0]}:{endpoint[1]}"
        await self._sit(endpoint, table, new.game, "player", place, coach=new.coach)

    def on_lobby_screen_add_host(self, message: LobbyScreen.AddHost) -> None:
        if self.only_host:
            self._say("This Clowder plays only at the host it was started for")
            return
        key = f"addr:{message.address}:{message.port}"
        self._add_host(
            HostEntry(
                key, f"{message.address}:{message.port}", message.address, message.port, "address"
            )
        )
        if self.lobby is not None:
            self.lobby.select(key)

    def on_lobby_screen_toggle_bell(self, message: LobbyScreen.ToggleBell) -> None:
        if self.toggle_bell():
            said = "Bell on: a table rings when it is your turn or a card is turned (b: off)"
        else:
            said = "Bell off: tables stay quiet (b: on again)"
        if self.lobby is not None:
            self.lobby.status(said)

    def on_lobby_screen_rename(self, message: LobbyScreen.Rename) -> None:
        self.seats.rename(self.player, message.name)  # seats held go with the player
        self.settings.rename(self.player, message.name)  # and so does the player key
        self.given_name = None
        self._remember(message.name)
        for client in self.listers.values():
            client.name = message.name

    # Stop ---------------------------------------------------------------------------

    async def shutdown(self) -> None:
        """Close every connection, the LAN browser and the embedded host (idempotent)."""
        if self._shut_down:
            return
        self._shut_down = True
        seat, self.at_table = self.at_table, None
        clients = [*self.listers.values(), *([seat.client] if seat else [])]
        self.listers.clear()
        for client in clients:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await client.close()
        if self._source is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self._source.stop()
        if self.embedded is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(3.0):
                    await self.embedded.close()

    async def action_quit(self) -> None:
        await self.shutdown()
        self.exit(0)

    async def on_unmount(self) -> None:
        await self.shutdown()
