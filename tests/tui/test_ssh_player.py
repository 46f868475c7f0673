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
import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, Label, Static

from net.doors.ssh_access import player_folder
from tests.tui.solo import drawn_screen
from tests.tui.test_lobby import create_dialog, lobby_of, started_host, until
from tui.app import ClowderApp
from tui.config import BadName, Settings, clean_name
from tui.games.catchy.screen import CatchyTable
from tui.screens.dialogs import NameDialog
from tui.screens.leave import LeaveDialog
from tui.screens.table import TableScreen

ROOT = Path(__file__).resolve().parents[2]

# --- clowder join's flags -------------------------------------------------------------------


def test_clowder_join_takes_the_flags_the_ssh_gateway_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The flags are understood: the command goes as far as wanting a terminal (a test has
    none), where before it stopped at "unrecognized arguments"."""
    from tui.cli import main

    argv = [
        "join",
        "127.0.0.1:7707",
        "--ask-name=you",
        f"--player-folders={tmp_path}",
        "--ssh-key=SHA256:abc",
        "--only-this-host",
        "--door=ssh:2222",
        "--shown-as=198.18.0.1",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "unrecognized" not in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--door=ssh:0"], "--door: ssh:PORT"),
        (["--door=ssh:70000"], "--door: ssh:PORT"),
        (["--door=ftp:21"], "--door: ssh:PORT"),
        (["--door=ssh"], "--door: ssh:PORT"),
        (["--door=web:"], "or web:HOST[:PORT]"),
        (["--door=web:a b:8080"], "or web:HOST[:PORT]"),
        (["--door=web:box:99999"], "or web:HOST[:PORT]"),
        (["--ask-name="], "--ask-name: a user name"),
        (["--ask-name=a\x1b[2Jb"], "--ask-name: a user name"),
        (["--ask-name=you", "--name=Ann"], "one or the other"),
        (["--player-folders=/tmp"], "go with --ask-name"),
        (["--ssh-key=SHA256:abc"], "go with --ask-name"),
        (["--ask-name=you", "--ssh-key=a\nb"], "--ssh-key"),
        (["--name=you"], "a word, not a name"),
        (["--name=NAME"], "a word, not a name"),
    ],
)
def test_bad_flags_are_one_clear_line_and_status_2(
    capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    from tui.cli import main

    assert main(["join", "127.0.0.1:7707", *flags]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


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


# --- the SSH player's client --------------------------------------------------------------------


async def test_an_ssh_player_asked_for_a_name_plays_under_it_from_its_own_folder(
    tmp_path: Path,
) -> None:
    """The stand-in's folder is not read (nor is a name remembered there): the name given
    picks the folder, the one ``ssh Bea@HOST`` with the same key opens next time."""
    stand_in = player_folder(tmp_path, "you", "SHA256:k") / "config"
    Settings(name="Zed").save(stand_in)  # another "you" before: not this player
    host = await started_host()
    try:
        app = ClowderApp(
            config_dir=stand_in,
            join=("127.0.0.1", host.port),
            discovery=None,
            advertise=False,
            only_host=True,
            ask_name="you",
            player_folders=tmp_path,
            ssh_key="SHA256:k",
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameDialog), "the name dialog")
            dialog = app.screen
            assert isinstance(dialog, NameDialog)
            assert "a word, not a name" in str(dialog.query_one("#why", Static).render())
            dialog.query_one("#name", Input).value = "you"
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog  # refused: still asked
            dialog.query_one("#name", Input).value = "Bea"
            await pilot.press("enter")
            await until(pilot, lambda: app.lobby is not None, "the lobby")
            assert app.player == "Bea" and lobby_of(app).player == "Bea"
        own = player_folder(tmp_path, "Bea", "SHA256:k")
        assert Settings.load(own / "config").name == "Bea"
        assert app.seats.directory == own / "state"
        assert Settings.load(stand_in).name == "Zed"  # untouched
    finally:
        await host.close()


def gateway_client(config_dir: Path, port: int, **more: Any) -> ClowderApp:
    """Bea's client as the SSH gateway runs it: joined to the host on this machine's
    loopback, shown as the address she reached it at, and kept to that host."""
    return ClowderApp(
        name="Bea",
        config_dir=config_dir,
        join=("127.0.0.1", port),
        shown_as=f"198.18.0.1:{port}",
        discovery=None,
        advertise=False,
        only_host=True,
        **more,
    )


async def test_an_ssh_players_way_back_is_the_ssh_command_with_the_address_they_reached(
    tmp_path: Path,
) -> None:
    host = await started_host(bot_delay_s=5.0)  # a slow bot: the game is still on
    host.create_table("catchy", {}, seats=2, bots=1)
    try:
        app = gateway_client(tmp_path, host.port, ssh_door=2222)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.tables, "the tables")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)
            await until(pilot, lambda: app._playing(app.at_table), "the game")
            table.post_message(TableScreen.Leave(None))
            await drawn_screen(pilot, LeaveDialog)
            text = " ".join(str(s.render()) for s in app.screen.query(Static))
            assert "ssh -p 2222 Bea@198.18.0.1" in text
            assert "clowder join" not in text and "127.0.0.1" not in text
    finally:
        await host.close()


def on_screen(app: App[Any]) -> str:
    """Every character on the screen on top (toasts included), row by row."""
    update = app.screen._compositor.render_full_update()
    return "\n".join("".join(strip.text for strip in row) for row in update.strips)


async def test_an_ssh_players_lobby_names_the_address_they_reached_while_the_host_is_away(
    tmp_path: Path,
) -> None:
    """Issue 36, item 4: while the host restarted, an SSH player's lobby said "Nothing is
    listening at 127.0.0.1:7707" (their client joins the host on loopback, which to them
    is their own computer): it names the address they reached, as the rest of the lobby."""
    from net.doors.host import Host

    host = await started_host()
    host.create_table("catchy", {}, seats=2, bots=0)
    port = host.port
    try:
        app = gateway_client(tmp_path, port)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.tables, "the tables")
            await host.close()
            await until(pilot, lambda: lobby.problems, "the listing to fail")
            await pilot.pause()
            status = str(lobby.query_one("#lobby-status", Static).render())
            assert f"Nothing is listening at 198.18.0.1:{port}" in status
            assert "127.0.0.1" not in on_screen(app)
            await pilot.press("r")

            def status_now() -> str:
                return str(lobby.query_one("#lobby-status", Static).render())

            await until(pilot, lambda: "198.18.0.1" in status_now(), "the address after r")
            assert "127.0.0.1" not in on_screen(app)
            host = Host(name="Bea", bind="127.0.0.1", port=port, log=lambda _: None)
            await host.start()
            await until(pilot, lambda: not lobby.problems, "the host to answer again")
            assert "127.0.0.1" not in on_screen(app)
    finally:
        await host.close()


async def test_no_screen_of_an_ssh_player_names_loopback_through_a_host_s_restart(
    tmp_path: Path,
) -> None:
    """The sweep: the lobby, the table, the leave dialog, the drop and the way back (the
    connection line's "Reconnected to ...") never show 127.0.0.1 to an SSH player."""
    from net.doors.host import Host
    from tui.widgets.connection import ConnectionLine

    def new_host(port: int) -> Host:
        return Host(
            name="Bea", bind="127.0.0.1", port=port, state_dir=tmp_path / "host", log=lambda _: None
        )

    host = new_host(0)
    await host.start()
    host.create_table("catchy", {}, seats=2, bots=1)
    port = host.port
    seen: list[str] = []
    try:
        app = gateway_client(tmp_path / "bea", port)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.tables, "the tables")
            seen.append(on_screen(app))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, CatchyTable), "the table")
            table = app.screen
            assert isinstance(table, CatchyTable)
            await until(pilot, lambda: table.view is not None, "the deal")
            seen.append(on_screen(app))
            await host.close()
            line = table.query_one(ConnectionLine)
            await until(pilot, lambda: not line.connected, "the drop")
            await pilot.pause()
            seen.append(on_screen(app))
            host = new_host(port)
            await host.start()
            await until(pilot, lambda: line.connected, "the way back", rounds=1000)
            assert line.detail == f"Reconnected to 198.18.0.1:{port}"
            await pilot.pause()
            seen.append(on_screen(app))
            table.post_message(TableScreen.Leave(None))
            await drawn_screen(pilot, LeaveDialog)
            await pilot.pause()
            seen.append(on_screen(app))
        assert len(seen) == 5
        for screen in seen:
            assert "127.0.0.1" not in screen, screen
    finally:
        await host.close()


def test_a_player_who_came_by_clowder_join_is_told_clowder_join(tmp_path: Path) -> None:
    app = ClowderApp(name="Bea", config_dir=tmp_path, join=("127.0.0.1", 7707))
    assert app.way_back("127.0.0.1:7707") == "clowder join 127.0.0.1:7707"
    ssh = ClowderApp(
        name="Bea Lee",
        config_dir=tmp_path,
        join=("127.0.0.1", 7707),
        shown_as="[fd00::1]:7707",
        ssh_door=22,
    )
    assert ssh.way_back("127.0.0.1:7707") == "ssh 'Bea Lee@fd00::1'"
    assert ssh.way_back("198.18.0.7:7707") == "clowder join 198.18.0.7:7707"  # another host


def test_a_host_shown_by_another_address_offers_ssh_at_that_address() -> None:
    from tui.screens.lobby import HostEntry

    entry = HostEntry("addr:127.0.0.1:7707", "Bea", "127.0.0.1", 7707, "address", ssh_port=2222)
    assert entry.ssh_command == "ssh -p 2222 NAME@127.0.0.1"
    shown = HostEntry(
        "addr:127.0.0.1:7707", "Bea", "127.0.0.1", 7707, "address", ssh_port=2222,
        shown="198.18.0.1:7707",
    )  # fmt: skip
    assert shown.ssh_command == "ssh -p 2222 NAME@198.18.0.1"


async def test_an_ssh_player_creates_tables_at_the_host_they_reached_not_on_this_computer(
    tmp_path: Path,
) -> None:
    host = await started_host()
    try:
        app = gateway_client(tmp_path, host.port)
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = lobby_of(app)
            await until(pilot, lambda: lobby.hosts and lobby.hosts[0].name == "Bea", "the host")
            await pilot.press("enter")  # no tables: the status line says where c creates one
            await pilot.pause()
            status = str(lobby.query_one("#lobby-status", Static).render())
            assert "this computer" not in status
            dialog = await create_dialog(pilot, app)
            title = " ".join(str(label.render()) for label in dialog.query(Label))
            assert f"New table at 198.18.0.1:{host.port}" in title
            assert "this computer" not in title
    finally:
        await host.close()


# --- the invitation ---------------------------------------------------------------------------


def test_no_text_shows_the_invitation_with_you_for_the_name() -> None:
    """``ssh -p 2222 you@HOST`` typed as it read named the player "you": every invitation
    says ``NAME@HOST``."""
    files = [ROOT / "README.md", *sorted((ROOT / "tui").rglob("*")), *(ROOT / "net").rglob("*")]
    shown = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        if path.suffix in {".py", ".md", ".tcss", ".txt", ".json"} and path.is_file()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\byou@", line, re.IGNORECASE)
    ]
    assert shown == []
    from net.client.discovery import ssh_command

    assert ssh_command("198.18.0.1", 2222) == "ssh -p 2222 NAME@198.18.0.1"
