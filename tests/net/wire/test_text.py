"""Text from the network never reaches a terminal raw (issue 14, attack 8).

The host refuses, with ``bad_field``, every client message holding a
character a terminal obeys (C0, DEL, C1, bidi controls, line separators,
unassigned code points), wherever the text sits; :func:`net.wire.text.clean_text`
is the TUI's second line of defence. Both are fuzzed with hypothesis.
"""

from __future__ import annotations

import asyncio
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.wire.messages import PROTOCOL_VERSION, MessageError, Side, parse
from net.wire.text import BIDI_CONTROLS, clean_text, describe, find_unsafe, is_unsafe, unsafe_char
from tests.net.hosting import RawClient, running_host

pytestmark = pytest.mark.timeout(60)

EVIL_NAME = "Evil\x1b[2J\x1b]0;p\x07"
"""The name that wiped another player's screen in the attack."""

UNSAFE = [
    "\x00",
    "\x07",
    "\t",
    "\n",
    "\r",
    "\x1b",
    "\x7f",
    "\x85",
    "\x9b",
    "\u202e",
    "\u2066",
    "\u200f",
    "\u061c",
    "\u2028",
    "\u2029",
    "\u0378",
    "\ufffe",
    "\U0010ffff",
]
"""One of each kind: C0, DEL, C1 (NEL, CSI), bidi controls, separators, unassigned."""

SAFE = ["Ann", "Zoë", "猫", "😺", "👩‍👩‍👧", "❤️", "[bold]x[/]", "a b", "\ue000", "ﷺ"]
"""Any script, emoji with joiners and variation selectors, markup, private use."""


def client_message(kind: str, text: str) -> dict[str, Any]:
    """A valid client message of ``kind`` with ``text`` in one of its client-set places."""
    messages: dict[str, dict[str, Any]] = {
        "name": {"type": "hello", "protocol": PROTOCOL_VERSION, "name": f"A{text}"},
        "token": {"type": "hello", "protocol": PROTOCOL_VERSION, "name": "A", "token": f"k{text}"},
        "game": {"type": "create_table", "game": f"catchy{text}"},
        "option value": {"type": "create_table", "game": "catchy", "options": {"word": text}},
        "option key": {"type": "create_table", "game": "catchy", "options": {text: 1}},
        "table": {"type": "join", "table": f"t{text}", "role": "player"},
        "leave": {"type": "leave", "table": f"t{text}"},
        "action word": {
            "type": "action",
            "table": "t1",
            "action": {"type": "play", "word": f"KIITOS{text}"},
        },
        "nested answer": {
            "type": "action",
            "table": "t1",
            "action": {"type": "answer", "answers": [["cat", f"dog{text}"]]},
        },
    }
    return messages[kind]


KINDS = [
    "name",
    "token",
    "game",
    "option value",
    "option key",
    "table",
    "leave",
    "action word",
    "nested answer",
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("char", UNSAFE, ids=lambda c: f"U+{ord(c):04X}")
def test_every_client_text_refuses_unsafe_characters(kind: str, char: str) -> None:
    with pytest.raises(MessageError) as caught:
        parse(client_message(kind, char), Side.CLIENT)
    assert caught.value.code == "bad_field"
    assert f"U+{ord(char):04X}" in caught.value.text


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", SAFE)
def test_every_client_text_accepts_safe_text(kind: str, text: str) -> None:
    parse(client_message(kind, text), Side.CLIENT)


def test_the_host_may_send_line_breaks_in_its_own_texts() -> None:
    # Only what clients send is checked here: event texts of the host have newlines.
    message = {"type": "error", "code": "x", "message": "two\nlines"}
    assert parse(message, Side.HOST).message == "two\nlines"  # type: ignore[attr-defined]


def test_the_error_names_the_place_and_the_character() -> None:
    found = find_unsafe({"action": {"answers": [["cat", "d\u202eog"]]}})
    assert found == ("action.answers[0][1]", "U+202E (a bidirectional control)")
    assert describe("\x1b") == "U+001B (a control character)"
    assert describe("\u0378") == "U+0378 (an unassigned code point)"


async def test_attack_an_escape_sequence_name_never_reaches_another_player(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path) as host:
        table = host.create_table("catchy").table.id
        ann = await RawClient.connect(host.port, "Ann")
        ann.send({"type": "join", "table": table, "role": "player"})
        await ann.expect("joined")
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        evil = RawClient(reader, writer)
        evil.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": EVIL_NAME})
        error = await evil.expect("error")
        assert error["code"] == "bad_field" and "U+001B" in error["message"]
        with pytest.raises(ConnectionError):  # an error before the handshake closes
            await evil.next(2.0)
        # With a clean name, the escape sequence cannot come in any other field either.
        sneaky = await RawClient.connect(host.port, "Sneaky")
        sneaky.send({"type": "join", "table": table, "role": "player", "ref": 1})
        await sneaky.expect("joined")
        sneaky.send({"type": "action", "table": table, "action": {"type": EVIL_NAME}, "ref": 2})
        refused = await sneaky.expect("error")
        assert refused["code"] == "bad_field" and refused["ref"] == 2
        await asyncio.sleep(0.1)
        for client in (ann, sneaky):
            assert not any("\x1b" in text for text in strings(client.received))
            await client.close()


def strings(value: Any) -> list[str]:
    """Every text inside ``value`` (map keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for member in value.values() for s in strings(member))]
    if isinstance(value, list):
        return [s for member in value for s in strings(member)]
    return []


# --------------------------------------------------------------------------- fuzz

texts = st.text(st.characters(codec="utf-8"), max_size=24)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(UNSAFE), texts)
def test_fuzz_any_text_holding_an_unsafe_character_is_refused(
    before: str, char: str, after: str
) -> None:
    name = (before + char + after)[:32]
    if char not in name:
        name = char
    with pytest.raises(MessageError) as caught:
        parse({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}, Side.CLIENT)
    assert caught.value.code == "bad_field"


@settings(max_examples=300, deadline=None)
@given(texts)
def test_fuzz_the_host_accepts_exactly_the_texts_with_no_unsafe_character(text: str) -> None:
    value = {"type": "join", "table": f"t{text}", "role": "player", "ref": 1}
    unsafe = any(is_unsafe(char) for char in text)
    if unsafe:
        with pytest.raises(MessageError):
            parse(value, Side.CLIENT)
    else:
        parse(value, Side.CLIENT)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=64))
def test_fuzz_clean_text_leaves_nothing_a_terminal_obeys(text: str) -> None:
    cleaned = clean_text(text)
    assert unsafe_char(cleaned) is None
    assert clean_text(cleaned) == cleaned
    assert len(cleaned) == len(text)  # one for one: positions and widths stay put
    if unsafe_char(text) is None:
        assert cleaned == text


def test_clean_text_turns_line_breaks_into_spaces_and_the_rest_into_a_mark() -> None:
    assert clean_text("a\tb\nc") == "a b c"
    assert clean_text(EVIL_NAME) == "Evil\ufffd[2J\ufffd]0;p\ufffd"
    assert clean_text("Ann\u202egnaB") == "Ann\ufffdgnaB"


def test_the_unsafe_set_is_what_the_issue_lists() -> None:
    assert all(is_unsafe(chr(code)) for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)])
    assert all(is_unsafe(char) for char in BIDI_CONTROLS)
    assert all(unicodedata.category(c) == "Cf" for c in BIDI_CONTROLS)
    assert not any(is_unsafe(char) for char in "\u200d\ufe0f\u00a0 ~")
