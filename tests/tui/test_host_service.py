"""``clowder host`` as a service on a spare box (issue 33): it stops cleanly on SIGTERM and
resumes, its log is plain lines with a level (or JSON) when no terminal reads it, and it
prints a systemd unit for this installation that ``systemd-analyze verify`` accepts."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.bots import make_bot
from net.client.client import Client, ConnectionState
from net.wire.messages import Error, View
from tests.needs import lacking
from tui.cli import main, version
from tui.commands.host import RESTART_NOTICE
from tui.commands.host_log import HostLog, iso_time, level_of
from tui.commands.systemd_unit import systemd_word, unit_text

ROOT = Path(__file__).resolve().parents[2]

PLAIN_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d (?P<level>info|warning|error): \S"
)
"""A line of the host's log outside a terminal: the time, the level, the event."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def start_host(port: int, state_dir: Path) -> subprocess.Popen[str]:
    """A real ``clowder host`` process whose output is a pipe (as under a service manager)."""
    where = ["--bind", "127.0.0.1", "--port", str(port), "--state-dir", str(state_dir)]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "host",
            "--no-discovery",
            *where,
            "--table",
            "catchy:target=30",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
    )
    for _ in range(400):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
            return process
        if process.poll() is not None:
            break
        await asyncio.sleep(0.025)
    process.kill()
    raise AssertionError(f"the host did not start: {process.communicate()[0]}")


def stop_host(process: subprocess.Popen[str]) -> str:
    """SIGTERM, as ``systemctl stop`` sends; the host's whole output."""
    process.send_signal(signal.SIGTERM)
    output = process.communicate(timeout=10)[0]
    assert process.returncode == 0, output
    return output


class Player:
    """A client at seat ``seat`` of ``t1`` that plays the Catchy! bot's moves while ``playing``
    and keeps everything the host sent."""

    def __init__(self, port: int, name: str, seat: int) -> None:
        self.client = Client("127.0.0.1", port, name)
        self.seat = seat
        self.bot = make_bot("catchy", "catchy", seat)
        self.received: list[Any] = []
        self.views: list[View] = []
        self.stop_at: int | None = 8

    async def run(self) -> None:
        await self.client.connect()
        await self.client.join("t1", seat=self.seat)
        while True:
            message = await self.client.incoming.get()
            self.received.append(message)
            if not isinstance(message, View) or message.view is None:
                continue
            self.views.append(message)
            if self.go_on(message):
                await self.play(message)

    async def play(self, view: View) -> None:
        action = self.bot.choose(view.view) if view.view is not None else None
        if action is not None:
            await self.client.act("t1", action)

    def go_on(self, view: View) -> bool:
        """Play on until version :attr:`stop_at`, then stop where no timer is due (mid-round)."""
        assert view.view is not None
        return self.stop_at is None or view.version < self.stop_at or view.view["phase"] != "play"

    async def play_on(self) -> None:
        """Play on from the view now, and every view after it."""
        self.stop_at = None
        last = self.last()
        if last is not None:
            await self.play(last)

    def last(self) -> View | None:
        return self.views[-1] if self.views else None


async def until(check: Any, what: str, rounds: int = 400) -> None:
    for _ in range(rounds):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def settled(players: list[Player]) -> bool:
    """Both players hold the same latest view, mid-round, and neither plays on from it."""
    lasts = [player.last() for player in players]
    if any(view is None or view.view is None for view in lasts):
        return False
    versions = {view.version for view in lasts if view is not None}
    return len(versions) == 1 and not any(
        player.go_on(view) for player, view in zip(players, lasts, strict=True) if view
    )


@pytest.mark.timeout(60)
async def test_sigterm_mid_game_tells_every_client_and_the_restarted_host_resumes(
    tmp_path: Path,
) -> None:
    port = free_port()
    host = await start_host(port, tmp_path)
    players = [Player(port, "Ann", 0), Player(port, "Bea", 1)]
    tasks = [asyncio.ensure_future(player.run()) for player in players]
    try:
        await until(lambda: settled(players), "the game to reach version 8")
        before = [player.last() for player in players]
        output = stop_host(host)

        # Every client was told, in words, and the link dropped after it.
        for player in players:
            await until(lambda p=player: not p.client.connected, "the drop")
            told = [m for m in player.received if isinstance(m, Error)]
            assert [(m.code, m.message) for m in told] == [("host_shutdown", RESTART_NOTICE)]
            index = player.received.index(told[0])
            assert any(
                isinstance(m, ConnectionState) and not m.connected for m in player.received[index:]
            )
        # Plain lines, each with its level; no colour, no QR code; the stop said why.
        lines = output.splitlines()
        assert lines and all(PLAIN_LINE.match(line) for line in lines), output
        assert "\x1b" not in output
        assert any("Stopping (SIGTERM)" in line and "1 unfinished" in line for line in lines)
        assert lines[-1].endswith("info: Host stopped")

        # The next start resumes the table; the clients come back by themselves to the same
        # seats, at the same version: nothing was lost, nothing was taken after the signal.
        for player in players:
            player.views.clear()
        host = await start_host(port, tmp_path)
        await until(lambda: all(p.client.connected and p.views for p in players), "back")
        for player, old in zip(players, before, strict=True):
            assert old is not None and old.view is not None
            first = player.views[0]
            assert first.view is not None
            assert first.version == old.version
            assert first.view["seat"] == player.seat
            assert first.view["hand"] == old.view["hand"]
            assert first.view["scores"] == old.view["scores"]
            assert any(isinstance(m, ConnectionState) and m.connected for m in player.received)

        # And the game goes on from there.
        for player in players:
            await player.play_on()
        top = max(view.version for view in before if view is not None)
        await until(lambda: all(p.views[-1].version > top for p in players), "a move")
        output = stop_host(host)
        assert "1 table(s) resumed" in output
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for player in players:
            await player.client.close()
        if host.poll() is None:
            host.kill()
            host.communicate()


async def test_a_player_reads_the_restart_as_a_notice_and_is_back_at_the_table_by_itself(
    tmp_path: Path,
) -> None:
    """What a player at the table sees when the host restarts: a notice (not a refusal of a
    move, no bell, no second toast about the drop), the connection line while it is away,
    then the same table, seat and hand again without a key pressed."""
    from net.doors.host import Host
    from tests.tui.test_seats import at_table, join_app
    from tests.tui.test_seats import until as pilot_until
    from tui.widgets.connection import ConnectionLine
    from tui.widgets.prompt import PromptLine

    def new_host(port: int) -> Host:
        return Host(
            name="Box", bind="127.0.0.1", port=port, state_dir=tmp_path / "host", log=lambda _: None
        )

    host = new_host(0)
    await host.start()
    host.create_table("catchy", {}, bots=1)
    app = join_app(tmp_path, host.port)
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot_until(pilot, lambda: app.lobby and app.lobby.tables, "the tables")
            await pilot.press("enter")
            screen = await at_table(pilot, app)
            seen = screen.view
            assert seen is not None
            await host.close(RESTART_NOTICE)
            line = screen.query_one(ConnectionLine)
            await pilot_until(pilot, lambda: not line.connected, "the drop")
            assert [n.message for n in app._notifications] == [RESTART_NOTICE]
            assert screen.query_one(PromptLine).error == ""  # not a refusal of a move
            assert "reconnecting" in line.detail

            host = new_host(host.port)
            await host.start()
            await pilot_until(pilot, lambda: line.connected, "the way back", rounds=1000)
            await pilot_until(pilot, lambda: screen.view is not None, "the view")
            back = screen.view
            assert back is not None and app.screen is screen
            assert (back["seat"], back["hand"]) == (seen["seat"], seen["hand"])
    finally:
        await host.close()


# The log ----------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


MOMENT = 1_764_270_245.5  # a fixed wall-clock time for the lines


@pytest.mark.parametrize(
    ("line", "level"),
    [
        ("Host 'box' listening on 0.0.0.0:7707, 2 table(s) resumed", "info"),
        ("[t3] Ann sits at seat 1 (198.18.0.2:50312)", "info"),
        ("[t3] Bea's challenge failed: the count was 4", "info"),  # a game's words
        ("[t3] bot at seat 1 was refused: It is Ann's turn", "warning"),
        ("[t3] the winning claim could not be applied: ...", "error"),
        ("198.18.0.2:50312: host_full: This host already serves 128 connections", "warning"),
        ("198.18.0.2:50312: internal_error: boom", "error"),
        ("SSH: refused 198.18.0.9: 4 players from there already", "warning"),
        ("Not advertised on the LAN (no interface); players can still join by address", "warning"),
        ("Scores not saved (No space left on device)", "error"),
        ("bug: action from Ann failed: KeyError('x')", "error"),
        (
            "Damaged table journal t4.log not resumed (bad record); kept as t4.log.damaged",
            "warning",
        ),
        ("Web: browser 1a2b3c4d left after 30 s (exit status 0)", "info"),
    ],
)
def test_each_line_gets_a_level_from_its_wording(line: str, level: str) -> None:
    assert level_of(line) == level


def test_outside_a_terminal_a_line_is_time_level_event_and_the_qr_code_is_left_out() -> None:
    out = io.StringIO()
    log = HostLog(out, now=MOMENT)
    log("[t1] game over: Ann won")
    log("Scores not saved (disk full)")
    log.picture("Web: players with a browser or a phone open: http://box:8080/", ["▀▄", "▄▀"])
    lines = out.getvalue().splitlines()
    stamp = iso_time(MOMENT)
    assert lines == [
        f"{stamp} info: [t1] game over: Ann won",
        f"{stamp} error: Scores not saved (disk full)",
        f"{stamp} info: Web: players with a browser or a phone open: http://box:8080/",
    ]
    assert all(PLAIN_LINE.match(line) for line in lines)


def test_a_terminal_gets_the_clock_the_level_in_colour_and_the_qr_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = Terminal()
    log = HostLog(out, now=MOMENT)
    log("Host 'box' listening on 0.0.0.0:7707")
    log("cannot open table catchy: full", "warning")
    log.picture("Web: open http://box:8080/", ["▀▄"])
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"\d\d:\d\d:\d\d Host 'box' listening on 0\.0\.0\.0:7707", lines[0])
    assert "\x1b[33mwarning:\x1b[0m cannot open table" in lines[1]
    assert lines[3] == "    ▀▄"
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    HostLog(plain, now=MOMENT)("cannot open table catchy: full", "warning")
    assert "\x1b" not in plain.getvalue() and " warning: cannot open" in plain.getvalue()


def test_json_is_one_object_per_line_with_time_level_message_and_table() -> None:
    out = io.StringIO()
    log = HostLog(out, log_format="json", qr=True, now=MOMENT)
    log("[t2] Bea is back (198.18.0.3:40000)")
    log("two\nlines", "warning")
    log.picture("Web: open http://box:8080/", ["▀▄"])
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records == [
        {
            "time": iso_time(MOMENT, milliseconds=True),
            "level": "info",
            "message": "[t2] Bea is back (198.18.0.3:40000)",
            "table": "t2",
        },
        {"time": iso_time(MOMENT, milliseconds=True), "level": "warning", "message": "two / lines"},
        {
            "time": iso_time(MOMENT, milliseconds=True),
            "level": "info",
            "message": "Web: open http://box:8080/",
            "qr": ["▀▄"],
        },
    ]


def test_journald_gets_the_priority_prefix_and_no_time_of_ours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open(tmp_path / "journal", "w+", encoding="utf-8") as stream:
        status = os.fstat(stream.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{status.st_dev}:{status.st_ino}")
        log = HostLog(stream, now=MOMENT)
        log("Host 'box' listening on 0.0.0.0:7707")
        log("Scores not saved (disk full)")
        HostLog(stream, log_format="json", now=MOMENT)("refused 198.18.0.9: too many")
        stream.seek(0)
        lines = stream.read().splitlines()
    assert lines[:2] == [
        "<6>info: Host 'box' listening on 0.0.0.0:7707",
        "<3>error: Scores not saved (disk full)",
    ]
    assert lines[2].startswith("<4>{") and json.loads(lines[2][3:])["level"] == "warning"
    # A JOURNAL_STREAM inherited by a process whose output goes elsewhere changes nothing.
    other = io.StringIO()
    HostLog(other, now=MOMENT)("Host stopped")
    assert other.getvalue().startswith(iso_time(MOMENT))


# The systemd unit ---------------------------------------------------------------------------


def print_unit(capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    status = main(["host", "--print-systemd-unit", *flags])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def unit_settings(text: str) -> dict[str, list[str]]:
    """``key -> values`` of a unit file, comments left out."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def verify(tmp_path: Path, text: str) -> None:
    """``systemd-analyze verify`` (Debian's systemd package) accepts the unit; skipped with the
    reason where the tool is missing, except under CI, which installs it (.ci/run)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        lacking(
            "systemd-analyze is not installed (apt-get install systemd)",
            "systemd-analyze is missing under CI: .ci/run installs Debian's systemd",
        )
    path = tmp_path / "clowder-host.service"
    path.write_text(text, encoding="utf-8")
    result = subprocess.run(
        [tool, "verify", str(path)], capture_output=True, text=True, timeout=30, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout + result.stderr == "", result.stdout + result.stderr


def test_the_unit_runs_this_clowder_with_the_same_flags_in_its_state_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = print_unit(
        capsys, "--name", "Spare box", "--table", "catchy:bots=1", "--port", "7800", "--qr"
    )
    settings = unit_settings(text)
    exec_start = settings["ExecStart"][0]
    clowder = exec_start.split()[0]
    assert Path(clowder).is_absolute() and os.access(clowder, os.X_OK)
    assert Path(clowder).name == "clowder"
    assert exec_start.endswith(
        ' host --bind 0.0.0.0 --port 7800 --name "Spare box" --table catchy:bots=1 --qr'
        " --state-dir ${STATE_DIRECTORY}"
    )
    assert settings["StateDirectory"] == ["clowder-host"]
    assert settings["Restart"] == ["on-failure"]
    assert settings["KillMode"] == ["mixed"]  # SIGTERM to the host, which tells the clients
    for key, value in [
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("PrivateTmp", "yes"),
        ("CapabilityBoundingSet", ""),
        ("AmbientCapabilities", ""),
    ]:
        assert settings[key] == [value], key
    assert settings["ProtectHome"] in (["yes"], ["read-only"])
    assert f"clowder-cards {version()}" in text
    assert "ReadWritePaths" not in settings  # the state directory is the one writable place
    verify(tmp_path, text)


@pytest.mark.parametrize("home", [False, True])
def test_both_kinds_of_unit_verify(tmp_path: Path, home: bool) -> None:
    """Installed system-wide the service runs as a user of its own and homes are hidden;
    installed under a home (pipx, a venv in a checkout) as its user, homes read-only."""
    clowder = str(Path(sys.executable).parent / "clowder")
    if not os.access(clowder, os.X_OK):
        lacking(  # CI installs the project as the README says
            f"no clowder command beside {sys.executable} (pip install -e .)",
            f"no clowder command beside {sys.executable} under CI",
        )
    text = unit_text(
        [clowder, "host", "--bind", "127.0.0.1", "--port", "80", "--name", '100% $HOME "x"'],
        version="1",
        made_by="test",
        home_user="root" if home else None,
        low_ports=[80],
    )
    settings = unit_settings(text)
    assert settings["CapabilityBoundingSet"] == ["CAP_NET_BIND_SERVICE"]
    assert ("DynamicUser" in settings) is not home
    assert settings["ProtectHome"] == (["read-only"] if home else ["yes"])
    assert '--name "100%% $$HOME \\"x\\""' in settings["ExecStart"][0]
    verify(tmp_path, text)


@pytest.mark.parametrize(
    ("word", "written"),
    [
        ("catchy:bots=1,seats=2", "catchy:bots=1,seats=2"),
        ("Spare box", '"Spare box"'),
        ("50%", '"50%%"'),
        ("$HOME", '"$$HOME"'),
        ('say "hi"\\', '"say \\"hi\\"\\\\"'),
        ("", '""'),
    ],
)
def test_a_word_of_exec_start_stays_one_word_as_written(word: str, written: str) -> None:
    assert systemd_word(word) == written


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--log-format", "xml"], "invalid choice: 'xml'"),
        (["--print-systemd-unit", "--state-dir", "/srv/x"], "leave --state-dir out"),
        (["--print-systemd-unit", "--reset-scores"], "--reset-scores would forget"),
        (["--print-systemd-unit", "--new-night"], "--new-night would start"),
        (["--print-systemd-unit", "--port", "70000"], "not a port number"),
        (["--print-systemd-unit", "--name", "a\tb"], "control character"),
    ],
)
def test_a_flag_that_cannot_work_is_one_line_and_status_2(
    flags: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["host", *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert says in captured.err and captured.err.count("\n") == 1, captured.err
