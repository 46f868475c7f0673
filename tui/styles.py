"""Where the ``.tcss`` style files live, in a module of its own.

The lobby needs only this path; importing it from :mod:`tui.screens.table`
would load every table widget (and the network modules they use) before the
lobby is drawn.
"""

from __future__ import annotations

from pathlib import Path

TCSS_DIR = Path(__file__).resolve().parent
"""Where the ``.tcss`` style files live (``tui/``, shipped as package data)."""

NARROW_BELOW = 64
"""Columns under which the lobby and the tables are laid out for a phone held upright
(``-narrow``, the class :data:`PHONE_BREAKPOINTS` gives a screen; the ``.tcss`` files
stack the panes)."""
PHONE_BREAKPOINTS: list[tuple[int, str]] = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
"""A screen's ``HORIZONTAL_BREAKPOINTS`` (Textual) for :data:`NARROW_BELOW`."""
