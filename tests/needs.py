"""A test that needs something a newcomer's machine may lack (a browser, node, a tool).

There it is skipped, saying what to install. Under CI (``CI=true``, as .ci/run sets) it
fails instead: .ci/run installs all of it, so a skip there would hide a test that never ran.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def lacking(skip_reason: str, ci_failure: str) -> NoReturn:
    """Skip the calling test with ``skip_reason``; under CI, fail it with ``ci_failure``."""
    if under_ci():
        pytest.fail(ci_failure, pytrace=False)
    pytest.skip(skip_reason)
