"""``clowder host --print-systemd-unit``: the headless host as a service that starts at boot.

A spare box should not need a person to keep a terminal open. This prints a
systemd unit for *this* installation (the absolute path of this ``clowder``)
that runs ``clowder host`` with the flags it was given. Under systemd the
host keeps its tables in a state directory of its own (``StateDirectory=``,
``/var/lib/clowder-host``, passed as ``--state-dir``), logs to the journal
with a level per line (tui/commands/host_log.py), is restarted if it fails,
and stops cleanly on ``systemctl stop`` (SIGTERM: every client is told and
comes back by itself once it starts again; tables resume).

The sandbox is the usual one for a network daemon: a user of its own made
at start (``DynamicUser=``), no new privileges, no capabilities, the system
read-only but for the state directory, homes hidden, a private ``/tmp``. Two
cases change it, each said in a comment in the unit:

- this ``clowder``, or the Python it runs on, lives under a home (``pip
  install --user``, ``pipx``, a venv in a checkout, a pyenv Python): a user of
  its own could not read it, so the unit runs as the user who printed it,
  with homes read-only, not hidden;
- a port under 1024 (``--port 80``): the one capability that binds it,
  ``CAP_NET_BIND_SERVICE``, and no other.
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from tui.commands import UsageError

UNIT_NAME: Final = "clowder-host"
STATE_DIRECTORY: Final = "clowder-host"
"""``StateDirectory=``: systemd makes ``/var/lib/clowder-host``, owned by the service's user,
and hands its path to the host as ``$STATE_DIRECTORY``."""

HOME_ROOTS: Final = (Path("/home"), Path("/root"), Path("/run/user"))
"""What ``ProtectHome=yes`` hides from the service."""

NOT_REPEATED: Final = {"help", "print_systemd_unit", "state_dir"}
"""``clowder host`` flags the unit does not pass on: the state directory is the unit's own."""

REFUSED_IN_A_SERVICE: Final = {
    "reset_scores": "--reset-scores would forget the scores at every start of the service; "
    "run 'clowder host --reset-scores' once by hand instead",
    "new_night": "--new-night would start tonight's standings afresh at every start of the "
    "service (a restart too); leave it out",
}

SAFE_WORD: Final = re.compile(r"^[A-Za-z0-9_@+=:,./-]+$")


def systemd_word(word: str) -> str:
    """``word`` as one word of a systemd ``ExecStart=`` (systemd.service(5), "Command lines"):
    quoted when it holds anything but plain characters, with ``%`` (a specifier) and ``$``
    (a variable) doubled so that they stay what they are."""
    if any(ord(char) < 32 or ord(char) == 127 for char in word):
        raise UsageError(f"{word!r} has a control character: it cannot go in a systemd unit")
    if SAFE_WORD.match(word):
        return word
    quoted = word.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + quoted.replace("%", "%%").replace("$", "$$") + '"'


def this_clowder() -> Path:
    """The absolute path of this installation's ``clowder`` command: beside the interpreter
    that runs it (a venv's or pipx's ``bin/``, or ``/usr/local/bin``), else the script this
    process was started as. Not resolved: a venv's ``bin/python`` is a link that must stay
    one, or the venv is lost."""
    beside = Path(sys.executable).parent / "clowder"
    if beside.is_file() and os.access(beside, os.X_OK):
        return Path(os.path.abspath(beside))
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "clowder" and started.is_file():
        return Path(os.path.abspath(started))
    raise UsageError(
        "cannot find this installation's clowder command beside "
        f"{sys.executable}: install Clowder (pip install clowder-cards) and run its clowder"
    )


def host_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The ``clowder host`` flags that ``args`` differs from the defaults in, as words, in the
    parser's order; ``--bind`` and ``--port`` always (where the host listens is the first
    thing a reader of the unit looks for). Paths are made absolute (a service starts in
    ``/``)."""
    for dest, why in REFUSED_IN_A_SERVICE.items():
        if getattr(args, dest, False):
            raise UsageError(why)
    if getattr(args, "state_dir", None) is not None:
        raise UsageError(
            f"the service keeps its tables in its own StateDirectory= (/var/lib/"
            f"{STATE_DIRECTORY}); leave --state-dir out (copy an old state folder there)"
        )
    words = ["--bind", str(args.bind), "--port", str(args.port)]
    for action in parser._actions:
        if action.dest in NOT_REPEATED | {"bind", "port"} or not action.option_strings:
            continue
        flag = action.option_strings[-1] if action.option_strings[-1].startswith("--") else ""
        flag = flag or action.option_strings[0]
        value = getattr(args, action.dest, action.default)
        if isinstance(action, argparse._StoreTrueAction):
            if value:
                words.append(flag)
        elif isinstance(action, argparse._AppendAction):
            for item in value or []:
                words += [flag, str(item)]
        elif value is not None and value != action.default:
            shown = os.path.abspath(value) if isinstance(value, Path) else value
            words += [flag, f"{shown:g}" if isinstance(shown, float) else str(shown)]
    return words


def under_a_home(path: Path) -> bool:
    return any(path == root or root in path.parents for root in HOME_ROOTS)


def low_ports(args: argparse.Namespace) -> list[int]:
    """The ports under 1024 the host would listen on (they need a capability)."""
    ports = [args.port, getattr(args, "ssh", None), getattr(args, "web", None)]
    return [port for port in ports if isinstance(port, int) and 0 < port < 1024]


def unit_text(
    command: Sequence[str],
    *,
    version: str,
    made_by: str,
    home_user: str | None = None,
    low_ports: Iterable[int] = (),
    secrets: bool = False,
) -> str:
    """The unit file: ``command`` (the absolute ``clowder`` and the host's flags, unquoted)
    runs with ``--state-dir`` its ``StateDirectory=``. ``home_user``: this ``clowder`` lives
    under a home, so the service runs as that user with homes read-only; ``low_ports``:
    ports under 1024, for which the one capability that binds them is kept; ``secrets``: a
    password is on the command line (everyone on the machine can read a unit file)."""
    exec_start = " ".join(systemd_word(word) for word in command)
    exec_start += " --state-dir ${STATE_DIRECTORY}"
    ports = sorted(set(low_ports))
    lines = [
        f"# {UNIT_NAME}.service: Clowder's headless host (clowder-cards {version}) as a service.",
        f"# Made by: {made_by}",
        f"# Install: save it as /etc/systemd/system/{UNIT_NAME}.service, then",
        f"#   sudo systemctl daemon-reload && sudo systemctl enable --now {UNIT_NAME}",
        f"# Log: journalctl -u {UNIT_NAME} -f (journalctl -p warning: what went wrong)",
        f"# Stop: sudo systemctl stop {UNIT_NAME} (every table resumes at the next start;",
        "#   players are told the host is restarting and come back by themselves)",
        f"# Tables, scores and tonight's standings: /var/lib/{STATE_DIRECTORY}",
        f"#   (sudo clowder scores --state-dir /var/lib/{STATE_DIRECTORY})",
    ]
    if secrets:
        lines.append(
            "# This file holds a password (--ssh-password, --web-password): anyone on this "
            "machine can read it."
        )
    lines += [
        "",
        "[Unit]",
        "Description=Clowder host: card games for the LAN",
        "Wants=network-online.target",
        "After=network-online.target",
        "",
        "[Service]",
        "Type=exec",
        "# Where players join: --bind ADDRESS (0.0.0.0: every interface) and --port PORT.",
        f"ExecStart={exec_start}",
        f"StateDirectory={STATE_DIRECTORY}",
        "StateDirectoryMode=0700",
        "UMask=0077",
        "Restart=on-failure",
        "RestartSec=5",
        "# SIGTERM to the host alone: it tells every client, closes its SSH and web doors",
        "# (and their players' processes), writes what it has and exits 0.",
        "KillMode=mixed",
        "TimeoutStopSec=20",
        f"SyslogIdentifier={UNIT_NAME}",
        "",
        "# Sandbox: nothing but its state directory is writable, no privileges.",
    ]
    if home_user is None:
        lines += ["DynamicUser=yes", "ProtectHome=yes"]
    else:
        lines += [
            "# This clowder, or the Python it runs on, is under a home folder, which a user",
            "# of the service's own could not read: it runs as the user who made this unit,",
            "# homes read-only. Installed with the system's Python outside homes",
            "# (sudo /usr/bin/python3 -m venv /opt/clowder), it runs as a user of its own",
            "# (DynamicUser=yes, ProtectHome=yes).",
            f"User={home_user}",
            "ProtectHome=read-only",
        ]
    lines += [
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        "ProtectKernelTunables=yes",
        "ProtectKernelModules=yes",
        "ProtectControlGroups=yes",
        "RestrictSUIDSGID=yes",
        "RestrictNamespaces=yes",
        "LockPersonality=yes",
    ]
    if ports:
        listed = ", ".join(str(port) for port in ports)
        lines += [
            f"# Port {listed} is under 1024: the one capability that binds it, and no other.",
            "CapabilityBoundingSet=CAP_NET_BIND_SERVICE",
            "AmbientCapabilities=CAP_NET_BIND_SERVICE",
        ]
    else:
        lines += ["CapabilityBoundingSet=", "AmbientCapabilities="]
    lines += ["", "[Install]", "WantedBy=multi-user.target", ""]
    return "\n".join(lines)


def print_unit(parser: argparse.ArgumentParser, args: argparse.Namespace, *, version: str) -> None:
    """Print the unit for this installation and ``args`` (already checked by the host)."""
    clowder = this_clowder()
    flags = host_flags(parser, args)
    needed = [clowder, Path(sys.prefix), Path(sys.base_prefix)]
    if getattr(args, "ssh_keys", None) is not None:
        needed.append(Path(os.path.abspath(args.ssh_keys)))
    home_user = None
    if any(under_a_home(path) for path in needed):
        home_user = pwd.getpwuid(os.getuid()).pw_name
    made_by = shlex.join(["clowder", "host", *flags, "--print-systemd-unit"])
    secrets = args.ssh_password is not None or args.web_password is not None
    print(
        unit_text(
            [str(clowder), "host", *flags],
            version=version,
            made_by=made_by,
            home_user=home_user,
            low_ports=low_ports(args),
            secrets=secrets,
        ),
        end="",
    )
