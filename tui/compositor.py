"""A frame renders only the widgets that changed, not every widget between them, and a
screen covered by an opaque one sends up nothing (:class:`QuietWhenCovered`).

Textual keeps the screen's changed regions between frames and, for a partial frame,
takes the one rectangle around all of them: every widget that rectangle touches
renders all of its lines, and only then are the changed lines picked out. At a table,
one view changes a few widgets far apart (Black Cat's card at the top, the log at the
side, the prompt at the bottom), so that rectangle is most of the screen, and each
frame went through nearly every widget's lines: about half of a view's drawing.

:class:`ChangedOnlyCompositor` gives that step only the widgets that touch a changed
region. What reaches the terminal is the same: the frame writes only the changed spans,
and every widget covering a cell of a changed span touches that span's region.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.screen import Screen, ScreenResultType
from textual.strip import Strip


class ChangedOnlyCompositor(Compositor):
    """A :class:`~textual._compositor.Compositor` whose partial frames render only the
    widgets overlapping a changed region (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._changed: list[Region] | None = None
        """While a partial frame is rendered: the regions that changed (a widget's
        ``clip`` is its container's visible region; the part of it shown is its
        ``region`` within that)."""

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        """Each widget to draw, front to back, with its region, its clip and its lines: in a
        partial frame, only those showing a part of a changed region."""
        changed = self._changed
        if changed is None:
            yield from super()._get_renders(crop)
            return
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)
            if not any(shown.overlaps(area) for area in changed):
                continue
            # the lines of the part shown, relative to the widget (as Textual asks for them)
            lines = Region(shown.x - region.x, shown.y - region.y, shown.width, shown.height)
            yield region, clip, widget.render_lines(lines)

    def render_partial_update(self) -> ChopsUpdate | None:
        self._changed = [area.intersection(self.size.region) for area in self._dirty_regions]
        try:
            return super().render_partial_update()
        finally:
            self._changed = None


class QuietWhenCovered(Screen[ScreenResultType]):
    """A screen that sends nothing up while an opaque screen covers it.

    Textual counts the screen just under the top one as visible whatever the top one is
    (``App._background_screens`` looks at the opacity of the screens below, not of the one
    on top), so a change on a table under the results, the rules or the keys page made the
    page on top draw itself again whole: a full 80x24 frame for every view the table
    took meanwhile, each sent on to an SSH or web player. Under an opaque screen nothing of
    this one shows, so its changed regions are dropped; it is drawn whole when it is on top
    again (Textual repaints a resumed screen entirely). Under a see-through screen (a
    dialog over the table) it goes on as Textual does.
    """

    def _compositor_refresh(self) -> None:
        app = self.app
        top = app.screen
        if top is not self and not app.is_inline and top.styles.background.a >= 1:
            self._compositor._dirty_regions.clear()
            self._dirty_widgets.clear()
            return
        super()._compositor_refresh()
