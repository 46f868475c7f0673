"""Frames on the wire: a 4-byte length, then one msgpack value, within hard limits.

Why length-prefixed frames and not a streaming :class:`msgpack.Unpacker`:

* The size of a frame is known from its 4-byte header, before its body has
  arrived, so an oversized frame is refused at once and never buffered.
  A streaming unpacker only notices when its buffer is already full
  (``BufferFull``), and cannot tell one huge value from many small ones.
* Each frame is decoded on its own: "this frame is not valid msgpack" and
  "this frame has bytes after its value" are exact, per-message errors.
* Frames can be counted (for the rate limit) before they are decoded, so a
  flood costs the host almost nothing.
* A client in another language needs only "write a big-endian uint32, then
  the packed map".

Inside a frame, msgpack's own limits (``max_str_len``, ``max_array_len``,
``max_map_len``) refuse long strings and containers while decoding (before
anything big is allocated); msgpack has no depth limit short of its
internal stack, so :func:`check_tree` walks the decoded value for nesting
and for types the protocol does not use (binary, extension types,
timestamps, non-text map keys).

The limits differ per direction (:data:`CLIENT_LIMITS` bound what clients
send, :data:`HOST_LIMITS` what the host sends: views are larger than
intents), so each side decodes with its peer's limits and encodes with its
own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import msgpack

HEADER_SIZE: Final = 4
"""Bytes in a frame header: the body's length as a big-endian unsigned 32-bit integer."""

# Limits on what a client sends (the host refuses more).
MAX_CLIENT_FRAME: Final = 64 * 1024
"""Largest frame body a client may send, in bytes."""
MAX_CLIENT_DEPTH: Final = 8
"""Deepest nesting of maps and lists in a client message (the message map itself is level 1)."""
MAX_CLIENT_CONTAINER: Final = 1024
"""Most items in one list, or entries in one map, of a client message."""
MAX_CLIENT_STR: Final = 4096
"""Longest text in a client message, in UTF-8 bytes."""
MAX_CLIENT_RATE: Final = 100.0
"""Frames per second a client may send, sustained (a token bucket refilled at this rate)."""
MAX_CLIENT_BURST: Final = 200
"""Frames a client may send at once before the sustained rate applies (the bucket's size)."""
MAX_CLIENT_FLOOD: Final = 200
"""Frames refused in a row for the rate after which the host closes the connection."""

# Limits on what the host sends (clients refuse more).
MAX_HOST_FRAME: Final = 4 * 1024 * 1024
"""Largest frame body the host may send, in bytes."""
MAX_HOST_DEPTH: Final = 16
"""Deepest nesting of maps and lists in a host message."""
MAX_HOST_CONTAINER: Final = 65536
"""Most items in one list, or entries in one map, of a host message."""
MAX_HOST_STR: Final = 65536
"""Longest text in a host message, in UTF-8 bytes."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The hard limits on what one side sends (and so on what the other side accepts).

    ``rate`` is ``None`` when the sender is not rate-limited (the host is
    trusted not to flood its clients); ``burst`` and ``flood`` only matter
    when it is set.
    """

    max_frame: int
    max_depth: int
    max_container: int
    max_str: int
    rate: float | None = None
    burst: int = 0
    flood: int = 0


CLIENT_LIMITS: Final = Limits(
    max_frame=MAX_CLIENT_FRAME,
    max_depth=MAX_CLIENT_DEPTH,
    max_container=MAX_CLIENT_CONTAINER,
    max_str=MAX_CLIENT_STR,
    rate=MAX_CLIENT_RATE,
    burst=MAX_CLIENT_BURST,
    flood=MAX_CLIENT_FLOOD,
)
"""What a client may send; the host decodes with these."""

HOST_LIMITS: Final = Limits(
    max_frame=MAX_HOST_FRAME,
    max_depth=MAX_HOST_DEPTH,
    max_container=MAX_HOST_CONTAINER,
    max_str=MAX_HOST_STR,
)
"""What the host may send; clients decode with these."""


class FrameError(ValueError):
    """A frame that breaks the framing rules or a limit; ``code`` names the rule.

    The codes are error codes of the protocol (see :mod:`net.wire.messages`):
    ``frame_too_large``, ``malformed``, ``too_deep``, ``too_long``.
    """

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


# --------------------------------------------------------------------------- reading


class FrameReader:
    """Cuts a byte stream into frame bodies; feed it any chunks, in order.

    Holds at most one incomplete frame between calls (the caller drains
    every complete frame with :meth:`next_frame` after each :meth:`feed`).
    """

    def __init__(self, max_frame: int) -> None:
        self._max_frame = max_frame
        self._buffer = bytearray()

    def feed(self, data: bytes) -> None:
        self._buffer += data

    def next_frame(self) -> bytes | None:
        """The next complete frame body, or ``None`` until more bytes arrive.

        Raises :class:`FrameError` (``frame_too_large``) as soon as a header
        announces a body over the limit, before that body is read.
        """
        if len(self._buffer) < HEADER_SIZE:
            return None
        size = int.from_bytes(self._buffer[:HEADER_SIZE], "big")
        if size > self._max_frame:
            raise FrameError(
                "frame_too_large",
                f"A frame of {size} bytes is larger than the {self._max_frame} bytes allowed",
            )
        end = HEADER_SIZE + size
        if len(self._buffer) < end:
            return None
        body = bytes(self._buffer[HEADER_SIZE:end])
        del self._buffer[:end]
        return body

    @property
    def pending(self) -> int:
        """Bytes received but not yet returned as a frame."""
        return len(self._buffer)


_LIMIT_MESSAGE = re.compile(r"(\d+) exceeds max_(str|array|map)_len\((\d+)\)")
_LIMIT_WORDS = {
    "str": ("A text of", "bytes"),
    "array": ("A list of", "items"),
    "map": ("A map of", "entries"),
}


def _refuse_ext(code: int, data: bytes) -> Any:
    raise FrameError("malformed", f"Extension type {code} is not used by this protocol")


def decode_body(body: bytes, limits: Limits) -> Any:
    """The value in one frame body, checked against ``limits``; raises :class:`FrameError`."""
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            max_str_len=limits.max_str,
            max_array_len=limits.max_container,
            max_map_len=limits.max_container,
            # Binary and extension values are refused by check_tree/_refuse_ext;
            # bounding them by the frame keeps a lying header from allocating much.
            max_bin_len=limits.max_frame,
            max_ext_len=limits.max_frame,
        )
    except FrameError:
        raise
    except msgpack.StackError:
        raise FrameError(
            "too_deep", f"The message nests deeper than {limits.max_depth} levels"
        ) from None
    except UnicodeDecodeError:
        raise FrameError("malformed", "A text in the frame is not valid UTF-8") from None
    except msgpack.ExtraData:
        raise FrameError("malformed", "The frame has bytes after its msgpack value") from None
    except (ValueError, msgpack.UnpackException) as error:
        found = _LIMIT_MESSAGE.search(str(error))
        if found is not None:
            size, kind, limit = found.groups()
            what, unit = _LIMIT_WORDS[kind]
            raise FrameError(
                "too_long", f"{what} {size} {unit} is longer than the {limit} allowed"
            ) from None
        detail = str(error) or type(error).__name__
        raise FrameError("malformed", f"The frame is not valid msgpack ({detail})") from None
    check_tree(value, limits, sending=False)
    return value


# --------------------------------------------------------------------------- checking and writing


def _kind_name(value: Any) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return "Binary data"
    if isinstance(value, msgpack.ExtType):
        return f"Extension type {value.code}"
    if isinstance(value, msgpack.Timestamp):
        return "A msgpack timestamp"
    return f"A value of type {type(value).__name__}"


_LEAVES: Final = frozenset({int, float, bool, type(None)})
"""Types that need no check at all (exact types; subclasses take the slow path)."""


def check_tree(value: Any, limits: Limits, *, sending: bool) -> None:
    """Check nesting depth and value types (and, when ``sending``, lengths).

    Only maps with text keys, lists, text, integers, floats, booleans and nil
    are allowed. When decoding, msgpack has already enforced the lengths;
    when ``sending``, they are checked here so that a side never sends what
    its peer would refuse.

    Every frame the host sends and every frame it reads passes here, so this
    is a loop over an explicit stack with the common leaves (numbers, short
    texts) checked in place, not a recursive call per value: a view of a few
    hundred values costs tens of microseconds, not hundreds.
    """
    max_depth = limits.max_depth
    max_container = limits.max_container
    max_str = limits.max_str
    short = max_str // 4  # a text of at most this many characters fits in max_str bytes
    leaves = _LEAVES

    def long_text(text: str) -> bool:
        return len(text.encode("utf-8", "surrogatepass")) > max_str

    stack: list[tuple[Any, int]] = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        kind = type(item)
        if kind is str or (kind not in leaves and isinstance(item, str)):
            if sending and len(item) > short and long_text(item):
                raise FrameError("too_long", f"A text is longer than {max_str} bytes")
            continue
        if kind in leaves:
            continue
        if kind is dict or kind is list or isinstance(item, dict | list | tuple):
            if depth >= max_depth:
                raise FrameError("too_deep", f"The message nests deeper than {max_depth} levels")
            if sending and len(item) > max_container:
                raise FrameError(
                    "too_long",
                    f"A container of {len(item)} items is longer than the {max_container} allowed",
                )
            inner = depth + 1
            members = item
            if isinstance(item, dict):
                for key in item:
                    if type(key) is not str and not isinstance(key, str):
                        raise FrameError("malformed", f"Map keys are text, not {key!r}")
                    if sending and len(key) > short and long_text(key):
                        raise FrameError("too_long", f"A text is longer than {max_str} bytes")
                members = item.values()
            for member in members:
                member_kind = type(member)
                if member_kind in leaves:
                    continue
                if member_kind is str:
                    if sending and len(member) > short and long_text(member):
                        raise FrameError("too_long", f"A text is longer than {max_str} bytes")
                    continue
                push((member, inner))
            continue
        if not (item is None or isinstance(item, int | float)):
            raise FrameError("malformed", f"{_kind_name(item)} is not used by this protocol")


def encode_frame(value: Any, limits: Limits) -> bytes:
    """One frame (header and body) holding ``value``, which must fit ``limits``.

    Raises :class:`FrameError` when it does not: sending it would only make
    the peer close the connection.
    """
    check_tree(value, limits, sending=True)
    try:
        body = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError, TypeError) as error:
        raise FrameError("malformed", f"The message cannot be packed: {error}") from None
    if len(body) > limits.max_frame:
        raise FrameError(
            "frame_too_large",
            f"A frame of {len(body)} bytes is larger than the {limits.max_frame} bytes allowed",
        )
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def encode_shaped_frame(value: Any, limits: Limits) -> bytes:
    """:func:`encode_frame` for a value whose shape the tests vouch for: a game's view.

    :func:`check_tree` walks every value, which costs five times the packing
    itself, and the host encodes a view per seat after every action. Of what it
    checks, lengths follow from the body's size: a text of ``n`` bytes or a
    container of ``n`` items packs into more than ``n`` bytes, so a body no
    larger than ``max_str`` and ``max_container`` holds none too long. Depth and
    types are what the code builds, not what players send, and every game's
    views pass :func:`encode_frame` in the contract tests. A larger body gets the
    full check.
    """
    try:
        body = msgpack.packb(value, use_bin_type=True)
    except (OverflowError, ValueError, TypeError) as error:
        raise FrameError("malformed", f"The message cannot be packed: {error}") from None
    if len(body) > min(limits.max_str, limits.max_container):
        return encode_frame(value, limits)
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def with_field(frame: bytes, key: str, value: int, limits: Limits) -> bytes | None:
    """``frame`` (a map of fewer than 15 entries) with one more entry ``key: value``.

    msgpack writes a map as its size then its entries, so a small map gains an
    entry by changing its first byte and appending the pair: the host sends a
    frame it encoded once (the table list) with each request's own ``ref``
    without walking and packing the whole message again. Returns ``None``
    when the frame is not such a map or the result would break ``limits``
    (encode the message afresh then).
    """
    body = frame[HEADER_SIZE:]
    if not body or not 0x80 <= body[0] < 0x8F:
        return None
    extra = msgpack.packb(key) + msgpack.packb(value)
    size = len(body) + len(extra)
    if size > limits.max_frame:
        return None
    return size.to_bytes(HEADER_SIZE, "big") + bytes([body[0] + 1]) + body[1:] + extra
