"""The headless host's log: one event a line, each with a level, in the form its reader needs.

``clowder host`` runs in a terminal someone watches, or as a service whose
output goes to the system journal, a pipe or a file. Each wants something
else, so the form follows where stdout goes (and ``--log-format``):

- a terminal: ``HH:MM:SS line``, a warning or an error marked by its level in
  colour (unless ``NO_COLOR``), and the QR code of the web address for phones;
- the systemd journal (``JOURNAL_STREAM`` names stdout): ``<N>level: line``,
  where journald turns ``<N>`` into the entry's priority (so ``journalctl -p
  warning`` finds the warnings) and stamps the time itself;
- anything else (a pipe, a file): ``2025-11-27T21:04:05+01:00 level: line``;
- ``--log-format json``: one JSON object a line, ``{"time", "level",
  "message"}`` and ``"table"`` when the event is a table's; under journald with
  the same ``<N>`` prefix, which journald strips.

Outside a terminal there are no colour codes and no QR half-blocks unless
asked (``--qr``); the addresses to join are always plain text.

The host's rooms (``net``) log plain sentences with no level: a level is given
here, from the wording (:func:`level_of`), so ``net`` stays free of how a
command prints. A sentence saying the host failed at something (a bug, a file
not saved) is an ``error``; one about a newcomer refused, a client dropped, a
file set aside or a door that could not open is a ``warning``; the rest
(joins, starts, results) is ``info``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Final, Literal, TextIO

Level = Literal["info", "warning", "error"]
LEVELS: Final[tuple[Level, ...]] = ("info", "warning", "error")
FORMATS: Final = ("text", "json")

SYSLOG_PRIORITY: Final[dict[Level, int]] = {"info": 6, "warning": 4, "error": 3}
"""sd-daemon(3)'s prefixes: journald reads ``<6>`` as info, ``<4>`` warning, ``<3>`` error."""

COLOURS: Final[dict[Level, str]] = {"warning": "\x1b[33m", "error": "\x1b[31m"}
RESET: Final = "\x1b[0m"

TABLE_LINE: Final = re.compile(r"^\[(?P<table>[A-Za-z0-9_-]{1,32})\] ")
"""A table's event: ``[t3] Ann sits at seat 1 (...)`` (net.core.table, net.core.host)."""

PROTOCOL_LINE: Final = re.compile(r"^\S+: (?P<code>[a-z_]+): ")
"""A connection refused or closed by the host: ``198.18.0.2:50312: host_full: ...``."""

ERROR_WORDS: Final = (
    "bug: ",
    "cannot host",
    "not saved",
    "could not be set aside",
    "could not be renamed",
    "could not be applied",
    "could not settle",
    "could not start",
    " failed: ",
)
"""Wording of the sentences that say the host failed at something (net's log lines)."""

WARNING_WORDS: Final = (
    "refused",
    "cannot open table",
    "not advertised",
    "dropping it",
    "could not be read",
    "damaged",
    "did not log in",
    "too many",
    "not in the keys file",
    "cut a connection",
    "closed the connection of",
    "its client said",
    "wins are counted as before",
)
"""Wording of the sentences about something that went wrong around the host, not in it."""

TABLE_ERROR_WORDS: Final = ("could not",)
TABLE_WARNING_WORDS: Final = ("was refused",)
"""A table's events quote the games (a challenge that "failed", a word "refused" by the
rules): only these words of the host's own make one a warning or an error."""


def level_of(line: str) -> Level:
    """The level of one of the host's log sentences, from its wording (module docstring)."""
    lowered = line.lower()
    if TABLE_LINE.match(line):
        if any(word in lowered for word in TABLE_ERROR_WORDS):
            return "error"
        if any(word in lowered for word in TABLE_WARNING_WORDS):
            return "warning"
        return "info"
    protocol = PROTOCOL_LINE.match(line)
    if protocol is not None:
        from net.wire.messages import ERRORS

        code = protocol.group("code")
        if code == "internal_error":
            return "error"
        if code in ERRORS:
            return "warning"
    if any(word in lowered for word in ERROR_WORDS):
        return "error"
    if any(word in lowered for word in WARNING_WORDS):
        return "warning"
    return "info"


def journal_stream(stream: TextIO) -> bool:
    """Whether ``stream`` is connected to the systemd journal: ``JOURNAL_STREAM`` (set by
    systemd for a service's stdout and stderr) names its device and inode, as
    systemd.exec(5) says to check; a variable inherited by a process whose output went
    elsewhere names another file."""
    named = os.environ.get("JOURNAL_STREAM", "")
    device, _, inode = named.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return False
    return (status.st_dev, status.st_ino) == (int(device), int(inode))


def is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


class HostLog:
    """Writes the host's events to ``stream`` (default: stdout) in the form its reader needs
    (see the module docstring); ``now`` fixes the wall-clock time of every line (tests)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        log_format: str = "text",
        qr: bool | None = None,
        now: float | None = None,
    ) -> None:
        if log_format not in FORMATS:
            raise ValueError(f"unknown log format {log_format!r} (choose text or json)")
        self.stream = stream if stream is not None else sys.stdout
        self.format = log_format
        self.terminal = is_terminal(self.stream)
        self.journal = not self.terminal and journal_stream(self.stream)
        self.colour = self.terminal and not os.environ.get("NO_COLOR")
        self.qr = self.terminal and log_format == "text" if qr is None else qr
        """Whether the web address's QR code is drawn: on a terminal, or when asked."""
        self._now = now

    def _time(self) -> float:
        return time.time() if self._now is None else self._now

    def __call__(self, line: str, level: Level | None = None) -> None:
        """Log one event (``level``: from its wording when not given)."""
        self.write(line, level or level_of(line))

    def write(self, line: str, level: Level, extra: dict[str, object] | None = None) -> None:
        # One event, one line: a sentence with a newline in it (a client's error output
        # quoted) is folded, so a reader that splits on lines sees one event.
        line = " / ".join(part for part in line.splitlines() if part.strip()) or line.strip()
        moment = self._time()
        if self.format == "json":
            record: dict[str, object] = {
                "time": iso_time(moment, milliseconds=True),
                "level": level,
                "message": line,
            }
            table = TABLE_LINE.match(line)
            if table is not None:
                record["table"] = table.group("table")
            record.update(extra or {})
            text = json.dumps(record, ensure_ascii=False)
            if self.journal:
                text = f"<{SYSLOG_PRIORITY[level]}>{text}"
        elif self.terminal:
            clock = time.strftime("%H:%M:%S", time.localtime(moment))
            if level == "info":
                text = f"{clock} {line}"
            elif self.colour:
                text = f"{clock} {COLOURS[level]}{level}:{RESET} {line}"
            else:
                text = f"{clock} {level}: {line}"
        elif self.journal:
            text = f"<{SYSLOG_PRIORITY[level]}>{level}: {line}"
        else:
            text = f"{iso_time(moment)} {level}: {line}"
        print(text, file=self.stream, flush=True)

    def picture(self, line: str, rows: Sequence[str], level: Level = "info") -> None:
        """Log ``line`` and, when QR codes are drawn (:attr:`qr`), the picture ``rows`` under it
        (in JSON, as the event's ``"qr"`` list). The picture is a help for a person at a
        terminal: in a journal or a file it is noise, so it is left out unless asked."""
        if not self.qr or not rows:
            self.write(line, level)
            return
        if self.format == "json":
            self.write(line, level, {"qr": list(rows)})
            return
        self.write(line, level)
        for row in rows:
            print(f"    {row}", file=self.stream, flush=True)


def iso_time(moment: float, *, milliseconds: bool = False) -> str:
    """``2025-11-27T21:04:05+01:00`` (local time with its offset, RFC 3339), or with ``.123``
    after the seconds: sortable, and unambiguous across a change of summer time."""
    local = datetime.fromtimestamp(moment).astimezone()
    return local.isoformat(timespec="milliseconds" if milliseconds else "seconds")
