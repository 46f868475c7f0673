"""Catchy!: two players play tricks to lure a fickle cat into their arms.

Rules: ``shared/rules/catchy.txt`` and the Catchy! section of
``CLARIFICATIONS.md``; every assumption is a named constant or an option
below and is listed in :data:`ASSUMPTIONS` (the in-app rules help shows it).

Cards (17)
    ``R1``..``R5``, ``G1``..``G5``, ``B1``..``B5``: numbers 1-5 in red, green
    and blue (odd numbers show a cat). ``JK``: the Joker, a colourless 3.
    ``ST``: the Starting card, which is never played.

The course
    The cat sits on a line of positions ``-arms..+arms`` (``arms`` defaults to
    :data:`ARMS_DISTANCE`). Seat 0 sits at the negative end, seat 1 at the
    positive end; a player's Arms is their end. The cat starts each round at
    0, red side up. The three face-down course cards are out of play for the
    round: nobody sees them until the round ends.

Dealing and ``options["deck"]``
    Each round: the 16 cards other than ``ST`` are shuffled and the top 3
    form the course; ``ST`` joins the other 13, they are shuffled and dealt 7
    to each seat. An explicit ``deck`` (top first, all 17 codes) replaces the
    shuffles: cards 1-3 are the course (``ST`` may not be among them), cards
    4-10 are seat 0's hand and cards 11-17 seat 1's. A flat list sets round 1;
    a list of lists sets one round each (later rounds are shuffled).

Actions
    ``{"type": "swap", "course": i}`` (``i`` in 0..2): the holder of ``ST``
    takes course card ``i`` into their hand and leaves ``ST`` there, before
    leading the first trick. ``{"type": "play", "card": "R3"}``: play a card.

Between rounds the next round is dealt at once; the finished round's
summary (the course revealed, where the cat ended, the points) stays in the
view under ``last_round`` until the next round ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import (
    DECK_OPTION,
    SHARED,
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
    action_field,
    action_type,
    check_deck,
    deck_for_round,
    deck_orders,
    quick_init,
    winners_by_score,
)

COLOURS: dict[str, str] = {"R": "red", "G": "green", "B": "blue"}
NUMBERS = (1, 2, 3, 4, 5)
JOKER = "JK"
STARTING = "ST"
PLAYABLE: tuple[str, ...] = (*(c + str(n) for c in COLOURS for n in NUMBERS), JOKER)
ALL_CARDS: tuple[str, ...] = (*PLAYABLE, STARTING)
_PLAYABLE_SET = frozenset(PLAYABLE)

HAND_SIZE = 7
COURSE_SIZE = 3
TRICKS_PER_ROUND = 7

ARMS_DISTANCE = 3
"""Assumed: the cat is in a player's Arms three steps from the centre."""

JOKER_VALUE = 3
"""Assumed: the Joker is a colourless 3 (odd), so it beats 1-2 and loses to 4-5."""

TARGET_SCORE = 7
"""Found: the game ends when a player reaches 7 points."""

ROUND_PAUSE_S = 0.0
"""How long the finished round stays on the table before the next deal (the host's
timer deals it; 0: at once, as soon as everyone has been sent the round's end)."""

ARMS_POINTS, CLOSER_POINTS, CENTRE_POINTS = 3, 2, 1

RED, BLUE = "red", "blue"

ASSUMPTIONS: tuple[str, ...] = (
    f"The course has positions -{ARMS_DISTANCE}..+{ARMS_DISTANCE}: the five columns between "
    f"the players and, one step further, each player's Arms ({ARMS_DISTANCE} steps from the "
    "centre). Table option 'arms'.",
    f"The Joker is a colourless {JOKER_VALUE} (odd): it beats 1 and 2 and loses to 4 and 5; "
    "with any 3 the cat flips, does not move, and the same leader leads again.",
    "The Joker may be played at any time, even when you hold the led colour; "
    "if the Joker is led, the follower may play any card.",
    "The holder of the Starting card swaps it for one course card, unseen, then leads "
    "the first trick of the round; afterwards the player the cat moved towards leads.",
    "Course cards are out of play and hidden from both players until the round ends.",
    "Every round is set up afresh: new shuffle, new course, the cat at the centre, red side up.",
)


def number(card: str) -> int:
    """The strength of a playable card (the Joker counts as :data:`JOKER_VALUE`)."""
    return JOKER_VALUE if card == JOKER else int(card[1])


def colour(card: str) -> str | None:
    """The colour letter of a number card; ``None`` for the Joker."""
    return None if card == JOKER else card[0]


class _Colours(dict[str, str | None]):
    """:func:`colour` by lookup; a code that is no card still gets :func:`colour`'s answer."""

    def __missing__(self, card: str) -> str | None:
        return colour(card)


_COLOUR_OF: dict[str, str | None] = _Colours({card: colour(card) for card in ALL_CARDS})
""":func:`colour` of every card, for the rules' inner loops (a lookup, not a call)."""
_NUMBER_OF: dict[str, int] = {card: number(card) for card in PLAYABLE}


def card_name(card: str) -> str:
    """A card's name for people: ``Red 3``, ``Joker``, ``Starting card``."""
    if card == JOKER:
        return "Joker"
    if card == STARTING:
        return "Starting card"
    return f"{COLOURS[card[0]].capitalize()} {card[1]}"


_NAMES: dict[str, str] = {card: card_name(card) for card in ALL_CARDS}


def _sort_key(card: str) -> tuple[int, int]:
    if card not in PLAYABLE:
        return (9, 0)
    if card == JOKER:
        return (len(COLOURS), 0)
    return (list(COLOURS).index(card[0]), int(card[1]))


_SORT_KEYS: dict[str, tuple[int, int]] = {card: _sort_key(card) for card in ALL_CARDS}
_RANKS: dict[str, int] = {
    card: rank for rank, card in enumerate(sorted(ALL_CARDS, key=_SORT_KEYS.__getitem__))
}
_rank_of = _RANKS.__getitem__
"""A card's place in hand order, as one integer (the order of :func:`sort_key`: every key
differs). Hands are sorted on every view and every ``legal_actions``, and comparing
integers sorts a hand in two thirds of the time comparing key tuples takes."""


def sort_key(card: str) -> tuple[int, int]:
    """Hand order: by colour (red, green, blue), then number; the Joker last."""
    key = _SORT_KEYS.get(card)
    return _sort_key(card) if key is None else key


@quick_init
@dataclass(frozen=True, slots=True)
class TrickResult:
    """How a trick resolves: who won, whether the cat flipped, where it went."""

    winner: Seat | None
    """``None`` only for the Joker-and-3 exception, where nobody needs to win."""
    flipped: bool
    side: str
    toward: Seat | None
    """The seat the cat moved towards, ``None`` when it stayed."""
    next_leader: Seat
    exception: bool


_Resolution = tuple[Seat | None, bool, str, Seat | None, Seat, bool]
"""A :class:`TrickResult`'s fields in order, as a plain tuple."""


def _resolve(leader: Seat, led: str, followed: str, side: str) -> _Resolution:
    """Steps 2-4 of the trick flowchart, the one place they are written down.

    Returns :class:`TrickResult`'s fields as a tuple: the rules resolve a
    trick on every second play, and a tuple costs a fraction of a record.
    """
    led_number, followed_number = _NUMBER_OF[led], _NUMBER_OF[followed]
    flipped = led_number % 2 == 1 and followed_number % 2 == 1
    new_side = (BLUE if side == RED else RED) if flipped else side
    has_joker = JOKER in (led, followed)
    if has_joker and led_number == followed_number:
        # The Joker with a 3: the cat flips but does not move; the leader leads again.
        return (None, flipped, new_side, None, leader, True)
    if has_joker or _COLOUR_OF[led] == _COLOUR_OF[followed]:
        winner = leader if led_number > followed_number else 1 - leader
    else:
        winner = leader
    toward = winner if new_side == RED else 1 - winner
    return (winner, flipped, new_side, toward, toward, False)


def resolve_trick(leader: Seat, led: str, followed: str, side: str) -> TrickResult:
    """Apply steps 2-4 of the trick flowchart to two played cards.

    Pure and independent of any state, so bots and the UI can ask "what if".
    """
    return TrickResult(*_resolve(leader, led, followed, side))


_MUST_FOLLOW: dict[tuple[str, bool], str] = {
    (letter, joker): f"You must follow {name}{' (or play the Joker)' if joker else ''}"
    for letter, name in COLOURS.items()
    for joker in (False, True)
}
"""Why a card off the led colour may not be played, by the led colour and whether the
hand holds the Joker: said when such a play is refused and shown in the view."""


def follow_problem(hand: list[str], led: str, card: str) -> str | None:
    """Why ``card`` may not follow ``led`` from ``hand``, or ``None`` if it may."""
    led_colour = _COLOUR_OF[led]
    if led_colour is None or card == JOKER or _COLOUR_OF[card] == led_colour:
        return None
    for held in hand:
        if _COLOUR_OF[held] == led_colour:
            return _MUST_FOLLOW[led_colour, JOKER in hand]
    return None


@quick_init
@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick, as the state keeps it (public). Never changed once played,
    so copies of the state share it."""

    leader: Seat
    cards: tuple[str, str]
    """The led card, then the reply."""
    winner: Seat | None
    flipped: bool
    toward: Seat | None
    position: int
    """Where the cat is after the trick."""
    side: str

    def to_data(self) -> dict[str, Any]:
        """The trick as views carry it."""
        return _tricks_data((self,))[0]


def _tricks_data(tricks: Sequence[Trick]) -> list[dict[str, Any]]:
    """:meth:`Trick.to_data` of each trick. Written out in one comprehension (no call per
    trick): every view carries the round's tricks."""
    return [
        {
            "leader": trick.leader,
            "cards": [*trick.cards],
            "winner": trick.winner,
            "flipped": trick.flipped,
            "toward": trick.toward,
            "position": trick.position,
            "side": trick.side,
        }
        for trick in tricks
    ]


@dataclass(slots=True, kw_only=True)
class CatchyState(GameState):
    """A Catchy! game. ``trick`` holds the cards of the trick under way, leader's first."""

    round: int = 1
    phase: str = "swap"
    """``swap`` (the Starting card's holder swaps), ``play``, ``between`` (a round has
    ended; the next is dealt when :attr:`deal_at` falls due), or ``over``."""
    deal_at: float | None = None
    """Host time at which the next round is dealt (phase ``between``)."""
    hands: list[list[str]]
    course: list[str]
    starter: Seat
    leader: Seat
    turn: Seat
    cat: int = 0
    side: str = RED
    trick: list[str]
    tricks: list[Trick]
    """This round's finished tricks (public): leader, cards, winner, flip, move."""
    scores: list[int]
    last_round: dict[str, Any] | None = field(default=None, metadata=SHARED)
    """The previous round's summary: replaced each round, never changed (copies share it)."""
    winners: list[Seat] | None = None


class CatchyView(BaseView):
    """A Catchy! view: the common keys and those :meth:`Catchy._view` adds."""

    round: int
    turn: Seat | None
    leader: Seat
    starter: Seat
    hand: list[str] | None
    hand_counts: list[int]
    course: list[str]
    cat: dict[str, Any]
    trick: list[str]
    tricks: list[dict[str, Any]]
    tricks_per_round: int
    target: int
    last_round: dict[str, Any] | None
    unplayable: dict[str, str]


def _round_copy(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of a ``last_round`` summary for a view (its lists copied, the rest is numbers)."""
    if summary is None:
        return None
    copy = summary.copy()  # (a third quicker than a literal merging the summary in)
    copy["course"] = [*summary["course"]]
    copy["points"] = [*summary["points"]]
    copy["scores"] = [*summary["scores"]]
    return copy


class Catchy(Game[CatchyState]):
    """The Catchy! rules behind the engine contract."""

    name = "catchy"
    title = "Catchy!"
    min_players = 2
    max_players = 2
    state_type = CatchyState
    view_type = CatchyView
    assumptions = ASSUMPTIONS
    bots = (
        ("normal", "engine.games.catchy.bot:CatchyBot"),
        ("easy", "engine.games.catchy.bot:EasyCatchyBot"),
        ("hard", "engine.games.catchy.bot:HardCatchyBot"),
        ("catchy", "engine.games.catchy.bot:CatchyBot"),
    )
    option_specs = (
        Option(
            "target",
            TARGET_SCORE,
            "Points that end the game",
            minimum=1,
            maximum=99,
            label="Points to win",
        ),
        Option(
            "arms",
            ARMS_DISTANCE,
            "Steps from the centre to a player's Arms",
            minimum=2,
            maximum=9,
            label="Course length",
        ),
        DECK_OPTION,
    )

    # Setup --------------------------------------------------------------------

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> CatchyState:
        for order in deck_orders(options["deck"]):
            self._check_order(order)
        state = CatchyState(
            players=players,
            options=options,
            rng=rng,
            hands=[[], []],
            course=[],
            starter=0,
            leader=0,
            turn=0,
            trick=[],
            tricks=[],
            scores=[0, 0],
        )
        self._deal(state, [])
        return state

    def _check_order(self, order: list[Any]) -> None:
        cards = check_deck(self.title, order, ALL_CARDS)
        if STARTING in cards[:COURSE_SIZE]:
            raise InvalidOptions("The Starting card cannot be dealt into the course")

    def _deal(self, state: CatchyState, events: list[Event]) -> None:
        """Set up a round: course, hands, the cat at the centre, red side up."""
        order = deck_for_round(state.options["deck"], state.round)
        if order is None:
            rest = [card for card in PLAYABLE]
            state.rng.shuffle(rest)
            course, dealt = rest[:COURSE_SIZE], [*rest[COURSE_SIZE:], STARTING]
            state.rng.shuffle(dealt)
        else:
            course, dealt = list(order[:COURSE_SIZE]), list(order[COURSE_SIZE:])
        state.course = course
        state.hands = [dealt[:HAND_SIZE], dealt[HAND_SIZE:]]
        state.starter = 0 if STARTING in state.hands[0] else 1
        state.leader = state.turn = state.starter
        state.phase = "swap"
        state.cat, state.side = 0, RED
        state.trick, state.tricks = [], []
        state.record(
            events,
            "round_start",
            f"Round {state.round}: {state.name(state.starter)} holds the Starting card.",
            round=state.round,
            starter=state.starter,
        )

    # Actions -------------------------------------------------------------------

    def _apply(
        self, state: CatchyState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        kind = action.get("type")
        if kind not in ("play", "swap"):  # anything else: action_type says what is wrong
            kind = action_type(action, ("swap", "play"))
        if state.phase == "between":
            raise IllegalAction("The round is over; the next one is being dealt")
        if seat != state.turn:
            raise NotYourTurn(f"It is {state.name(state.turn)}'s turn")
        if kind == "swap":
            self._swap(state, seat, action, events)
        else:
            self._play(state, seat, action, now, events)

    def _swap(self, state: CatchyState, seat: Seat, action: Action, events: list[Event]) -> None:
        if state.phase != "swap":
            raise IllegalAction("The Starting card has already been swapped this round")
        index = action_field(action, "course", int)
        if not 0 <= index < COURSE_SIZE:
            raise InvalidAction(f"The course cards are numbered 0 to {COURSE_SIZE - 1}")
        taken = state.course[index]
        hand = state.hands[seat]
        hand.remove(STARTING)
        hand.append(taken)
        state.course[index] = STARTING
        state.phase = "play"
        state.record(
            events,
            "swap",
            f"{state.name(seat)} swaps the Starting card for course card {index + 1}.",
            seat=seat,
            course=index,
        )
        state.record(
            events, "took", f"You took {card_name(taken)} from the course.", [seat], card=taken
        )

    def _play(
        self, state: CatchyState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        if state.phase == "swap":
            raise IllegalAction("Swap the Starting card for a course card first")
        card = action.get("card")
        if type(card) is not str:  # anything else is judged (and refused) by action_field
            card = action_field(action, "card", str)
        if card not in _PLAYABLE_SET:
            raise InvalidAction(f"{card!r} is not a Catchy! card")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction(f"You do not hold the {card_name(card)}")
        trick = state.trick
        if trick:
            led = trick[0]
            led_colour = _COLOUR_OF[led]
            if led_colour is not None and card != JOKER and _COLOUR_OF[card] != led_colour:
                problem = follow_problem(hand, led, card)
                if problem is not None:
                    raise IllegalAction(problem)
        hand.remove(card)
        trick.append(card)
        verb = "leads" if len(trick) == 1 else "follows with"
        state.record(
            events, "play", f"{state.players[seat]} {verb} {_NAMES[card]}.", seat=seat, card=card
        )
        if len(trick) == 1:
            state.turn = 1 - seat
        else:
            self._finish_trick(state, now, events)

    def _finish_trick(self, state: CatchyState, now: float, events: list[Event]) -> None:
        led, followed = state.trick
        leader = state.leader
        resolution = _resolve(leader, led, followed, state.side)
        winner, flipped, side, toward, next_leader, exception = resolution
        state.side = side
        if toward is not None:
            state.cat += -1 if toward == 0 else 1
        position = state.cat
        state.tricks.append(Trick(leader, (led, followed), winner, flipped, toward, position, side))
        state.record(
            events,
            "trick",
            self._describe_trick(state, resolution),
            winner=winner,
            flipped=flipped,
            side=side,
            toward=toward,
            position=position,
            next_leader=next_leader,
            exception=exception,
        )
        state.trick = []
        state.leader = state.turn = next_leader
        if abs(position) >= state.options["arms"] or len(state.tricks) == TRICKS_PER_ROUND:
            self._end_round(state, now, events)

    def _describe_trick(self, state: CatchyState, resolution: _Resolution) -> str:
        """The trick's log line, from :func:`_resolve`'s fields."""
        winner, flipped, side, toward, next_leader, exception = resolution
        mood = f"both odd, the cat flips to {side}; " if flipped else ""
        players = state.players
        if exception:
            return f"Joker and 3: {mood}the cat stays put and {players[next_leader]} leads again."
        assert winner is not None and toward is not None
        return (
            f"{players[winner]} wins the trick; {mood}the cat ({side}) moves "
            f"towards {players[toward]}."
        )

    def _end_round(self, state: CatchyState, now: float, events: list[Event]) -> None:
        arms = state.options["arms"]
        points = [0, 0]
        if abs(state.cat) >= arms:
            holder = 0 if state.cat < 0 else 1
            points[holder] = ARMS_POINTS
            why = f"The cat is in {state.name(holder)}'s arms"
        elif state.cat != 0:
            holder = 0 if state.cat < 0 else 1
            points[holder] = CLOSER_POINTS
            why = f"The cat is closer to {state.name(holder)}"
        else:
            points = [CENTRE_POINTS, CENTRE_POINTS]
            why = "The cat is at the centre"
        state.scores = [score + gained for score, gained in zip(state.scores, points, strict=True)]
        course = list(state.course)
        state.last_round = {
            "round": state.round,
            "course": course,
            "position": state.cat,
            "side": state.side,
            "tricks": len(state.tricks),
            "points": points,
            "scores": list(state.scores),
        }
        shown = ", ".join([_NAMES[card] for card in course])
        tally = " and ".join(
            [f"{state.name(seat)} {points[seat]}" for seat in range(2) if points[seat]]
        )
        state.record(
            events,
            "round_end",
            f"Round {state.round} ends. {why}: {tally}. Course: {shown}. "
            f"Score {state.scores[0]}-{state.scores[1]}.",
            **state.last_round,
        )
        if max(state.scores) >= state.options["target"]:
            state.phase = "over"
            state.winners = list(winners_by_score(state.scores))
            names = " and ".join(state.name(seat) for seat in state.winners)
            verb = "win" if len(state.winners) > 1 else "wins"
            state.record(
                events,
                "game_end",
                # The winner's score first ("Bea wins 7-5!"); a tie reads the same either way.
                f"{names} {verb} {'-'.join(str(s) for s in sorted(state.scores, reverse=True))}!",
                scores=list(state.scores),
                winners=list(state.winners),
            )
            return
        # The next round is dealt by a timer (due at once): what was said about this
        # round's cards stays in this step, and the new deal is a step of its own.
        state.phase = "between"
        state.deal_at = now + ROUND_PAUSE_S

    def deadline(self, state: CatchyState) -> float | None:
        return state.deal_at if state.phase == "between" else None

    def _tick(self, state: CatchyState, now: float, events: list[Event]) -> None:
        state.deal_at = None
        state.round += 1
        self._deal(state, events)

    # Queries -------------------------------------------------------------------

    def legal_actions(self, state: CatchyState, seat: Seat) -> list[dict[str, Any]]:
        if seat != state.turn:
            return []
        phase = state.phase
        if phase != "play":
            if phase == "swap":
                return [{"type": "swap", "course": index} for index in range(COURSE_SIZE)]
            return []  # between rounds, or over
        hand = state.hands[seat]
        trick = state.trick
        led_colour = _COLOUR_OF[trick[0]] if trick else None
        if led_colour is not None:
            following = [card for card in hand if _COLOUR_OF[card] == led_colour]
            if following:
                # Must follow (the Joker may always be played): what follow_problem says.
                if JOKER in hand:
                    following.append(JOKER)
                hand = following
        return [{"type": "play", "card": card} for card in sorted(hand, key=_rank_of)]

    def outcome(self, state: CatchyState) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(tuple(state.scores), tuple(state.winners))

    def phase(self, state: CatchyState) -> str:
        return state.phase

    def scores(self, state: CatchyState) -> list[int]:
        return [*state.scores]

    def hidden(self, state: CatchyState, seat: Seat | None) -> dict[str, str]:
        """The other hand and the face-down course.

        Not secret: the Starting card (where it is, is public), and the cards
        of the previous round's course, which the view still shows in
        ``last_round`` although this round dealt them again.
        """
        if state.phase == "over":
            return {}
        shown = {STARTING, *(state.last_round or {}).get("course", [])}
        secret = list(state.course)
        for other, hand in enumerate(state.hands):
            if other != seat:
                secret.extend(hand)
        return {card: card_name(card) for card in secret if card not in shown}

    def _view(self, state: CatchyState, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` sees. Only its own hand; the course only as ``?`` (or ``ST``).

        Keys (besides the common ones): ``round``, ``turn`` (seat | None),
        ``leader``, ``starter``, ``hand`` (sorted codes | None for a
        spectator), ``hand_counts``, ``course`` (``"?"`` or ``"ST"`` each),
        ``cat`` ({position, side, arms}), ``trick`` (codes, leader's first),
        ``tricks`` (this round's finished tricks), ``tricks_per_round``,
        ``target``, ``last_round`` (the previous round's result | None) and
        ``unplayable`` (card -> why, when following).
        """
        hands = state.hands
        own = hands[seat] if seat is not None else None
        trick = state.trick
        phase = state.phase
        unplayable: dict[str, str] = {}
        if own is not None and trick and seat == state.turn and phase == "play":
            led_colour = _COLOUR_OF[trick[0]]
            if led_colour is not None:
                off = [card for card in own if card != JOKER and _COLOUR_OF[card] != led_colour]
                joker = JOKER in own
                if off and len(off) + joker < len(own):  # holds the led colour: must follow
                    # The same reason for every card off the led colour (follow_problem's).
                    unplayable = dict.fromkeys(off, _MUST_FOLLOW[led_colour, joker])
        options = state.options
        return {
            "round": state.round,
            "turn": None if phase in ("over", "between") else state.turn,
            "leader": state.leader,
            "starter": state.starter,
            "hand": None if own is None else sorted(own, key=_rank_of),
            "hand_counts": [len(hands[0]), len(hands[1])],  # two seats: no comprehension
            "course": [card if card == STARTING else "?" for card in state.course],
            "cat": {"position": state.cat, "side": state.side, "arms": options["arms"]},
            "trick": [*trick],
            "tricks": _tricks_data(state.tricks),
            "tricks_per_round": TRICKS_PER_ROUND,
            "target": options["target"],
            "last_round": _round_copy(state.last_round),
            "unplayable": unplayable,
        }


GAME = Catchy()
