"""Fixed data for the room screen's tests: two tables in play, one waiting, one over, and
tonight's standings (shaped as the host sends them: ``Table.summary``, ``Night.to_data``)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App

from tui.screens.room import Doors, RoomScreen
from tui.styles import TCSS_DIR


def seat(
    name: str | None, *, bot: bool = False, connected: bool = True, **more: Any
) -> dict[str, Any]:
    return {
        "name": name,
        "bot": bot,
        "human": name is not None and not bot,
        "connected": name is not None and connected,
        "covered": False,
        "stepped_away": False,
        **more,
    }


def tables() -> list[dict[str, Any]]:
    return [
        {
            "id": "t4",
            "game": "catchy",
            "title": "Catchy!",
            "seats": [seat("Dan"), seat("Bot Mia", bot=True)],
            "free": 0,
            "status": "over",
            "spectators": 0,
            "phase": "over",
            "scores": [1, 0],
            "winners": [0],
        },
        {
            "id": "t2",
            "game": "blackcat",
            "title": "Black Cat",
            "seats": [seat("Ann"), seat("Bea"), seat("Bot Tom", bot=True)],
            "free": 0,
            "status": "playing",
            "spectators": 2,
            "phase": "grab",
            "scores": [12, 8, 3],
        },
        {
            "id": "t3",
            "game": "kitten",
            "title": "You Gotta Be Kitten Me!",
            "seats": [
                seat("Cy"),
                seat("Eve", connected=False),
                seat("Bot Max", bot=True),
                seat("Fay"),
            ],
            "free": 0,
            "status": "playing",
            "spectators": 0,
            "phase": "bidding",
            "scores": [2, 1, 0, 1],
        },
        {
            "id": "t5",
            "game": "kiitos",
            "title": "Kiitos",
            "seats": [seat("Gus"), seat(None)],
            "free": 1,
            "status": "waiting",
            "spectators": 0,
            "again_of": "t1",
        },
    ]


def tonight() -> dict[str, Any]:
    def row(
        name: str, games: int, wins: int, changes: list[int | None], bot: bool = False
    ) -> dict[str, Any]:
        return {
            "name": name,
            "bot": bot,
            "games": games,
            "wins": wins,
            "changes": [{"game": "catchy", "change": change} for change in changes],
        }

    return {
        "games": 5,
        "started_at": 1_700_000_000.0,
        "standings": [
            row("Ann", 3, 2, [31, 12, -4]),
            row("Dan", 2, 1, [25, None]),
            row("Bea", 3, 1, [-8, 14, 3]),
            row("Cy", 2, 0, [-20, -6]),
            row("Bot Tom", 3, 1, [4, 2, -1], bot=True),
            row("Bot Mia", 2, 0, [0, -3], bot=True),
        ],
    }


DOORS = Doors("198.18.0.1", 7707, ssh=2222, web=8080)


class RoomHarness(App[None]):
    """The room screen with fixed data (no host): ``news`` is ``"evening"`` (the tables and
    standings above), ``"empty"`` (no table, no game yet) or ``None`` (the host has not
    answered); ``doors`` ``None``: not connected yet."""

    CSS_PATH: ClassVar[list[Any]] = [TCSS_DIR / "room.tcss"]

    def __init__(self, doors: Doors | None = DOORS, *, news: str | None = "evening") -> None:
        super().__init__()
        self.doors = doors
        self.news = news
        self.room = RoomScreen("198.18.0.1:7707")

    def on_mount(self) -> None:
        self.push_screen(self.room)
        if self.doors is not None:
            self.room.connected("Bea's box", self.doors)
        if self.news == "empty":
            self.room.show([], {"games": 0, "started_at": 0.0, "standings": []})
        elif self.news == "evening":
            self.room.show(tables(), tonight())
