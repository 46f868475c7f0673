"""The player's settings (tui.config): the name and the player key, kept privately."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from net.store.scoreboard import player_id
from tui.config import CONFIG_FILE, Settings

pytestmark = pytest.mark.timeout(30)


def test_the_name_and_player_keys_are_kept_in_a_private_file(tmp_path: Path) -> None:
    settings = Settings(name="Ann")
    key, made = settings.key_for("Ann")
    assert made and settings.key_for("Ann") == (key, False)
    path = settings.save(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Settings.load(tmp_path) == Settings(name="Ann", player_keys={"Ann": key})
    assert [p.name for p in tmp_path.iterdir()] == [CONFIG_FILE]  # no temporary left over


def test_each_name_has_its_own_key_and_a_rename_takes_it_along() -> None:
    """Two terminals of one user, as Ann and as Bea, are two players to a scoreboard."""
    settings = Settings()
    ann, _ = settings.key_for("Ann")
    bea, _ = settings.key_for("Bea")
    assert ann != bea
    settings.rename("Ann", "Annie")
    assert settings.key_for("Annie") == (ann, False) and "Ann" not in settings.player_keys
    settings.rename("Annie", "Bea")  # Bea is someone already: both keep their keys
    assert settings.player_keys == {"Annie": ann, "Bea": bea}


def test_a_file_of_older_runs_or_a_bad_key_keeps_what_it_can(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text(json.dumps({"name": "Ann"}))
    assert Settings.load(tmp_path) == Settings(name="Ann")
    bad = {"name": "Ann", "player_keys": {"Ann": "x\x1b[2J", "B\x01": "k" * 24}}
    (tmp_path / CONFIG_FILE).write_text(json.dumps(bad))
    assert Settings.load(tmp_path) == Settings(name="Ann")
    odd = {"name": "\x00", "player_keys": {"Bea": "k" * 24}}
    (tmp_path / CONFIG_FILE).write_text(json.dumps(odd))
    assert Settings.load(tmp_path) == Settings(name=None, player_keys={"Bea": "k" * 24})
    (tmp_path / CONFIG_FILE).write_text(json.dumps({"name": "Ann", "player_keys": [1]}))
    assert Settings.load(tmp_path) == Settings(name="Ann")


async def test_the_app_makes_a_key_once_and_hosts_know_the_player_by_its_hash(
    tmp_path: Path,
) -> None:
    from tests.tui.solo import solo_app, table_of
    from tui.games.catchy.screen import CatchyTable

    app = solo_app(tmp_path, "catchy")
    async with app.run_test(size=(80, 24)) as pilot:
        await table_of(pilot, CatchyTable)
        key = Settings.load(tmp_path).player_keys.get("Ann")
        assert key is not None
        assert app.embedded is not None
        (runner,) = app.embedded.host.runners.values()
        ann = next(seat for seat in runner.table.seats if seat.name == "Ann")
        assert ann.player == player_id(key)
    again = solo_app(tmp_path, "catchy")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.settings.key_for("Ann") == (key, False)  # made once, then kept


def test_a_name_with_a_control_character_is_refused_before_any_host_sees_it() -> None:
    from tui.config import BadName, clean_name

    assert clean_name("  Ann   Lee ") == "Ann Lee"
    for bad in ("A\x01b", "Ann\x1b[2J", "Ann\u202e"):
        with pytest.raises(BadName, match="cannot hold U\\+"):
            clean_name(bad)
