"""Reading an action map: its ``type`` and its fields, refused with :class:`InvalidAction`
and a sentence when malformed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from engine.core.errors import InvalidAction
from engine.core.state import Action

T = TypeVar("T")


def action_type(action: Any, allowed: Iterable[str]) -> str:
    """The ``type`` of ``action``, checked against the types legal in this game."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise InvalidAction("An action is a map with a 'type' field")
    kind = action.get("type")
    if type(allowed) is not tuple:
        allowed = list(allowed)
    if kind not in allowed:
        raise InvalidAction(f"Unknown action {kind!r}; this game has {', '.join(allowed)}")
    return str(kind)


def action_field(action: Action, name: str, kind: type[T]) -> T:
    """A required field of ``action`` with the expected type."""
    value = action.get(name)
    if isinstance(value, bool) and kind is not bool:
        value = None
    if not isinstance(value, kind):
        raise InvalidAction(f"The {action.get('type')!r} action needs {name!r} ({kind.__name__})")
    return value
