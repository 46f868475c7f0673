"""``clowder host``: the headless host, for a machine nobody plays on.

It resumes the tables in its state directory, opens the ``--table`` tables
(each spec is kept open: a resumed unfinished table of that game counts),
advertises itself on the LAN unless ``--no-discovery``, and logs joins,
starts and results to stdout, one event a line with a level, in the form
the reader needs (a terminal, the journal, a pipe, or ``--log-format json``:
tui/commands/host_log.py).

SIGINT or SIGTERM (``systemctl stop``) shut it down cleanly and at once:
first the host stops taking moves and tells every client it is restarting
(their seats are kept, and they come back by themselves), which closes
their connections and the tables' journals (every accepted move is on disk
already, and the scores and tonight's standings are written when a game
ends); then the SSH and web doors close and the LAN advertisement goes.
It exits 0, and resumes every table at its next start.

``--print-systemd-unit`` prints, instead of serving, a systemd unit that
runs this installation's host with the same flags as a service
(tui/commands/systemd_unit.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import signal
import socket
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net.core import limits
from tui.commands import UsageError
from tui.commands.address import DEFAULT_PORT
from tui.commands.host_log import FORMATS, HostLog, Level
from tui.commands.level import add_bot_level
from tui.commands.reaction import add_bot_reaction, reaction_scale
from tui.commands.tablespec import TableSpec, parse_table_spec

if TYPE_CHECKING:
    from net.client.discovery import Advertiser
    from net.core.host import Doors
    from net.doors.host import Host
    from net.doors.ssh_access import Access
    from net.doors.ssh_gateway import SshGateway
    from net.doors.web_gateway import WebGateway

KEEP_OPEN_CHECK_S = 1.0
ADVERTISER_STOP_S = 3.0
"""At most this long to say goodbye on the LAN at shutdown (a service has a stop deadline)."""
RESTART_NOTICE = "The host is restarting; your seat is kept and you come back by yourself"
"""What every player reads when this host stops (the ``host_shutdown`` error's text): its
tables are on disk and resume at its next start, and clients reconnect by themselves."""
WEB_PORT = 8080
"""``--web`` without a port (``net.doors.web_gateway.DEFAULT_WEB_PORT``, kept here so ``--help``
needs no aiohttp)."""


def default_state_dir() -> Path:
    from platformdirs import user_state_dir

    return Path(user_state_dir("clowder")) / "host"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help="TCP port (default: %(default)s; 0: any free port)",
    )
    parser.add_argument(
        "--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on (default: all)"
    )
    parser.add_argument("--name", help="the host's name in lobbies (default: this machine's name)")
    parser.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="GAME[:opt=val,...]",
        help="open a table (repeatable); table keys seats=N, bots=N, bot_level=LEVEL, "
        "takeover=SECONDS, and the game's own options, e.g. catchy:target=5,bots=1",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help="where table journals live (default: the user's state dir)",
    )
    parser.add_argument(
        "--reset-scores",
        action="store_true",
        help="forget the players' results and ratings this host keeps (its scoreboard), then serve",
    )
    parser.add_argument(
        "--no-discovery", action="store_true", help="do not advertise on the LAN (join by address)"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="S",
        help="seconds a bot waits before it acts (default: %(default)s)",
    )
    parser.add_argument(
        "--results-for",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds a finished table shows its results before it closes (0: never; "
        "default: %(default)s)",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=600.0,
        metavar="S",
        help="close a table nobody has been at for this many seconds (0: never; "
        "default: %(default)s)",
    )
    parser.add_argument(
        "--again-for",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds a table's people have to answer 'play again' (default: %(default)s)",
    )
    parser.add_argument(
        "--again-bots",
        action="store_true",
        help="when playing again, a bot takes each seat nobody took (default: the game "
        "starts without it, if it can, or waits for a newcomer)",
    )
    parser.add_argument(
        "--new-night",
        action="store_true",
        help="start tonight's standings afresh (otherwise a night lasts until 12 hours "
        "pass with no game, across restarts)",
    )
    add_bot_level(parser, "the bots at this host's tables (unless a table names its own)")
    add_bot_reaction(parser)
    add_service_flags(parser)
    add_ssh_flags(parser)
    add_web_flags(parser)
    add_limit_flags(parser)


def add_service_flags(parser: argparse.ArgumentParser) -> None:
    """The host on a spare box: its log for the journal or a machine, and its systemd unit."""
    group = parser.add_argument_group(
        "service", "run on a spare box under systemd: the log's form, and the unit to install"
    )
    group.add_argument(
        "--log-format",
        choices=FORMATS,
        default="text",
        help="text: a line per event with its level (plain outside a terminal); json: one "
        "JSON object per line (default: %(default)s)",
    )
    group.add_argument(
        "--qr",
        action="store_true",
        help="draw the web address's QR code in the log even when it is not a terminal",
    )
    group.add_argument(
        "--print-systemd-unit",
        action="store_true",
        help="print a systemd unit that runs this host, with these flags, as a service "
        "(its own state directory, restarted on failure, sandboxed), and exit",
    )


def add_ssh_flags(parser: argparse.ArgumentParser) -> None:
    """``--ssh``: players with nothing installed join by ``ssh`` (net/doors/ssh_gateway.py)."""
    from net.doors.ssh_access import DEFAULT_SSH_PORT, MAX_SSH_SESSIONS, SSH_PER_ADDRESS

    group = parser.add_argument_group(
        "ssh", "let anyone on the LAN play with a plain `ssh -p PORT NAME@HOST`"
    )
    group.add_argument(
        "--ssh",
        nargs="?",
        type=int,
        const=DEFAULT_SSH_PORT,
        metavar="PORT",
        help="also run an SSH server that opens this host's lobby "
        f"(default port {DEFAULT_SSH_PORT})",
    )
    group.add_argument(
        "--ssh-password",
        metavar="PASSWORD",
        help="players need this password (default: open, no password; "
        "others on this machine can read it in the process list)",
    )
    group.add_argument(
        "--ssh-keys",
        type=Path,
        metavar="FILE",
        help="players need a key listed in this authorized_keys file",
    )
    group.add_argument(
        "--ssh-sessions",
        type=int,
        default=MAX_SSH_SESSIONS,
        metavar="N",
        help="SSH players at once; each runs a Clowder client here (default: %(default)s)",
    )
    group.add_argument(
        "--ssh-per-address",
        type=int,
        default=SSH_PER_ADDRESS,
        metavar="N",
        help="from one IP address at once: SSH players, and connections logging in "
        "(default: %(default)s)",
    )


def add_web_flags(parser: argparse.ArgumentParser) -> None:
    """``--web``: players with only a browser (a phone) join at ``http://HOST:PORT/``
    (net/doors/web_gateway.py; needs the ``web`` extra)."""
    from net.doors.ssh_access import MAX_SSH_SESSIONS, SSH_PER_ADDRESS

    group = parser.add_argument_group(
        "web", "let anyone on the LAN play from a browser or a phone at http://HOST:PORT/"
    )
    group.add_argument(
        "--web",
        nargs="?",
        type=int,
        const=WEB_PORT,
        metavar="PORT",
        help=f"also serve the game to browsers (default port {WEB_PORT}); "
        "needs pip install 'clowder-cards[web]'",
    )
    group.add_argument(
        "--web-password",
        metavar="PASSWORD",
        help="browsers need this password (default: open to the LAN, no password)",
    )
    group.add_argument(
        "--web-sessions",
        type=int,
        default=MAX_SSH_SESSIONS,
        metavar="N",
        help="browsers at once; each runs a Clowder client here (default: %(default)s)",
    )
    group.add_argument(
        "--web-per-address",
        type=int,
        default=SSH_PER_ADDRESS,
        metavar="N",
        help="browsers playing at once from one IP address (4 connections each) "
        "(default: %(default)s)",
    )


def add_limit_flags(parser: argparse.ArgumentParser) -> None:
    """The host's budgets and deadlines (net/core/limits.py; PROTOCOL.md, "Host budgets")."""
    group = parser.add_argument_group(
        "limits", "what one host takes on; over a budget the newcomer is refused, never an exit"
    )
    defaults = limits.HostLimits()
    for name, flag, what in limits.FLAGS:
        default = getattr(defaults, name)
        group.add_argument(
            flag,
            dest=name,
            type=type(default),
            default=default,
            metavar="S" if name.endswith("_s") else "N",
            help=f"{what} (default: %(default)s)",
        )
    group.add_argument(
        "--allow-fixed-deck",
        action="store_true",
        help="let create_table fix the deal with a 'deck' option (a testing aid; "
        "tables show fixed_deck to joiners)",
    )


def host_limits(args: argparse.Namespace) -> limits.HostLimits:
    """The limits from the flags; a clear usage error for a bad value."""
    try:
        return limits.HostLimits(**{name: getattr(args, name) for name, _, _ in limits.FLAGS})
    except ValueError as error:
        raise UsageError(str(error)) from None


_logs: dict[str, HostLog] = {}
"""The log of this process's host (key ``"host"``), set by :func:`run` from the flags."""


def host_log() -> HostLog:
    """This host's log (plain text to stdout until :func:`run` chose its form)."""
    if "host" not in _logs:
        _logs["host"] = HostLog()
    return _logs["host"]


def log(line: str, level: Level | None = None) -> None:
    """One event of the host's log: its level from the wording, unless given."""
    host_log()(line, level)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port number (0-65535)")
    if not math.isfinite(args.bot_delay) or args.bot_delay < 0:
        raise UsageError(f"--bot-delay is seconds, 0 or more, not {args.bot_delay:g}")
    periods = (("--results-for", args.results_for), ("--abandon-after", args.abandon_after))
    for flag, value in periods:
        if not math.isfinite(value) or value < 0:
            raise UsageError(f"{flag} is seconds, 0 or more, not {value:g}")
    if not math.isfinite(args.again_for) or not 5 <= args.again_for <= 600:
        raise UsageError(f"--again-for is seconds from 5 to 600, not {args.again_for:g}")
    args.limits = host_limits(args)
    args.bot_reaction_scale = reaction_scale(args.bot_reaction)
    try:
        socket.inet_aton(args.bind)
    except OSError:
        raise UsageError(f"--bind {args.bind!r} is not an IPv4 address") from None
    specs = [parse_table_spec(text) for text in args.table]
    args.ssh_access = ssh_access(args)
    check_web(args)
    if args.print_systemd_unit:
        from tui.cli import version
        from tui.commands.systemd_unit import print_unit

        parser = argparse.ArgumentParser()
        configure(parser)
        print_unit(parser, args, version=version())
        return 0
    _logs["host"] = HostLog(log_format=args.log_format, qr=True if args.qr else None)
    try:
        asyncio.run(serve(args, specs))
    except OSError as error:
        log(f"cannot host: {error}", "error")
        return 1
    return 0


def ssh_access(args: argparse.Namespace) -> Access | None:
    """Who may come in by SSH (None without ``--ssh``); a usage error for a bad flag."""
    from net.doors.ssh_access import (
        Access,
        AccessError,
        load_authorized_keys,
    )

    if args.ssh is None:
        if args.ssh_password is not None or args.ssh_keys is not None:
            raise UsageError("--ssh-password and --ssh-keys need --ssh")
        return None
    check_door(args, "ssh", taken={"game": args.port}, sessions=args.ssh_sessions)
    try:
        keys = None if args.ssh_keys is None else load_authorized_keys(args.ssh_keys)
    except AccessError as error:
        raise UsageError(f"--ssh-keys: {error}") from None
    return Access(password=args.ssh_password, keys=keys)


def check_door(
    args: argparse.Namespace, door: str, *, taken: dict[str, int | None], sessions: int
) -> None:
    """What ``--ssh`` and ``--web`` share: a port number that is none of ``taken`` (this
    host's other ports, by name), at least one session, a password that is not empty, and
    room in the host's budget of connections from one address for ``sessions`` clients
    running on this machine (SSH and web players alike connect from it)."""
    from net.doors.ssh_access import SSH_CONNECTIONS_PER_SESSION

    port, own = getattr(args, door), getattr(args, f"{door}_sessions")
    per_address = getattr(args, f"{door}_per_address")
    if not 0 <= port < 65536:
        raise UsageError(f"--{door} {port} is not a port number (0-65535)")
    for what, other in taken.items():
        if port != 0 and port == other:
            raise UsageError(f"--{door} {port} is the {what} port too; choose another")
    if own < 1:
        raise UsageError(f"--{door}-sessions is a whole number of at least 1, not {own}")
    if per_address < 1:
        raise UsageError(f"--{door}-per-address is a whole number of at least 1, not {per_address}")
    if getattr(args, f"{door}_password") == "":
        raise UsageError(f"--{door}-password cannot be empty (leave it out for open access)")
    needed = sessions * SSH_CONNECTIONS_PER_SESSION
    if needed > args.limits.max_connections_per_address:
        others = " (with the other gateway's)" if sessions > own else ""
        raise UsageError(
            f"--{door}-sessions {own} needs {needed} game connections from this machine"
            f"{others}; raise --max-connections-per-address "
            f"({args.limits.max_connections_per_address})"
        )


def check_web(args: argparse.Namespace) -> None:
    """The ``--web`` flags, checked before anything starts: a usage error for a bad one."""
    if args.web is None:
        if args.web_password is not None:
            raise UsageError("--web-password needs --web")
        return
    ssh_sessions = args.ssh_sessions if args.ssh is not None else 0
    taken = {"game": args.port, "SSH": args.ssh}
    check_door(args, "web", taken=taken, sessions=args.web_sessions + ssh_sessions)
    try:
        from net.doors.web_gateway import served_files

        served_files()
    except OSError as error:
        raise UsageError(str(error)) from None


def gateway_settings(
    args: argparse.Namespace, host: Host, state_dir: Path, door: str
) -> dict[str, Any]:
    """What the SSH and web gateways are both given: where their clients join this host,
    where players' folders go, where they listen (``--ssh``/``--web``), how many at once (in
    all and from one address), and the host's one connection budget, which every door's
    connections come out of (so ``--max-connections`` and ``ulimit -n`` bound them all)."""
    return {
        "game_address": "127.0.0.1" if host.bind == "0.0.0.0" else host.bind,
        "game_port": host.port,
        "state_dir": state_dir,
        "bind": args.bind,
        "port": getattr(args, door),
        "max_sessions": getattr(args, f"{door}_sessions"),
        "per_address": getattr(args, f"{door}_per_address"),
        "shared": host.budget,
        "log": log,
    }


async def start_web(args: argparse.Namespace, host: Host, state_dir: Path) -> WebGateway | None:
    """The web gateway of ``--web`` (None without it), its clients joining ``host``."""
    if args.web is None:
        return None
    from net.doors.web_gateway import WebGateway

    gateway = WebGateway(
        **gateway_settings(args, host, state_dir, "web"), password=args.web_password
    )
    await gateway.start()
    return gateway


async def start_ssh(args: argparse.Namespace, host: Host, state_dir: Path) -> SshGateway | None:
    """The SSH gateway of ``--ssh`` (None without it), its clients joining ``host``."""
    if args.ssh_access is None:
        return None
    from net.doors.ssh_gateway import SshGateway

    gateway = SshGateway(**gateway_settings(args, host, state_dir, "ssh"), access=args.ssh_access)
    await gateway.start()
    return gateway


async def serve(args: argparse.Namespace, specs: list[TableSpec]) -> None:
    from net.doors.host import Host

    state_dir = args.state_dir or default_state_dir()
    if args.reset_scores:
        from net.store.scoreboard import reset

        forgot = reset(state_dir)
        log("Scores reset" if forgot else "No scores to reset")
    host = Host(
        name=args.name,
        bind=args.bind,
        port=args.port,
        state_dir=state_dir,
        bot_delay_s=args.bot_delay,
        bot_reaction_scale=args.bot_reaction_scale,
        bot_level=args.bot_level,
        log=log,
        limits=args.limits,
        allow_fixed_deck=args.allow_fixed_deck,
        freeze_gc=True,
        results_for_s=args.results_for,
        abandon_after_s=args.abandon_after,
        again_for_s=args.again_for,
        again_bots=args.again_bots,
        new_night=args.new_night,
    )
    # Signals are caught before the port opens: a SIGTERM the moment the host is
    # reachable (a service manager, a test) still shuts it down cleanly.
    stop = asyncio.Event()
    stopped_by: list[str] = []

    def stop_on(signum: int) -> None:
        stopped_by.append(signal.Signals(signum).name)
        stop.set()

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop_on, signum)
    await host.start()
    gateway = web = None
    try:
        gateway = await start_ssh(args, host, state_dir)
        web = await start_web(args, host, state_dir)
    except OSError:
        if gateway is not None:
            await gateway.close()
        await host.close()
        raise
    from net.core.host import Doors

    host.doors = Doors(
        ssh=None if gateway is None else gateway.port, web=None if web is None else web.port
    )
    failed: dict[str, tuple[float, int]] = {}
    keep_open(host, specs, failed)
    advertiser = None
    if not args.no_discovery:
        advertiser = await start_advertiser(host, host.doors.ssh, host.doors.web)
    where = advertiser.addresses[0] if advertiser is not None else socket.gethostname()
    say_doors(where, host.port, host.doors)
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(KEEP_OPEN_CHECK_S):
                    await stop.wait()
            keep_open(host, specs, failed)
    finally:
        # The host first: from here no move is taken, every client reads that the host is
        # restarting, and the journals close. Then the doors, whose players' clients were
        # just told, and last the LAN's goodbye, which may take a moment.
        kept = sum(1 for runner in host.runners.values() if runner.table.outcome is None)
        why = stopped_by[0] if stopped_by else "an error"
        log(
            f"Stopping ({why}): no more moves; {kept} unfinished table(s) kept, "
            "resumed at the next start; telling every client"
        )
        await host.close(RESTART_NOTICE)
        if web is not None:
            await web.close()
        if gateway is not None:
            await gateway.close()
        if advertiser is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(ADVERTISER_STOP_S):
                    await advertiser.stop()


def say_doors(where: str, port: int, doors: Doors) -> None:
    """The start-up log's lines for people: every way to join this host, a QR code of the
    web address for phones (when there is one, and segno to draw it), and the room screen's
    page for a TV."""
    from net.client.discovery import ssh_command, web_url

    log(f"Join with Clowder installed: clowder join {where}:{port}")
    if doors.ssh is not None:
        log(f"SSH: players with nothing installed type: {ssh_command(where, doors.ssh)}")
    if doors.web is not None:
        url = web_url(where, doors.web)
        rows: list[str] = []
        if host_log().qr:  # drawn for a person at a terminal, or when asked (--qr)
            from tui.widgets.qr import qr_ansi_lines, qr_lines

            # Black on white where colours may be used: it scans on any background.
            rows = (qr_ansi_lines(url) if host_log().colour else qr_lines(url)) or []
        host_log().picture(f"Web: players with a browser or a phone open: {url}", rows)
        log(f"Room screen for a TV or a projector (read-only): {url}room")


KEEP_OPEN_LOG_QUIET_S = 60.0
"""A ``--table`` that cannot be opened (a full disk) is logged at most once this often."""


def keep_open(
    host: Host, specs: list[TableSpec], failed: dict[str, tuple[float, int]] | None = None
) -> None:
    """Open a table for every ``--table`` spec that has no unfinished table of its game.

    A resumed table counts, so restarting the host does not add tables; a
    finished one does not, so a host on a spare box always has a game to join.
    A spec that cannot be opened now (the disk is full) is tried again every check,
    and logged once a minute: ``failed`` keeps, per game, when its refusal was last
    logged and how many came since (the caller's, kept between checks).
    """
    failed = {} if failed is None else failed
    from net.core.tables import TableError

    open_games = Counter(
        r.table.game.name for r in host.runners.values() if r.table.outcome is None
    )
    for spec in specs:
        if open_games[spec.game] > 0:
            open_games[spec.game] -= 1
            continue
        try:
            host.create_table(
                spec.game,
                spec.options,
                seats=spec.seats,
                bots=spec.bots,
                bot_level=spec.bot_level,
                created_by="host",
            )
        except TableError as error:
            now = time.monotonic()
            logged_at, since = failed.get(spec.game, (-KEEP_OPEN_LOG_QUIET_S, 0))
            if now - logged_at < KEEP_OPEN_LOG_QUIET_S:
                failed[spec.game] = (logged_at, since + 1)
                continue
            more = f" (and {since} more times)" if since else ""
            log(f"cannot open table {spec.game}: {error}{more}", "warning")
            failed[spec.game] = (now, 0)


async def start_advertiser(
    host: Host, ssh_port: int | None = None, web_port: int | None = None
) -> Advertiser | None:
    from net.doors.advertise import advertise_host

    return await advertise_host(host, log=log, ssh_port=ssh_port, web_port=web_port)
