"""Small apps that show one screen with fixed data, for Pilot and snapshot tests."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.widget import Widget

from engine.bots import make_bot
from engine.games.blackcat import rules as blackcat
from engine.games.blackcat.scoring import full_deck
from engine.games.catchy.rules import GAME
from tui.games.catchy.screen import CatchyTable
from tui.keygate import KeyGateApp
from tui.screens.lobby import HostEntry, LobbyScreen
from tui.screens.table import ClaimStamps, TableScreen
from tui.styles import TCSS_DIR

# A fixed deal: course G5 R5 B4; Ann (seat 0) holds the Starting card.
DECK = [
    "G5", "R5", "B4",
    "R1", "R3", "G2", "B2", "B3", "JK", "ST",
    "R2", "R4", "G1", "G3", "G4", "B1", "B5",
]  # fmt: skip

PRESENCE = [
    {
        "name": "Ann",
        "bot": False,
        "human": True,
        "connected": True,
        "covered": False,
        "rtt_ms": 0.4,
    },
    {"name": "Bot Tom", "bot": True, "human": False, "connected": True, "covered": False},
]


def catchy_view(
    moves: int = 0, seat: int | None = 0, deck: list[str] | None = None
) -> dict[str, Any]:
    """The view for ``seat`` after ``moves`` actions chosen by the Catchy! bot (deterministic)."""
    state = GAME.new_game(["Ann", "Bot Tom"], 7, {"deck": deck or DECK})
    bots = [make_bot("catchy", "catchy", 1), make_bot("catchy", "catchy", 2)]
    for _ in range(moves):
        turn = state.turn
        action = bots[turn].choose(GAME.view(state, turn))
        assert action is not None
        state, _ = GAME.apply(state, turn, action, 0.0)
    view: dict[str, Any] = GAME.view(state, seat)
    return view


BLACKCAT_TOP = ["8S", "2C", "3S", "TD", "2H", "5C", "8C", "KH"]
BLACKCAT_DECK = BLACKCAT_TOP + [card for card in full_deck() if card not in BLACKCAT_TOP]
"""A fixed Black Cat deck: the cards on top are chosen so the tests know what scores."""

BLACKCAT_PLAYERS = ["Ann", "Bea", "Cy"]


def blackcat_view(
    takes: list[tuple[int, int]],
    seat: int | None = 0,
    players: list[str] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The view for ``seat`` after the given (seat, pile) grabs from :data:`BLACKCAT_DECK`."""
    game = blackcat.GAME
    state = game.new_game(players or BLACKCAT_PLAYERS[:2], 7, {"deck": BLACKCAT_DECK, **options})
    for taker, pile in takes:
        action = {"type": "take", "pile": pile, "reveal": state.reveal}
        state, _ = game.apply(state, taker, action, 0.0)
    view: dict[str, Any] = game.view(state, seat)
    return view


def flat(text: str) -> str:
    """``text`` with every run of spaces and line breaks as one space (wrapping's way)."""
    return " ".join(text.split())


def shown_in(app: KeyGateApp[None], widget: Widget) -> str:
    """What ``widget`` shows on the screen on top, its rows joined (:func:`flat`)."""
    update = app.screen._compositor.render_full_update()
    rows = ["".join(strip.text for strip in row) for row in update.strips]
    region = widget.content_region
    return flat(" ".join(row[region.x : region.right] for row in rows[region.y : region.bottom]))


async def shown_whole(pilot: Any, app: KeyGateApp[None], widget: Widget, text: str) -> bool:
    """Whether ``text`` is on screen whole in ``widget`` (waiting, a while under load, for
    the layout a wrapped line asks for)."""
    for attempt in range(120):  # at most about a second past the first 20 frames
        await pilot.pause(0.01 if attempt >= 20 else None)
        if flat(text) in shown_in(app, widget):
            return True
    return False


class TableHarness(KeyGateApp[None]):
    """Shows a game's table screen with a fixed view; records the intents it posts."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        view: dict[str, Any] | None,
        presence: list[dict[str, Any]] | None = None,
        screen: type[TableScreen[Any]] = CatchyTable,
        *,
        starting: bool = False,
        starts_in: float | None = None,
        waiting: dict[str, Any] | None = None,
        blurred: bool = False,
    ) -> None:
        super().__init__()
        self.first_view = view
        self.waiting = waiting
        """With no ``view``: the table's waiting room, as the ``view`` message's ``waiting``."""
        self.blurred = blurred
        """The window has no focus when the table comes (a browser's tab in the background)."""
        self.starting = starting
        """As the ``view`` message's ``starting``/``starts_in``: a real-time countdown."""
        self.starts_in = starts_in
        self.presence = PRESENCE if presence is None else presence
        self.actions: list[dict[str, Any]] = []
        self.stamps: list[ClaimStamps | None] = []
        self.left = False
        self.table = screen(table_id="t1", place="127.0.0.1:7707")

    def on_mount(self) -> None:
        if self.blurred:
            self.app_focus = False
        self.push_screen(self.table)
        self.table.received(
            self.first_view, starting=self.starting, starts_in=self.starts_in, waiting=self.waiting
        )
        self.table.presence(self.presence)

    def on_table_screen_act(self, message: TableScreen.Act) -> None:
        self.actions.append(message.action)
        self.stamps.append(message.stamps)
        self.table.sent_off(message.action)  # as the app does once the client has sent it

    def on_table_screen_leave(self, message: TableScreen.Leave) -> None:
        self.left = True


LOBBY_HOSTS = [
    HostEntry("yours", "Ann (you)", "127.0.0.1", 7707, "yours"),
    HostEntry("lan:bea", "Bea's laptop", "198.18.0.2", 7707, "lan", "1 waiting · 1 playing"),
    HostEntry("addr:10.0.0.9:7707", "10.0.0.9:7707", "10.0.0.9", 7707, "address"),
]
LOBBY_TABLES = [
    {
        "id": "t1",
        "game": "catchy",
        "title": "Catchy!",
        "options": {"target": 7, "arms": 3},
        "seats": [
            {"name": "Ann", "bot": False, "human": True, "connected": True, "covered": False},
            {"name": None, "bot": False, "human": False, "connected": False, "covered": False},
        ],
        "free": 1,
        "status": "waiting",
        "spectators": 0,
    },
    {
        "id": "t2",
        "game": "catchy",
        "title": "Catchy!",
        "options": {"target": 7, "arms": 3},
        "seats": [
            {"name": "Cy", "bot": False, "human": True, "connected": False, "covered": True},
            {"name": "Bot Mia", "bot": True, "human": False, "connected": True, "covered": False},
        ],
        "free": 0,
        "status": "playing",
        "spectators": 2,
    },
]


class LobbyHarness(KeyGateApp[None]):
    """Shows a :class:`LobbyScreen` with fixed hosts and tables; records the intents."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "app.tcss"]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        self.lobby = LobbyScreen("Ann")
        self.intents: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.lobby)
        self.lobby.set_hosts(LOBBY_HOSTS)
        self.lobby.set_tables("yours", LOBBY_TABLES)
        self.lobby.status("Looking for hosts on the LAN... (a: join by address)")

    def on_lobby_screen_join_table(self, message: LobbyScreen.JoinTable) -> None:
        self.intents.append(("join", message.host.key, message.table, message.role))

    def on_lobby_screen_add_host(self, message: LobbyScreen.AddHost) -> None:
        self.intents.append(("add", message.address, message.port))
