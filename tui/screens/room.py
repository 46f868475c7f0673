"""The room screen: a host's tables, tonight's standings and the ways to join, for a TV.

A LAN party's evening is several games at several tables; a screen on the wall (a TV or a
projector showing ``http://HOST:8080/room``, or ``clowder room HOST`` in a terminal) lets
everyone see what is being played, who leads the night, and how to join. It is
read-only: it never sits or watches at a table, it only reads what the host gives anyone
who asks (:mod:`tui.room` polls ``list_tables`` and ``get_scores``): the tables'
summaries (game, people, status, phase, public scores, winners) and tonight's standings.
No game view ever reaches it, so it cannot show a card a spectator may not see, whatever
a game keeps in its views.

Everything here is drawn from data already cleaned (``net.wire.text.clean_data``) into
``rich.text.Text`` (never markup): a name is drawn as typed, never obeyed.

Layouts, by the screen's size (``HORIZONTAL_BREAKPOINTS``/``VERTICAL_BREAKPOINTS``):

* big (from :data:`WIDE_FROM` columns and :data:`TALL_FROM` rows, a TV page at
  1920x1080): tonight's standings on the left, the leaders in big digits; the tables on
  the right, each seat on its own line; the QR code and the three ways to join under them;
* compact (80x24): the tables and the standings in short lines on the left, the QR code
  and the ways to join on the right;
* narrow (under 64 columns, a phone held upright): one column, no QR code.

Each pane draws what fits its size and counts the rest (``+2 more tables``): a room
screen has nobody to scroll it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from tui.commands.address import address_text
from tui.compositor import QuietWhenCovered
from tui.styles import NARROW_BELOW

WIDE_FROM = 100
"""Columns from which the big layout is used (with :data:`TALL_FROM` rows): the room page
at 1920x1080 is about 130 columns (:mod:`net.doors.web_gateway` sizes its font for that)."""
TALL_FROM = 30
"""Rows from which the big layout is used (with :data:`WIDE_FROM` columns)."""
ROOM_BREAKPOINTS: list[tuple[int, str]] = [
    (0, "-narrow"),
    (NARROW_BELOW, "-compact"),
    (WIDE_FROM, "-wide"),
]
ROOM_HEIGHTS: list[tuple[int, str]] = [(0, "-short"), (TALL_FROM, "-tall")]

BIG_ROW = 3
"""Lines a standings row takes in big digits (:data:`BLOCK_DIGITS`)."""
BIG_WANTED = 2
"""Leaders the compact layout makes room for in big digits (when the screen has the room)."""
BIG_MIN_WIDTH = 44
"""A standings pane narrower than this draws every row as a line."""

STATUS_ORDER = {"playing": 0, "waiting": 1, "over": 2}
"""Tables in play first, then those waiting for people, then the finished ones."""

WINNER = "★"
SEAT_ROW_MAX = 36
"""The widest a seat's line gets (name, then score): a wide pane leaves the rest empty."""
STANDINGS_MAX = 60
"""The widest the standings get, for the same reason."""


@dataclass(frozen=True)
class Doors:
    """How people in the room join this host: its address as they reach it, its game port,
    and its SSH and web ports when it has those doors (``welcome.ssh``, ``welcome.web``)."""

    address: str
    port: int
    ssh: int | None = None
    web: int | None = None

    @property
    def join_line(self) -> str:
        return f"clowder join {address_text(self.address, self.port)}"

    @property
    def ssh_line(self) -> str | None:
        from net.client.discovery import ssh_command

        return None if self.ssh is None else ssh_command(self.address, self.ssh)

    @property
    def web_line(self) -> str | None:
        from net.client.discovery import web_url

        return None if self.web is None else web_url(self.address, self.web)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (``localhost``, ``127.0.0.1``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's first LAN address (the one its host advertises), if it has one."""
    from net.client.discovery import advertised_addresses

    found = advertised_addresses()
    return None if found == ["127.0.0.1"] else found[0]


def viewer_address(host: str, find_lan: Callable[[], str | None] = lan_address) -> str:
    """The address people in the room can use for a host reached at ``host``.

    A room screen shown on the host's own machine (a TV plugged into it, opening
    ``http://localhost:8080/room``) reached it at a loopback address, which is useless to
    a phone: then this machine's LAN address is shown instead, where it has one.
    """
    if not is_loopback(host):
        return host
    return find_lan() or host


# --- Tables ---------------------------------------------------------------------------------


def ordered(tables: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tables in play first, then waiting, then over; the host's order within each."""
    return sorted(tables, key=lambda table: STATUS_ORDER.get(str(table.get("status")), 3))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def seat_name(seat: dict[str, Any], over: bool = False) -> str:
    """A seat's holder for people: ``Ann``, ``Ann (away)``, ``Cy (deciding)``; ``""`` free.
    At a finished table (``over``) who is still there is nobody's business."""
    name = str(seat.get("name") or "")
    if not name or over:
        return name
    if seat.get("reserved"):
        return f"{name} (deciding)"
    if seat.get("covered"):
        return f"{name} (bot covers)"
    if seat.get("human") and not seat.get("connected"):
        return f"{name} (away)"
    return name


def winners_of(table: dict[str, Any]) -> list[int]:
    winners = table.get("winners")
    return [int(seat) for seat in winners if isinstance(seat, int)] if winners else []


def status_line(table: dict[str, Any]) -> str:
    """``playing · bid``, ``waiting · 2 seats free``, ``over · Ann wins``, with watchers."""
    status = str(table.get("status") or "?")
    parts = [status]
    if status == "playing":
        phase = str(table.get("phase") or "").replace("_", " ")
        if phase and phase not in ("play", "playing"):
            parts.append(phase)
    elif status == "waiting":  # what it waits for says it
        free = int(table.get("free") or 0)
        parts = [f"{_plural(free, 'seat')} free" if free else "starting"]
    elif status == "over":
        seats = table.get("seats") or []
        names = [
            str(seats[seat].get("name") or f"seat {seat + 1}")
            for seat in winners_of(table)
            if 0 <= seat < len(seats)
        ]
        if len(names) == 1:
            parts.append(f"{names[0]} wins")
        elif names:
            parts.append(f"{', '.join(names[:-1])} and {names[-1]} win")
    watchers = int(table.get("spectators") or 0)
    if watchers:
        parts.append(f"{watchers} watch")
    if table.get("again_of"):
        parts.append("again")
    return " · ".join(parts)


def _score(table: dict[str, Any], seat: int) -> str:
    scores = table.get("scores")
    if isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], int):
        return str(scores[seat])
    return ""


def title_line(table: dict[str, Any], width: int) -> Text:
    """The game's title (bold) and the table's status, on one line of ``width``: the table's
    id goes first where they do not fit, then the end of the title, then of the status."""
    title = str(table.get("title") or table.get("game") or "?")
    status = status_line(table)
    room = max(8, width - 2 - len(status))
    if len(title) > room:
        title = title[: room - 1] + "…"
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(title, "bold")
    table_id = f"  {table.get('id', '')}"
    if len(title) + len(table_id) + 2 + len(status) <= width:  # the id goes first
        line.append(table_id, "dim")
    gap = max(2, width - len(line) - len(status))
    line.append(" " * gap)
    line.append(status, _status_style(table))
    line.truncate(width, overflow="ellipsis")
    return line


def _status_style(table: dict[str, Any]) -> str:
    return {"playing": "bold green", "waiting": "yellow", "over": "cyan"}.get(
        str(table.get("status")), ""
    )


def seated(table: dict[str, Any]) -> tuple[list[tuple[str, str, bool, bool]], int]:
    """The table's held seats as ``(name, score, won, bot)``, in seat order, and how many
    seats are free (shared by :func:`seat_rows` and :func:`people_line`)."""
    winners = set(winners_of(table))
    over = table.get("status") == "over"
    held: list[tuple[str, str, bool, bool]] = []
    free = 0
    for index, seat in enumerate(table.get("seats") or []):
        name = seat_name(seat, over)
        if not name:
            free += 1
            continue
        held.append((name, _score(table, index), index in winners, bool(seat.get("bot"))))
    return held, free


def seat_rows(table: dict[str, Any], width: int) -> list[Text]:
    """One line per seat: the holder, the score (a star for a winner); free seats counted.
    At most :data:`SEAT_ROW_MAX` wide, so that a score stays near its name."""
    width = min(width, SEAT_ROW_MAX)
    rows: list[Text] = []
    held, free = seated(table)
    for name, score, won, bot in held:
        right = f"{score} {WINNER}" if won else score
        room = max(4, width - 4 - len(right))
        shown = name if len(name) <= room else name[: room - 1] + "…"
        row = Text(no_wrap=True, overflow="crop")
        row.append("  ")
        row.append(shown, "bold yellow" if won else ("dim" if bot else ""))
        row.append(" " * max(1, width - 2 - len(shown) - len(right)))
        row.append(right, "bold yellow" if won else "bold")
        rows.append(row)
    if free:
        rows.append(Text(f"  {_plural(free, 'free seat')}", "italic"))
    return rows


def people_line(table: dict[str, Any], width: int) -> Text:
    """Who sits there with their scores on one line: ``Ann 12 · Bot Tom 8★ · 1 free``,
    the names that do not fit counted (``+2``), never cut mid-name."""
    held, free = seated(table)
    parts = [f"{name} {score}{WINNER if won else ''}".rstrip() for name, score, won, _ in held]
    if free:
        parts.append(f"{free} free")
    room = width - 2
    text = " · ".join(parts)
    for kept in range(len(parts), 0, -1):
        text = " · ".join(parts[:kept]) + (f" +{len(parts) - kept}" if kept < len(parts) else "")
        if len(text) <= room:
            break
    line = Text("  " + text, no_wrap=True, overflow="ellipsis")
    line.truncate(width, overflow="ellipsis")
    return line


def tables_lines(tables: Sequence[dict[str, Any]], width: int, height: int) -> list[Text]:
    """The tables in ``width`` x ``height``: each seat on a line where all fit; else the last
    tables (the finished ones first) take two lines (title, people), then the blank lines
    between tables go, for as many tables as can keep a line per seat; else as many tables
    as fit and how many more there are."""
    if height <= 0 or width <= 0:
        return []
    shown = ordered(tables)
    if not shown:
        return [Text("No tables yet: open one from the lobby (c)", "italic")]
    full = [[title_line(table, width), *seat_rows(table, width)] for table in shown]
    short = [[title_line(table, width), people_line(table, width)] for table in shown]

    def size(blocks: list[list[Text]], spaced: bool) -> int:
        return sum(len(block) for block in blocks) + (len(blocks) - 1 if spaced else 0)

    blocks, spaced = short, False
    for kept in range(len(shown), -1, -1):  # how many tables keep a line per seat
        candidate = full[:kept] + short[kept:]
        fits = [gap for gap in (True, False) if size(candidate, gap) <= height]
        if fits:
            blocks, spaced = candidate, fits[0]
            break
    lines: list[Text] = []
    for index, block in enumerate(blocks):
        left = len(blocks) - index
        gap = 1 if spaced and lines else 0
        if len(lines) + gap + len(block) > height - (1 if left > 1 else 0):
            lines.append(Text(f"+{_plural(left, 'more table')}", "italic"))
            break
        if gap:
            lines.append(Text(""))
        lines.extend(block)
    return lines[:height]


# --- Tonight --------------------------------------------------------------------------------


def ranks(standings: Sequence[dict[str, Any]]) -> list[int | None]:
    """Each row's place among the people (equal wins and games share it); bots have none."""
    places: list[int | None] = []
    place, previous, counted = 0, None, 0
    for row in standings:
        if row.get("bot"):
            places.append(None)
            continue
        counted += 1
        key = (int(row.get("wins") or 0), int(row.get("games") or 0))
        if key != previous:
            place, previous = counted, key
        places.append(place)
    return places


def rating_change(row: dict[str, Any]) -> int | None:
    """The sum of the night's rating changes of a row (``None``: no game of it was rated)."""
    changes = [
        int(change["change"])
        for change in row.get("changes") or []
        if isinstance(change, dict) and isinstance(change.get("change"), int)
    ]
    return sum(changes) if changes else None


def _record(row: dict[str, Any]) -> str:
    wins, games = int(row.get("wins") or 0), int(row.get("games") or 0)
    return f"{_plural(wins, 'win')} of {games}"


def _change_text(change: int | None) -> Text:
    if change is None:
        return Text("")
    return Text(f"{change:+d}", "green" if change >= 0 else "red")


def standing_line(place: int | None, row: dict[str, Any], width: int) -> Text:
    """One row of the standings on one line: place, name, wins of games, rating change."""
    change = rating_change(row)
    right = f"  {_record(row)}" + (f"  {change:+d}" if change is not None else "")
    rank = f"{place:>3}  " if place is not None else "  ·  "
    room = max(4, width - len(rank) - len(right))
    name = str(row.get("name") or "?")
    shown = name if len(name) <= room else name[: room - 1] + "…"
    line = Text(no_wrap=True, overflow="crop")
    line.append(rank, "bold")
    line.append(shown, "dim" if row.get("bot") else ("bold yellow" if place == 1 else "bold"))
    line.append(" " * max(0, room - len(shown)))
    line.append(f"  {_record(row)}")
    if change is not None:
        line.append("  ")
        line.append_text(_change_text(change))
    return line


BLOCK_DIGITS: Final = {
    "0": ("█▀█", "█ █", "▀▀▀"),
    "1": ("▀█ ", " █ ", "▀▀▀"),
    "2": ("▀▀█", "█▀▀", "▀▀▀"),
    "3": ("▀▀█", " ▀█", "▀▀▀"),
    "4": ("█ █", "▀▀█", "  ▀"),
    "5": ("█▀▀", "▀▀█", "▀▀▀"),
    "6": ("█▀▀", "█▀█", "▀▀▀"),
    "7": ("▀▀█", "  █", "  ▀"),
    "8": ("█▀█", "█▀█", "▀▀▀"),
    "9": ("█▀█", "▀▀█", "▀▀▀"),
}
"""A number three rows high in solid blocks (half blocks make six rows of dots). Textual's
own 3x3 digits are drawn with thin box lines: on the room page a "0" read as an empty box
and a "1" as a bracket across a room (LAN walk-through of issue 36)."""


def block_number(number: int, style: str) -> Text:
    """``number`` in :data:`BLOCK_DIGITS`, its digits a column apart."""
    digits = [BLOCK_DIGITS[digit] for digit in str(number)]
    rows = [" ".join(digit[row] for digit in digits) for row in range(BIG_ROW)]
    return Text("\n".join(rows), style)


def big_rows(
    standings: Sequence[dict[str, Any]], places: Sequence[int | None], width: int
) -> Table:
    """The leaders of the night, their wins in block digits (readable across a room):
    place, name, wins, and beside them the games played and the rating change."""
    grid = Table.grid(padding=(0, 2), expand=True)
    grid.width = width
    grid.add_column(justify="right", vertical="middle", width=3)
    grid.add_column(justify="left", vertical="middle", ratio=1, no_wrap=True, overflow="ellipsis")
    grid.add_column(justify="right", vertical="middle", width=7)
    grid.add_column(justify="left", vertical="middle", width=14, no_wrap=True)
    for place, row in zip(places, standings, strict=True):
        leader = place == 1
        style = "bold yellow" if leader else "bold"
        wins = int(row.get("wins") or 0)
        change = rating_change(row)
        detail = Text("win" if wins == 1 else "wins")
        detail.append(f"\nof {_plural(int(row.get('games') or 0), 'game')}", "dim")
        if change is not None:
            detail.append("\nrating ")
            detail.append_text(_change_text(change))
        grid.add_row(
            Text(f"{place}" if place is not None else "", "bold"),
            Text(str(row.get("name") or "?"), "dim" if row.get("bot") else style),
            block_number(wins, style),
            detail,
        )
    return grid


def tonight_title(tonight: dict[str, Any] | None) -> str:
    """The standings pane's title: ``Tonight · 5 games``."""
    if tonight is None:
        return "Tonight"
    return f"Tonight · {_plural(int(tonight.get('games') or 0), 'game')}"


def big_count(people: int, rows: int, room: int) -> int:
    """How many leaders get big digits: as many as leave every other row a line of its own,
    of the ``people`` among ``rows`` in ``room`` lines (a big row takes :data:`BIG_ROW`)."""
    return max(0, min(people, (room - rows) // (BIG_ROW - 1)))


def standings_renderable(tonight: dict[str, Any] | None, width: int, height: int) -> Group:
    """Tonight's standings in ``width`` x ``height``: the leaders in big digits where there
    is room for them and a line for everyone else (none in a narrow pane), then the rest, one
    line each, and how many more there are when not all fit."""
    if tonight is None:
        return Group(Text("This host keeps no standings for tonight.", "italic"))
    standings = [row for row in tonight.get("standings") or [] if isinstance(row, dict)]
    if not int(tonight.get("games") or 0) or not standings:
        return Group(Text("No game has finished yet.", "italic"))
    places = ranks(standings)
    width = min(width, STANDINGS_MAX)
    people = sum(1 for row in standings if not row.get("bot"))
    big = big_count(people, len(standings), height) if width >= BIG_MIN_WIDTH else 0
    parts: list[RenderableType] = []
    if big:
        parts.append(big_rows(standings[:big], places[:big], width))
    room = height - big * BIG_ROW
    rest = list(zip(places[big:], standings[big:], strict=True))
    kept = len(rest) if len(rest) <= room else max(0, room - 1)
    parts.extend(standing_line(place, row, width) for place, row in rest[:kept])
    if kept < len(rest):
        parts.append(Text(f"+{len(rest) - kept} more", "italic"))
    return Group(*parts)


# --- Ways in --------------------------------------------------------------------------------


def ways_lines(doors: Doors | None) -> list[Text]:
    """The three ways to join (those this host has): a browser or a phone, ssh, Clowder."""
    if doors is None:
        return [Text("Asking the host...", "italic")]
    lines: list[Text] = []
    if doors.web_line is not None:
        lines += [Text("A phone or a browser:"), Text(doors.web_line, "bold cyan")]
    if doors.ssh_line is not None:
        lines += [Text("Nothing installed:"), Text(doors.ssh_line, "bold cyan")]
    lines += [Text("With Clowder:"), Text(doors.join_line, "bold cyan")]
    return lines


# --- Widgets --------------------------------------------------------------------------------


class TablesPane(Widget):
    """The host's tables, drawn to fit the pane (see :func:`tables_lines`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tables: list[dict[str, Any]] = []
        self.known = False
        """Whether the host has answered yet (before that the pane says it is asking)."""
        self.border_title = "Tables"

    def show(self, tables: list[dict[str, Any]]) -> None:
        if tables != self.tables or not self.known:
            self.tables, self.known = tables, True
            self.refresh()

    def render(self) -> RenderableType:
        if not self.known:
            return Text("Asking the host...", "italic")
        width, height = self.content_size
        return Group(*tables_lines(self.tables, width, height))


class StandingsPane(Widget):
    """Tonight's standings, drawn to fit the pane (see :func:`standings_renderable`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tonight: dict[str, Any] | None = None
        self.known = False
        """Whether the host has answered yet (before that the pane says it is asking)."""
        self.border_title = "Tonight"

    def show(self, tonight: dict[str, Any] | None) -> None:
        if tonight != self.tonight or not self.known:
            wanted = self.wanted_lines()
            self.tonight, self.known = tonight, True
            self.border_title = tonight_title(tonight)
            # A new row changes the lines the standings want: the layout gives them anew.
            self.refresh(layout=self.wanted_lines() != wanted)

    def render(self) -> RenderableType:
        if not self.known:
            return Text("Asking the host...", "italic")
        width, height = self.content_size
        return standings_renderable(self.tonight, width, height)

    def wanted_lines(self) -> int:
        """The lines the standings would like: a line each, and room for the leaders' big
        digits."""
        standings = (self.tonight or {}).get("standings") or []
        people = sum(1 for row in standings if isinstance(row, dict) and not row.get("bot"))
        return max(1, len(standings) + (BIG_ROW - 1) * min(people, BIG_WANTED))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Where the layout asks (``height: auto``, at 80x24): :meth:`wanted_lines`; the
        tables get the rest."""
        return self.wanted_lines()


class CodePane(Widget):
    """A QR code of the host's page for phones (black on white), shown where it fits whole:
    a code cut by the pane's edge is no code at all."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.url: str | None = None
        self.code: Text | None = None
        self.code_size = (0, 0)

    def show(self, url: str | None) -> None:
        if url == self.url:
            return
        self.url, self.code = url, None
        if url is not None:
            from tui.widgets.qr import qr_size, qr_text

            self.code = qr_text(url)
            self.code_size = qr_size(url) or (0, 0)
        if self.code is not None:
            self.styles.width, self.styles.height = self.code_size
        self.set_class(self.code is not None, "-has-code")
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        width, height = self.size
        if self.code is None or width < self.code_size[0] or height < self.code_size[1]:
            return Text("")
        return self.code


class RoomScreen(QuietWhenCovered[None]):
    """The room screen (see the module docstring); :meth:`connected` and :meth:`show` give
    it the host's news, before or after it is shown."""

    HORIZONTAL_BREAKPOINTS = ROOM_BREAKPOINTS
    VERTICAL_BREAKPOINTS = ROOM_HEIGHTS

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "quit", show=False)]

    def __init__(self, address: str = "") -> None:
        super().__init__()
        self.address = address
        """What the host was asked at, for the heading until its name is known."""
        self.host_name = ""
        self.link = "connecting..."
        self.doors: Doors | None = None
        # Made now, so that news that comes before the screen is shown is kept in them.
        self.head = Static(self._heading(), id="room-head")
        self.standings = StandingsPane(id="room-standings")
        self.code = CodePane(id="room-code")
        self.ways = Static(Group(*ways_lines(None)), id="room-ways")
        self.tables = TablesPane(id="room-tables")

    def compose(self) -> ComposeResult:
        yield self.head
        # A grid, in this order, so that CSS alone lays it out for each size (room.tcss).
        with Container(id="room-body"):
            yield self.standings
            with Container(id="room-join") as join:
                join.border_title = "Join the games"
                yield self.code
                yield self.ways
            yield self.tables

    def _heading(self) -> Text:
        heading = Text(no_wrap=True, overflow="ellipsis")
        heading.append("Clowder", "bold")
        if self.host_name or not self.link:  # a problem names the address it could not reach
            heading.append(f" · {self.host_name or self.address}")
        if self.link:
            heading.append(f"   {self.link}", "bold red")
        heading.append(" · q: quit", "dim")  # its one key (the room has no footer)
        return heading

    def connected(self, host_name: str, doors: Doors) -> None:
        """The host said who it is: its name in the heading, its ways in on the side."""
        self.host_name = host_name
        if doors != self.doors:
            self.doors = doors
            self.ways.update(Group(*ways_lines(doors)))
            self.code.show(doors.web_line)
        self.link = ""
        self.head.update(self._heading())

    def set_link(self, problem: str) -> None:
        """Why the room cannot reach its host now (``""``: it can)."""
        if problem != self.link:
            self.link = problem
            self.head.update(self._heading())

    def show(self, tables: list[dict[str, Any]], tonight: dict[str, Any] | None) -> None:
        """The host's tables and tonight's standings (cleaned); panes redraw only on change."""
        self.tables.show(tables)
        self.standings.show(tonight)
