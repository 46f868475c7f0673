"""A checkbox that says ticked or not in its characters, not only in a colour.

Textual's :class:`~textual.widgets.Checkbox` draws ``▐X▌`` both ways and tells them
apart by the ``X``'s colour alone: on a terminal with few colours, a phone's browser or
to a colour-blind player, an unticked box looked ticked (issue 36, item 10). This one
draws ``[x]`` and ``[ ]``.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox

TICKED = "[x]"
UNTICKED = "[ ]"


class TickBox(Checkbox):
    """A :class:`~textual.widgets.Checkbox` drawn ``[x]`` when ticked and ``[ ]`` when not."""

    DEFAULT_CSS = """
    TickBox {
        & > .toggle--button { color: $foreground; background: transparent; }
        &.-on > .toggle--button { color: $text-success; background: transparent; }
        &:ansi > .toggle--button { color: ansi_default; text-style: not dim; }
    }
    """

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.styled(TICKED if self.value else UNTICKED, style)
