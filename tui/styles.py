"""Where the ``.tcss`` style files live, in a module of its own.

The lobby needs only this path; importing it from :mod:`tui.screens.table`
would load every table widget (and the network modules they use) before the
lobby is drawn.
"""

from __future__ import annotations

from pathlib import Path

TCSS_DIR = Path(__file__).resolve().parent
"""Where the ``.tcss`` style files live (``tui/``, shipped as package data)."""
