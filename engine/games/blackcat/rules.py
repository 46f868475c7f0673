"""Black Cat (Invisible City Productions free game #39): everyone grabs from one face-up deck.

2-4 players share one 52-card poker deck (two with *Long Night on the
Fence*) lying face up: only its top card is visible. Anyone, at any moment,
takes the top card into one of their two kitty piles, one card at a time;
piles are never rearranged. The game ends when the deck runs out, or when
someone calls "Black cat, black cat, crossin' my path. Don't look back or
you'll get scratched!". Piles then score Tomcats, Yowlers, Jellical Cats and
Black Cats (:mod:`engine.games.blackcat.scoring`); the top score wins, ties share.

Card codes are rank then suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` (``T`` is
the ten), suits ``S H D C`` (spades and clubs are black). ``"QS"`` is the
Queen of spades, ``"TH"`` the ten of hearts, ``"AC"`` the Ace of clubs. In
two-deck games a code can appear twice.

Who grabbed first is not the engine's business: the host's arbiter orders
simultaneous claims. The engine only makes sure a grab names the card it
means. Every card that comes to the top gets a new, increasing *reveal id*;
a ``take`` must carry the current one, so a grab aimed at a card somebody
else already took is refused with :class:`StaleReveal` instead of taking the
card underneath.

Actions:

``{"type": "take", "pile": 0 | 1, "reveal": <current reveal id>}``
    Put the top card on your first (0) or second (1) kitty pile.
``{"type": "call"}``
    "Black cat, black cat...": ends the game at once. Only once the game has
    stalled: the top card has lain untaken for :data:`STALL_SECONDS` (the
    ``stall`` option; 0 allows a call at any time).

The stall clock needs the host's time, which the engine only sees in
``apply`` and ``tick``: the first card's moment is set by the first tick
(due at once, :meth:`BlackCat.deadline`), each later card's by the take that
turned it up, and a tick at the stall time marks the game stalled (an event
says so), which puts the call in ``legal``.

The view (for a seat, or ``None`` for a spectator) holds no hidden card: the
rest of the deck is never shown, only how many cards it has. See
:meth:`BlackCat.view` for its fields.
"""

from __future__ import annotations

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
    Option,
    Outcome,
    Rng,
    Seat,
    StaleReveal,
    action_field,
    action_type,
    check_deck,
    deck_orders,
    winners_by_score,
)
from engine.games.blackcat.scoring import PileScore, card_label, full_deck, score_pile

PILES_PER_PLAYER = 2
FIRST_REVEAL = 1
"""The reveal id of the first top card; each later top card gets the next integer."""

CALL_PHRASE = "Black cat, black cat, crossin' my path. Don't look back or you'll get scratched!"

END_DECK = "deck"
END_CALL = "call"

STALL_SECONDS = 5
"""Assumed (CLARIFICATIONS): how long the top card must lie untaken before the game has
stalled and a call may end it. The ``stall`` table option; 0 allows a call at any time."""

ASSUMPTIONS: tuple[str, ...] = (
    "Each Queen counts as 7 or 11, chosen per card at the end with one value for every"
    " pattern it is in; the game picks the values that give the highest score (7 when"
    " both score the same) and shows them.",
    "Jellical Cats: a run of one or more face cards of the same rank (J, Q or K) whose two"
    " neighbours both exist and have the same rank as each other; every face card in the"
    " run is a Jellical Cat.",
    "Black Cats: every unbroken run of two or more black cards adding to 13 counts,"
    " overlapping runs separately, except a run that begins or ends with a Jack or King.",
    "A 10 beside a Jack or King is a Tomcat (10 + 0), and the 10 is also a Yowler.",
    '"Same type" means the same rank; suits never matter except for the colour of Black Cats.',
    "One 52-card deck (two with Long Night on the Fence). A tie for the top score is a shared win.",
    "Kitty piles are public: every card in them was face up on the deck when taken.",
    f"The game has stalled once the top card has lain untaken for {STALL_SECONDS} seconds"
    " (the stall option; 0 allows a call at any time); only then may anyone call, even when"
    " behind: the rulebook only advises calling when ahead. Before that a call is refused"
    " with the time left.",
    "Nobody may discard or bury the top card: when no one wants it, calling is the only way on.",
    "The game ends the moment the last card is taken.",
    "Lucky Tom: any Tomcat made of two fives is worth 5; all other Tomcats stay at 3.",
    "Music of the Night: each Yowler is worth the number of Yowlers in its own pile"
    " (so n tens in one pile score n x n).",
)
"""Where the rulebook is silent and this engine chose; shown on the rules screen."""


class TooEarlyToCall(IllegalAction):
    """A call before the game has stalled (the top card has not lain untaken long enough)."""

    code = "too_early"


@dataclass(slots=True)
class Take:
    """One accepted grab: who took which card into which pile, at which reveal."""

    seat: int
    pile: int
    card: str
    reveal: int

    def to_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "pile": self.pile, "card": self.card, "reveal": self.reveal}


@dataclass(slots=True)
class BlackCatState(GameState):
    """The table: the face-up deck (top first), everyone's two piles, how it ended."""

    deck: list[str] = field(default_factory=list)
    deck_size: int = 52
    piles: list[list[list[str]]] = field(default_factory=list)
    reveal: int = FIRST_REVEAL
    last: Take | None = None
    called_by: int | None = None
    ended: str | None = None
    shown_at: float | None = None
    """Host time the top card turned up (``None``: the first card, before the first tick)."""
    stalled: bool = False
    """The top card has lain untaken for the stall time: a call may end the game."""

    @property
    def top(self) -> str | None:
        """The face-up card everyone can grab, or ``None`` once the deck is gone."""
        return self.deck[0] if self.deck else None


STALL_OPTION = Option(
    "stall",
    STALL_SECONDS,
    "Seconds the top card must lie untaken before anyone may call the end (0: any time).",
    minimum=0,
    maximum=600,
    label="Quiet seconds before a call",
)

VARIANT_OPTIONS = (
    Option(
        "long_night",
        False,
        "Play with two poker decks (104 cards).",
        kind=bool,
        label="Long Night on the Fence",
    ),
    Option(
        "lucky_tom",
        False,
        "A Tomcat made of two fives is worth 5 points instead of 3.",
        kind=bool,
        label="Lucky Tom",
    ),
    Option(
        "music_of_the_night",
        False,
        "Each Yowler is worth the number of Yowlers in its pile.",
        kind=bool,
        label="Music of the Night",
    ),
)


class PileView(TypedDict):
    """One kitty pile in a :class:`BlackCatView` (:meth:`PileScore.to_data` and more)."""

    cards: list[str]
    score: int
    cats: list[dict[str, Any]]
    queens: list[dict[str, Any]]
    counts: dict[str, int]
    explain: str
    """The scoring's own explanation of the pile."""
    if_taken: int | None
    """What taking the top card onto this pile would change its score by (``None``: no top card)."""


class BlackCatView(BaseView):
    """A Black Cat view: the common keys and those :meth:`BlackCat._view` adds."""

    top: str | None
    deck_left: int
    deck_size: int
    piles: list[list[PileView]]
    last: dict[str, Any] | None
    called_by: Seat | None
    ended: str | None
    variants: dict[str, bool]
    stall_s: int
    stalled: bool


class BlackCat(Game[BlackCatState]):
    """The rules of Black Cat (see the module docstring)."""

    name = "blackcat"
    title = "Black Cat"
    min_players = 2
    max_players = 4
    state_type = BlackCatState
    view_type = BlackCatView
    option_specs: ClassVar[tuple[Option, ...]] = (DECK_OPTION, *VARIANT_OPTIONS, STALL_OPTION)
    assumptions = ASSUMPTIONS
    bots = (
        ("normal", "engine.games.blackcat.bot:BlackCatBot"),
        ("easy", "engine.games.blackcat.bot:EasyBlackCatBot"),
        ("hard", "engine.games.blackcat.bot:HardBlackCatBot"),
        ("blackcat", "engine.games.blackcat.bot:BlackCatBot"),
    )
    realtime = True
    claim_types = frozenset({"take"})
    """Grabs race for the top card; a call ends the game whenever it arrives."""

    # Setup -------------------------------------------------------------------

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> BlackCatState:
        decks = 2 if options["long_night"] else 1
        full = full_deck(decks)
        orders = deck_orders(options["deck"])
        if len(orders) > 1:
            raise InvalidOptions("Black Cat is one round: the deck option is one list of cards")
        if orders:
            deck = check_deck(self.title, orders[0], full)
        else:
            deck = list(full)
            rng.shuffle(deck)
        state = BlackCatState(
            players=players,
            options=options,
            rng=rng,
            deck=deck,
            deck_size=len(full),
            piles=[[[] for _ in range(PILES_PER_PLAYER)] for _ in players],
        )
        state.record(
            [],
            "reveal",
            f"The deck turns face up: {card_label(deck[0])} is on top.",
            reveal=state.reveal,
            card=deck[0],
            left=len(deck),
        )
        return state

    # Actions -----------------------------------------------------------------

    def _apply(
        self, state: BlackCatState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        kind = action_type(action, ("take", "call"))
        if kind == "take":
            self._take(state, seat, action, now, events)
        else:
            self._check_stalled(state, now)
            self._call(state, seat, events)

    def _check_stalled(self, state: BlackCatState, now: float) -> None:
        """Refuse a call before the game has stalled, saying how long is left.

        Stalled is the state's flag, set by the tick at the stall time (the host ticks
        before it applies an action), so what is accepted is exactly what is legal.
        """
        stall = int(state.options["stall"])
        if stall <= 0 or state.stalled:
            return
        # Short: a table shows it on one line of 80 columns.
        if state.shown_at is None:
            raise TooEarlyToCall(
                f"Too early to call: the first card just turned up; a call needs {stall} s untaken"
            )
        waited = now - state.shown_at
        top = card_label(state.top) if state.top else "the top card"
        raise TooEarlyToCall(
            f"Too early to call: {top} has lain untaken for {max(waited, 0):.0f} s;"
            f" a call needs {stall} s"
        )

    def deadline(self, state: BlackCatState) -> float | None:
        """The first card's moment (due at once), then when the top card counts as stalled."""
        stall = int(state.options["stall"])
        if state.ended is not None or stall <= 0 or state.stalled:
            return None
        if state.shown_at is None:
            return 0.0
        return state.shown_at + stall

    def _tick(self, state: BlackCatState, now: float, events: list[Event]) -> None:
        if state.shown_at is None:
            state.shown_at = now
        stall = int(state.options["stall"])
        if not state.stalled and now >= state.shown_at + stall and state.top is not None:
            state.stalled = True
            state.record(
                events,
                "stall",
                f"Nobody has taken {card_label(state.top)} for {stall} s: the game has stalled,"
                " and anyone may call the end.",
                reveal=state.reveal,
            )

    def _take(
        self, state: BlackCatState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        pile = action_field(action, "pile", int)
        if not 0 <= pile < PILES_PER_PLAYER:
            raise InvalidAction(f"There are two kitty piles, 0 and 1; there is no pile {pile}")
        reveal = action_field(action, "reveal", int)
        if reveal != state.reveal:
            raise StaleReveal(self._stale_message(state, reveal))
        card = state.deck.pop(0)
        state.piles[seat][pile].append(card)
        state.last = Take(seat, pile, card, reveal)
        state.reveal += 1
        state.shown_at, state.stalled = now, False
        score = self._pile_score(state, state.piles[seat][pile])
        state.record(
            events,
            "take",
            f"{state.name(seat)} takes {card_label(card)} into pile {pile + 1}"
            f" (pile score {score.total}).",
            seat=seat,
            pile=pile,
            card=card,
            reveal=reveal,
            pile_score=score.total,
        )
        if state.deck:
            state.record(
                events,
                "reveal",
                f"{card_label(state.deck[0])} is on top ({len(state.deck)} left).",
                reveal=state.reveal,
                card=state.deck[0],
                left=len(state.deck),
            )
        else:
            state.ended = END_DECK
            self._finish(state, "The deck has run out.", events)

    def _stale_message(self, state: BlackCatState, reveal: int) -> str:
        last = state.last
        if last is not None and last.reveal == reveal:
            return f"Too late: {state.name(last.seat)} took the {card_label(last.card)} first."
        if reveal < state.reveal:
            return "That card was taken long ago; grab the card on top now."
        return "That card has not been turned up yet."

    def _call(self, state: BlackCatState, seat: Seat, events: list[Event]) -> None:
        state.called_by = seat
        state.ended = END_CALL
        state.record(events, "call", f"{state.name(seat)} calls: {CALL_PHRASE}", seat=seat)
        self._finish(state, f"{state.name(seat)} ended the game.", events)

    def _finish(self, state: BlackCatState, reason: str, events: list[Event]) -> None:
        scores = self._scores(state)
        winners = winners_by_score(scores)
        names = " and ".join(state.name(seat) for seat in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        state.record(
            events,
            "game_over",
            f"{reason} {names} {verb} with {scores[winners[0]]} points.",
            scores=list(scores),
            winners=list(winners),
            reason=state.ended,
        )

    # Scores ------------------------------------------------------------------

    def _pile_score(self, state: BlackCatState, cards: list[str]) -> PileScore:
        return score_pile(
            cards,
            lucky_tom=bool(state.options["lucky_tom"]),
            music_of_the_night=bool(state.options["music_of_the_night"]),
        )

    def pile_scores(self, state: BlackCatState) -> list[list[PileScore]]:
        """Every seat's piles scored (Queens at their best values), seat by seat."""
        return [[self._pile_score(state, pile) for pile in piles] for piles in state.piles]

    def _scores(self, state: BlackCatState) -> list[int]:
        return [sum(pile.total for pile in piles) for piles in self.pile_scores(state)]

    # Queries -----------------------------------------------------------------

    def legal_actions(self, state: BlackCatState, seat: Seat) -> list[dict[str, Any]]:
        if state.ended is not None or not 0 <= seat < len(state.players):
            return []
        takes = [
            {"type": "take", "pile": pile, "reveal": state.reveal}
            for pile in range(PILES_PER_PLAYER)
        ]
        if state.stalled or int(state.options["stall"]) <= 0:
            return [*takes, {"type": "call"}]
        return takes

    def outcome(self, state: BlackCatState) -> Outcome | None:
        if state.ended is None:
            return None
        scores = self._scores(state)
        return Outcome(tuple(scores), winners_by_score(scores))

    def phase(self, state: BlackCatState) -> str:
        return "play"

    def scores(self, state: BlackCatState) -> list[int]:
        return self._scores(state)

    def reveal(self, state: BlackCatState) -> int | None:
        """The top card's reveal id: grabs (``take``) race for it."""
        return state.reveal if state.top is not None and state.ended is None else None

    def hidden(self, state: BlackCatState, seat: Seat | None) -> dict[str, str]:
        """The cards under the top one, unless the same code is face up (two decks)."""
        if state.ended is not None:
            return {}
        shown = {card for piles in state.piles for pile in piles for card in pile}
        if state.top is not None:
            shown.add(state.top)
        return {card: card_label(card) for card in state.deck[1:] if card not in shown}

    def _view(self, state: BlackCatState, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` sees; everything except the cards under the top one.

        Keys (besides the common ones; ``reveal`` is the top card's id):
        ``top`` (card code | None), ``deck_left`` (int, the top card
        included), ``deck_size`` (52 or 104), ``piles`` (per seat, two maps
        ``{"cards", "score", "cats", "queens", "counts", "explain",
        "if_taken"}``: :meth:`PileScore.to_data`, the scoring's own
        explanation, and what taking the top card onto that pile would change
        its score by, ``None`` without a top card), ``last`` (the last grab
        ``{"seat", "pile", "card", "reveal"}`` | None), ``called_by`` (int |
        None), ``ended`` ("deck" | "call" | None), ``variants`` (the three
        variant flags).
        """
        top = state.top
        piles = []
        for seat_piles in state.piles:
            shown = []
            for cards in seat_piles:
                score = self._pile_score(state, cards)
                gain = None
                if top is not None:
                    gain = self._pile_score(state, [*cards, top]).total - score.total
                shown.append({**score.to_data(), "explain": score.explain(), "if_taken": gain})
            piles.append(shown)
        return {
            "top": top,
            "deck_left": len(state.deck),
            "deck_size": state.deck_size,
            "piles": piles,
            "last": None if state.last is None else state.last.to_data(),
            "called_by": state.called_by,
            "ended": state.ended,
            "variants": {spec.name: bool(state.options[spec.name]) for spec in VARIANT_OPTIONS},
            "stall_s": int(state.options["stall"]),
            "stalled": state.stalled or int(state.options["stall"]) <= 0,
        }


GAME = BlackCat()
