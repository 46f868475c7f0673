"""Fixtures for the browser tests: ``browser``, a headless Chromium for one test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest

from tests.web.browser import chromium

if TYPE_CHECKING:
    from playwright.async_api import Browser


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium (Debian's), closed after the test; the test skips where there
    is none, and fails under CI (see ``tests.web.browser.require_browser``)."""
    async with chromium() as launched:
        yield launched
