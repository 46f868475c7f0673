"""Private network namespaces for tests and benchmarks that use multicast.

Why this exists: mDNS discovery sends multicast, and nothing may leave this
machine. The CI runs the whole suite inside ``unshare -n``, but a developer
may run pytest directly, so every test that touches multicast runs its mDNS
code only inside namespaces it makes here. Two shapes are offered:

- :class:`MiniLan`: a small simulated LAN, as ``../shared/tools/lan-sim``
  builds it. A holder process lives in a private mount and network namespace
  (so ``/run/netns`` can be a private tmpfs and nothing leaks to the real
  system); in it a bridge ``lan0`` and machines ``h1..hN``, each with one
  ``eth0`` at ``198.18.0.K/24``. Commands run on machine K through
  ``nsenter`` (into the holder's namespaces) and ``ip netns exec hK``.
- :func:`spawn_loopback_only`: a fresh ``unshare -n`` namespace with only
  ``lo`` up (no multicast flag, no multicast route), the bare shape of the
  CI's outer namespace.

Everything disappears when the holder exits; the holder exits by itself when
its stdin closes, so a crashed test run leaves nothing behind.

Needs root (``unshare``, ``nsenter``, ``ip``); :func:`unavailable_reason`
says in a sentence why not, for ``pytest.skip``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

REPO_ROOT = Path(__file__).resolve().parents[2]
"""The checkout, put on ``PYTHONPATH`` so ``net`` and ``engine`` import inside namespaces."""

SUBNET_PREFIX = "198.18.0."
"""Machine K of a :class:`MiniLan` has ``eth0`` at ``198.18.0.K`` (RFC 2544 test range)."""

_SETUP_LAN = r"""
set -e
n=$1
mkdir -p /run/netns
mount -t tmpfs tmpfs /run/netns
ip link set lo up
ip link add lan0 type bridge
ip link set lan0 up
i=1
while [ "$i" -le "$n" ]; do
  ip netns add "h$i"
  ip link add "veth$i" type veth peer name eth0 netns "h$i"
  ip link set "veth$i" master lan0 up
  ip -n "h$i" link set lo up
  ip -n "h$i" addr add "198.18.0.$i/24" dev eth0
  ip -n "h$i" link set eth0 up
  i=$((i + 1))
done
echo ready
read -r _ || true
"""


class NamespaceError(RuntimeError):
    """A namespace could not be built; the message says which step failed and why."""


@functools.cache
def unavailable_reason() -> str | None:
    """Why private network namespaces cannot be made here, or None if they can.

    Tried once per process: a real ``unshare -m -n`` run, since being root is
    not enough inside some containers.
    """
    for tool in ("unshare", "nsenter", "ip"):
        if shutil.which(tool) is None:
            return f"the {tool!r} command is missing, so no private network namespace can be made"
    try:
        probe = subprocess.run(
            ["unshare", "-m", "-n", "--propagation", "private", "true"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unshare could not run ({error}); private network namespaces need root"
    if probe.returncode != 0:
        detail = probe.stderr.strip() or f"exit status {probe.returncode}"
        return f"unshare -m -n was refused ({detail}); private network namespaces need root"
    return None


def python_command(code: str) -> list[str]:
    """The argv that runs ``code`` with this interpreter (the project's venv)."""
    return [sys.executable, "-c", code]


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    existing = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + existing if existing else "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _popen(argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    options: dict[str, Any] = {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "text": True,
        "cwd": REPO_ROOT,
        "env": _child_env(),
    }
    options.update(kwargs)
    return subprocess.Popen(list(argv), **options)


def spawn_loopback_only(argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
    """Start ``argv`` in a fresh network namespace holding only ``lo`` (up).

    The loopback interface keeps the kernel's defaults: no MULTICAST flag and
    no multicast route, like a bare ``unshare -n``. Pipes are text mode; the
    caller owns the process (wait for it, or kill it).
    """
    script = 'ip link set lo up && exec "$@"'
    return _popen(["unshare", "-n", "sh", "-c", script, "loopback-only", *argv], **kwargs)


class MiniLan:
    """N simulated machines on a private bridge; run commands on machine K.

    Use as a context manager; leaving it kills every process it started and
    tears the LAN down::

        with MiniLan(2) as lan:
            host = lan.spawn(1, python_command("..."))
    """

    def __init__(self, machines: int) -> None:
        if not 1 <= machines <= 250:
            raise ValueError(f"a mini LAN has 1 to 250 machines, not {machines}")
        self.machines = machines
        self._holder: subprocess.Popen[str] | None = None
        self._children: list[subprocess.Popen[str]] = []

    def address(self, machine: int) -> str:
        """The IPv4 address of machine K's ``eth0``."""
        self._check_machine(machine)
        return f"{SUBNET_PREFIX}{machine}"

    def start(self) -> None:
        """Build the LAN; raises :class:`NamespaceError` with the reason if it cannot."""
        reason = unavailable_reason()
        if reason is not None:
            raise NamespaceError(reason)
        holder = _popen(
            [
                "unshare",
                "-m",
                "-n",
                "--propagation",
                "private",
                "sh",
                "-c",
                _SETUP_LAN,
                "mini-lan",
                str(self.machines),
            ]
        )
        self._holder = holder
        assert holder.stdout is not None
        line = holder.stdout.readline()
        if line.strip() != "ready":
            if holder.poll() is None:
                holder.kill()
            assert holder.stderr is not None
            errors = holder.stderr.read().strip()
            self.close()
            raise NamespaceError(f"building the mini LAN failed: {errors or line.strip()}")

    def spawn(self, machine: int, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[str]:
        """Start ``argv`` on machine K (its own network namespace ``hK``).

        Pipes are text mode (stdin, stdout, stderr) unless overridden. The
        process is killed when the LAN closes, if it is still running.
        """
        self._check_machine(machine)
        if self._holder is None or self._holder.poll() is not None:
            raise NamespaceError("the mini LAN is not running (call start() or use 'with')")
        command = [
            "nsenter",
            "-t",
            str(self._holder.pid),
            "-m",
            "-n",
            f"--wd={REPO_ROOT}",
            "ip",
            "netns",
            "exec",
            f"h{machine}",
            *argv,
        ]
        child = _popen(command, **kwargs)
        self._children.append(child)
        return child

    def close(self) -> None:
        """Kill what is still running on the LAN, then let the holder exit."""
        for child in self._children:
            if child.poll() is None:
                child.kill()
            _drain(child)
        self._children.clear()
        holder = self._holder
        if holder is None:
            return
        self._holder = None
        if holder.poll() is None:
            _close_quietly(holder.stdin)
            try:
                holder.wait(timeout=10)
            except subprocess.TimeoutExpired:
                holder.kill()
        _drain(holder)

    def _check_machine(self, machine: int) -> None:
        if not 1 <= machine <= self.machines:
            raise ValueError(f"this LAN has machines 1..{self.machines}, not {machine}")

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _close_quietly(stream: IO[str] | None) -> None:
    if stream is not None:
        with contextlib.suppress(OSError):
            stream.close()


def _drain(process: subprocess.Popen[str]) -> None:
    """Reap a finished process and close its pipes (no ResourceWarning)."""
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        _close_quietly(stream)


class ChildFailed(RuntimeError):
    """A child process ended, or went quiet, before saying what was expected."""


class LineReader:
    """Reads a child's stdout lines on a thread, so waiting for one can time out.

    A plain ``readline()`` on a pipe blocks forever if the child hangs; tests
    must fail with a message instead.
    """

    def __init__(self, process: subprocess.Popen[str]) -> None:
        if process.stdout is None:
            raise ValueError("the process needs stdout=PIPE")
        self.process = process
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._pump, args=(process.stdout,), daemon=True)
        self._thread.start()

    def _pump(self, stream: IO[str]) -> None:
        with contextlib.suppress(ValueError, OSError):
            for line in stream:
                self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def next(self, timeout_s: float) -> str:
        """The next line; ChildFailed (with the child's stderr) if it ends or stays quiet."""
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            raise ChildFailed(f"no output for {timeout_s} s{self._stderr_tail()}") from None
        if line is None:
            self._lines.put(None)
            raise ChildFailed(f"the process ended early{self._stderr_tail()}")
        return line

    def _stderr_tail(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        with contextlib.suppress(ValueError, OSError):
            errors = self.process.stderr.read().strip()
            if errors:
                return ":\n" + errors[-3000:]
        return ""
