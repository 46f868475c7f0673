"""The lobby: hosts (found on the LAN, typed in, or this computer's own) and their tables.

Data down: :meth:`LobbyScreen.set_hosts`, :meth:`LobbyScreen.set_tables`,
:meth:`LobbyScreen.status`. Intents up: :class:`LobbyScreen.HostChosen`
(list that host's tables), :class:`LobbyScreen.JoinTable`,
:class:`LobbyScreen.Create`, :class:`LobbyScreen.AddHost`,
:class:`LobbyScreen.Rename`. The app does the networking.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from net.wire.text import clean_text
from tui.compositor import QuietWhenCovered
from tui.screens.keys import KEYS_BINDING, show_keys
from tui.styles import NARROW_BELOW, PHONE_BREAKPOINTS, TCSS_DIR
from tui.widgets.footer import TableFooter
from tui.widgets.wins import HostWins

if TYPE_CHECKING:
    from tui.screens.dialogs import NewTable

MUTED = "$foreground-muted"
"""A host's second line (where it was found, its tables): the theme's text colour, partly
see-through, so it reads on a highlighted row too (``$text-muted`` turns solid in a label)."""


@dataclass(frozen=True)
class HostEntry:
    """One host the lobby lists. ``key`` is stable across updates."""

    key: str
    name: str
    address: str
    port: int
    origin: str
    """``lan`` (found by discovery), ``address`` (typed in) or ``yours`` (this computer)."""
    summary: str = ""
    """What the LAN advertisement says (``1 waiting · 1 playing``), before we
    connect."""
    ssh_port: int | None = None
    """The host's SSH gateway (``clowder host --ssh``), from its advertisement."""
    web_port: int | None = None
    """The host's page for browsers (``clowder host --web``), from its advertisement."""
    shown: str = ""
    """The address to tell people, where it is not the one this process uses (an SSH
    gateway's player reaches the host on 127.0.0.1; friends reach it as ``shown``)."""

    @property
    def endpoint(self) -> str:
        return f"{self.address}:{self.port}"

    @property
    def public_endpoint(self) -> str:
        """Where other people reach this host: what to show and to say."""
        return self.shown or self.endpoint

    @property
    def ssh_command(self) -> str | None:
        """What a friend with nothing installed types to play here (None: no SSH gateway)."""
        if self.ssh_port is None:
            return None
        from net.client.discovery import (
            ssh_command,  # loads zeroconf: not before the lobby is drawn
        )

        return ssh_command(self.public_address, self.ssh_port)

    @property
    def public_address(self) -> str:
        """The host part of :attr:`public_endpoint`: the address other people reach."""
        if not self.shown:
            return self.address
        from tui.commands.address import BadAddress, parse_address

        try:
            return parse_address(self.shown)[0]
        except BadAddress:
            return self.address

    @property
    def web_url(self) -> str | None:
        """The page a friend with only a browser opens to play here (None: no web page)."""
        if self.web_port is None:
            return None
        from net.client.discovery import web_url

        return web_url(self.address, self.web_port)

    @property
    def without_install(self) -> str:
        """How a friend with nothing installed plays here: ``no Python? ssh ... or http://...``
        (empty when the host offers neither)."""
        ways = [way for way in (self.ssh_command, self.web_url) if way is not None]
        return f"no Python? {' or '.join(ways)}" if ways else ""


def seats_text(seats: Sequence[dict[str, Any]], width: int | None = None) -> str:
    """``Ann, Bot Tom``: who sits there (free seats are counted in the status column).

    A dropped player is marked ``(away)``. With a ``width``, names that do not fit
    are counted, never cut mid-name: ``Ann (away) +2``.
    """
    parts = []
    for seat in seats:
        name = clean_text(str(seat.get("name") or ""))
        if not name:
            continue
        if seat.get("human") and not seat.get("connected"):
            parts.append(f"{name} (away)")
        else:
            parts.append(str(name))
    if not parts:
        return "nobody yet"
    return fit_names(parts, width)


def fit_names(names: Sequence[str], width: int | None) -> str:
    """``Ann, Bea`` if it fits in ``width``, else the names that fit and ``+N`` for the rest."""
    whole = ", ".join(names)
    if width is None or len(whole) <= width:
        return whole
    for kept in range(len(names) - 1, 0, -1):
        text = f"{', '.join(names[:kept])} +{len(names) - kept}"
        if len(text) <= width:
            return text
    more = f" +{len(names) - 1}" if len(names) > 1 else ""
    return names[0][: max(1, width - len(more) - 1)] + "…" + more


def short_title(game: str) -> str:
    """The game's short name for a narrow column (``Kitten Me!``; empty: none, or a game this
    Clowder does not know)."""
    from engine import registry  # a listing's first row: the lobby is drawn by then

    try:
        return registry.get(game).short_title
    except registry.UnknownGame:
        return ""


def game_cell(table: dict[str, Any], width: int | None = None) -> str:
    """The game's title, whole if it fits in ``width``, else its short name (``Kitten Me!``),
    else cut with ``…``. "You Gotta" was all the lobby showed of You Gotta Be Kitten Me!,
    at any width (issue 36, item 6)."""
    title = str(table.get("title") or table.get("game", "?"))
    if width is None or len(title) <= width:
        return title
    short = short_title(str(table.get("game", "")))
    if short and len(short) <= width:
        return short
    return title[: max(1, width - 1)] + "…"


def table_row(
    table: dict[str, Any], players_width: int | None = None, game_width: int | None = None
) -> tuple[str, str, str, str]:
    """The lobby's columns for one table summary: id, game, seats, status (the game's title
    and the names fitted to the columns' widths, when given)."""
    title = game_cell(table, game_width)
    players = seats_text(table.get("seats") or [], players_width or PLAYERS_WIDTH)
    cells = (str(table.get("id", "?")), title, players, status_cell(table))
    return (clean_text(cells[0]), clean_text(cells[1]), cells[2], clean_text(cells[3]))


def status_cell(table: dict[str, Any]) -> str:
    """``2 seats free`` / ``your seat, 1 watch`` / ``playing``: the status column's words."""
    status = str(table.get("status", "?"))
    free = int(table.get("free", 0))
    if free and status == "waiting":
        status = f"{free} seat{'s' if free != 1 else ''} free"
    if table.get("yours") and status != "over":
        status = "your seat"  # Enter takes the player back to it
    watchers = int(table.get("spectators", 0))
    if watchers:
        status += f", {watchers} watch"
    return status


PLAYERS_WIDTH = 14
"""The players column's width when no other is given: names that do not fit are counted
(``Ann +2``), not cut."""

COLUMNS = (("id", 3), ("game", 10), ("players", PLAYERS_WIDTH), ("status", 16))
"""The tables' columns and widths before the lobby knows its width."""

ID_WIDTH = 3
SHORT_GAME_WIDTH = 10
"""The game column at its narrowest: every game's title or short name fits (``Kitten Me!``)."""
STATUS_WIDTH = 16
NARROW_STATUS_WIDTH = 14
"""The status column at its widest (``2 seats free, 1 watch`` is cut); a phone's is
narrower. It is as wide as its longest words, from :data:`MIN_STATUS_WIDTH`."""
MIN_STATUS_WIDTH = 9
MIN_PLAYERS_WIDTH = 8
HOSTS_PANE_WIDTH = 28
"""The hosts pane's width beside the tables (``#hosts-pane`` in lobby.tcss)."""
CELL_PADDING = 2
"""A column's cell padding (the DataTable's, one each side)."""
SCROLLBAR_ROOM = 2
"""Kept free for the list's scroll bar, when it has more tables than rows."""


def columns_for(
    width: int, titles: Sequence[str], statuses: Sequence[str] = ()
) -> tuple[tuple[str, int], ...]:
    """The tables' columns for a lobby ``width`` columns wide listing games ``titles`` with
    ``statuses``: the status column as wide as its words, the game column the longest title
    whole where there is room for it and a few names beside it (else each game's short
    name), the players the rest (issue 36, item 6: the columns stayed at their 80-column
    widths on a 142-column terminal, "You Gotta" and "Bot … +1")."""
    narrow = width < NARROW_BELOW
    pane = width if narrow else width - HOSTS_PANE_WIDTH
    room = pane - 4 * CELL_PADDING - SCROLLBAR_ROOM
    widest = NARROW_STATUS_WIDTH if narrow else STATUS_WIDTH
    words = max((len(text) for text in statuses), default=MIN_STATUS_WIDTH)
    status = min(widest, max(MIN_STATUS_WIDTH, words))
    longest = max((len(title) for title in titles), default=SHORT_GAME_WIDTH)
    whole = max(SHORT_GAME_WIDTH, longest)
    game = whole if room - ID_WIDTH - status - whole >= PLAYERS_WIDTH else SHORT_GAME_WIDTH
    players = max(MIN_PLAYERS_WIDTH, room - ID_WIDTH - status - game)
    return (("id", ID_WIDTH), ("game", game), ("players", players), ("status", status))


class LobbyScreen(QuietWhenCovered[None]):
    """Hosts on the left, the highlighted host's tables on the right (a phone: above)."""

    HORIZONTAL_BREAKPOINTS = PHONE_BREAKPOINTS

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "lobby.tcss"]

    BINDINGS: ClassVar[list[BindingType]] = [
        KEYS_BINDING,
        Binding("enter", "join", "join", priority=True),
        Binding("w", "watch", "watch"),
        Binding("c", "create", "create table"),
        Binding("l", "learn", "learn"),  # short: with ? keys the footer still fits 80 columns
        Binding("a", "address", "address"),
        Binding("n", "rename", "name"),
        Binding("b", "bell", "bell on/off", show=False),
        Binding("r", "retry", "retry", show=False),
        Binding("tab", "switch", "hosts/tables", show=False),
        Binding("h", "switch", "hosts/tables", show=False),  # tab's plain key (a phone's has none)
        Binding("q", "app.quit", "quit"),
    ]

    class HostChosen(Message):
        def __init__(self, host: HostEntry | None) -> None:
            super().__init__()
            self.host = host

    class JoinTable(Message):
        def __init__(self, host: HostEntry, table: str, role: str) -> None:
            super().__init__()
            self.host = host
            self.table = table
            self.role = role

    class Create(Message):
        def __init__(self, new_table: NewTable) -> None:
            super().__init__()
            self.new_table = new_table

    class AddHost(Message):
        def __init__(self, address: str, port: int) -> None:
            super().__init__()
            self.address = address
            self.port = port

    class ToggleBell(Message):
        """The player turns the tables' bell off (or on again): ``b``."""

    class Rename(Message):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, player: str = "", *, creates_at: str = "") -> None:
        super().__init__()
        self.player = player
        self.creates_at = creates_at
        """Where ``c`` creates a table when not on this computer: the one host this lobby
        plays at (``clowder join --only-this-host``, an SSH gateway's player), as they
        reach it."""
        self.hosts: list[HostEntry] = []
        self.tables: dict[str, list[dict[str, Any]]] = {}
        self.problems: dict[str, str] = {}
        self.wins: dict[str, list[str]] = {}
        """Each host's scoreboard lines (``net.store.scoreboard.wins_line``), under its tables."""
        """Why a host's tables could not be listed (it is tried again every few seconds)."""
        self._shown_rows: list[tuple[str, str, str, str]] | None = None
        self._shown_head: tuple[str, str] | None = None
        """The tables' title and join line as shown: the lobby lists the highlighted host's
        tables every 1.5 s, and drawing the same lines again sent them to every player's
        terminal each time (an idle lobby's cost, times each SSH or browser player)."""
        self._shown_status = ""
        self._columns: tuple[tuple[str, int], ...] = COLUMNS
        self._ready = False

    def compose(self) -> ComposeResult:
        yield Static("", id="lobby-title")
        with Horizontal(id="lobby-main"):
            with Vertical(id="hosts-pane", classes="-focused"):  # it gets the focus on mount
                yield Static("Hosts", classes="pane-title")
                yield OptionList(id="hosts")
            with Vertical(id="tables-pane"):
                yield Static("Tables", id="tables-title", classes="pane-title")
                yield Static("", id="tables-ssh")
                yield DataTable(id="tables", cursor_type="row", zebra_stripes=False)
                yield HostWins(id="host-wins")
        yield Static(self._shown_status, id="lobby-status")
        yield TableFooter()

    def on_mount(self) -> None:
        self._ready = True
        ssh_line = self.query_one("#tables-ssh", Static)
        ssh_line.styles.padding = (0, 1)
        ssh_line.display = False
        self._columns = COLUMNS
        self._set_columns(COLUMNS)
        self._title()
        self._fill_hosts()
        self.query_one("#hosts", OptionList).focus()

    def _set_columns(self, columns: tuple[tuple[str, int], ...]) -> None:
        table = self.query_one("#tables", DataTable)
        table.clear(columns=True)
        for label, width in columns:
            table.add_column(label, width=width)
        self._shown_rows = None

    def on_resize(self, event: events.Resize) -> None:
        """The columns follow the width (a phone's: names counted, ``Ann +2``, sooner)."""
        if not self._ready:
            return
        self._shown_rows = None
        self._show_tables(self.selected)

    def _fit_columns(self, tables: Sequence[dict[str, Any]]) -> None:
        """The columns for the screen's width and these tables' games (set again only when
        they change: that clears the list)."""
        titles = [str(table.get("title") or table.get("game", "?")) for table in tables]
        statuses = [clean_text(status_cell(table)) for table in tables]
        columns = columns_for(self.size.width, titles, statuses)
        if columns != self._columns:
            self._columns = columns
            self._set_columns(columns)

    def _title(self) -> None:
        title = Text("Clowder lobby", style="bold")
        title.append(f" · you are {self.player or '?'} (n renames)")
        self.query_one("#lobby-title", Static).update(title)

    # Data down ----------------------------------------------------------------

    @property
    def selected(self) -> HostEntry | None:
        if not self._ready:
            return None
        try:
            hosts = self.query_one("#hosts", OptionList)
        except NoMatches:  # the app is closing: the listing's timer came as the lobby went
            return None
        index = hosts.highlighted
        if index is None or not 0 <= index < len(self.hosts):
            return None
        return self.hosts[index]

    def set_player(self, name: str) -> None:
        self.player = name
        if self._ready:
            self._title()

    def set_hosts(self, hosts: Sequence[HostEntry]) -> None:
        """Replace the host list, keeping the highlighted host highlighted."""
        self.hosts = list(hosts)
        if self._ready:
            self._fill_hosts()

    def _fill_hosts(self) -> None:
        widget = self.query_one("#hosts", OptionList)
        before = self.selected.key if widget.option_count and self.selected else None
        widget.clear_options()
        for entry in self.hosts:
            origin = {"yours": "this computer", "address": "by address"}.get(entry.origin, "")
            detail = origin or clean_text(entry.summary)
            second = f"\n  {detail}" if detail else ""
            label = Content.assemble((clean_text(entry.name), "bold"), (second, MUTED))
            widget.add_option(Option(label, id=entry.key))
        if not self.hosts:
            widget.add_option(Option(Content.styled("(none yet)", MUTED), disabled=True))
            self._show_tables(None)
            return
        keys = [entry.key for entry in self.hosts]
        widget.highlighted = keys.index(before) if before in keys else 0

    def select(self, key: str) -> None:
        """Highlight host ``key`` (e.g. one just typed in)."""
        keys = [entry.key for entry in self.hosts]
        if self._ready and key in keys:
            self.query_one("#hosts", OptionList).highlighted = keys.index(key)

    def set_tables(
        self,
        key: str,
        tables: list[dict[str, Any]] | None,
        problem: str = "",
        *,
        lasting: bool = False,
    ) -> None:
        """The tables of host ``key`` (``None`` and a ``problem`` if they could not be listed;
        ``lasting``: trying again by itself cannot help, a host of another version).

        The problem stays in the status line only while it lasts: once the host answers
        again, the line says so (a restarted host's "Nothing is listening" stayed until
        something else was said, 40 s on a LAN walk-through; issue 36, item 11).
        """
        selected = self._ready and self.selected is not None and self.selected.key == key
        if tables is None:
            self.tables.pop(key, None)
            self.problems[key] = problem or "Could not list its tables"
            again = "r: try again" if lasting else "trying again (r: now)"
            problem = f"{self.problems[key]} · {again}"
        else:
            self.tables[key] = tables
            if self.problems.pop(key, None) is not None and selected and self.selected:
                self.status(f"{self.selected.name} answers again")
        if selected:
            self._show_tables(self.selected, problem)

    def set_wins(self, key: str, lines: list[str]) -> None:
        """Host ``key``'s wins per game, shown under its tables while it is selected."""
        self.wins[key] = list(lines)
        if self._ready and self.selected is not None and self.selected.key == key:
            self.query_one(HostWins).show(self.wins[key])

    def _show_tables(self, host: HostEntry | None, problem: str = "") -> None:
        self.query_one(HostWins).show(self.wins.get(host.key, []) if host is not None else [])
        title = self.query_one("#tables-title", Static)
        widget = self.query_one("#tables", DataTable)
        ways = host.without_install if host is not None else ""
        shown = ""
        if host is not None:
            shown = clean_text(f"Tables on {host.name} ({host.public_endpoint})")
        if (shown, ways) != self._shown_head:
            self._shown_head = (shown, ways)
            ssh_line = self.query_one("#tables-ssh", Static)
            ssh_line.display = bool(ways)
            ssh_line.update(Content.styled(ways, MUTED))
            title.update(Text(shown, style="bold") if shown else "Tables")
        cursor = widget.cursor_row  # new columns clear the list: the cursor stays put
        if host is None:
            rows: list[tuple[str, str, str, str]] = []
        else:
            listed = self.tables.get(host.key, [])
            self._fit_columns(listed)
            widths = dict(self._columns)
            rows = [table_row(table, widths["players"], widths["game"]) for table in listed]
        if problem:
            self.status(problem)
        if rows == self._shown_rows:
            return
        self._shown_rows = rows
        widget.clear()
        for cells in rows:
            widget.add_row(*cells, key=cells[0])
        if rows:
            widget.move_cursor(row=min(cursor, len(rows) - 1), animate=False)

    @property
    def shown_status(self) -> str:
        """The status line's text now (the app replaces its own lines, never an error)."""
        return self._shown_status

    def status(self, text: str) -> None:
        text = clean_text(text)
        if text != self._shown_status:
            self._shown_status = text  # said before the mount: composed with it
            if self._ready:
                self.query_one("#lobby-status", Static).update(text)

    # Intents up ---------------------------------------------------------------

    @on(events.DescendantFocus)
    @on(events.DescendantBlur)
    def _mark_focused_pane(self) -> None:
        """The focused pane gets ``-focused``: its title in reverse video, seen without colour."""
        focused = self.focused
        for pane in self.query("#hosts-pane, #tables-pane"):
            pane.set_class(focused is not None and pane in focused.ancestors_with_self, "-focused")

    @on(OptionList.OptionHighlighted, "#hosts")
    def host_highlighted(self) -> None:
        host = self.selected
        self._shown_rows = None
        self._show_tables(host)
        self.post_message(self.HostChosen(host))

    @on(OptionList.OptionSelected, "#hosts")
    def host_selected(self) -> None:
        self.query_one("#tables", DataTable).focus()

    @on(DataTable.RowSelected, "#tables")
    def table_selected(self) -> None:
        self._join("player")

    def _current_table(self) -> str | None:
        widget = self.query_one("#tables", DataTable)
        if not widget.row_count:
            return None
        row_key = widget.coordinate_to_cell_key(widget.cursor_coordinate).row_key
        return None if row_key.value is None else str(row_key.value)

    def _join(self, role: str) -> None:
        host = self.selected
        table = self._current_table()
        if host is None:
            self.status("No host to join yet: wait for one, or press a to type an address")
        elif host.key in self.problems:
            self.status(f"{self.problems[host.key]} · trying again (r: now)")
        elif table is None and host.origin == "yours":
            self.status("You have no tables open: press c to create one")
        elif table is None:
            self.status(f"{host.name} has no tables yet: press c to open one there")
        else:
            self.post_message(self.JoinTable(host, table, role))

    def action_join(self) -> None:
        tables = self.query_one("#tables", DataTable)
        if self.query_one("#hosts", OptionList).has_focus and tables.row_count > 1:
            self._choose_a_table(tables)
            return
        self._join("player")

    def _choose_a_table(self, tables: DataTable[Any]) -> None:
        """Several tables: go to the list, on the first one Enter can sit at (your seat, or
        a free one), and say what the keys do there."""
        host = self.selected
        listed = self.tables.get(host.key, []) if host is not None else []
        joinable = [
            index
            for index, table in enumerate(listed)
            if table.get("status") != "over" and (table.get("yours") or table.get("free"))
        ]
        tables.focus()
        if joinable:
            tables.move_cursor(row=joinable[0])
        self.status("Choose a table: ↑↓ then Enter to sit, w to watch, h back to the hosts")

    def action_retry(self) -> None:
        host = self.selected
        if host is not None:
            self.status(f"Trying {host.public_endpoint} again...")
            self.post_message(self.HostChosen(host))

    def action_watch(self) -> None:
        self._join("spectator")

    def action_show_keys(self) -> None:
        show_keys(self)

    def action_switch(self) -> None:
        hosts = self.query_one("#hosts", OptionList)
        (self.query_one("#tables", DataTable) if hosts.has_focus else hosts).focus()

    def action_create(self) -> None:
        """The create dialog, offering the other hosts listed as well as this computer
        (the highlighted one first): a LAN host's SSH and browser players see only that
        host, so a table made on this computer is one they can never join."""
        from tui.screens.dialogs import HERE, CreateDialog, Place  # loaded when first opened

        def created(new_table: NewTable | None) -> None:
            if new_table is not None:
                self.post_message(self.Create(new_table))

        places = [
            Place(host.key, host.name, host.address, host.port, host.public_endpoint)
            for host in self.hosts
            if host.origin != "yours"
        ]
        selected = self.selected
        chosen = selected.key if selected is not None else HERE
        dialog = CreateDialog(at=self.creates_at, places=places, chosen=chosen)
        self.app.push_screen(dialog, created)

    def action_learn(self) -> None:
        """A coached first game of the game chosen (:class:`tui.screens.dialogs.LearnDialog`):
        created as a table like ``c`` does, with the coach on."""
        from tui.screens.dialogs import LearnDialog

        def chosen(new_table: NewTable | None) -> None:
            if new_table is not None:
                self.post_message(self.Create(new_table))

        self.app.push_screen(LearnDialog(), chosen)

    def action_address(self) -> None:
        from tui.screens.dialogs import AddressDialog

        def chosen(address: tuple[str, int] | None) -> None:
            if address is not None:
                self.post_message(self.AddHost(*address))

        self.app.push_screen(AddressDialog(), chosen)

    def action_bell(self) -> None:
        self.post_message(self.ToggleBell())

    def action_rename(self) -> None:
        from tui.screens.dialogs import NameDialog

        def named(name: str | None) -> None:
            if name:
                self.set_player(name)
                self.post_message(self.Rename(name))

        self.app.push_screen(NameDialog(self.player), named)
