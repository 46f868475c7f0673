"""Text from the network that must never reach a terminal raw.

A terminal obeys some characters instead of drawing them: C0 controls and
DEL (``ESC [2J`` clears the screen, ``ESC ]0;...BEL`` retitles the window,
``\\r`` overwrites a line), C1 controls (``U+009B`` is a one-character CSI on
many terminals), bidirectional controls (``U+202E`` reverses what follows,
so ``"Ann\\u202e"`` can make the next name read backwards) and line or
paragraph separators. Unassigned code points (including noncharacters) have
no agreed width or meaning, so a terminal may draw them as anything.

Two lines of defence use this one definition:

* the host refuses every client message whose texts (map keys included)
  hold such a character (:func:`find_unsafe`, called by
  :func:`net.wire.messages.parse` for client messages): a ``bad_field`` error;
* the TUI passes every network-supplied string through :func:`clean_text`
  before drawing it (host names and TXT fields from discovery, error
  messages, names), in case a host is older, buggy or hostile.

Everything else is allowed: any script, emoji (with their joiners and
variation selectors), private-use characters. Rich markup is not a concern
here: the TUI shows markup literally.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Final

BIDI_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""Unicode's Bidi_Control characters: marks, embeddings, overrides and isolates."""

UNSAFE_CATEGORIES: Final = frozenset({"Cc", "Cn", "Cs", "Zl", "Zp"})
"""General categories refused: controls (C0, DEL, C1), unassigned, surrogates, separators."""

REPLACEMENT: Final = "\ufffd"
"""What :func:`clean_text` draws in place of an unsafe character."""

_ASCII_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")
_WHITESPACE_CONTROLS = {"\t": " ", "\n": " ", "\r": " "}


def is_unsafe(char: str) -> bool:
    """Whether one character must not reach a terminal raw (see the module docstring)."""
    return char in BIDI_CONTROLS or unicodedata.category(char) in UNSAFE_CATEGORIES


def describe(char: str) -> str:
    """A short phrase naming an unsafe character, e.g. ``'U+001B (a control character)'``."""
    category = unicodedata.category(char)
    if char in BIDI_CONTROLS:
        kind = "a bidirectional control"
    elif category == "Cn":
        kind = "an unassigned code point"
    elif category in ("Zl", "Zp"):
        kind = "a line separator"
    elif category == "Cs":
        kind = "a surrogate"
    else:
        kind = "a control character"
    return f"U+{ord(char):04X} ({kind})"


def unsafe_char(text: str) -> str | None:
    """The first unsafe character of ``text``, or ``None`` when it is safe to draw."""
    if text.isascii():
        found = _ASCII_UNSAFE.search(text)
        return None if found is None else found.group()
    if text.isprintable():  # no control, separator, format or unassigned character at all
        return None  # (bidi controls are format characters): safe, without a look at each
    return next((char for char in text if is_unsafe(char)), None)


def find_unsafe(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first text inside ``value`` (maps, keys, lists) holding an unsafe character.

    Returns ``(where, what)``: ``where`` names the place (``"name"``,
    ``"options.deck[3]"``), ``what`` the character (:func:`describe`).
    """
    kind = type(value)
    if kind is int or kind is float or kind is bool or value is None:
        return None  # the common leaves, without the slower checks below
    if isinstance(value, str):
        char = unsafe_char(value)
        return None if char is None else (path or "a text", describe(char))
    if kind is dict or isinstance(value, Mapping):
        for key, member in value.items():
            if isinstance(key, str):
                char = unsafe_char(key)
                if char is not None:
                    return (f"a key of {path}" if path else "a field name", describe(char))
            found = find_unsafe(member, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, member in enumerate(value):
            found = find_unsafe(member, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def clean_data(value: Any) -> Any:
    """``value`` (a view, events, a presence list) with every text in it made safe to draw.

    Line breaks inside texts are kept (explanations are several lines, and a
    widget draws a line break as one); every other unsafe character is
    replaced as by :func:`clean_text`. Safe data comes back equal: a map or a
    list with nothing to clean is the very object given (a view is cleaned as
    it is taken, for every view: building it anew was a tenth of taking it).
    """
    kind = type(value)
    if kind is str:
        return _clean_str(value)
    if kind is int or kind is float or kind is bool or value is None:
        return value
    if kind is dict:
        return _clean_map(value)
    if kind is list:
        return _clean_list(value)
    if isinstance(value, str):
        return _clean_str(value)
    if isinstance(value, Mapping):
        return {clean_data(key): clean_data(member) for key, member in value.items()}
    if isinstance(value, list | tuple):
        return [clean_data(member) for member in value]
    return value


_SAFE_TEXTS: Final[set[str]] = set()
"""Short texts already found safe (:func:`clean_data`): the same names, field names, cards
and words come in view after view, and a set look-up is a fraction of a look at each one."""
SAFE_TEXTS_KEPT: Final = 4096
"""The most texts kept in :data:`_SAFE_TEXTS` (it starts afresh when full)."""
SAFE_TEXT_LENGTH: Final = 64
"""Texts longer than this (explanations, log lines) are looked at each time, not kept."""


def _clean_str(value: str) -> str:
    """A text cleaned (:func:`clean_data`): its line breaks kept (the same text when it had
    nothing else to clean)."""
    if value in _SAFE_TEXTS:
        return value
    if unsafe_char(value) is None:
        if len(value) <= SAFE_TEXT_LENGTH:
            if len(_SAFE_TEXTS) >= SAFE_TEXTS_KEPT:
                _SAFE_TEXTS.clear()
            _SAFE_TEXTS.add(value)
        return value
    cleaned = "\n".join(clean_text(line) for line in value.split("\n"))
    return value if cleaned == value else cleaned


def _clean_map(value: dict[Any, Any]) -> dict[Any, Any]:
    """A dict cleaned (:func:`clean_data`): the same dict when nothing in it changed.

    A view is mostly maps of short texts and numbers: those are checked here in place,
    the rest through :func:`clean_data`."""
    safe = _SAFE_TEXTS
    for key, member in value.items():
        if key not in safe and clean_data(key) is not key:
            break
        kind = type(member)
        if kind is str:
            if member in safe or _clean_str(member) is member:
                continue
            break
        if kind is int or kind is bool or member is None or kind is float:
            continue
        if clean_data(member) is not member:
            break
    else:
        return value
    return {clean_data(key): clean_data(member) for key, member in value.items()}


def _clean_list(value: list[Any]) -> list[Any]:
    """A list cleaned (:func:`clean_data`): the same list when nothing in it changed."""
    for member in value:
        if clean_data(member) is not member:
            return [clean_data(member) for member in value]
    return value


def clean_text(text: str) -> str:
    """``text`` made safe to draw: tabs and line breaks become spaces, other unsafe
    characters become U+FFFD. Safe text comes back unchanged (and cleaning twice
    changes nothing more)."""
    if unsafe_char(text) is None:
        return text
    return "".join(
        _WHITESPACE_CONTROLS.get(char, REPLACEMENT) if is_unsafe(char) else char for char in text
    )


# Names that read as a word ---------------------------------------------------------------

STAND_IN_NAMES: Final = frozenset(
    {
        "you", "your", "yours", "yourself", "me", "my", "mine", "myself", "i", "we", "us",
        "they", "them", "he", "him", "she", "her", "it",
        "player", "name", "username", "user", "someone", "somebody", "anyone", "anybody",
        "everyone", "everybody", "nobody", "noone",
    }
)  # fmt: skip
"""Names that are words on other people's screens, not names: a player called "you" reads
as each viewer themselves ("you took V"), one called "name" typed an invitation's
``ssh NAME@HOST`` literally. The host takes them (older clients send them); Clowder asks
its own players for a name instead (the name dialog, and the SSH gateway)."""


def stand_in_name(name: str) -> bool:
    """Whether ``name`` is a word standing in for a name (:data:`STAND_IN_NAMES`), in any
    case and with any quotes or brackets around it (``<NAME>``, ``'you'``)."""
    return name.strip(" '\"<>()[]{}").casefold() in STAND_IN_NAMES
