"""Named looks read from the stylesheet, so Rich text drawn in code takes its colours from CSS.

A widget that draws :class:`rich.text.Text` itself declares component classes
(``PREFIX--NAME``) styled in its ``DEFAULT_CSS`` or a game's ``.tcss`` file with
theme variables (``$text-warning``, ``$text-muted``...), and reads them back as
a :class:`Look`. Colours then follow the theme, and the stylesheet is the one
place to check that they still read in a 16-colour terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rich.style import Style
from textual.widget import Widget


@dataclass(frozen=True, slots=True)
class Look:
    """Styles by name (an unknown name, or the empty default used by tests, is plain)."""

    styles: Mapping[str, Style] = field(default_factory=dict)

    def __call__(self, name: str) -> Style:
        return self.styles.get(name, Style())


PLAIN = Look()


def component_classes(prefix: str, names: Iterable[str]) -> set[str]:
    """The component class names for ``names`` (``{"scores--turn", ...}``)."""
    return {f"{prefix}--{name}" for name in names}


def component_style(widget: Widget, name: str) -> Style:
    """One component style, with a background only if the stylesheet gives it one.

    Textual's full style paints the widget's own background under every
    character, which shows as a band when the text lands on another background
    (a ``Static`` drawn with the screen's looks, an ANSI theme's default
    background); its colour is the one worth keeping (``$text-muted`` is
    worked out against that background).
    """
    full = widget.get_component_rich_style(name)
    own = widget.get_component_rich_style(name, partial=True)
    return own.without_color + Style(color=full.color, bgcolor=own.bgcolor)


def read_look(widget: Widget, prefix: str, names: Iterable[str]) -> Look:
    """``widget``'s component styles ``PREFIX--NAME`` (cached by Textual until the CSS changes)."""
    return Look({name: component_style(widget, f"{prefix}--{name}") for name in names})


def read_full_look(widget: Widget, prefix: str, names: Iterable[str]) -> Look:
    """Like :func:`read_look`, with Textual's full styles (the widget's background included)."""
    return Look({name: widget.get_component_rich_style(f"{prefix}--{name}") for name in names})
