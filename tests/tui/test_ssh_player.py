"""An SSH gateway's player, as their Clowder sees them (issue 36, items 1 and 4).

The gateway (:mod:`net.doors.ssh_gateway`) runs ``clowder join`` for each SSH player. A
user name that cannot be the player's name (``you`` or ``NAME`` typed as an invitation
read, a pronoun, or someone else's name here now) comes as ``--ask-name``: the client asks
for a name with the terminal's own name dialog, which refuses such words, and keeps the
player's settings and seats in the folder of the name given (``--player-folders``,
``--ssh-key``). ``--door=ssh:PORT`` makes the player's way back ``ssh -p PORT NAME@ADDRESS``
with the address they reached, never ``clowder join 127.0.0.1:7707``. The gateway's side
is tested in tests/net/doors/test_ssh_gateway.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import Input, Static

from tui.config import BadName, Settings, clean_name
from tui.screens.dialogs import NameDialog

ROOT = Path(__file__).resolve().parents[2]

# --- the name dialog and the settings ---------------------------------------------------------


@pytest.mark.parametrize("word", ["you", "You", "NAME", "<NAME>", "me", "they", "player"])
def test_a_stand_in_word_is_not_a_name(word: str) -> None:
    with pytest.raises(BadName, match="a word, not a name"):
        clean_name(word)
    assert clean_name("Yousef") == "Yousef" and clean_name("Mei") == "Mei"


def test_a_remembered_stand_in_name_is_asked_again_and_its_key_is_kept(tmp_path: Path) -> None:
    key = "k" * 24
    (tmp_path / "config.json").write_text(
        json.dumps({"name": "you", "player_keys": {"you": key}}), encoding="utf-8"
    )
    settings = Settings.load(tmp_path)
    assert settings.name is None  # asked again, as a terminal's first run asks
    settings.rename("you", "Ann")
    assert settings.key_for("Ann") == (key, False)  # the scoreboard still knows the player


class NameApp(App[None]):
    def __init__(self, dialog: NameDialog) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[str | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


async def test_the_name_dialog_refuses_stand_in_words_and_empty_names_saying_why() -> None:
    app = NameApp(NameDialog())
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = app.dialog

        def problem() -> str:
            return str(dialog.query_one("#problem", Static).render())

        for typed in ("you", "NAME", "me"):
            dialog.query_one("#name", Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog and app.results == []
            assert f'"{typed}" reads as a word, not a name' in problem()
        dialog.query_one("#name", Input).value = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and "at least one letter" in problem()
        dialog.query_one("#name", Input).value = "a\x07b"  # pasted: a control character
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog and "U+0007" in problem()
        dialog.query_one("#name", Input).value = "Bea"
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == ["Bea"]


async def test_an_asked_ssh_player_is_told_why() -> None:
    from tui.screens.dialogs import asked_because

    app = NameApp(NameDialog(why=asked_because("you")))
    async with app.run_test(size=(80, 24)):
        why = str(app.dialog.query_one("#why", Static).render())
        assert why == 'You came in as "you", a word, not a name.'
    assert asked_because("ann") == 'Someone else is playing here as "ann" now.'
    assert "\x1b" not in asked_because("a\x1bb")
