"""The SSH gateway: ``ssh -p PORT ann@HOST`` plays Clowder, and nothing else gets through.

Pure decisions (names, access, budget, folders, the client's command and
environment, the host key, the TXT field) are tested directly. The rest
runs a host and its gateway on 127.0.0.1 (any free port) and an asyncssh
client: most sessions run a small stand-in program (fast, and it reports
what it was given: its terminal, size, environment); one runs the real
Clowder client and plays Catchy! against a bot through the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib.util
import json
import os
import re
import stat
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from net.client.discovery import HostInfo, decode_txt, encode_txt, ssh_command
from net.core.limits import HostLimits
from net.doors.host import Host
from net.doors.ssh_access import (
    NAME_MAX,
    Access,
    AccessError,
    BadUserName,
    SessionBudget,
    check_user_name,
    load_authorized_keys,
    player_folder,
)
from net.doors.ssh_gateway import (
    DEFAULT_TERM,
    GatewayError,
    Player,
    SshGateway,
    asks_name,
    client_command,
    client_environment,
    load_host_key,
    reached_address,
    terminal_type,
)
from net.doors.ssh_pty import clamp_size
from tests.net.hosting import running_host

WAIT_S = 30.0
"""Deadline for anything a loaded machine may be slow at (starting a Textual client)."""

ESCAPES = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\"
    rb"|[()][0-9A-Za-z]|[=>78cDEHM])"
)

STAND_IN = """
import os, signal, sys
def show(*_):
    columns, rows = os.get_terminal_size(0)
    print(f"size {columns}x{rows}", flush=True)
signal.signal(signal.SIGWINCH, show)
print("TERM", os.environ.get("TERM"), flush=True)
print("STATE", os.environ.get("CLOWDER_STATE_DIR"), flush=True)
print("HOME", os.environ.get("HOME"), flush=True)
print("SECRET", os.environ.get("CLOWDER_TEST_SECRET"), flush=True)
print("TTY", os.isatty(0), os.getsid(0) == os.getpid(), flush=True)
show()
for line in sys.stdin:
    if line.strip() == "crash":
        sys.exit(3)
    print("got", line.strip(), flush=True)
"""
"""A client stand-in: says what it was given, reports every SIGWINCH, echoes lines."""


def stand_in(player: Player) -> Sequence[str]:
    return [sys.executable, "-c", STAND_IN, player.name]


# --- pure parts ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ann", "Bea Smith", "李", "x" * NAME_MAX, "cat-2_b.c"])
def test_user_names_that_are_player_names_are_taken_as_they_are(name: str) -> None:
    assert check_user_name(name) == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "needed"),
        ("ann\x1b[2J", r"U\+001B"),
        ("ann\u202e", "bidirectional"),
        ("a\nb", r"U\+000A"),
        ("x" * (NAME_MAX + 1), "at most 32"),
        (" ann", "spaces"),
        ("ann  b", "spaces"),
    ],
)
def test_unsafe_or_unusable_user_names_are_refused_saying_why(name: str, why: str) -> None:
    with pytest.raises(BadUserName, match=why):
        check_user_name(name)


def test_open_access_takes_any_key_and_any_password() -> None:
    access = Access()
    key = asyncssh.generate_private_key("ssh-ed25519")
    assert access.open
    assert access.key_allowed(key.convert_to_public())
    assert access.password_ok("")
    assert "open" in access.describe()


def test_password_access_takes_only_the_password_and_no_key() -> None:
    access = Access(password="meow")
    key = asyncssh.generate_private_key("ssh-ed25519")
    assert not access.open
    assert access.password_ok("meow")
    assert not access.password_ok("meo")
    assert not access.password_ok("")
    assert not access.key_allowed(key.convert_to_public())
    assert access.describe() == "the password needed"


def test_keys_access_takes_only_listed_keys(tmp_path: Path) -> None:
    listed = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    path = tmp_path / "authorized_keys"
    path.write_bytes(listed.export_public_key())
    access = Access(keys=load_authorized_keys(path))
    assert access.key_allowed(listed.convert_to_public(), "127.0.0.1")
    assert not access.key_allowed(other.convert_to_public(), "127.0.0.1")
    assert not access.password_ok("anything")
    assert access.describe() == "an authorized key needed"


def test_a_missing_or_empty_keys_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(AccessError, match="cannot read"):
        load_authorized_keys(tmp_path / "nothing")
    empty = tmp_path / "empty"
    empty.write_text("# no keys yet\n")
    with pytest.raises(AccessError, match="no usable key"):
        load_authorized_keys(empty)


def test_the_session_budget_counts_sessions_and_gives_them_back() -> None:
    budget = SessionBudget(2)
    assert budget.take() and budget.take()
    assert not budget.take()
    budget.give_back()
    assert budget.take()
    assert budget.connection_limit > budget.limit
    with pytest.raises(ValueError, match="at least 1"):
        SessionBudget(0)


def test_a_player_folder_is_the_name_and_the_key_together(tmp_path: Path) -> None:
    ann = player_folder(tmp_path, "ann", "SHA256:aaa")
    assert ann == player_folder(tmp_path, "ann", "SHA256:aaa")
    others = {
        player_folder(tmp_path, "ann", "SHA256:bbb"),
        player_folder(tmp_path, "ann", None),
        player_folder(tmp_path, "Ann", "SHA256:aaa"),
        player_folder(tmp_path, "a.nn", "SHA256:aaa"),
    }
    assert ann not in others and len(others) == 4
    odd = player_folder(tmp_path, "../../李 x", None)
    assert odd.parent == tmp_path / "players"
    assert re.fullmatch(r"[A-Za-z0-9_-]+-[0-9a-f]{16}", odd.name)


def test_the_client_is_clowder_join_run_as_a_command_with_the_name() -> None:
    command = client_command("127.0.0.1", 7707, "-ann")
    assert command == [
        sys.executable,
        "-m",
        "tui",
        "join",
        "127.0.0.1:7707",
        "--name=-ann",
        "--only-this-host",
    ]


def test_the_client_is_told_the_address_its_player_reached_when_not_the_hosts_own() -> None:
    assert client_command("127.0.0.1", 7707, "ann", "198.18.0.1")[-1] == "--shown-as=198.18.0.1"
    assert "--shown-as=127.0.0.1" not in client_command("127.0.0.1", 7707, "ann", "127.0.0.1")


@pytest.mark.parametrize("name", ["you", "You", "NAME", "<NAME>", "me", "they", "player"])
def test_a_user_name_that_is_a_word_not_a_name_is_asked_for_one(name: str) -> None:
    """Issue 36, item 1: ``ssh -p 2222 you@HOST`` typed as the invitation read named the
    player "you"; now such a word makes the client ask for a name."""
    assert asks_name(name, None, [])
    assert not asks_name("ann", None, []) and not asks_name("Yousef", None, [])


def test_a_name_someone_else_plays_under_now_is_asked_for_one() -> None:
    ann = Player("ann", "SHA256:ann", "198.18.0.2")
    assert asks_name("ann", "SHA256:other", [ann])  # another key: another player
    assert asks_name("ANN", "SHA256:ann", [ann])  # the same name to the others' eyes
    assert asks_name("ann", None, [ann])
    assert not asks_name("ann", "SHA256:ann", [ann])  # the same player, a second window
    assert not asks_name("bea", None, [ann])


def test_a_player_asked_for_a_name_gets_a_client_that_asks_and_finds_their_folder(
    tmp_path: Path,
) -> None:
    command = client_command(
        "127.0.0.1",
        7707,
        "you",
        "198.18.0.1",
        ssh_port=2222,
        ask=True,
        folders=tmp_path,
        fingerprint="SHA256:abc",
    )
    assert command[:5] == [sys.executable, "-m", "tui", "join", "127.0.0.1:7707"]
    assert command[5:] == [
        "--ask-name=you",
        f"--player-folders={tmp_path}",
        "--ssh-key=SHA256:abc",
        "--only-this-host",
        "--door=ssh:2222",
        "--shown-as=198.18.0.1",
    ]
    assert not any(part.startswith("--name") for part in command)
    named = client_command("127.0.0.1", 7707, "ann", ssh_port=22, folders=tmp_path)
    assert "--name=ann" in named and "--door=ssh:22" in named
    assert not any(part.startswith(("--ask-name", "--player-folders")) for part in named)


def test_the_client_takes_every_flag_the_gateway_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What :func:`client_command` passes, ``clowder join`` understands: it goes as far as
    wanting a terminal (a test has none)."""
    from tui.cli import main

    command = client_command(
        "127.0.0.1", 7707, "you", "198.18.0.1", ssh_port=2222, ask=True, folders=tmp_path,
        fingerprint="SHA256:abc",
    )  # fmt: skip
    assert main(command[3:]) == 2
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "unrecognized" not in err


def test_the_reached_address_is_written_as_people_write_it() -> None:
    assert reached_address("198.18.0.1") == "198.18.0.1"
    assert reached_address("::ffff:198.18.0.1") == "198.18.0.1"  # a dual-stack socket
    assert reached_address("fe80::1%eth0") == "fe80::1"
    assert reached_address("2001:db8::1") == "2001:db8::1"


def test_terminal_types_are_kept_only_when_plain() -> None:
    assert terminal_type("xterm-256color") == "xterm-256color"
    assert terminal_type("screen.xterm-256color") == "screen.xterm-256color"
    assert terminal_type("") == DEFAULT_TERM
    assert terminal_type("xterm\x1b]0;x") == DEFAULT_TERM
    assert terminal_type("a b") == DEFAULT_TERM
    assert clamp_size(0, 0) == (80, 24)
    assert clamp_size(99999, 3) == (1000, 3)


def test_the_client_environment_is_the_players_own(tmp_path: Path) -> None:
    base = {"PATH": "/usr/bin", "LANG": "en_GB.UTF-8", "SECRET": "x", "HOME": "/root"}
    base |= {"COLUMNS": "80", "LINES": "24"}  # would hide every window change
    env = client_environment(base, tmp_path, "xterm")
    assert env["HOME"] == str(tmp_path)
    assert env["CLOWDER_STATE_DIR"] == str(tmp_path / "state")
    assert env["CLOWDER_CONFIG_DIR"] == str(tmp_path / "config")
    assert env["TERM"] == "xterm"
    assert "COLUMNS" not in env and "LINES" not in env
    assert env["LANG"] == "en_GB.UTF-8"
    assert env["PATH"] == "/usr/bin"
    assert "SECRET" not in env
    assert client_environment({"LANG": "C"}, tmp_path, "xterm")["LANG"] == "C.UTF-8"


def test_the_host_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    lines: list[str] = []
    first = load_host_key(tmp_path / "ssh", lines.append)
    again = load_host_key(tmp_path / "ssh", lines.append)
    assert first.get_fingerprint() == again.get_fingerprint()
    path = tmp_path / "ssh" / "host_ed25519_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len([line for line in lines if "new host key" in line]) == 1


def test_a_damaged_host_key_is_an_error_never_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "ssh"
    folder.mkdir()
    (folder / "host_ed25519_key").write_text("not a key")
    with pytest.raises(GatewayError, match="cannot read the SSH host key"):
        load_host_key(folder, print)
    assert (folder / "host_ed25519_key").read_text() == "not a key"


def test_the_txt_record_says_where_the_ssh_gateway_is() -> None:
    txt = encode_txt(protocol_version=1, name="Bea", games=["catchy"], tables=[], ssh_port=2222)
    assert txt["ssh"] == "2222"
    raw = {key.encode(): value.encode() for key, value in txt.items()}
    assert decode_txt(raw).ssh_port == 2222
    without = encode_txt(protocol_version=1, name="Bea", games=[], tables=[])
    assert "ssh" not in without
    for bad in (b"0", b"70000", b"-1", b"22a", b""):
        assert decode_txt({b"ssh": bad}).ssh_port is None
    assert ssh_command("198.18.0.1", 2222) == "ssh -p 2222 NAME@198.18.0.1"
    assert ssh_command("198.18.0.1", 22) == "ssh NAME@198.18.0.1"
    assert ssh_command("198.18.0.1", 22, user="Bea Lee") == "ssh 'Bea Lee@198.18.0.1'"
    info = HostInfo("Bea._clowder._tcp.local.", "Bea", ("198.18.0.1",), 7707, 1, (), 0, (), 0, 0.0)
    assert info.ssh_command is None
    with_ssh = dataclasses.replace(info, ssh_port=2222)
    assert with_ssh.ssh_command == "ssh -p 2222 NAME@198.18.0.1"


# --- the host command's flags -------------------------------------------------------------


def _host_args(*argv: str) -> argparse.Namespace:
    from tui.commands import host as host_command

    parser = argparse.ArgumentParser()
    host_command.configure(parser)
    args = parser.parse_args(argv)
    args.limits = host_command.host_limits(args)
    return args


def test_host_ssh_flags_default_port_and_refusals(tmp_path: Path) -> None:
    from tui.commands import UsageError
    from tui.commands.host import ssh_access

    assert _host_args("--ssh").ssh == 2222
    assert _host_args("--ssh", "2200").ssh == 2200
    assert ssh_access(_host_args()) is None
    assert ssh_access(_host_args("--ssh")) == Access()
    assert ssh_access(_host_args("--ssh", "--ssh-password", "pw")) == Access(password="pw")
    for argv, problem in [
        (("--ssh-password", "pw"), "need --ssh"),
        (("--ssh", "70000"), "not a port"),
        (("--ssh", "7707"), "game port"),
        (("--ssh", "--ssh-password", ""), "cannot be empty"),
        (("--ssh", "--ssh-sessions", "0"), "at least 1"),
        (("--ssh", "--ssh-sessions", "100"), "max-connections-per-address"),
        (("--ssh", "--ssh-keys", str(tmp_path / "none")), "cannot read"),
    ]:
        with pytest.raises(UsageError, match=problem):
            ssh_access(_host_args(*argv))


def test_host_per_address_flags(tmp_path: Path) -> None:
    """Issue 30: ``--ssh-per-address`` and ``--web-per-address`` (default 4) reach the
    gateways with the host's one connection budget; 0 is refused."""
    from tui.commands import UsageError
    from tui.commands.host import check_web, gateway_settings, ssh_access

    args = _host_args("--ssh", "--web")
    assert (args.ssh_per_address, args.web_per_address) == (4, 4)
    with pytest.raises(UsageError, match="--ssh-per-address is a whole number of at least 1"):
        ssh_access(_host_args("--ssh", "--ssh-per-address", "0"))
    with pytest.raises(UsageError, match="--web-per-address is a whole number of at least 1"):
        check_web(_host_args("--web", "--web-per-address", "0"))
    host = Host(bind="127.0.0.1", port=0, log=lambda line: None)
    two = _host_args("--ssh", "--ssh-per-address", "2")
    settings = gateway_settings(two, host, tmp_path, "ssh")
    assert settings["per_address"] == 2 and settings["shared"] is host.budget


# --- over SSH, on 127.0.0.1 ---------------------------------------------------------------


class Gateway:
    """A host and its gateway on loopback, their log lines, and a way in."""

    def __init__(self, host: Host, gateway: SshGateway, lines: list[str]) -> None:
        self.host, self.gateway, self.lines = host, gateway, lines

    def connect(self, username: str = "ann", **options: Any) -> Any:
        options.setdefault("client_keys", None)
        options.setdefault("password", "")
        return asyncssh.connect(
            self.gateway.bind,
            self.gateway.port,
            username=username,
            known_hosts=None,
            agent_path=None,
            connect_timeout=WAIT_S,
            **options,
        )

    async def logged(self, words: str) -> str:
        """The first log line holding ``words`` (waiting for it)."""
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            found = next((line for line in self.lines if words in line), None)
            if found is not None:
                return found
            await asyncio.sleep(0.02)
        raise AssertionError(f"no log line with {words!r} in {self.lines}")


@contextlib.asynccontextmanager
async def gateway(
    tmp_path: Path,
    *,
    command: Callable[[Player], Sequence[str]] | None = stand_in,
    **options: Any,
) -> AsyncIterator[Gateway]:
    options.setdefault("bind", "127.0.0.1")
    async with running_host(tmp_path) as host:
        lines: list[str] = host.log_lines  # type: ignore[attr-defined]
        ssh = SshGateway(
            game_address="127.0.0.1",
            game_port=host.port,
            state_dir=tmp_path,
            port=0,
            log=lines.append,
            command=command,
            **options,
        )
        await ssh.start()
        try:
            yield Gateway(host, ssh, lines)
        finally:
            await ssh.close()


class Terminal:
    """What an SSH session's terminal received, readable as text (escape sequences removed)."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.raw = bytearray()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while data := await self.process.stdout.read(65536):
            self.raw += data

    def mark(self) -> int:
        return len(self.raw)

    def text(self, since: int = 0) -> str:
        return ESCAPES.sub(b"", bytes(self.raw[since:])).decode(errors="replace")

    async def wait_for(self, *words: str, since: int = 0) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            text = self.text(since)
            if all(word in text for word in words):
                return text
            if self._reader.done():
                break
            await asyncio.sleep(0.05)
        raise AssertionError(
            f"never saw {words!r}; the terminal shows:\n{self.text(since)[-3000:]}"
        )

    def type(self, keys: bytes) -> None:
        self.process.stdin.write(keys)

    async def close(self) -> None:
        self._reader.cancel()
        await asyncio.wait([self._reader])  # a cancel of close() itself still ends close()


async def open_terminal(
    conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24)
) -> Terminal:
    process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    return Terminal(process)


async def test_a_session_runs_the_client_on_its_own_terminal_with_the_players_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOWDER_TEST_SECRET", "host only")
    async with gateway(tmp_path) as ssh, ssh.connect("ann") as conn:
        terminal = await open_terminal(conn)
        text = await terminal.wait_for("size 80x24")
        assert "TERM xterm-256color" in text
        assert "TTY True True" in text  # a terminal, and a session of its own
        assert "SECRET None" in text
        folder = player_folder(tmp_path / "ssh", "ann", None)
        assert f"STATE {folder / 'state'}" in text
        assert f"HOME {folder}" in text
        assert folder.is_dir()
        mark = terminal.mark()
        terminal.process.change_terminal_size(100, 30)
        await terminal.wait_for("size 100x30", since=mark)
        terminal.type(b"meow\r")
        await terminal.wait_for("got meow")
        assert ssh.gateway.sessions == 1
        await ssh.logged("'ann' from 127.0.0.1 plays")
        await terminal.close()
    await ssh_gone(ssh)
    assert "hung up" in await ssh.logged("'ann' from 127.0.0.1 left")


async def test_the_session_knows_which_address_the_player_reached(tmp_path: Path) -> None:
    """A second loopback address stands for the LAN address a friend's ssh reached."""
    players: list[Player] = []

    def recording(player: Player) -> Sequence[str]:
        players.append(player)
        return stand_in(player)

    async with gateway(tmp_path, command=recording, bind="127.0.0.2") as ssh:
        async with ssh.connect("ann") as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            await terminal.close()
        await ssh_gone(ssh)
    assert [player.reached for player in players] == ["127.0.0.2"]
    command = client_command("127.0.0.1", 7707, "ann", players[0].reached)
    assert command[-1] == "--shown-as=127.0.0.2"


async def test_a_stand_in_or_a_name_in_use_gets_a_client_that_asks_for_a_name(
    tmp_path: Path,
) -> None:
    players: list[Player] = []

    def recording(player: Player) -> Sequence[str]:
        players.append(player)
        return stand_in(player)

    mine = asyncssh.generate_private_key("ssh-ed25519")
    theirs = asyncssh.generate_private_key("ssh-ed25519")
    async with gateway(tmp_path, command=recording) as ssh:
        async with ssh.connect("you") as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            await terminal.close()
        await ssh_gone(ssh)
        async with ssh.connect("ann", client_keys=[mine]) as conn:
            ann = await open_terminal(conn)
            await ann.wait_for("size 80x24")
            for key in (mine, theirs):  # the same ann in a second window, then another ann
                async with ssh.connect("ann", client_keys=[key]) as other:
                    terminal = await open_terminal(other)
                    await terminal.wait_for("size 80x24")
                    await terminal.close()
            await ann.close()
    assert [(player.name, player.ask) for player in players] == [
        ("you", True),
        ("ann", False),
        ("ann", False),
        ("ann", True),
    ]
    command = ssh.gateway.client_command(players[3])
    assert "--ask-name=ann" in command
    assert f"--player-folders={tmp_path / 'ssh'}" in command
    assert f"--ssh-key={theirs.get_fingerprint()}" in command
    assert f"--door=ssh:{ssh.gateway.port}" in command


async def ssh_gone(ssh: Gateway) -> None:
    deadline = time.monotonic() + WAIT_S
    while ssh.gateway.sessions and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert ssh.gateway.sessions == 0


async def test_a_client_that_exits_ends_only_its_own_session(tmp_path: Path) -> None:
    async with gateway(tmp_path) as ssh, ssh.connect("ann") as conn, ssh.connect("bea") as other:
        ann = await open_terminal(conn)
        bea = await open_terminal(other)
        await ann.wait_for("size 80x24")
        await bea.wait_for("size 80x24")
        ann.type(b"crash\r")
        await asyncio.wait_for(ann.process.wait_closed(), WAIT_S)
        assert ann.process.exit_status == 3
        bea.type(b"still here\r")
        await bea.wait_for("got still here")
        assert "exit status 3" in await ssh.logged("'ann' from 127.0.0.1 left")
        await ann.close()
        await bea.close()


async def test_the_same_key_finds_the_same_folder_and_another_key_another(tmp_path: Path) -> None:
    mine = asyncssh.generate_private_key("ssh-ed25519")
    theirs = asyncssh.generate_private_key("ssh-ed25519")
    seen = []
    async with gateway(tmp_path) as ssh:
        for key in (mine, mine, theirs):
            async with ssh.connect("ann", client_keys=[key]) as conn:
                terminal = await open_terminal(conn)
                text = await terminal.wait_for("HOME")
                seen.append(re.search(r"STATE (\S+)", text)[1])  # type: ignore[index]
                await terminal.close()
        await ssh.logged(f"(key {mine.get_fingerprint()}) plays")
    assert seen[0] == seen[1] != seen[2]
    folder = player_folder(tmp_path / "ssh", "ann", mine.get_fingerprint())
    assert seen[0] == str(folder / "state")


async def test_exec_subsystems_and_forwarding_are_refused(tmp_path: Path) -> None:
    async with gateway(tmp_path) as ssh, ssh.connect("ann") as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("cat /etc/passwd")
        await ssh.logged("refused a command ('cat /etc/passwd') for 'ann' from 127.0.0.1")
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        await ssh.logged("refused the 'sftp' subsystem")
        with pytest.raises(asyncssh.ChannelOpenError, match="offers no port forwarding"):
            await conn.open_connection("127.0.0.1", ssh.host.port)
        await ssh.logged(f"refused port forwarding to 127.0.0.1:{ssh.host.port} for 'ann'")
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", ssh.host.port)
        await ssh.logged("refused remote port forwarding")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/run/anything.sock")
        await ssh.logged("refused socket forwarding")
        # A shell without a terminal runs nothing, and says what to do.
        result = await asyncio.wait_for(conn.run(), WAIT_S)
        assert result.exit_status == 1
        assert "needs a terminal" in str(result.stdout)
        await ssh.logged("refused a session without a terminal")
        assert ssh.gateway.sessions == 0


async def test_an_unusable_user_name_is_refused_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with gateway(tmp_path) as ssh:
        with pytest.raises(asyncssh.DisconnectError, match="at most 32 characters"):
            async with ssh.connect("x" * 33):
                pass
        await ssh.logged("refused the user name 'xxxxxxxx")
        # asyncssh refuses most control characters itself (SASLprep), on both sides;
        # the gateway's own check stands behind it and names the character.
        monkeypatch.setattr(asyncssh.connection, "saslprep", lambda text: text)
        with pytest.raises(asyncssh.DisconnectError, match="cannot use that name"):
            async with ssh.connect("ann\x1b]0;owned\x07"):
                pass
        line = await ssh.logged("refused the user name 'ann")
        assert "\x1b" not in line and "U+001B" in line


async def test_a_connection_that_never_logs_in_leaves_a_line(tmp_path: Path) -> None:
    async with gateway(tmp_path) as ssh:
        reader, writer = await asyncio.open_connection("127.0.0.1", ssh.gateway.port)
        writer.write(b"GET / HTTP/1.0\r\n\r\n")
        with contextlib.suppress(ConnectionError):
            await asyncio.wait_for(reader.read(), WAIT_S)
        writer.close()
        await ssh.logged("127.0.0.1 left before logging in")


async def test_password_access(tmp_path: Path) -> None:
    async with gateway(tmp_path, access=Access(password="meow")) as ssh:
        with pytest.raises(asyncssh.PermissionDenied):
            async with ssh.connect("ann", password="woof"):
                pass
        await ssh.logged("wrong password for 'ann' from 127.0.0.1")
        await ssh.logged("'ann' from 127.0.0.1 did not log in (wrong password)")
        key = asyncssh.generate_private_key("ssh-ed25519")
        with pytest.raises(asyncssh.PermissionDenied):
            async with ssh.connect("ann", client_keys=[key], password=None):
                pass
        async with ssh.connect("ann", password="meow") as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            await terminal.close()


async def test_authorized_keys_access(tmp_path: Path) -> None:
    listed = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(listed.export_public_key())
    access = Access(keys=load_authorized_keys(keys_file))
    async with gateway(tmp_path, access=access) as ssh:
        with pytest.raises(asyncssh.PermissionDenied):
            async with ssh.connect("ann", client_keys=[stranger], password="x"):
                pass
        await ssh.logged("'ann' from 127.0.0.1 did not log in (a key not in the keys file")
        async with ssh.connect("ann", client_keys=[listed], password=None) as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            await terminal.close()
        await ssh.logged(f"(key {listed.get_fingerprint()}) plays")


async def test_the_session_budget_refuses_politely_and_frees_up(tmp_path: Path) -> None:
    # The refused player's connection stays open for the next try: under load the first
    # player's leaving can take longer than the 5 s a connection may stay without a session.
    async with (
        gateway(tmp_path, max_sessions=1, session_timeout_s=WAIT_S) as ssh,
        ssh.connect("ann") as conn,
    ):
        first = await open_terminal(conn)
        await first.wait_for("size 80x24")
        async with ssh.connect("bea") as other:
            refused = await open_terminal(other)
            await asyncio.wait_for(refused.process.wait_closed(), WAIT_S)
            assert refused.process.exit_status == 1
            assert "has all the SSH players it takes" in refused.text()
            await ssh.logged("refused 'bea' from 127.0.0.1: all 1 SSH sessions are in use")
            await refused.close()
            first.process.stdin.write_eof()
            await asyncio.wait_for(first.process.wait_closed(), WAIT_S)
            await ssh_gone(ssh)
            again = await open_terminal(other)
            await again.wait_for("size 80x24")
            await again.close()
        await first.close()


async def test_a_newcomer_over_the_budget_is_told_why(tmp_path: Path) -> None:
    """Finding 3 of issue 30: the 25th connection got "Connection reset by peer" and no
    message. Over the gateway's budget a newcomer now finishes the key exchange and reads
    why in the disconnect reason (what ``ssh`` prints)."""
    async with gateway(tmp_path, max_sessions=1, per_address=100, session_timeout_s=WAIT_S) as ssh:
        limit = ssh.gateway.budget.connection_limit
        async with contextlib.AsyncExitStack() as stack:
            for index in range(limit):
                await stack.enter_async_context(ssh.connect(f"p{index}"))
            with pytest.raises(asyncssh.DisconnectError, match="all the SSH players it takes"):
                async with ssh.connect("late"):
                    pass
        await ssh.logged("refused 127.0.0.1: This Clowder host has all the SSH players")


async def bare(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``count`` TCP connections that never send a version line (from 127.0.0.1)."""
    return [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]


async def is_closed(reader: asyncio.StreamReader) -> bool:
    """Read until the gateway closes the connection (True), skipping its version line."""
    with contextlib.suppress(ConnectionError):
        while await asyncio.wait_for(reader.read(4096), WAIT_S):
            pass
    return True


async def until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "never came true"
        await asyncio.sleep(0.02)


async def plays_from_elsewhere(ssh: Gateway, name: str = "ann") -> None:
    """A player from another address (127.0.0.2) logs in and their client starts."""
    async with ssh.connect(name, local_addr=("127.0.0.2", 0)) as conn:
        terminal = await open_terminal(conn)
        await terminal.wait_for("size 80x24")
        await terminal.close()


async def test_bare_connections_from_one_address_keep_nobody_else_out(tmp_path: Path) -> None:
    """Finding 3 of issue 30: 24 bare TCP connections that never send a version line locked
    out a player with the right password. Now one address holds 4 logging in (and one being
    told why); the rest are cut at once, before any cryptography, in one log line; a player
    from another address plays."""
    async with gateway(tmp_path, handshake_timeout_s=WAIT_S) as ssh:
        held = await bare(ssh.gateway.port, 24)
        await until(lambda: ssh.gateway.explaining.count("127.0.0.1") == 1)
        assert ssh.gateway.logging_in.count("127.0.0.1") == 4
        closed = 0
        for reader, _writer in held[5:]:
            closed += await is_closed(reader)
        assert closed == 19
        await plays_from_elsewhere(ssh)
        cut = [line for line in ssh.lines if "cut a connection from 127.0.0.1 at once" in line]
        assert 1 <= len(cut) <= 5  # a flood is a few lines, not one each
        for _reader, writer in held:
            writer.close()


async def test_an_address_logging_in_too_often_is_told_why(tmp_path: Path) -> None:
    """Finding 3 of issue 30: a newcomer from an address with 4 connections still logging in
    reads why it is refused (after the key exchange), instead of a reset."""
    async with gateway(tmp_path, handshake_timeout_s=WAIT_S) as ssh:
        held = await bare(ssh.gateway.port, 4)
        await until(lambda: ssh.gateway.logging_in.count("127.0.0.1") == 4)
        with pytest.raises(asyncssh.DisconnectError, match=r"4 SSH connections from 127\.0\.0\.1"):
            async with ssh.connect("bea"):
                pass
        for _reader, writer in held:
            writer.close()


async def test_a_connection_that_sends_no_version_line_is_closed_in_time(tmp_path: Path) -> None:
    """Finding 3 of issue 30: a bare connection held its place until the 30 s login timeout,
    and was reopened at once. Now it has the handshake deadline to ask to log in, and its
    place is free again after."""
    async with gateway(tmp_path, handshake_timeout_s=0.5) as ssh:
        [(reader, writer)] = await bare(ssh.gateway.port, 1)
        assert await is_closed(reader)
        await until(lambda: ssh.gateway.logging_in.count("127.0.0.1") == 0)
        await ssh.logged("closed a connection from 127.0.0.1: no login begun in 0.5 s")
        writer.close()


async def test_logged_in_connections_from_one_address_keep_nobody_else_out(
    tmp_path: Path,
) -> None:
    """Finding 3 of issue 30: 24 connections that logged in and opened no channel were kept
    forever and filled the gateway. Now one address has 4 logged in at once, the next is told
    why, and a player from another address plays."""
    over = r"4 SSH players from 127\.0\.0\.1"
    async with (
        gateway(tmp_path, session_timeout_s=WAIT_S) as ssh,
        contextlib.AsyncExitStack() as held,
    ):
        for index in range(4):
            await held.enter_async_context(ssh.connect(f"idle{index}"))
        for index in range(20):
            with pytest.raises(asyncssh.DisconnectError, match=over):
                async with ssh.connect(f"more{index}"):
                    pass
        assert ssh.gateway.logged_in.count("127.0.0.1") == 4
        await plays_from_elsewhere(ssh)


async def test_a_connection_with_no_session_open_is_closed(tmp_path: Path) -> None:
    """Finding 3 of issue 30: a logged-in connection with no channel (``ssh -N``) was kept
    forever. Now it is closed after the session deadline, and so is one whose session ended
    but which the client keeps open."""
    async with gateway(tmp_path, session_timeout_s=0.3) as ssh:
        async with ssh.connect("idle") as idle:
            await asyncio.wait_for(idle.wait_closed(), WAIT_S)
        await ssh.logged("closed the connection of 'idle' from 127.0.0.1: no session open")
        async with ssh.connect("ann") as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            terminal.type(b"crash\r")  # the client exits; this ssh keeps the connection
            await asyncio.wait_for(conn.wait_closed(), WAIT_S)
            await terminal.close()
        assert ssh.gateway.counts.connections == 0


class Guesser(asyncssh.SSHClient):
    """An SSH client that tries one password after another on the same connection."""

    def __init__(self, guesses: list[str]) -> None:
        self.guesses = guesses

    def password_auth_requested(self) -> str | None:
        return self.guesses.pop(0) if self.guesses else None


class Clock:
    """Time for the gateway's password answers: ``sleep`` records each wait and moves the
    clock on by it, so whole hours of guessing run at once, and no test measures time."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


async def guess(ssh: Gateway, guesses: list[str], name: str = "ann", **options: Any) -> str:
    """Try ``guesses`` on one connection; what the gateway said when it ended."""
    with pytest.raises(asyncssh.DisconnectError) as ended:
        await asyncssh.create_connection(
            lambda: Guesser(guesses),
            "127.0.0.1",
            ssh.gateway.port,
            username=name,
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            kbdint_auth=False,
            **options,
        )
    return str(ended.value)


async def test_password_guesses_take_hours_and_are_a_few_log_lines(tmp_path: Path) -> None:
    """Finding 4 of issue 30: 200 wrong passwords took a fraction of a second, one log line
    each. Now each wrong one from an address is answered later (1, 2, 4... up to 30 s more
    each), a connection has 6 tries, and the log has a few lines per 10 s: 200 guesses take
    over an hour and a half of the gateway's clock (a fake one: no test measures time)."""
    clock = Clock()
    access = Access(password="meow")
    async with gateway(tmp_path, access=access, clock=clock, sleep=clock.sleep) as ssh:
        said = await guess(ssh, [f"guess{n}" for n in range(10)])
        assert "Too many tries on one connection (6)" in said
        assert clock.waits == [1, 2, 4, 8, 16, 30]
        tried = 6
        while tried < 200:
            await guess(ssh, [f"guess{tried + n}" for n in range(6)])
            tried += 6
        assert clock.now - 1000 >= 90 * 60
        wrong = [line for line in ssh.lines if "wrong password for 'ann'" in line]
        assert len(wrong) <= 5 * (1 + (clock.now - 1000) / 10)  # a few per 10 s of its clock
        # Right, from an address that guessed nothing: let in with no wait.
        waited = len(clock.waits)
        async with ssh.connect("bea", password="meow", local_addr=("127.0.0.2", 0)):
            pass
        assert len(clock.waits) == waited


async def test_guesses_sent_at_once_are_answered_one_after_another(tmp_path: Path) -> None:
    """Finding 4 of issue 30: tries sent at once from one address (parallel connections) are
    answered in turn, each wrong one later than the last; past 20 s of waiting a try is not
    checked at all, and the connection says when to come back. The fake clock stands still."""
    clock = Clock()
    access = Access(password="meow")

    async def stand_still(seconds: float) -> None:
        clock.waits.append(seconds)

    async with gateway(tmp_path, access=access, clock=clock, sleep=stand_still) as ssh:
        await asyncio.gather(*(guess(ssh, [f"g{n}"]) for n in range(4)))
        assert sorted(clock.waits) == [1, 3, 7, 15]  # each waits for the one before
        await guess(ssh, ["g4"])
        assert clock.waits[-1] == 31
        # The right password from there waits its turn too: a burst tells nothing sooner.
        with pytest.raises(asyncssh.DisconnectError, match="try again in 31 seconds"):
            async with ssh.connect("ann", password="meow"):
                pass
        clock.now += 31
        async with ssh.connect("ann", password="meow"):
            pass


async def test_keys_not_in_the_keys_file_count_as_tries(tmp_path: Path) -> None:
    """Finding 4 of issue 30, with ``--ssh-keys``: a connection offering key after key is
    closed after 6, in a few log lines; the listed key still gets in at once."""
    listed = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(listed.export_public_key())
    strangers = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(8)]
    access = Access(keys=load_authorized_keys(keys_file))
    async with gateway(tmp_path, access=access) as ssh:
        with pytest.raises(asyncssh.DisconnectError, match="Too many tries on one connection"):
            async with ssh.connect("ann", client_keys=strangers, password=None):
                pass
        assert len([line for line in ssh.lines if "a key not in the keys file" in line]) <= 5
        async with ssh.connect("ann", client_keys=[listed], password=None) as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("size 80x24")
            await terminal.close()


async def test_one_address_takes_at_most_its_share_of_players(tmp_path: Path) -> None:
    """Finding 6's SSH side (issue 30): sessions opened on the connections of one address
    stop at its share, saying so; another address still plays."""
    async with gateway(tmp_path, per_address=1) as ssh, ssh.connect("ann") as conn:
        first = await open_terminal(conn)
        await first.wait_for("size 80x24")
        second = await open_terminal(conn)  # a second session on the same connection
        await asyncio.wait_for(second.process.wait_closed(), WAIT_S)
        assert "all the players it takes from 127.0.0.1 (1)" in second.text()
        await second.close()
        await plays_from_elsewhere(ssh, "bea")
        await first.close()


async def test_the_host_s_one_budget_covers_the_ssh_door(tmp_path: Path) -> None:
    """Issue 30: SSH connections and their terminals come out of the host's one connection
    budget (``--max-connections``, ``ulimit -n``); when the SSH door holds it all, a game
    connection is refused ``host_full`` and an SSH newcomer is told why."""
    async with running_host(tmp_path, limits=HostLimits(max_connections=3)) as host:
        ssh = SshGateway(
            game_address="127.0.0.1",
            game_port=host.port,
            state_dir=tmp_path,
            bind="127.0.0.1",
            port=0,
            log=host.log_lines.append,  # type: ignore[attr-defined]
            command=stand_in,
            shared=host.budget,
            per_address=10,
            session_timeout_s=WAIT_S,
        )
        await ssh.start()
        try:
            door = Gateway(host, ssh, host.log_lines)  # type: ignore[attr-defined]
            async with door.connect("ann") as one, door.connect("bea"):
                terminal = await open_terminal(one)  # its terminal: the third descriptor
                await terminal.wait_for("size 80x24")
                assert host.budget.doors == 3
                reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
                assert b"host_full" in await asyncio.wait_for(reader.read(4096), WAIT_S)
                writer.close()
                with pytest.raises(asyncssh.DisconnectError, match="all the connections"):
                    async with door.connect("cy"):
                        pass
                await terminal.close()
            await until(lambda: host.budget.doors == 0)
        finally:
            await ssh.close()


async def test_closing_the_gateway_hangs_up_every_client(tmp_path: Path) -> None:
    async with gateway(tmp_path) as ssh, ssh.connect("ann") as conn:
        terminal = await open_terminal(conn)
        await terminal.wait_for("size 80x24")
        session = next(iter(ssh.gateway.counts.sessions))
        assert session.pty is not None and session.pty.pid is not None
        pid = session.pty.pid
        await ssh.gateway.close()
        assert ssh.gateway.sessions == 0
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        await terminal.close()


# --- the real client, through the gateway ------------------------------------------------


def seat_of(host: Host, table: str, name: str) -> int:
    seats = host.runners[table].table.seats
    return next(index for index, seat in enumerate(seats) if seat.name == name)


async def test_ssh_player_sees_the_lobby_joins_plays_resizes_leaves_and_comes_back(
    tmp_path: Path,
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with gateway(tmp_path, command=None) as ssh:
        runner = ssh.host.create_table("catchy", {}, seats=2, bots=1, created_by="host")
        table = runner.table
        async with ssh.connect("ann", client_keys=[key]) as conn:
            terminal = await open_terminal(conn)
            await terminal.wait_for("Clowder lobby", "you are ann", "Tables on", "Catchy")
            terminal.type(b"\r")
            await ssh.logged("ann sits at seat")
            await terminal.wait_for("Your hand")
            seat = seat_of(ssh.host, table.id, "ann")
            moves = 0
            deadline = time.monotonic() + WAIT_S
            while moves < 3 and time.monotonic() < deadline:
                view = table.view(seat)
                legal = view["legal"] if view else []
                if not legal:
                    await asyncio.sleep(0.05)
                    continue
                version = table.version
                action = legal[0]
                if action["type"] == "swap":
                    terminal.type(b"1")
                else:
                    position = view["hand"].index(action["card"]) + 1  # type: ignore[index]
                    terminal.type(str(position).encode() + b"\r")
                while table.version == version and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                moves += 1
            assert moves == 3, f"made {moves} moves; the terminal shows:\n{terminal.text()[-2000:]}"
            assert table.outcome is None or table.version > 3
            mark = terminal.mark()
            terminal.process.change_terminal_size(100, 30)
            deadline = time.monotonic() + WAIT_S
            while b"\x1b[30;1H" not in terminal.raw[mark:] and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # drawn again, down to row 30
            assert b"\x1b[30;1H" in terminal.raw[mark:]
            session = next(iter(ssh.gateway.counts.sessions))
            assert session.size == (100, 30)
            await terminal.close()
        await ssh.logged("ann dropped (seat kept)")
        await ssh_gone(ssh)
        assert table.seats[seat].name == "ann"
        if importlib.util.find_spec("tui.seats") is None:
            return  # the client keeps no seats yet (seats that come back)
        # The same user with the same key: the client finds its seat token in the
        # player's own folder and sits down again.
        async with ssh.connect("ann", client_keys=[key]) as conn:
            terminal = await open_terminal(conn)
            deadline = time.monotonic() + WAIT_S
            while not any(w in terminal.text() for w in ("Your hand", "Clowder lobby")):
                assert time.monotonic() < deadline, terminal.text()[-2000:]
                await asyncio.sleep(0.05)
            if "Your hand" not in terminal.text():
                terminal.type(b"\r")  # in the lobby: Enter on the table holding the seat
            await ssh.logged("ann is back")
            await terminal.wait_for("Your hand")
            await terminal.close()


async def test_ssh_player_who_typed_the_invitation_literally_is_asked_for_a_name(
    tmp_path: Path,
) -> None:
    """Issue 36, item 1, through the real client: ``ssh -p PORT NAME@HOST`` as it reads."""
    async with gateway(tmp_path, command=None) as ssh, ssh.connect("NAME") as conn:
        terminal = await open_terminal(conn)
        await terminal.wait_for('You came in as "NAME", a word, not a name.', "Your name")
        mark = terminal.mark()
        terminal.type(b"me\r")  # another stand-in: refused, saying why
        await terminal.wait_for('"me" reads as a word, not a name', since=mark)
        terminal.type(b"g\r")  # a name now
        await terminal.wait_for("Clowder lobby", "you are meg")
        await terminal.close()
    folder = player_folder(tmp_path / "ssh", "meg", None)
    config = json.loads((folder / "config" / "config.json").read_text(encoding="utf-8"))
    assert config["name"] == "meg"


# --- what a newcomer sees: the lobby and `clowder discover` ------------------------------


async def test_the_lobby_shows_the_ssh_command_of_a_host_that_offers_it() -> None:
    from textual.widgets import Static

    from tests.tui.harness import LOBBY_HOSTS, LobbyHarness
    from tui.screens.lobby import HostEntry

    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        line = app.lobby.query_one("#tables-ssh", Static)

        def shown() -> str | None:
            return str(line.render()) if line.display else None

        assert shown() is None  # the hosts in the harness offer no SSH
        cy = HostEntry("lan:cy", "Cy's box", "198.18.0.1", 7707, "lan", "1 table", 2222)
        app.lobby.set_hosts([cy, *LOBBY_HOSTS])
        app.lobby.select("lan:cy")
        await pilot.pause()
        assert shown() == "no Python? ssh -p 2222 NAME@198.18.0.1"
        app.lobby.select(LOBBY_HOSTS[0].key)
        await pilot.pause()
        assert shown() is None


def test_discover_prints_the_ssh_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import net.client.discovery
    from tui.cli import main

    bea = HostInfo("Bea._clowder._tcp.local.", "Bea", ("198.18.0.1",), 7707, 1, (), 1, (), 0, 0.0)
    hosts = [dataclasses.replace(bea, ssh_port=2222), dataclasses.replace(bea, name="Cy")]

    async def found(timeout_s: float) -> list[HostInfo]:
        return hosts

    monkeypatch.setattr(net.client.discovery, "discover", found)
    assert main(["discover"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "Bea  198.18.0.1:7707  (1 table)",
        "    no Python? ssh -p 2222 NAME@198.18.0.1",
        "Cy  198.18.0.1:7707  (1 table)",
    ]
    assert main(["discover", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["hosts"]
    assert [row["ssh"] for row in rows] == [2222, None]
