"""Typed answers: when did the player start typing the answer they sent? (pure, client side)

People call Katootsie! answers out loud; here they type them, and a long
answer takes longer to type than a short one. If the host ranked answers by
when they were sent (or arrived), a player who thought of "Blackcurrant"
first would lose to one who thought of "Fig" later. So an answer's stamp
``acted_ns`` is **the moment its player started typing the text that was
sent**: the first keystroke of the last uninterrupted run of keystrokes that
produced it, on the client's monotonic clock, the same clock as the reveal's
``drawn_ns`` stamp. How long typing then took does not count.

How it is measured (:class:`TypedAnswer`):

* The answer line is empty and disabled until the letter is drawn, so no
  keystroke before the reveal can count (the screen clears it for each new
  letter).
* Every character of the line carries the instant it was typed. Editing
  keeps the other characters' instants; a deleted character takes its
  instant with it; a paste is one keystroke. So keys typed and deleted again
  (any fidgeting) leave no trace: only the characters of the text sent
  count, and leading and trailing spaces are not part of it.
* On Enter, those characters are taken in the order they were typed, and
  the run is cut at every pause longer than :data:`RUN_PAUSE_NS` (the player
  stopped to think again: what was typed before does not show when they
  found the rest). The stamp is the first keystroke after the last cut.
* **Typing the letter early gains nothing.** Everyone knows the revealed
  letter (and, where a category ignores "The/A/An", the article), so typing
  it at once is no sign of having found an answer. While everything typed
  so far in the run is such a *free* prefix (the letter, an article, spaces),
  it does not start the run if it was typed within :data:`REFLEX_NS` of the
  letter being drawn (a reflex: nobody finds an answer that fast), and a
  pause longer than :data:`LETTER_PAUSE_NS` after it cuts the run. The stamp
  then moves to the first keystroke that says something, which is where an
  honest player who found the same answer at the same moment starts too.
  Someone who types "B" at once, thinks, then types "anana" is stamped at
  the "a"; an honest player who thought just as fast types "B" then.

The residual bias, stated (and measured by ``python -m tests.perf fairness``):

* Length: none by construction. An answer is stamped where its typing
  starts, however long it is; what remains is the stamps' granularity (a
  key event's time, about 1 ms).
* A player whose first two keystrokes are more than ``LETTER_PAUSE_NS``
  apart (one who hesitates after the letter), or who found an answer within
  ``REFLEX_NS`` of seeing the letter, is stamped at the second keystroke: a
  loss of one keystroke's time, once per answer, independent of length.
  Longer pauses mid-answer (over ``RUN_PAUSE_NS``) count as thinking again.
* Typing the letter at once gains nothing. A player who waits out
  ``REFLEX_NS``, types the letter and then thinks gains at most
  ``LETTER_PAUSE_NS`` minus one keystroke, and only if the answer comes
  within ``LETTER_PAUSE_NS`` of that key; otherwise nothing.

What the host must do with it. The host's arbiter bounds every reported
reaction by the claim's arrival (``credited = max(reported, since_sent -
lag_allowance)``). An answer arrives after it was typed, so that bound would
add the typing time back. The design therefore lets the host see the start
of typing as it happens: the client sends a *typing notice* (the answer's
stamps without its text) when a run starts, and again when a cut restarts
it; the host checks the stamps against the notice's arrival (lag only, no
typing), waits for the text of any seat whose notice is within the tie
threshold of the best (:class:`TypingWatch`, bounded by
:data:`MAX_TYPING_NS`), and ranks the answer by the notice it follows. The
benchmark simulates that host next to today's arbiter and the arrival-order
rule; see ``Typed answers`` in ``net/PROTOCOL.md`` for what is wired in.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

NS_PER_MS = 1_000_000

RUN_PAUSE_NS = 2_000 * NS_PER_MS
"""A pause this long inside an answer cuts the run: the player stopped to think again."""

LETTER_PAUSE_NS = 1_000 * NS_PER_MS
"""A pause this long after a *free* prefix (the letter, an article) cuts the run.

Longer than even a slow typist (500 ms a key) takes between the first
letter and the next key; about as short as anyone takes to think of an
answer after typing the letter."""

REFLEX_NS = 500 * NS_PER_MS
"""A free prefix typed this soon after the letter was drawn never starts the run.

Nobody finds an answer in half a second: such a key is a reflex (typing the
letter at once), not the start of an answer. The run starts at the first
key after it that is not free."""

MAX_TYPING_NS = 10_000 * NS_PER_MS
"""Host side: how long a typing notice holds a decision open for the answer that follows."""

ARTICLES = ("the", "a", "an")


def _fold(text: str) -> str:
    """Lower case without accents (``É`` types as ``e`` for this purpose)."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def free_prefix(typed: str, letter: str | None, articles: bool = True) -> bool:
    """Whether ``typed`` (what was typed so far, in line order) tells nothing.

    Free: nothing, spaces, the revealed letter, an article or the start of
    one ("Th"), an article and a space, an article and the letter ("The S").
    Anyone can type these before thinking of an answer.
    """
    words = _fold(typed).split()
    if not words:
        return True
    target = _fold(letter or "")
    if articles and len(words) <= 2:
        head = words[0]
        complete = typed.rstrip() != typed or len(words) == 2
        if head in ARTICLES and (len(words) == 1 or words[1] == target):
            return True
        if len(words) == 1 and not complete and any(a.startswith(head) for a in ARTICLES):
            return True
    return len(words) == 1 and words[0] == target


@dataclass(frozen=True, slots=True)
class TypedStamps:
    """What the client sends with an answer."""

    text: str
    """The answer: the line without leading and trailing spaces."""
    acted_ns: int
    """When typing that text started (see the module doc)."""
    sent_ns: int
    """When the player pressed Enter."""

    @property
    def typing_ns(self) -> int:
        """How long the final run of typing took (not counted against the player)."""
        return self.sent_ns - self.acted_ns


def run_start_ns(
    chars: list[tuple[str, int]],
    letter: str | None,
    *,
    drawn_ns: int | None = None,
    articles: bool = True,
    run_pause_ns: int = RUN_PAUSE_NS,
    letter_pause_ns: int = LETTER_PAUSE_NS,
    reflex_ns: int = REFLEX_NS,
) -> int | None:
    """The first keystroke of the last run that produced ``chars`` (in line order, with times).

    ``None`` for an empty answer. Leading and trailing spaces are not part of
    the answer and are ignored. ``drawn_ns``: when the letter was drawn (for
    :data:`REFLEX_NS`).
    """
    text = "".join(ch for ch, _ in chars)
    first = len(text) - len(text.lstrip())
    last = len(text.rstrip())
    kept = list(range(first, last))
    if not kept:
        return None
    order = sorted(kept, key=lambda index: (chars[index][1], index))
    start = 0
    for k in range(1, len(order)):
        gap = chars[order[k]][1] - chars[order[k - 1]][1]
        held = sorted(order[:k])  # everything typed so far, in line order
        so_far = "".join(chars[index][0] for index in held)
        leading = held == kept[: len(held)]  # an article is free only where the answer starts
        free = free_prefix(so_far, letter, articles and leading)
        limit = letter_pause_ns if free else run_pause_ns
        reflex = free and drawn_ns is not None and chars[order[start]][1] < drawn_ns + reflex_ns
        if gap > limit or reflex:
            start = k
    return chars[order[start]][1]


@dataclass
class TypedAnswer:
    """The answer line's characters and when each was typed (see the module doc).

    The screen calls :meth:`open` when a letter is drawn, :meth:`edit` with
    the line's new value after every change, and :meth:`stamps` on Enter.
    """

    letter: str | None = None
    articles: bool = True
    """Whether a leading article is free too (categories that ignore "The/A/An")."""
    drawn_ns: int | None = None
    chars: list[tuple[str, int]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(ch for ch, _ in self.chars)

    def open(self, letter: str | None, drawn_ns: int, *, articles: bool = True) -> None:
        """A new letter is on screen: the line starts empty."""
        self.letter = letter
        self.articles = articles
        self.drawn_ns = drawn_ns
        self.chars = []

    def close(self) -> None:
        """No letter is open: nothing typed now can count."""
        self.drawn_ns = None
        self.chars = []

    def edit(self, value: str, now_ns: int) -> None:
        """The line now reads ``value``: the characters that changed were typed at ``now_ns``.

        Before the letter is drawn nothing is recorded (the line is disabled
        then; this is the same rule for any other caller).
        """
        if self.drawn_ns is None or now_ns < self.drawn_ns:
            self.chars = []
            return
        old = self.text
        prefix = 0
        limit = min(len(old), len(value))
        while prefix < limit and old[prefix] == value[prefix]:
            prefix += 1
        suffix = 0
        while (
            suffix < limit - prefix and old[len(old) - 1 - suffix] == value[len(value) - 1 - suffix]
        ):
            suffix += 1
        inserted = [(ch, now_ns) for ch in value[prefix : len(value) - suffix]]
        self.chars = self.chars[:prefix] + inserted + self.chars[len(old) - suffix :]

    def stamps(self, sent_ns: int) -> TypedStamps | None:
        """The answer and its stamps on Enter (``None``: nothing typed for this letter)."""
        start = run_start_ns(
            self.chars, self.letter, drawn_ns=self.drawn_ns, articles=self.articles
        )
        if start is None:
            return None
        return TypedStamps(self.text.strip(), start, max(sent_ns, start))


@dataclass
class TypingWatch:
    """Host side of the design: seats typing an answer that could still win or tie.

    A typing notice says "seat S started typing with this credited
    reaction". A decision that would go to the best claim so far waits while
    a seat whose notice is within ``tie_ns`` of it has not sent its text
    (nor withdrawn by clearing its line), for at most :data:`MAX_TYPING_NS`
    after that notice arrived.
    """

    tie_ns: int
    max_typing_ns: int = MAX_TYPING_NS
    typing: dict[int, tuple[int, int]] = field(default_factory=dict)
    """seat -> (credited reaction of its notice, host time the notice arrived)."""

    def notice(self, seat: int, credited_ns: int, arrived_ns: int) -> None:
        self.typing[seat] = (credited_ns, arrived_ns)

    def done(self, seat: int) -> None:
        """The seat's answer arrived, or it withdrew (cleared its line)."""
        self.typing.pop(seat, None)

    def hold_until_ns(self, best_credited_ns: int | None) -> int | None:
        """Until when a decision must wait for typists (``None``: nobody to wait for)."""
        waits = [
            arrived + self.max_typing_ns
            for credited, arrived in self.typing.values()
            if best_credited_ns is None or credited <= best_credited_ns + self.tie_ns
        ]
        return max(waits) if waits else None
