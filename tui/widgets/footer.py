"""The tables' footer (and the lobby's and dialogs'): the keys offered now, drawn as one
line that changes in place, with as many whole keys as fit.

Textual's ``Footer`` makes all its keys again whenever the screen's bindings
change: it removes every key widget, mounts new ones (each styled from the
stylesheet again) and lays the whole screen out, a frame after the change.
A table whose footer follows the legal moves (Kitten Me! offers ``c`` only
when a challenge is legal) changes it at most turns, and that was the largest
part of drawing such a view.

:class:`TableFooter` keeps ``Footer``'s key widgets, hidden, for their looks
only (each key's text comes from its own ``render``, with its styles, dimmed
when disabled, and its compact margin), and draws them itself, side by side
on its one line: a change of keys repaints that line, in the frame of the
view that changed them, with no new layout. A key widget is mounted only when
more keys are offered than it ever showed. A click on a key presses it, as
on ``Footer``'s own keys; what it does not do is light a key under the mouse.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.strip import Strip
from textual.style import Style
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tui.widgets.lines import TextLines, line_strip

if TYPE_CHECKING:
    from textual.screen import Screen

MAX_KEY_STRIPS = 128
"""Keys drawn that a footer keeps; more and it starts afresh (a table offers a dozen)."""

KeySpec = tuple[str, str, str, str, bool, str]
"""One key as the footer shows it: key, its display, description, action, dimmed, tooltip."""


class TableFooter(Footer, TextLines):
    """A ``Footer`` whose keys follow the bindings without being made again.

    (``Footer`` first: Textual takes a widget's stylesheet and type names from its first
    base only.)"""

    DEFAULT_CSS = """
    TableFooter FooterKey { display: none; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: list[KeySpec] | None = None
        """The keys on the line now (``None``: none drawn yet)."""
        self._spans: list[tuple[int, int, FooterKey]] = []
        """Where each key is on the line: (first cell, cell after its last, its widget)."""
        self._key_strips: dict[tuple[object, ...], Strip] = {}
        """Each key as drawn, by what it shows, its styles' state and the footer's style: a
        view that changes the keys offered draws the line again, and making each key's
        text was most of it (half a millisecond a Catchy! footer)."""

    def compose(self) -> Any:
        """No keys at first: :meth:`bindings_changed` mounts them (hidden) as needed."""
        yield from ()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if not (self.is_attached and screen is self.screen):
            return
        wanted = self._wanted()
        if wanted != self._shown:
            self._follow(wanted)

    def _wanted(self) -> list[KeySpec]:
        """The keys ``Footer.compose`` would show now, in its order (one per action)."""
        by_action: defaultdict[str, list[KeySpec]] = defaultdict(list)
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show:
                by_action[binding.action].append(
                    (
                        binding.key,
                        self.app.get_key_display(binding),
                        binding.description,
                        binding.action,
                        not enabled,
                        tooltip,
                    )
                )
        return [specs[0] for specs in by_action.values()]

    def _follow(self, wanted: list[KeySpec]) -> None:
        self._shown = wanted
        keys = self._keys()
        for key, spec in zip(keys, wanted, strict=False):
            _respec(key, spec)
        extra = [
            FooterKey(*spec[:4], disabled=spec[4], tooltip=spec[5]).data_bind(
                compact=Footer.compact
            )
            for spec in wanted[len(keys) :]
        ]
        if extra:
            self.mount_all(extra)  # drawn once mounted (styled)
        self.refresh()

    def _keys(self) -> list[FooterKey]:
        return [child for child in self.children if isinstance(child, FooterKey)]

    def render(self) -> Text:
        """The keys offered, each as its widget draws itself, and its margin after it: as
        many whole keys as fit (the rest are in ``?``'s list)."""
        line = Text(no_wrap=True, overflow="crop")
        spans: list[tuple[int, int, FooterKey]] = []
        width = self.size.width
        for key in self._drawn_keys():
            drawn = key.render()
            if line.cell_len + drawn.cell_len > width:
                break  # no key cut in half: "l learn a" read as a key of its own
            start = line.cell_len
            line.append_text(drawn)
            spans.append((start, line.cell_len, key))
            line.append(" " * key.styles.margin.right)
        self._spans = spans
        if line.cell_len > width:
            line.truncate(width)  # only the last key's margin
        return line

    def _make_lines(self, base: Style) -> list[Strip] | None:
        """The line as ``Footer`` draws it: each key as its widget draws itself, then its
        margin in the footer's background alone (no colour of its own), as Textual fills a
        margin; as many whole keys as fit, as :meth:`render`."""
        margin = base.background_style.rich_style
        console = self.app.console
        width = self.size.width
        segments: list[Segment] = []
        spans: list[tuple[int, int, FooterKey]] = []
        x = 0
        strips = self._key_strips
        if len(strips) > MAX_KEY_STRIPS:
            strips.clear()
        for key in self._drawn_keys():
            look = (x, _spec(key), key.compact, base, *_styles_state(key))
            drawn = strips.get(look)
            if drawn is None:
                drawn = strips[look] = line_strip(key.render(), base, 0, console, x)
            if x + drawn.cell_length > width:
                break
            segments.extend(drawn)
            spans.append((x, x + drawn.cell_length, key))
            x += drawn.cell_length
            if key.styles.margin.right:
                segments.append(Segment(" " * key.styles.margin.right, margin))
                x += key.styles.margin.right
        self._spans = spans
        return [Strip(segments).crop(0, width)]

    @property
    def drawn(self) -> list[FooterKey]:
        """The keys drawn on the line now, each whole, left to right (the rest did not fit,
        or are not offered)."""
        return [key for _start, _end, key in self._spans]

    def _drawn_keys(self) -> list[FooterKey]:
        """The key widgets of the keys offered now, in order (mounted ones: drawn)."""
        count = len(self._shown or [])
        return [key for key in self._keys()[:count] if key.is_mounted]

    def on_mouse_down(self, event: events.MouseDown) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                key.on_mouse_down()  # presses it (a bell if it is dimmed)
                return

    def on_mount(self) -> None:
        # Not super().on_mount(): Textual calls each class's own on_mount in turn, so
        # ``Footer``'s subscribes to the bindings too; calling it here subscribed twice,
        # and every change of the keys was followed twice (a third of a millisecond a view).
        self.call_after_refresh(self.refresh)  # keys mounted before the first frame
        self.watch(self.app, "app_focus", self._app_focused, init=False)

    def _app_focused(self, focused: bool) -> None:
        """The window has the focus again: show the keys offered now. While it had none the
        footer did not follow them (as Textual's own does not), and Textual tells a screen
        its bindings changed on a focus come back only when a widget takes the focus again:
        a table that came meanwhile (a browser's tab in the background) kept an empty
        footer, with no ``?`` (issue 36's LAN walk-through), until its keys changed."""
        if focused and self.is_attached and self.screen is self.app.screen:
            self.bindings_changed(self.screen)


def _spec(key: FooterKey) -> KeySpec:
    tooltip = key.tooltip if isinstance(key.tooltip, str) else ""
    return (key.key, key.key_display, key.description, key.action, key._disabled, tooltip)


def _styles_state(key: FooterKey) -> tuple[int, ...]:
    """What changes whenever ``key``'s looks may (its own styles and its parts': a class, a
    theme)."""
    return (
        key.styles._cache_key,
        key.get_component_styles("footer-key--key")._cache_key,
        key.get_component_styles("footer-key--description")._cache_key,
    )


def _respec(key: FooterKey, spec: KeySpec) -> None:
    """Make the (hidden) key widget ``key`` show ``spec``."""
    if _spec(key) == spec:
        return
    name, display, description, action, disabled, tooltip = spec
    key.key, key.key_display, key.description, key.action = name, display, description, action
    key._disabled = disabled
    key.set_class(disabled, "-disabled")
    key.tooltip = tooltip or None
