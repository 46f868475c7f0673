"""Reading an action map (engine/core/actions.py)."""

from __future__ import annotations

import pytest

from engine.core import (
    InvalidAction,
    action_field,
    action_type,
)


def test_action_helpers_explain_malformed_actions() -> None:
    assert action_type({"type": "play"}, ["play"]) == "play"
    with pytest.raises(InvalidAction, match="a map"):
        action_type(["play"], ["play"])
    with pytest.raises(InvalidAction, match="Unknown action 'x'"):
        action_type({"type": "x"}, ["play"])
    assert action_field({"type": "play", "n": 2}, "n", int) == 2
    with pytest.raises(InvalidAction, match="needs 'n'"):
        action_field({"type": "play", "n": True}, "n", int)
