"""Work a screen does once it has drawn: on that screen's own queue.

Textual's ``call_after_refresh`` hands its callback to the screen *on top* when the
request is handled, and a dialog opened then and closed before its next frame takes the
callback away unrun: Kitten Me!'s reveal box, closed by a key as it opened, lost the
coach's lines for that call. Here the callback waits on the screen that asked, and runs
after that screen's next refresh (or at its next idle moment while a dialog covers it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen


def after_own_refresh(screen: Screen[Any], callback: Callable[[], None]) -> None:
    """Call ``callback`` once ``screen`` has drawn what is pending (see the module doc)."""
    screen._invoke_later(callback, screen)  # Textual's own queue for after a refresh
