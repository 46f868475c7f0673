"""Scanning what a seat receives for cards it must not see (shared by secrecy tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def strings(value: Any) -> set[str]:
    """Every string inside a view, event or message (keys and values)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def mentions(value: Any, cards: Iterable[str], name_of: Callable[[str], str]) -> set[str]:
    """The ``cards`` named in ``value``: by code, or by name inside a sentence."""
    found = strings(value)
    text = " ".join(found)
    return {card for card in cards if card in found or name_of(card) in text}
