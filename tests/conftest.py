"""Suite-wide rules: every asynchronous test's leftover tasks end within seconds of being
cancelled, or the test fails naming them.

pytest-asyncio cancels whatever a test left running when it closes the test's event loop,
and then waits for those tasks without a limit. A task that ignores its cancellation (a
client reconnecting every 5 s after its host is gone, because a cancel was swallowed) used
to hold a worker until pytest-timeout's 120 s, far from the code at fault. Here each such
task is cancelled first, given :data:`TEARDOWN_S`, and named with where it is stuck.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from tui import collector

TEARDOWN_S = 5.0
"""How long a test's leftover tasks get to end once cancelled."""

BOUNDED_TEARDOWN = "_leftover_tasks_end_when_cancelled"


def describe_stuck(task: asyncio.Task[object]) -> str:
    """A task's name, its coroutine and the line it waits on."""
    frames = task.get_stack(limit=4)
    where = " <- ".join(f"{frame.f_code.co_filename}:{frame.f_lineno}" for frame in frames)
    return f"{task.get_name()} ({task.get_coro()!r}) at {where or 'an unknown place'}"


async def cancel_leftovers(timeout_s: float = TEARDOWN_S) -> list[str]:
    """Cancel every task of this loop but the caller's; those still running after
    ``timeout_s``, described (empty: all ended)."""
    current = asyncio.current_task()
    left = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in left:
        task.cancel()
    if not left:
        return []
    _done, pending = await asyncio.wait(left, timeout=timeout_s)
    return [describe_stuck(task) for task in pending]


@pytest.fixture
async def _leftover_tasks_end_when_cancelled() -> AsyncIterator[None]:
    yield
    stuck = await cancel_leftovers()
    if stuck:
        pytest.fail(
            f"{len(stuck)} task(s) still ran {TEARDOWN_S:g} s after being cancelled:\n"
            + "\n".join(stuck),
            pytrace=False,
        )


def pytest_configure(config: pytest.Config) -> None:
    """No settling of the cycle collector at each table (:mod:`tui.collector`): a worker
    draws hundreds of tables, and each settle would walk the worker's whole heap."""
    collector.enabled = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker more than the cores this process may
    use. About a third of the suite's time is waiting, not computing (Pilot's pauses, hosts
    and browsers in other processes, sockets): on 2 cores, 3 workers ran it in 208 s where
    2 took 269 s, the same tests passing."""
    del config
    if hasattr(os, "sched_getaffinity"):  # Linux: the cores this process may run on
        return len(os.sched_getaffinity(0)) + 1
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every coroutine test the bounded teardown, set up before its own fixtures so
    that it runs after their teardown (a fixture's server closes itself first)."""
    for item in items:
        function = getattr(item, "function", None)
        names = getattr(item, "fixturenames", None)
        if inspect.iscoroutinefunction(function) and names is not None:
            names.insert(0, BOUNDED_TEARDOWN)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test (its fixtures torn down too), collect what it left and freeze the
    rest out of the cycle collector's way (:func:`gc.freeze`).

    Why: a worker holds half a million objects once warm (every module, the engines'
    word lists, Textual's process-wide caches of strips), and each test's app makes
    enough survivors that nearly every test triggered a full collection walking all of
    them, 200-300 ms each. Measured on two of the suite's heaviest files: the cycle
    collector took 14-16 s of 36 s of CPU; with this, 3 s of 22 s, peak memory the same
    (169 MiB). A collection here walks only what the finished test made. Its garbage
    goes first, so nothing of a test is frozen but what outlives it anyway.
    """
    del item, nextitem
    yield
    gc.collect()
    gc.freeze()
