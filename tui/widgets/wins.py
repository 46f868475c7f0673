"""The lobby's line of a host's scoreboard: wins per game (``net.store.scoreboard.wins_line``)."""

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
        self.update("\n".join(["Wins here:", *cleaned]) if cleaned else "")
        self.display = bool(cleaned)


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
    return wins_line(scores, titles)
