"""Every table screen's prompts name a key that really leaves it."""

from __future__ import annotations

from textual.binding import Binding

from engine import registry
from tui.games import screen_class


def test_every_table_screen_binds_the_leave_key_its_prompts_name() -> None:
    for name in registry.names():
        screen = screen_class(name)
        keys = {
            binding.key
            for cls in screen.__mro__
            for binding in getattr(cls, "BINDINGS", [])
            if isinstance(binding, Binding) and binding.action == "leave"
        }
        assert screen.leave_key in keys, f"{name}: prompts say {screen.leave_key}, bound: {keys}"
    # Letters are typed there, so a sign leaves: a plain key a phone's keyboard has (ctrl+x too).
    assert screen_class("kiitos").leave_key == "<"
