"""The suite's bounded teardown (``tests/conftest.py``): a task that ignores its cancel is
named within seconds, not found by pytest-timeout two minutes later."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import BOUNDED_TEARDOWN, cancel_leftovers


async def test_a_task_that_ignores_its_cancel_is_named() -> None:
    stop = asyncio.Event()

    async def stubborn() -> None:
        while not stop.is_set():
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                continue  # the bug: a cancel swallowed, the loop goes on

    async def polite() -> None:
        await asyncio.sleep(60)

    tasks = [asyncio.create_task(stubborn(), name="stubborn")]
    tasks.append(asyncio.create_task(polite(), name="polite"))
    await asyncio.sleep(0)
    stuck = await cancel_leftovers(timeout_s=0.3)
    stop.set()
    await asyncio.wait(tasks)
    assert tasks[1].cancelled()
    assert len(stuck) == 1
    assert stuck[0].startswith("stubborn (<coroutine object") and "test_teardown.py:" in stuck[0]


async def test_every_coroutine_test_has_the_bounded_teardown(
    request: pytest.FixtureRequest,
) -> None:
    assert request.fixturenames[0] == BOUNDED_TEARDOWN


def test_plain_tests_do_not(request: pytest.FixtureRequest) -> None:
    assert BOUNDED_TEARDOWN not in request.fixturenames
