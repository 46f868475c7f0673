"""Finding games by name (engine/registry.py)."""

from __future__ import annotations

import pytest

from engine import registry


def test_registry_lists_and_finds_games() -> None:
    assert "catchy" in registry.names()
    assert registry.get("catchy").name == "catchy"
    with pytest.raises(registry.UnknownGame, match="no game called 'chess'"):
        registry.get("chess")


def test_every_registered_game_describes_itself() -> None:
    for name in registry.names():
        info = registry.get(name).describe()
        assert info["name"] == name and info["min_players"] <= info["max_players"]
        assert any(option["name"] == "deck" for option in info["options"])
