"""The lobby's lines of a host's scoreboard: tonight's standings in one line (``net.store.night``)
and wins per game (``net.store.scoreboard.wins_line``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.widgets import Static

from net.wire.text import clean_text


class HostWins(Static):
    """Who won most at each game on the selected host; hidden while there is nothing to say."""

    DEFAULT_CSS = """
    HostWins { height: auto; max-height: 6; padding: 0 1; color: $text-muted; display: none; }
    """

    _shown: list[str] | None = None

    def show(self, lines: Sequence[str]) -> None:
        """Show ``lines`` (nothing is drawn again when they are the ones shown)."""
        cleaned = [clean_text(line) for line in lines]
        if cleaned == self._shown:
            return
        self._shown = cleaned
        tonight = [line for line in cleaned if line.startswith("Tonight")]
        wins = [line for line in cleaned if not line.startswith("Tonight")]
        shown = tonight + (["Wins here:", *wins] if wins else [])
        self.update("\n".join(shown))
        self.display = bool(shown)


async def fetch_wins(client: Any) -> list[str] | None:
    """A host's wins lines over ``client`` (``None``: it keeps no scores or does not say)."""
    from engine import registry
    from net.client.client import ClientError
    from net.store.scoreboard import wins_line

    try:
        scores = await client.get_scores()
    except ClientError:
        return None
    titles = {name: registry.get(name).title for name in registry.names()}
    return [*tonight_line(getattr(client, "tonight", None)), *wins_line(scores, titles)]


def tonight_line(data: dict[str, Any] | None) -> list[str]:
    """``Tonight, 3 games: Ann 2 wins, Bea 1, Cy 0`` (people only; none before a game).

    The first count names its noun, in the singular for one (``ann 1 win``: "1 wins" was
    seen in the lobby, issue 36, item 10); the others follow it as bare numbers.
    """
    if not data or not data.get("games"):
        return []
    games = int(data["games"])
    people = [row for row in data.get("standings") or [] if not row.get("bot")]
    parts = [
        f"{row['name']} {row['wins']}" + (_wins_word(int(row["wins"])) if index == 0 else "")
        for index, row in enumerate(people[:5])
    ]
    more = f", +{len(people) - 5} more" if len(people) > 5 else ""
    return [f"Tonight, {games} game{'s' if games != 1 else ''}: {', '.join(parts)}{more}"]


def _wins_word(count: int) -> str:
    """`` win`` after 1, `` wins`` after any other count."""
    return " win" if count == 1 else " wins"
