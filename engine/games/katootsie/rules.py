"""Katootsie!: a category, then a letter; the first fitting answer takes the letter.

The table (rulebook ``katootsie.txt`` and CLARIFICATIONS):

* A category card is turned; after :data:`CATEGORY_PAUSE_S` (time to read it)
  a letter card is revealed. Two letters are played per category until the
  letter pile (2 of each letter) is empty; then the round ends. The option
  ``rounds`` (1-3) plays more rounds with cumulative points; each round
  shuffles the 52 letters again and draws new categories.
* While a letter is open, anyone may **answer** (``{"type": "answer",
  "reveal": id, "text": ...}``) or **call Katootsie!** (``{"type":
  "katootsie", "reveal": id}``). Both are *claims*: the host arbitrates them
  by measured reaction time, so the fastest answer is the one applied.
* Checking an answer (:mod:`engine.games.katootsie.answers`): blank, wrong letter
  or a repeat is refused at once and **locks that player out** of this letter
  (answers and calls); an answer in the category's list takes the letter at
  once; any other answer goes to the other players' **vote** for
  ``vote_seconds``: a strict majority of the votes cast rejects it (locking
  the player out), otherwise it stands.
* When all but one of the players still in are locked out, the last one
  takes the letter **by default**.
* **Katootsie!**: the caller bets nobody answers within
  :data:`KATOOTSIE_SECONDS`; the caller may not answer. Nobody answers in
  time (or everyone else is locked out): the caller takes the letter. A
  correct answer in time: the answerer takes the letter *and* one of the
  caller's letters; a caller with no letters owes one (the next letter they
  win goes to the player owed).
* **Repeats**: an answer that already took a letter in this category cannot
  take another (this covers the same letter drawn twice in a row, and an
  "Anywhere" letter reusing an answer).
* **Ties**: answers the host's arbiter finds within ``tie_ms`` of each
  other reach the engine as a host action (:data:`TIE_ACTION`): the other
  players vote who was first; without a strict majority for one player, the
  tied players play **tie-break letters** for the same category (only they
  may answer; the winner takes every letter at stake; tie-break letters do
  not count toward the two per category).
* **Sudden death** when the top score is shared at the end: the tied players,
  a fresh letter pile, one category not yet played; first to win 2 letters.

Real-time moments. Every time a letter opens for claims (revealed, reopened
after a bad answer or a rejected vote, or after a Katootsie! call) the
state's ``moment`` grows by one; :meth:`Katootsie.reveal` returns it while
claims are open and a claim must name it. The view carries ``opened_at``,
the host time the moment opened, and ``letter_at``, the host time the next
letter will be revealed (announced ahead: the host may schedule the reveal
so that it appears on every screen at once).

Secrecy. The letter and category piles never leave the state: the view
carries counts only; a letter or category appears only once revealed.
Letter cards have opaque ids (``letter-card-NN``) that are never sent, so
:meth:`Katootsie.hidden` can name every unrevealed card; the letters
themselves repeat and are public words, so what ``hidden`` can check is
that no card id and no unrevealed category (code, title) is ever sent,
while the pile's order is guarded by never putting it into a view or event
(the playout tests check that the upcoming letters never appear as a
sequence in anything sent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypedDict

from engine.core import (
    DECK_OPTION,
    Action,
    BaseView,
    Event,
    Game,
    GameState,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    Seat,
    StaleReveal,
    action_field,
    action_type,
    check_deck,
    deck_orders,
    parse_options,
    winners_by_score,
)
from engine.games.katootsie import answers
from engine.games.katootsie.answers import ANYWHERE, LETTERS, MAX_ANSWER_LENGTH, Verdict

KATOOTSIE_SECONDS = 10.0
"""The Katootsie! timer (rulebook: ten seconds)."""
CATEGORY_PAUSE_S = 3.0
"""Time to read a new category before its first letter is revealed."""
LETTER_PAUSE_S = 2.0
"""Time to see who took a letter before the next one is revealed."""
TIE_MS = 150
"""CLARIFICATIONS (assumed): answers within this many ms of the best are a tie."""
VOTE_SECONDS = 8
"""CLARIFICATIONS (assumed): how long the other players vote on a disputed answer."""
NO_ANSWER_SECONDS = 60
"""Assumed: a letter nobody answers or calls for this long is set aside (nobody takes it)."""
SUDDEN_DEATH_WINS = 2
LETTERS_PER_CATEGORY = 2
MAX_TIMERS_PER_TICK = 10_000
"""Bound on the timers one tick fires (each consumes a letter, so games end well before)."""

TIE_ACTION = "tie"
"""The host-only action that tells the engine which claims the arbiter found tied."""

FULL_LETTERS: tuple[str, ...] = tuple(letter for letter in LETTERS for _ in range(2))
"""The letter pile: two of each letter (the ``deck`` option's codes)."""

ASSUMPTIONS: tuple[str, ...] = (
    "The categories are ours: 140 categories in the rulebook's style, each with a list of "
    "known good answers covering at least 18 letters (WordNet, pycountry, hand-written lists).",
    "The 10-second Katootsie! timer runs on the host and every screen shows it; the caller "
    "may not answer.",
    f"Answers within tie_ms (default {TIE_MS} ms) of the best are a tie.",
    f"A disputed answer goes to the other players' vote for vote_seconds (default "
    f"{VOTE_SECONDS}); a strict majority of the votes cast rejects it; a tied vote or no "
    "votes lets it stand.",
    "A Katootsie! caller with no letters who loses owes one: the next letter they win goes "
    "to the player owed. A debt is shown beside their score.",
    "Sudden death uses a category not yet played this game; a Katootsie! lost in sudden "
    "death costs one sudden-death letter if the caller has one, and no debt.",
    "An answer that already took a letter in this category cannot take another (the "
    "rulebook's same-letter-twice rule, also for Q, X and Z, which may be anywhere).",
    "A blank answer is a bad answer (it does not begin with the letter).",
    f"A letter nobody answers or calls Katootsie! on for no_answer_seconds (default "
    f"{NO_ANSWER_SECONDS}) is set aside: nobody takes it.",
    "In a tie between an answer and a Katootsie! call, the answer counts and the call is dropped.",
    "In a tie, the other players vote who was first; a strict majority of the votes cast "
    "for one player decides; otherwise (or with no one else to vote) tie-break letters.",
    "Tie-break letters come off the letter pile (a fresh shuffled pile if it is empty); a "
    "tie-break letter nobody takes ends the tie-break and the letters at stake are set aside.",
    "The players who tied answer the tie-break letters; everyone else may still vote.",
    f"New categories wait {CATEGORY_PAUSE_S:g} s before their first letter, and each next "
    f"letter {LETTER_PAUSE_S:g} s after the last was taken.",
    "While a disputed answer is voted on, a running Katootsie! timer stops, and goes on with "
    "the time it had left.",
    "Katootsie! may be called only while someone other than the caller can still answer.",
    "A Katootsie! caller caught by a correct answer gives the letter they won most "
    "recently to the player who answered.",
    "If the letters run out in sudden death before anyone has won, the players still in "
    "share the win.",
    "A leading The, A or An is left out of every answer (the category's mark is a "
    "reminder): The Hague counts for H, not for T.",
    f"An answer is at most {MAX_ANSWER_LENGTH} characters.",
)

OPTIONS: tuple[Option, ...] = (
    DECK_OPTION,
    Option(
        "categories",
        None,
        "Explicit category order (codes like c001, top first); the rest are shuffled after.",
        kind=list,
        label="Fixed categories",
        hidden=True,
    ),
    Option(
        "rounds",
        1,
        "Rounds to play; points add up across rounds.",
        minimum=1,
        maximum=3,
        label="Rounds",
    ),
    Option(
        "tie_ms",
        TIE_MS,
        "Answers this close (ms) are a tie.",
        minimum=0,
        maximum=1000,
        label="Tie window (ms)",
    ),
    Option(
        "vote_seconds",
        VOTE_SECONDS,
        "How long players vote on a disputed answer.",
        minimum=2,
        maximum=60,
        label="Vote time (s)",
    ),
    Option(
        "no_answer_seconds",
        NO_ANSWER_SECONDS,
        "A letter nobody answers for this long is set aside.",
        minimum=10,
        maximum=600,
        label="Unanswered letter (s)",
    ),
)


class LockedOut(IllegalAction):
    """The player gave a bad answer for this letter (or may not play it)."""

    code = "locked_out"


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Call:
    """A Katootsie! call: who called, and when the ten seconds end."""

    seat: int
    until: float
    left: float = KATOOTSIE_SECONDS
    """While a vote pauses the timer: the seconds that were left."""


@dataclass(slots=True)
class Vote:
    """A disputed answer being voted on by the other players."""

    seat: int
    text: str
    voters: list[int]
    until: float
    votes: list[list[Any]] = field(default_factory=list)
    """``[seat, accept]`` pairs in the order cast."""


@dataclass(slots=True)
class FirstVote:
    """Tied answers: the other players vote who was first (``None``: the same time)."""

    answers: list[list[Any]]
    """``[seat, text]`` of the tied answers, in the host's order."""
    voters: list[int]
    until: float
    votes: list[list[Any]] = field(default_factory=list)


@dataclass(slots=True)
class Result:
    """What happened to one letter, for the view and the log."""

    letter: str
    seat: int | None
    how: str
    """answer, vote, katootsie, caught, default, tiebreak, set_aside."""
    answer: str | None = None
    caller: int | None = None
    stake: list[str] = field(default_factory=list)


@dataclass(slots=True)
class KatootsieState(GameState):
    letter_cards: list[str] = field(default_factory=list)
    """The face-down letter pile, top first, as opaque card ids (never sent)."""
    category_cards: list[str] = field(default_factory=list)
    """The face-down category pile, top first (never sent)."""
    round: int = 1
    phase: str = "category"
    category: str | None = None
    categories_played: list[str] = field(default_factory=list)
    category_letters: int = 0
    """Regular letters revealed for this category (tie-break letters do not count)."""
    used: list[str] = field(default_factory=list)
    """Answers that took a letter in this category (as typed)."""
    letter: str | None = None
    letter_card: str | None = None
    moment: int = 0
    opened_at: float | None = None
    quiet_until: float | None = None
    letter_at: float | None = None
    players_in: list[int] = field(default_factory=list)
    """Who may answer and call for this letter (everyone; tied players in a tie-break)."""
    locked: list[int] = field(default_factory=list)
    call: Call | None = None
    vote: Vote | None = None
    first_vote: FirstVote | None = None
    stake: list[str] = field(default_factory=list)
    """Tie-break: the letters at stake (the tied letter, then the tie-break letters)."""
    tied: list[int] = field(default_factory=list)
    won: list[list[str]] = field(default_factory=list)
    """Each seat's letters (its points), across rounds."""
    round_points: list[list[int]] = field(default_factory=list)
    debts: list[list[int]] = field(default_factory=list)
    """Each seat's debts: the seats owed a letter, oldest first."""
    sudden: list[int] = field(default_factory=list)
    """Sudden death: the tied players (empty before it)."""
    sudden_wins: list[int] = field(default_factory=list)
    last: Result | None = None
    winners: list[int] | None = None
    spare_cards: list[str] = field(default_factory=list)
    """Tie-break letters once the pile is empty come from a fresh pile of their own (never sent)."""
    spare_piles: int = 0
    """Fresh letter piles shuffled so far (card ids stay unique)."""


# --------------------------------------------------------------------------- the game


def letter_of(card: str) -> str:
    """The letter on an opaque letter card id (``letter-card-NN`` -> its letter)."""
    number = int(card.rsplit("-", 1)[1]) % len(FULL_LETTERS)
    return FULL_LETTERS[number]


def _card_ids(letters: list[str], pile: int) -> list[str]:
    """Opaque, unique ids for a pile of letters in this order (``pile`` keeps them unique)."""
    free: dict[str, list[int]] = {}
    for index, letter in enumerate(FULL_LETTERS):
        free.setdefault(letter, []).append(index)
    ids = []
    for letter in letters:
        number = free[letter].pop(0) + pile * len(FULL_LETTERS)
        ids.append(f"letter-card-{number:03d}")
    return ids


def _quote(text: str) -> str:
    return f"\u201c{text}\u201d"


class CategoryView(TypedDict):
    """The category card in play, in a :class:`KatootsieView`."""

    code: str
    title: str
    ignore_articles: bool
    """The card prints the reminder "Ignore 'A', 'An' and 'The'" (the rule holds for all)."""
    label: str


class CallView(TypedDict):
    """A Katootsie! call: the caller and the end of the ten seconds (``left`` while paused)."""

    seat: int
    until: float
    left: float


class VoteView(TypedDict):
    """A disputed answer being voted on; ``votes`` are ``[seat, accept]`` pairs."""

    seat: int
    answer: str
    voters: list[int]
    votes: list[list[Any]]
    until: float


class FirstVoteView(TypedDict):
    """Tied answers (``[seat, text]``): who was first; ``votes`` are ``[seat, first]``."""

    answers: list[list[Any]]
    voters: list[int]
    votes: list[list[Any]]
    until: float


class TiebreakView(TypedDict):
    players: list[int]
    stake: list[str]


class SuddenDeathView(TypedDict):
    players: list[int]
    wins: list[int]


class LastView(TypedDict):
    """What happened to the last letter (``how``: answer, vote, katootsie, caught, default,
    tiebreak, set_aside)."""

    letter: str
    seat: int | None
    how: str
    answer: str | None
    caller: int | None
    letters: list[str]


class KatootsieView(BaseView):
    """The keys :meth:`Katootsie._view` adds to the common ones (``view_type``)."""

    round: int
    rounds: int
    category: CategoryView | None
    category_letter: int
    letter: str | None
    anywhere: bool
    letters_left: int
    letter_at: float | None
    opened_at: float | None
    quiet_until: float | None
    players_in: list[int]
    locked: list[int]
    call: CallView | None
    vote: VoteView | None
    first_vote: FirstVoteView | None
    tiebreak: TiebreakView | None
    used: list[str]
    won: list[list[str]]
    round_points: list[list[int]]
    debts: list[list[int]]
    sudden_death: SuddenDeathView | None
    last: LastView | None
    katootsie_seconds: float


class Katootsie(Game[KatootsieState]):
    """The rules of Katootsie! (see the module docstring)."""

    name = "katootsie"
    title = "Katootsie!"
    min_players = 2
    max_players = 10
    state_type = KatootsieState
    view_type = KatootsieView
    option_specs: ClassVar[tuple[Option, ...]] = OPTIONS
    assumptions = ASSUMPTIONS
    bots = (
        ("normal", "engine.games.katootsie.bot:ExpertBot"),
        ("easy", "engine.games.katootsie.bot:EasyBot"),
        ("hard", "engine.games.katootsie.bot:HardBot"),
        ("expert", "engine.games.katootsie.bot:ExpertBot"),
        ("casual", "engine.games.katootsie.bot:CasualBot"),
    )
    realtime = True
    claim_types = frozenset({"answer", "katootsie"})
    typed_claims = frozenset({"answer"})
    host_actions = frozenset({TIE_ACTION})
    ACTIONS: ClassVar[tuple[str, ...]] = ("answer", "katootsie", "vote", "first", TIE_ACTION)

    # Setup -------------------------------------------------------------------

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> KatootsieState:
        orders = deck_orders(options["deck"])
        if len(orders) > options["rounds"]:
            raise InvalidOptions("The deck option gives more letter orders than there are rounds")
        for order in orders:
            check_deck(self.title, order, FULL_LETTERS)
        codes = [category.code for category in answers.categories()]
        chosen = self._category_order(options["categories"], codes)
        rest = [code for code in codes if code not in chosen]
        rng.shuffle(rest)
        count = len(players)
        state = KatootsieState(
            players=players,
            options=options,
            rng=rng,
            category_cards=chosen + rest,
            won=[[] for _ in range(count)],
            round_points=[[0] * options["rounds"] for _ in range(count)],
            debts=[[] for _ in range(count)],
            sudden_wins=[0] * count,
        )
        events: list[Event] = []
        self._start_round(state, 0.0, events)
        return state

    def _category_order(self, given: Any, codes: list[str]) -> list[str]:
        if given is None:
            return []
        if not isinstance(given, list) or not given:
            raise InvalidOptions("The categories option is a non-empty list of category codes")
        known = set(codes)
        for code in given:
            if not isinstance(code, str) or code not in known:
                raise InvalidOptions(f"{code!r} is not a Katootsie! category code (c001...)")
        if len(set(given)) != len(given):
            raise InvalidOptions("The categories option names a category twice")
        return list(given)

    def _letter_pile(self, state: KatootsieState, explicit: list[str] | None) -> list[str]:
        letters = list(explicit) if explicit is not None else list(FULL_LETTERS)
        if explicit is None:
            state.rng.shuffle(letters)
        pile = _card_ids(letters, state.spare_piles)
        state.spare_piles += 1
        return pile

    def _start_round(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        orders = deck_orders(state.options["deck"])
        explicit = orders[state.round - 1] if state.round <= len(orders) else None
        state.letter_cards = self._letter_pile(state, explicit)
        rounds = state.options["rounds"]
        state.record(
            events,
            "round",
            f"Round {state.round} of {rounds}: 52 letters, two per category.",
            round=state.round,
        )
        state.players_in = list(range(len(state.players)))
        self._next_category(state, now, events)

    def _next_category(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        code = state.category_cards.pop(0)
        state.category = code
        state.categories_played.append(code)
        state.category_letters = 0
        state.used = []
        state.phase = "category"
        state.letter = None
        state.letter_at = now + CATEGORY_PAUSE_S
        category = answers.category(code)
        state.record(
            events,
            "category",
            f"Category: {category.label}.",
            category=code,
            title=category.title,
            ignore_articles=category.ignore_articles,
        )

    # Timers ------------------------------------------------------------------

    def deadline(self, state: KatootsieState) -> float | None:
        if state.winners is not None:
            return None
        if state.phase in ("category", "between"):
            return state.letter_at
        if state.phase == "vote" and state.vote is not None:
            return state.vote.until
        if state.phase == "first_vote" and state.first_vote is not None:
            return state.first_vote.until
        if state.phase == "letter":
            return state.call.until if state.call is not None else state.quiet_until
        return None

    def _tick(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        for _ in range(MAX_TIMERS_PER_TICK):
            due = self.deadline(state)
            if due is None or due > now:
                return
            self._fire(state, due, events)

    def _fire(self, state: KatootsieState, at: float, events: list[Event]) -> None:
        if state.phase in ("category", "between"):
            self._reveal_letter(state, at, events)
        elif state.phase == "vote":
            self._close_vote(state, at, events)
        elif state.phase == "first_vote":
            self._close_first_vote(state, at, events)
        elif state.call is not None:
            caller = state.call.seat
            state.record(
                events,
                "katootsie_won",
                f"Nobody answered in time: {state.name(caller)} takes the letter with Katootsie!",
                seat=caller,
            )
            self._take(state, caller, "katootsie", None, at, events)
        else:
            self._set_aside(state, at, events)

    # Letters -----------------------------------------------------------------

    def _draw(self, state: KatootsieState) -> str:
        if state.letter_cards:
            return state.letter_cards.pop(0)
        if not state.spare_cards:  # a tie-break after the pile ran out
            state.spare_cards = self._letter_pile(state, None)
        return state.spare_cards.pop(0)

    def _reveal_letter(self, state: KatootsieState, at: float, events: list[Event]) -> None:
        card = self._draw(state)
        state.letter_card = card
        state.letter = letter_of(card)
        state.letter_at = None
        if not state.stake and not state.sudden:
            state.category_letters += 1
        state.locked = []
        state.call = None
        state.phase = "letter"
        anywhere = " (Anywhere)" if state.letter in ANYWHERE else ""
        who = ""
        if state.stake:
            who = " Tie-break: only " + self._names(state, state.players_in) + " may answer."
        self._open(state, at)
        state.record(
            events,
            "letter",
            f"Letter {state.letter}{anywhere}!{who}",
            letter=state.letter,
            anywhere=bool(anywhere),
            reveal=state.moment,
            opened_at=at,
        )

    def _open(self, state: KatootsieState, at: float) -> None:
        """A new real-time moment for the open letter."""
        state.moment += 1
        state.opened_at = at
        state.quiet_until = at + state.options["no_answer_seconds"]
        state.phase = "letter"

    def _names(self, state: KatootsieState, seats: list[int]) -> str:
        names = [state.name(seat) for seat in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def _still_in(self, state: KatootsieState) -> list[int]:
        return [seat for seat in state.players_in if seat not in state.locked]

    def _set_aside(self, state: KatootsieState, at: float, events: list[Event]) -> None:
        letter = state.letter or "?"
        if state.stake:
            stake = [*state.stake]
            state.record(
                events,
                "set_aside",
                f"Nobody took the tie-break letter {letter}: the tie-break ends and "
                f"{', '.join(stake)} are set aside.",
                letters=stake,
            )
            state.stake = []
            state.tied = []
        else:
            state.record(
                events, "set_aside", f"Nobody took {letter}: it is set aside.", letter=letter
            )
        state.last = Result(letter, None, "set_aside")
        self._after_letter(state, at, events)

    def _take(
        self,
        state: KatootsieState,
        seat: int,
        how: str,
        answer: str | None,
        at: float,
        events: list[Event],
        caller: int | None = None,
    ) -> None:
        """``seat`` wins the open letter (and any letters at stake)."""
        assert state.letter is not None
        if state.stake:
            letters = [*state.stake, state.letter]
            if state.tied and len(state.players_in) > 1:
                how = "tiebreak"
        else:
            letters = [state.letter]
        if answer is not None and state.category is not None:
            state.used.append(answer)
        state.last = Result(state.letter, seat, how, answer, caller, letters)
        state.stake = []
        state.tied = []
        if state.sudden:
            state.sudden_wins[seat] += len(letters)
            won = (
                "a sudden-death letter"
                if len(letters) == 1
                else f"{len(letters)} sudden-death letters"
            )
            tally = min(
                state.sudden_wins[seat], SUDDEN_DEATH_WINS
            )  # a tiebreak's stake can pass it
            state.record(
                events,
                "sudden_letter",
                f"{state.name(seat)} wins {won} ({tally} of {SUDDEN_DEATH_WINS}).",
                seat=seat,
            )
        else:
            for letter in letters:
                self._credit(state, seat, letter, events)
        self._after_letter(state, at, events)

    def _credit(self, state: KatootsieState, seat: int, letter: str, events: list[Event]) -> None:
        """Give ``seat`` one letter, unless it owes one: then the player owed gets it."""
        if state.debts[seat]:
            creditor = state.debts[seat].pop(0)
            state.won[creditor].append(letter)
            state.round_points[creditor][state.round - 1] += 1
            state.record(
                events,
                "debt_paid",
                f"{state.name(seat)} owed a letter: {letter} goes to {state.name(creditor)}.",
                seat=seat,
                to=creditor,
                letter=letter,
            )
            return
        state.won[seat].append(letter)
        state.round_points[seat][state.round - 1] += 1

    def _after_letter(self, state: KatootsieState, at: float, events: list[Event]) -> None:
        state.letter = None
        state.letter_card = None
        state.call = None
        state.vote = None
        state.first_vote = None
        state.locked = []
        state.opened_at = None
        state.quiet_until = None
        if state.sudden:
            best = max(state.sudden_wins[seat] for seat in state.sudden)
            if best >= SUDDEN_DEATH_WINS:
                winner = next(s for s in state.sudden if state.sudden_wins[s] == best)
                self._finish(state, [winner], events)
                return
            if not state.letter_cards:
                self._finish(state, list(state.sudden), events)
                return
            state.players_in = list(state.sudden)
            self._between(state, at)
            return
        state.players_in = list(range(len(state.players)))
        if not state.letter_cards:
            self._end_round(state, at, events)
        elif state.category_letters >= LETTERS_PER_CATEGORY:
            self._next_category(state, at, events)
        else:
            self._between(state, at)

    def _between(self, state: KatootsieState, at: float) -> None:
        state.phase = "between"
        state.letter_at = at + LETTER_PAUSE_S

    def _end_round(self, state: KatootsieState, at: float, events: list[Event]) -> None:
        points = [row[state.round - 1] for row in state.round_points]
        table = ", ".join(
            f"{name} {score}" for name, score in zip(state.players, points, strict=True)
        )
        state.record(
            events,
            "round_end",
            f"Round {state.round} is over: {table}.",
            round=state.round,
            points=points,
        )
        if state.round < state.options["rounds"]:
            state.round += 1
            self._start_round(state, at, events)
            return
        totals = self.scores(state)
        top = list(winners_by_score(totals))
        if len(top) == 1:
            self._finish(state, top, events)
            return
        state.sudden = top
        state.players_in = list(top)
        state.letter_cards = self._letter_pile(state, None)
        state.record(
            events,
            "sudden_death",
            f"Sudden death: {self._names(state, top)} are tied with {totals[top[0]]}; "
            f"first to win {SUDDEN_DEATH_WINS} letters wins.",
            seats=None,
            players=top,
        )
        self._next_category(state, at, events)

    def _finish(self, state: KatootsieState, winners: list[int], events: list[Event]) -> None:
        state.winners = winners
        state.phase = "over"
        state.letter_at = None
        text = self._names(state, winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        state.record(events, "game_over", f"{text} {verb}!", winners=winners)

    # Actions -----------------------------------------------------------------

    def _apply(
        self, state: KatootsieState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        kind = action_type(action, self.ACTIONS)
        if kind == "answer":
            self._answer(state, seat, action, now, events)
        elif kind == "katootsie":
            self._call(state, seat, action, now, events)
        elif kind == "vote":
            self._vote(state, seat, action, now, events)
        elif kind == "first":
            self._first(state, seat, action, now, events)
        else:
            self._tie(state, seat, action, now, events)

    def _check_moment(self, state: KatootsieState, action: Action) -> None:
        moment = action_field(action, "reveal", int)
        if state.phase != "letter":
            raise StaleReveal("No letter is open for answers now")
        if moment != state.moment:
            raise StaleReveal(
                f"That was for moment #{moment}; the open one is #{state.moment} "
                f"(letter {state.letter})"
            )

    def _may_play(self, state: KatootsieState, seat: int) -> None:
        if seat not in state.players_in:
            raise NotYourTurn("Only " + self._names(state, state.players_in) + " play this letter")
        if seat in state.locked:
            raise LockedOut("You gave a bad answer for this letter: you are out until the next")

    def _text(self, action: Action) -> str:
        text = action.get("text", "")
        if not isinstance(text, str):
            raise InvalidAction("An answer's 'text' is text")
        if len(text) > MAX_ANSWER_LENGTH:
            raise InvalidAction(f"An answer is at most {MAX_ANSWER_LENGTH} characters")
        if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in text):
            raise InvalidAction("An answer may not hold control characters")
        return " ".join(text.split())

    def _answer(
        self, state: KatootsieState, seat: int, action: Action, now: float, events: list[Event]
    ) -> None:
        self._check_moment(state, action)
        text = self._text(action)
        self._may_play(state, seat)
        if state.call is not None and state.call.seat == seat:
            raise LockedOut("You called Katootsie!: you may not answer this letter")
        self._judge(state, seat, text, now, events)

    def _judge(
        self, state: KatootsieState, seat: int, text: str, now: float, events: list[Event]
    ) -> None:
        """Check one answer and act on the verdict (take, vote, or lock out)."""
        assert state.category is not None and state.letter is not None
        verdict = self._verdict(state, text)
        shown = _quote(text) if text else "a blank answer"
        if verdict.refused:
            self._refuse(state, seat, text, verdict, events)
            self._after_lockout(state, now, events)
            return
        if verdict is Verdict.LISTED:
            state.record(
                events,
                "answer",
                f"{state.name(seat)} answered {shown}: accepted (in the list).",
                seat=seat,
                answer=text,
                verdict=str(verdict),
            )
            self._correct(state, seat, text, "answer", now, events)
            return
        voters = [other for other in range(len(state.players)) if other != seat]
        if state.call is not None:
            state.call.left = max(0.0, state.call.until - now)
        state.vote = Vote(seat, text, voters, now + state.options["vote_seconds"])
        state.phase = "vote"
        state.record(
            events,
            "vote_open",
            f"{state.name(seat)} answered {shown}: not in the list, so the others vote "
            f"(a strict majority of the votes cast rejects it; otherwise it stands).",
            seat=seat,
            answer=text,
            voters=voters,
            until=state.vote.until,
        )

    def _verdict(self, state: KatootsieState, text: str) -> Verdict:
        assert state.category is not None and state.letter is not None
        used = {answers.used_key(answer) for answer in state.used}
        return answers.check(state.category, state.letter, text, used)

    def _letter_rule(self, state: KatootsieState) -> str:
        if state.letter in ANYWHERE:
            return f"it has no {state.letter} anywhere in it"
        return f"it does not begin with {state.letter}"

    def _correct(
        self,
        state: KatootsieState,
        seat: int,
        text: str,
        how: str,
        now: float,
        events: list[Event],
    ) -> None:
        """A correct answer takes the letter; after a call, it also takes one of the caller's."""
        call = state.call
        if call is None:
            self._take(state, seat, how, text, now, events)
            return
        caller = call.seat
        self._penalise(state, caller, seat, events)
        self._take(state, seat, "caught", text, now, events, caller=caller)

    def _penalise(self, state: KatootsieState, caller: int, to: int, events: list[Event]) -> None:
        if state.sudden:
            if state.sudden_wins[caller] > 0:
                state.sudden_wins[caller] -= 1
                state.sudden_wins[to] += 1
                text = (
                    f"{state.name(to)} also takes a sudden-death letter from {state.name(caller)}."
                )
            else:
                text = f"{state.name(caller)} has no sudden-death letter to lose."
            state.record(events, "katootsie_lost", text, seat=caller, to=to)
            return
        if state.won[caller]:
            letter = state.won[caller].pop()
            state.won[to].append(letter)
            row = state.round_points
            row[caller][state.round - 1] -= 1
            row[to][state.round - 1] += 1
            state.record(
                events,
                "katootsie_lost",
                f"Katootsie! lost: {state.name(to)} also takes {letter} from {state.name(caller)}.",
                seat=caller,
                to=to,
                letter=letter,
            )
            return
        state.debts[caller].append(to)
        state.record(
            events,
            "katootsie_lost",
            f"Katootsie! lost: {state.name(caller)} has no letters, so owes "
            f"{state.name(to)} their next one.",
            seat=caller,
            to=to,
            debt=True,
        )

    def _refuse(
        self, state: KatootsieState, seat: int, text: str, verdict: Verdict, events: list[Event]
    ) -> None:
        """A bad answer refused at once: its player is out for this letter."""
        reason = {
            Verdict.BLANK: "nothing was typed",
            Verdict.WRONG_LETTER: self._letter_rule(state),
            Verdict.REPEAT: "it already took a letter in this category",
        }[verdict]
        shown = _quote(text) if text else "a blank answer"
        state.record(
            events,
            "bad_answer",
            f"{state.name(seat)} answered {shown}: refused, {reason}.",
            seat=seat,
            answer=text,
            verdict=str(verdict),
        )
        if seat not in state.locked:
            state.locked.append(seat)

    def _lock_out(self, state: KatootsieState, seat: int, now: float, events: list[Event]) -> None:
        if seat not in state.locked:
            state.locked.append(seat)
        self._after_lockout(state, now, events)

    def _after_lockout(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        """After bad answers: the caller or the last one in takes the letter, or it reopens."""
        left = self._still_in(state)
        call = state.call
        if call is not None and left == [call.seat]:
            state.record(
                events,
                "katootsie_won",
                f"Nobody else can answer: {state.name(call.seat)} takes the letter with Katootsie!",
                seat=call.seat,
            )
            self._take(state, call.seat, "katootsie", None, now, events)
            return
        if len(left) == 1:
            state.record(
                events,
                "default",
                f"Everyone else is out: {state.name(left[0])} takes {state.letter} by default.",
                seat=left[0],
            )
            self._take(state, left[0], "default", None, now, events)
            return
        if not left:  # only when the last two were locked out by one tie
            self._set_aside(state, now, events)
            return
        self._reopen(state, now)

    def _reopen(self, state: KatootsieState, now: float) -> None:
        """The letter is open again for the players still in (a new moment)."""
        call = state.call
        self._open(state, now)
        if call is not None:
            call.until = now + call.left if state.vote is not None else call.until
        state.vote = None
        state.first_vote = None

    def _call(
        self, state: KatootsieState, seat: int, action: Action, now: float, events: list[Event]
    ) -> None:
        self._check_moment(state, action)
        self._may_play(state, seat)
        if state.call is not None:
            raise IllegalAction(f"{state.name(state.call.seat)} already called Katootsie!")
        if len(self._still_in(state)) < 2:
            raise IllegalAction("Nobody else can answer this letter")
        state.call = Call(seat, now + KATOOTSIE_SECONDS)
        self._open(state, now)
        state.record(
            events,
            "katootsie",
            f"{state.name(seat)} calls Katootsie! The others have "
            f"{KATOOTSIE_SECONDS:g} seconds to answer.",
            seat=seat,
            until=state.call.until,
            reveal=state.moment,
        )

    # Votes -------------------------------------------------------------------

    def _ballot(
        self, state: KatootsieState, seat: int, voters: list[int], votes: list[Any]
    ) -> None:
        if seat not in voters:
            raise NotYourTurn("You do not vote on this")
        if any(cast[0] == seat for cast in votes):
            raise IllegalAction("You have already voted")

    def _vote(
        self, state: KatootsieState, seat: int, action: Action, now: float, events: list[Event]
    ) -> None:
        vote = state.vote
        if state.phase != "vote" or vote is None:
            raise IllegalAction("No answer is being voted on now")
        accept = action_field(action, "accept", bool)
        self._ballot(state, seat, vote.voters, vote.votes)
        vote.votes.append([seat, accept])
        word = "for" if accept else "against"
        state.record(events, "vote", f"{state.name(seat)} votes {word}.", seat=seat, accept=accept)
        if len(vote.votes) == len(vote.voters):
            self._close_vote(state, now, events)

    def _close_vote(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        vote = state.vote
        assert vote is not None
        against = sum(1 for _, accept in vote.votes if not accept)
        cast = len(vote.votes)
        rejected = against * 2 > cast
        tally = f"{cast - against} for, {against} against"
        if rejected:
            state.record(
                events,
                "vote_result",
                f"{_quote(vote.text)} is rejected ({tally}): {state.name(vote.seat)} is out "
                "for this letter.",
                seat=vote.seat,
                accepted=False,
                against=against,
                cast=cast,
            )
            self._lock_out(state, vote.seat, now, events)
            return
        why = "no votes" if cast == 0 else "a tied vote" if against * 2 == cast else tally
        note = "" if why == tally else " (assumed: a tie or no votes lets an answer stand)"
        state.record(
            events,
            "vote_result",
            f"{_quote(vote.text)} stands ({why}){note}.",
            seat=vote.seat,
            accepted=True,
            against=against,
            cast=cast,
        )
        seat, text = vote.seat, vote.text
        state.vote = None
        self._correct(state, seat, text, "vote", now, events)

    # Ties --------------------------------------------------------------------

    def tie_threshold_s(self, options: Mapping[str, Any]) -> float | None:
        """The table's ``tie_ms``: answers that close are a tie, settled by the rules."""
        parsed = parse_options(self.name, self.option_specs, options)
        return float(parsed["tie_ms"]) / 1000

    def settle_tie(self, reveal: int, claims: Sequence[tuple[Seat, Action]]) -> Action | None:
        """The host's tied claims become a :data:`TIE_ACTION` (a vote, then tie-break letters)."""
        return {
            "type": TIE_ACTION,
            "reveal": reveal,
            "claims": [{"seat": seat, "action": dict(action)} for seat, action in claims],
        }

    def _tie(
        self, state: KatootsieState, seat: int, action: Action, now: float, events: list[Event]
    ) -> None:
        """The host's arbiter found these claims tied (see :data:`TIE_ACTION`)."""
        self._check_moment(state, action)
        claims = action.get("claims")
        if not isinstance(claims, list) or len(claims) < 2:
            raise InvalidAction("A tie names at least two claims")
        tied: list[tuple[int, Mapping[str, Any]]] = []
        for claim in claims:
            if not isinstance(claim, Mapping):
                raise InvalidAction("Each tied claim is a map with 'seat' and 'action'")
            who, act = claim.get("seat"), claim.get("action")
            if (
                not isinstance(who, int)
                or isinstance(who, bool)
                or not 0 <= who < len(state.players)
                or not isinstance(act, Mapping)
            ):
                raise InvalidAction("Each tied claim is a map with 'seat' and 'action'")
            if act.get("type") not in self.claim_types or act.get("reveal") != state.moment:
                raise InvalidAction("A tied claim is an answer or a call for the open moment")
            if any(other == who for other, _ in tied):
                raise InvalidAction("A seat appears twice in the tie")
            tied.append((who, act))
        if seat not in [who for who, _ in tied]:
            raise InvalidAction("The host applies a tie as one of the tied seats")
        for who, act in tied:
            self._may_play(state, who)
            if act["type"] == "answer":
                self._text(act)
                if state.call is not None and state.call.seat == who:
                    raise LockedOut("The caller may not answer")
        answered = [(who, self._text(act)) for who, act in tied if act["type"] == "answer"]
        calls = [who for who, act in tied if act["type"] == "katootsie"]
        state.record(
            events,
            "tie",
            f"{self._names(state, [who for who, _ in tied])} were too close to call "
            f"(within {state.options['tie_ms']} ms).",
            players=[who for who, _ in tied],
        )
        if not answered:
            self._call(state, calls[0], {"type": "katootsie", "reveal": state.moment}, now, events)
            return
        valid: list[tuple[int, str]] = []
        for who, text in answered:
            verdict = self._verdict(state, text)
            if verdict.refused:
                self._refuse(state, who, text, verdict, events)
            else:
                valid.append((who, text))
        if not valid:
            callers = [who for who in calls if who not in state.locked]
            if callers and len(self._still_in(state)) > 1:
                self._call(
                    state, callers[0], {"type": "katootsie", "reveal": state.moment}, now, events
                )
            else:
                self._after_lockout(state, now, events)
            return
        if len(valid) == 1:
            self._judge(state, valid[0][0], valid[0][1], now, events)
            return
        seats = [who for who, _ in valid]
        voters = [other for other in range(len(state.players)) if other not in seats]
        if not voters:
            self._tie_break(state, seats, now, events)
            return
        if state.call is not None:
            state.call.left = max(0.0, state.call.until - now)
        state.first_vote = FirstVote(
            [[who, text] for who, text in valid], voters, now + state.options["vote_seconds"]
        )
        state.phase = "first_vote"
        shown = "; ".join(f"{state.name(who)}: {_quote(text)}" for who, text in valid)
        state.record(
            events,
            "first_vote",
            f"Who was first? {shown}. The others vote (or say: the same time).",
            answers=[[who, text] for who, text in valid],
            voters=voters,
            until=state.first_vote.until,
        )

    def _first(
        self, state: KatootsieState, seat: int, action: Action, now: float, events: list[Event]
    ) -> None:
        first = state.first_vote
        if state.phase != "first_vote" or first is None:
            raise InvalidAction("Nobody is being voted first now")
        choice = action.get("seat")
        tied = [who for who, _ in first.answers]
        if choice is not None and (
            isinstance(choice, bool) or not isinstance(choice, int) or choice not in tied
        ):
            raise InvalidAction("Vote for one of the tied players, or null for the same time")
        self._ballot(state, seat, first.voters, first.votes)
        first.votes.append([seat, choice])
        said = "the same time" if choice is None else state.name(choice)
        state.record(events, "vote", f"{state.name(seat)} says: {said}.", seat=seat, first=choice)
        if len(first.votes) == len(first.voters):
            self._close_first_vote(state, now, events)

    def _close_first_vote(self, state: KatootsieState, now: float, events: list[Event]) -> None:
        first = state.first_vote
        assert first is not None
        cast = len(first.votes)
        for who, text in first.answers:
            count = sum(1 for _, choice in first.votes if choice == who)
            if count * 2 > cast:
                state.record(
                    events,
                    "first_result",
                    f"The table says {state.name(who)} was first ({count} of {cast}).",
                    seat=who,
                )
                state.first_vote = None
                self._resume(state, now)
                self._judge(state, who, text, now, events)
                return
        seats = [who for who, _ in first.answers]
        state.record(
            events,
            "first_result",
            f"No majority for anyone ({cast} vote{'' if cast == 1 else 's'}): a tie-break.",
            seat=None,
        )
        self._tie_break(state, seats, now, events)

    def _resume(self, state: KatootsieState, now: float) -> None:
        state.phase = "letter"
        if state.call is not None:
            state.call.until = now + state.call.left

    def _tie_break(
        self, state: KatootsieState, seats: list[int], now: float, events: list[Event]
    ) -> None:
        assert state.letter is not None
        state.stake.append(state.letter)
        state.tied = list(seats)
        state.record(
            events,
            "tiebreak",
            f"Tie-break for {self._names(state, seats)}: one more letter for this category; "
            f"the winner takes {', '.join(state.stake)} too.",
            players=list(seats),
            stake=list(state.stake),
        )
        state.letter = None
        state.letter_card = None
        state.call = None
        state.vote = None
        state.first_vote = None
        state.locked = []
        state.players_in = list(seats)
        self._between(state, now)

    # Queries -----------------------------------------------------------------

    def legal_actions(self, state: KatootsieState, seat: Seat) -> list[dict[str, Any]]:
        if state.winners is not None:
            return []
        if state.phase == "letter":
            if seat not in state.players_in or seat in state.locked:
                return []
            legal: list[dict[str, Any]] = []
            if state.call is None or state.call.seat != seat:
                legal.append({"type": "answer", "reveal": state.moment})
            if state.call is None and len(self._still_in(state)) > 1:
                legal.append({"type": "katootsie", "reveal": state.moment})
            return legal
        if state.phase == "vote" and state.vote is not None:
            vote = state.vote
            if seat in vote.voters and all(cast[0] != seat for cast in vote.votes):
                return [{"type": "vote", "accept": True}, {"type": "vote", "accept": False}]
        if state.phase == "first_vote" and state.first_vote is not None:
            first = state.first_vote
            if seat in first.voters and all(cast[0] != seat for cast in first.votes):
                return [{"type": "first", "seat": who} for who, _ in first.answers] + [
                    {"type": "first", "seat": None}
                ]
        return []

    def outcome(self, state: KatootsieState) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(tuple(self.scores(state)), tuple(state.winners))

    def phase(self, state: KatootsieState) -> str:
        if state.sudden and state.phase != "over":
            return f"sudden_death_{state.phase}"
        return state.phase

    def scores(self, state: KatootsieState) -> list[int]:
        return [len(letters) for letters in state.won]

    def reveal(self, state: KatootsieState) -> int | None:
        """The open moment: claims (answers, Katootsie! calls) race for it."""
        if state.winners is None and state.phase == "letter":
            return state.moment
        return None

    def hidden(self, state: KatootsieState, seat: Seat | None) -> dict[str, str]:
        """The face-down cards: every letter card id, and each unrevealed category.

        Letter card ids are never sent at all, so naming them checks that no
        card id leaks; the letters on them are public words (and repeat), so
        the order of the pile is guarded by never being put into a view or an
        event. An unrevealed category is named by its code and by the words
        that announce it ("Category: Birds."): a bare title is not checked,
        because titles occur inside other titles and answers ("Birds" in
        "Birds of Prey", "Kings" in "Kingston").
        """
        secrets = {card: card for card in [*state.letter_cards, *state.spare_cards]}
        for code in state.category_cards:
            secrets[code] = f"Category: {answers.category(code).label}."
        return secrets

    def _view(self, state: KatootsieState, seat: Seat | None) -> dict[str, Any]:
        """Katootsie!'s own view keys (see PROTOCOL.md)."""
        category = None
        if state.category is not None:
            found = answers.category(state.category)
            category = {
                "code": found.code,
                "title": found.title,
                "ignore_articles": found.ignore_articles,
                "label": found.label,
            }
        call = state.call
        vote = state.vote
        first = state.first_vote
        last = state.last
        return {
            "round": state.round,
            "rounds": state.options["rounds"],
            "category": category,
            "category_letter": state.category_letters,
            "letter": state.letter,
            "anywhere": state.letter is not None and state.letter in ANYWHERE,
            "letters_left": len(state.letter_cards),
            "letter_at": state.letter_at,
            "opened_at": state.opened_at if state.phase == "letter" else None,
            "quiet_until": state.quiet_until if state.phase == "letter" else None,
            "players_in": list(state.players_in),
            "locked": list(state.locked),
            "call": None
            if call is None
            else {"seat": call.seat, "until": call.until, "left": call.left},
            "vote": None
            if vote is None
            else {
                "seat": vote.seat,
                "answer": vote.text,
                "voters": list(vote.voters),
                "votes": [list(cast) for cast in vote.votes],
                "until": vote.until,
            },
            "first_vote": None
            if first is None
            else {
                "answers": [list(pair) for pair in first.answers],
                "voters": list(first.voters),
                "votes": [list(cast) for cast in first.votes],
                "until": first.until,
            },
            "tiebreak": None
            if not state.stake
            else {"players": list(state.tied), "stake": list(state.stake)},
            "used": list(state.used),
            "won": [list(letters) for letters in state.won],
            "round_points": [list(row) for row in state.round_points],
            "debts": [list(owed) for owed in state.debts],
            "sudden_death": None
            if not state.sudden
            else {"players": list(state.sudden), "wins": list(state.sudden_wins)},
            "last": None
            if last is None
            else {
                "letter": last.letter,
                "seat": last.seat,
                "how": last.how,
                "answer": last.answer,
                "caller": last.caller,
                "letters": list(last.stake),
            },
            "katootsie_seconds": KATOOTSIE_SECONDS,
        }


GAME = Katootsie()
