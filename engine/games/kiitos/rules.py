"""Kiitos: a word game where you help finish your opponents' words.

Rules: ``shared/rules/kiitos.txt`` and the Kiitos section of
``CLARIFICATIONS.md``; every assumption is a named constant or a table option
below and is listed in :data:`ASSUMPTIONS` (the rules screen shows it). The
word logic is :mod:`engine.games.kiitos.table`; the dictionary that settles
challenges is :mod:`engine.games.kiitos.words` (loaded on first use, never on import).

A round
    The first player is cut for (closest to Z; ties cut again), or set with
    the option ``first``. Each player is dealt 8. The leader says a target
    word (``lead``) and plays its first letter (Super-Kiitos: any letter of
    it). Clockwise (to higher seats), each player must play the next letter of
    the target word when they hold it (``play``); otherwise they play another
    letter that extends the table and say a new target word (``say``), or pick
    the table up into their negative pile (``pickup``) and lead next. When a
    letter completes the target word, whoever said it says "Kiitos!" and takes
    the letters into their positive pile (in the full game they then flip a
    rule card, ``flip``). After every pick-up all draw back to 8; when anyone
    cannot, the round ends and is scored.

Challenges (a real-time moment)
    Each announced word (``lead`` or ``say``) opens a moment (:meth:`Kiitos.reveal`)
    during which anyone but the announcer may ``challenge`` it, until a letter
    is played after it. With 3-4 players the first to grab a challenge card is
    the challenger (the host decides by reaction times). The dictionary
    decides; the loser takes a challenge card (-1), or once all 8 are gone
    gives a card from hand (``forfeit``). A word that fails is taken back: its
    letter returns to the announcer's hand and they play again with another
    word. With ``check = strict`` non-words are refused at once and nothing
    can be challenged.

Actions
    ``{"type": "lead", "word": "cats", "letter": "C"}``
    ``{"type": "play", "letter": "A", "side": "end" | "start"}``
    ``{"type": "say", "word": "clasp", "letter": "L", "side": "end" | "start"}``
    ``{"type": "pickup"}``, ``{"type": "challenge", "reveal": 3}``
    ``{"type": "flip", "card": "length" | "positive" | "super"}``
    ``{"type": "forfeit", "letter": "E"}``, ``{"type": "pass_lead"}`` (the 4-player rule)
    ``{"type": "choose", "seat": 1}`` (the lowest score chooses who starts a round)

``options["deck"]`` (letters, top first; one list per round allowed): seat 0
is dealt the first 8 cards, seat 1 the next 8 and so on; the rest is the deck.
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
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    Seat,
    Secrets,
    StaleReveal,
    action_field,
    action_type,
    check_deck,
    clone,
    deck_for_round,
    deck_orders,
    winners_by_score,
)
from engine.games.kiitos.table import (
    END,
    SIDES,
    START,
    commonest,
    extensions,
    fits,
    full_deck,
    letters,
    number,
    place,
    table_string,
    take,
)
from engine.games.kiitos.words import dictionary, frequency

HAND_SIZE = 8
CHALLENGE_CARDS = 8
MAX_WORD_LENGTH = 45
"""Assumed: the longest word a player may say (the rulebook sets no upper limit;
45 letters is the longest word in major dictionaries)."""
ROUNDS = 3
"""Found: the full game is 3 rounds (option ``rounds``)."""
MAX_ROUNDS = 10
LEGAL_WORDS = 2
"""How many example words the legal list offers per letter and side (any word may be said):
the most used words that fit (:func:`~engine.games.kiitos.words.frequency`)."""

MODE_FULL = "full"
MODE_SIMPLE = "simple"
CHECK_CHALLENGE = "challenge"
CHECK_STRICT = "strict"

LENGTH, POSITIVE, SUPER = "length", "positive", "super"
RULE_CARDS = (LENGTH, POSITIVE, SUPER)
RULE_TEXT = {
    LENGTH: ("Minimum length 4", "Minimum length 5"),
    POSITIVE: ("Positive pile x1", "Positive pile x2"),
    SUPER: ("Kiitos", "Super-Kiitos"),
}
"""Each rule card's green side, then its alternate side."""

PHASE_LEAD = "lead"
PHASE_PLAY = "play"
PHASE_FLIP = "flip"
PHASE_FORFEIT = "forfeit"
PHASE_CHOOSE = "choose"
PHASE_OVER = "over"

ACTIONS = ("lead", "play", "say", "pickup", "challenge", "flip", "forfeit", "pass_lead", "choose")

ASSUMPTIONS: tuple[str, ...] = (
    "The dictionary is SCOWL's word lists up to size 80 (which include ENABLE), American,"
    " British and variant spellings, lower-case letters only, plus a small reviewed"
    " supplement. Bots choose their own words from the commoner sizes (up to 50).",
    "The example words offered for each letter (the coach's, the * ideas, the easy bot's) are"
    " the most used of the commoner words that fit, by wordfreq's English word frequencies.",
    "Any word may be said; the dictionary only settles challenges. With the table option"
    " 'check = strict' the host refuses non-words at once and there are no challenges.",
    "The rule cards start green side up (minimum length 4, positive pile x1, Kiitos) unless"
    " the table options 'min_length', 'positive_x2' and 'super_kiitos' turn them. In the full"
    " game (option 'mode = full', the default) they flip and the lock token starts on no card;"
    " in a simple game they never flip.",
    f"The full game is {ROUNDS} rounds; option 'rounds' changes it for either mode.",
    "Challenge cards return to their deck after each round. Seasoning cards are not used.",
    "A word may be challenged, by anyone but its announcer, until the next letter is played"
    " (or the table is picked up); playing the next letter accepts it.",
    "Once the 8 challenge cards are gone, the loser of a challenge chooses a card from hand"
    " for their negative pile; it is not replaced until the next draw back to 8.",
    "A word that failed a challenge may not be said again by that player this turn.",
    "Picking up is allowed whenever you are not compelled to play the target's next letter:"
    " whether a new word exists is yours to judge, as at a real table.",
    "After a pick-up everyone draws back to 8, starting with the player who leads next and"
    " going clockwise; the round ends as soon as someone cannot.",
    "In later rounds the lowest total score chooses who starts; a tie for lowest cuts the"
    " deck again for the first player, as in round one.",
    f"A word is at most {MAX_WORD_LENGTH} letters.",
)
"""Where the rulebook is silent and this engine chose; shown on the rules screen."""


class NotAWord(IllegalAction):
    """``check = strict``: the dictionary does not know the word."""

    code = "not_a_word"


@dataclass(slots=True, kw_only=True)
class KiitosState(GameState):
    """A Kiitos game. Letters are upper-case cards; words are lower-case."""

    round: int = 1
    phase: str = PHASE_LEAD
    turn: Seat = 0
    """Who must act now (the leader, the next player, a flipper, a forfeiter or a chooser)."""
    first: Seat = 0
    """Who led this round first."""
    hands: list[list[str]] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    """Top first. Never shown: views carry only its size."""
    table: list[str] = field(default_factory=list)
    target: str | None = None
    sayer: Seat | None = None
    positive: list[int] = field(default_factory=list)
    negative: list[int] = field(default_factory=list)
    """Letter cards face down in each negative pile."""
    challenges: list[int] = field(default_factory=list)
    """Challenge cards in each negative pile."""
    challenge_left: int = CHALLENGE_CARDS
    sides: dict[str, bool] = field(default_factory=dict)
    """Rule card -> whether its alternate side is up."""
    lock: str | None = None
    reveal_id: int = 0
    """The id of the last announced word's moment; grows with each announcement."""
    announced: dict[str, Any] | None = None
    """The word open to challenge: ``{"seat", "word", "letter", "lead", "table",
    "target", "sayer"}`` (the last three: the table before it, to take it back)."""
    refused: list[str] = field(default_factory=list)
    """Words that failed a challenge this turn (their announcer may not say them again)."""
    resume: dict[str, Any] | None = None
    """While a challenge loser forfeits a card: the phase and turn to go back to."""
    pass_lead: bool = False
    """Whether the leader may use the 4-player rule now."""
    totals: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)
    finished: bool = False


class RuleCardView(TypedDict):
    """One rule card in a :class:`KiitosView`: the side up and whether it holds the lock."""

    card: str
    alternate: bool
    text: str
    locked: bool


class RulesView(TypedDict):
    """The rules in force, as the rule cards set them."""

    min_length: int
    positive_x2: bool
    super_kiitos: bool


class KiitosView(BaseView):
    """The keys :meth:`Kiitos._view` adds to the common ones (``view_type``)."""

    round: int
    rounds: int
    mode: str
    check: str
    rules: RulesView
    rule_cards: list[RuleCardView]
    refused_words: list[str]
    turn: int | None
    first: int
    table: list[str]
    target: str | None
    sayer: int | None
    announcer: int | None
    hand: list[str] | None
    hand_counts: list[int]
    positive: list[int]
    negative: list[int]
    challenge_cards: list[int]
    challenge_cards_left: int
    deck_count: int
    round_scores: list[list[int]]
    totals: list[int]
    compelled: bool
    pass_lead: bool


class Kiitos(Game[KiitosState]):
    """The Kiitos rules behind the engine contract."""

    name = "kiitos"
    title = "Kiitos"
    min_players = 2
    max_players = 4
    state_type = KiitosState
    view_type = KiitosView
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "mode",
            MODE_FULL,
            "full: 3 rounds, a rule card flips at every completed word; simple: fixed rule cards",
            kind=str,
            choices=(MODE_FULL, MODE_SIMPLE),
            label="Mode",
        ),
        Option(
            "rounds",
            ROUNDS,
            "How many rounds to play",
            minimum=1,
            maximum=MAX_ROUNDS,
            label="Rounds",
        ),
        Option(
            "min_length",
            4,
            "The minimum length of a target word (rule card; in the full game, its first side)",
            minimum=4,
            maximum=5,
            label="Shortest word",
        ),
        Option(
            "positive_x2",
            False,
            "Positive pile cards count 2 each (rule card; in the full game, its first side)",
            kind=bool,
            label="Positive pile x2",
        ),
        Option(
            "super_kiitos",
            False,
            "Add letters at either end (rule card; in the full game, its first side)",
            kind=bool,
            label="Super-Kiitos",
        ),
        Option(
            "check",
            CHECK_CHALLENGE,
            "challenge: say any word, the dictionary settles challenges;"
            " strict: only dictionary words (for beginners)",
            kind=str,
            choices=(CHECK_CHALLENGE, CHECK_STRICT),
            label="Word check",
        ),
        Option(
            "first",
            None,
            "The seat that leads the first round (default: cut the deck)",
            kind=int,
            minimum=0,
            maximum=3,
            label="First leader",
            hidden=True,
        ),
        DECK_OPTION,
    )
    assumptions = ASSUMPTIONS
    bots = (
        ("normal", "engine.games.kiitos.bot:KiitosBot"),
        ("easy", "engine.games.kiitos.bot:EasyKiitosBot"),
        ("hard", "engine.games.kiitos.bot:HardKiitosBot"),
        ("kiitos", "engine.games.kiitos.bot:KiitosBot"),
        ("plain", "engine.games.kiitos.bot:PlainKiitosBot"),
    )
    realtime = True
    claim_types = frozenset({"challenge"})

    # Setup --------------------------------------------------------------------

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> KiitosState:
        for order in deck_orders(options["deck"]):
            check_deck(self.title, order, full_deck())
        first = options["first"]
        if first is not None and first >= len(players):
            raise InvalidOptions(f"There is no seat {first} at a table of {len(players)}")
        count = len(players)
        state = KiitosState(
            players=players,
            options=options,
            rng=rng,
            sides={
                LENGTH: options["min_length"] == 5,
                POSITIVE: options["positive_x2"],
                SUPER: options["super_kiitos"],
            },
            totals=[0] * count,
        )
        events: list[Event] = []
        if first is None:
            first = self._cut(state, list(range(count)), events)
        self._start_round(state, first, events)
        return state

    def _cut(self, state: KiitosState, seats: list[Seat], events: list[Event]) -> Seat:
        """Cut the letter deck for first player: closest to Z goes first; ties cut again."""
        cards = full_deck()
        while True:
            cuts = {seat: state.rng.choice(cards) for seat in seats}
            best = max(cuts.values())
            said = ", ".join(f"{state.name(seat)} {letter}" for seat, letter in cuts.items())
            seats = [seat for seat, letter in cuts.items() if letter == best]
            if len(seats) == 1:
                state.record(
                    events,
                    "cut",
                    f"Cut for first player: {said}. {state.name(seats[0])} goes first.",
                    cuts=[[seat, letter] for seat, letter in cuts.items()],
                    first=seats[0],
                )
                return seats[0]
            state.record(
                events,
                "cut",
                f"Cut for first player: {said}. A tie: they cut again.",
                cuts=[[seat, letter] for seat, letter in cuts.items()],
                first=None,
            )

    def _start_round(self, state: KiitosState, first: Seat, events: list[Event]) -> None:
        order = deck_for_round(state.options["deck"], state.round)
        if order is None:
            cards = full_deck()
            state.rng.shuffle(cards)
        else:
            cards = list(order)
        count = len(state.players)
        cards = number(cards)
        state.hands = [cards[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(count)]
        state.deck = cards[count * HAND_SIZE :]
        state.table, state.target, state.sayer = [], None, None
        state.positive, state.negative = [0] * count, [0] * count
        state.challenges = [0] * count
        state.challenge_left = CHALLENGE_CARDS
        state.announced, state.resume, state.refused = None, None, []
        state.pass_lead = False
        state.phase, state.turn, state.first = PHASE_LEAD, first, first
        state.record(
            events,
            "deal",
            f"Round {state.round} of {state.options['rounds']}: {HAND_SIZE} cards each;"
            f" {state.name(first)} leads. Rules: {self._rules_text(state)}.",
            round=state.round,
            first=first,
        )
        for seat in range(count):
            state.record(
                events,
                "hand",
                f"You are dealt {' '.join(sorted(letters(state.hands[seat])))}.",
                [seat],
                letters=sorted(letters(state.hands[seat])),
            )

    # Rules in force -----------------------------------------------------------------

    @staticmethod
    def min_length(state: KiitosState) -> int:
        return 5 if state.sides[LENGTH] else 4

    @staticmethod
    def is_super(state: KiitosState) -> bool:
        return state.sides[SUPER]

    @staticmethod
    def _rules_text(state: KiitosState) -> str:
        return ", ".join(RULE_TEXT[card][state.sides[card]] for card in RULE_CARDS)

    def compelled(self, state: KiitosState, seat: Seat) -> list[tuple[str, str]]:
        """The ``(letter, side)`` plays ``seat`` is compelled to choose from (empty: free)."""
        if state.phase != PHASE_PLAY or state.target is None:
            return []
        options = extensions(table_string(state.table), state.target, self.is_super(state))
        hand = letters(state.hands[seat])
        return sorted(option for option in options if option[0] in hand)

    # Actions -------------------------------------------------------------------

    def _apply(
        self, state: KiitosState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        kind = action_type(action, ACTIONS)
        if kind == "challenge":
            self._challenge(state, seat, action, events)
            return
        if seat != state.turn:
            raise NotYourTurn(f"It is {state.name(state.turn)}'s turn")
        handler = {
            "lead": self._lead,
            "play": self._play,
            "say": self._say,
            "pickup": self._pickup,
            "flip": self._flip,
            "forfeit": self._forfeit,
            "pass_lead": self._pass_lead,
            "choose": self._choose,
        }[kind]
        handler(state, seat, action, events)

    def _need_phase(self, state: KiitosState, *phases: str) -> None:
        if state.phase in phases:
            return
        raise IllegalAction(
            {
                PHASE_LEAD: "Lead a new word first",
                PHASE_PLAY: "A word is being played: play a letter, say a new word or pick up",
                PHASE_FLIP: f"{state.name(state.turn)} flips a rule card first",
                PHASE_FORFEIT: f"{state.name(state.turn)} gives up a card for the challenge first",
                PHASE_CHOOSE: f"{state.name(state.turn)} chooses who starts the round first",
            }.get(state.phase, "That cannot be done now")
        )

    def _word(self, state: KiitosState, action: Action, seat: Seat) -> str:
        """The action's word, checked: letters only, long enough, not refused, strict check."""
        raw = action_field(action, "word", str)
        word = raw.lower()
        if not word.isascii() or not word.isalpha() or len(word) > MAX_WORD_LENGTH:
            raise InvalidAction(f"A word is 1 to {MAX_WORD_LENGTH} letters a-z, not {raw[:50]!r}")
        shortest = self.min_length(state)
        if len(word) < shortest:
            raise IllegalAction(f"A target word has at least {shortest} letters")
        if word in state.refused:
            raise IllegalAction(f"{word.upper()} failed a challenge: say a different word")
        if state.options["check"] == CHECK_STRICT and word not in dictionary():
            raise NotAWord(f"The dictionary does not know {word.upper()}")
        return word

    @staticmethod
    def _letter(state: KiitosState, action: Action, seat: Seat) -> str:
        letter = action_field(action, "letter", str)
        if len(letter) != 1 or not ("A" <= letter <= "Z"):
            raise InvalidAction(f"A letter card is one of A-Z, not {letter[:10]!r}")
        if letter not in letters(state.hands[seat]):
            raise IllegalAction(f"You do not hold {letter}")
        return letter

    def _side(self, state: KiitosState, action: Action) -> str:
        side = action_field(action, "side", str)
        if side not in SIDES:
            raise InvalidAction(f"The side is 'end' or 'start', not {side[:20]!r}")
        if side == START and not self.is_super(state):
            raise IllegalAction("Letters go after the others (only Super-Kiitos adds before)")
        return side

    def _lead(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_LEAD)
        word = self._word(state, action, seat)
        letter = self._letter(state, action, seat)
        if not fits(letter.lower(), word, self.is_super(state)):
            where = "a letter of" if self.is_super(state) else "the first letter of"
            raise IllegalAction(f"Play {where} {word.upper()}")
        self._announce(state, seat, word, letter, END, lead=True)
        state.pass_lead = False
        state.record(
            events,
            "lead",
            f"{state.name(seat)} says {word.upper()} and plays {letter}.",
            seat=seat,
            word=word,
            letter=letter,
            reveal=state.reveal_id,
        )
        self._next_turn(state, seat)

    def _play(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_PLAY)
        letter = self._letter(state, action, seat)
        side = self._side(state, action)
        assert state.target is not None
        if (letter, side) not in self.compelled(state, seat):
            word = state.target.upper()
            raise IllegalAction(f"{letter} does not continue {word} there; say a new word instead")
        self._accept_open_word(state)
        card = take(state.hands[seat], letter)
        state.table = [*state.table, card] if side == END else [card, *state.table]
        state.record(
            events,
            "play",
            f"{state.name(seat)} plays {letter}: {table_string(state.table).upper()}.",
            seat=seat,
            letter=letter,
            side=side,
        )
        if table_string(state.table) == state.target:
            self._complete(state, events)
        else:
            self._next_turn(state, seat)

    def _say(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_PLAY)
        word = self._word(state, action, seat)
        letter = self._letter(state, action, seat)
        side = self._side(state, action)
        self._check_free(state, seat)
        part = place(table_string(state.table), letter, side)
        if not fits(part, word, self.is_super(state)):
            raise IllegalAction(f"{part.upper()} does not fit {word.upper()}")
        if part == word:
            raise IllegalAction(
                f"{word.upper()} would be finished by your own card: leave a letter to play"
            )
        self._accept_open_word(state)
        self._announce(state, seat, word, letter, side, lead=False)
        state.record(
            events,
            "say",
            f"{state.name(seat)} plays {letter} and says {word.upper()}:"
            f" {table_string(state.table).upper()}.",
            seat=seat,
            word=word,
            letter=letter,
            side=side,
            reveal=state.reveal_id,
        )
        self._next_turn(state, seat)

    def _check_free(self, state: KiitosState, seat: Seat) -> None:
        compelled = self.compelled(state, seat)
        if compelled:
            assert state.target is not None
            letters = " or ".join(sorted({letter for letter, _ in compelled}))
            raise IllegalAction(f"You hold {letters}: you must continue {state.target.upper()}")

    def _pickup(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_PLAY)
        self._check_free(state, seat)
        self._accept_open_word(state)
        count = len(state.table)
        state.negative[seat] += count
        state.record(
            events,
            "pickup",
            f"{state.name(seat)} cannot continue and picks up {table_string(state.table).upper()}"
            f" ({count} card{'s' * (count != 1)} to their negative pile).",
            seat=seat,
            count=count,
        )
        state.table, state.target, state.sayer = [], None, None
        self._draw_back(state, seat, events)
        if not state.finished and state.phase == PHASE_LEAD:
            state.pass_lead = len(state.players) == 4 and count == 4 and bool(state.deck)

    def _complete(self, state: KiitosState, events: list[Event]) -> None:
        sayer = state.sayer
        assert sayer is not None and state.target is not None
        count = len(state.table)
        state.positive[sayer] += count
        state.record(
            events,
            "kiitos",
            f'{state.target.upper()} is complete! {state.name(sayer)} says "Kiitos!" and'
            f" takes {count} cards to their positive pile.",
            seat=sayer,
            word=state.target,
            count=count,
        )
        state.table, state.target, state.sayer = [], None, None
        if state.options["mode"] == MODE_FULL:
            state.phase, state.turn = PHASE_FLIP, sayer
            return
        self._draw_back(state, sayer, events)

    def _flip(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_FLIP)
        card = action_field(action, "card", str)
        if card not in RULE_CARDS:
            raise InvalidAction(f"The rule cards are {', '.join(RULE_CARDS)}; not {card[:20]!r}")
        if card == state.lock:
            raise IllegalAction("That rule card holds the lock token: flip another one")
        state.sides[card] = not state.sides[card]
        state.lock = card
        state.record(
            events,
            "flip",
            f"{state.name(seat)} flips a rule card to {RULE_TEXT[card][state.sides[card]]}"
            f" and puts the lock token on it. Rules: {self._rules_text(state)}.",
            seat=seat,
            card=card,
            alternate=state.sides[card],
        )
        self._draw_back(state, seat, events)

    def _pass_lead(
        self, state: KiitosState, seat: Seat, action: Action, events: list[Event]
    ) -> None:
        self._need_phase(state, PHASE_LEAD)
        if not state.pass_lead:
            raise IllegalAction(
                "Only in a 4-player game, right after picking up a 4-letter word,"
                " with cards left in the deck"
            )
        state.deck.pop(0)
        state.negative[seat] += 1
        state.pass_lead = False
        right = (seat - 1) % len(state.players)
        state.turn = right
        state.record(
            events,
            "pass_lead",
            f"{state.name(seat)} puts the deck's top card unseen in their negative pile;"
            f" {state.name(right)} leads instead.",
            seat=seat,
            leader=right,
        )

    def _choose(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_CHOOSE)
        chosen = action_field(action, "seat", int)
        if not 0 <= chosen < len(state.players):
            raise InvalidAction(f"There is no seat {chosen} at this table")
        state.record(
            events,
            "choose",
            f"{state.name(seat)} chooses {state.name(chosen)} to start round {state.round}.",
            seat=seat,
            first=chosen,
        )
        self._start_round(state, chosen, events)

    # Announcements and challenges --------------------------------------------------

    def _announce(
        self, state: KiitosState, seat: Seat, word: str, letter: str, side: str, *, lead: bool
    ) -> None:
        """Play ``letter`` with ``word`` as the new target; open it to challenge."""
        before = {"table": list(state.table), "target": state.target, "sayer": state.sayer}
        card = take(state.hands[seat], letter)
        state.table = [*state.table, card] if side == END else [card, *state.table]
        state.target, state.sayer = word, seat
        if state.options["check"] == CHECK_CHALLENGE:
            state.reveal_id += 1
            state.announced = {"seat": seat, "word": word, "card": card, "lead": lead}
            state.announced.update(before)

    @staticmethod
    def _accept_open_word(state: KiitosState) -> None:
        """A letter played after a word (or the table picked up) ends its challenge window.

        The words refused this turn are forgotten too: the announcer's turn is over.
        """
        state.announced = None
        state.refused = []

    def _challenge(
        self, state: KiitosState, seat: Seat, action: Action, events: list[Event]
    ) -> None:
        reveal = action_field(action, "reveal", int)
        word_open = state.announced
        if word_open is None or reveal != state.reveal_id:
            raise StaleReveal("There is no word to challenge now: a letter was played after it")
        announcer = word_open["seat"]
        if seat == announcer:
            raise IllegalAction("You cannot challenge your own word")
        word = word_open["word"]
        valid = word in dictionary()
        loser = seat if valid else announcer
        state.announced = None
        verdict = "is in the dictionary" if valid else "is not in the dictionary"
        state.record(
            events,
            "challenge",
            f"{state.name(seat)} challenges {word.upper()}: it {verdict}."
            f" {state.name(loser)} loses the challenge.",
            seat=seat,
            announcer=announcer,
            word=word,
            valid=valid,
            loser=loser,
        )
        if valid:
            state.refused = []
        else:
            self._take_back(state, word_open, events)
        resume = {"phase": state.phase, "turn": state.turn}
        if state.challenge_left > 0:
            state.challenge_left -= 1
            state.challenges[loser] += 1
            state.record(
                events,
                "challenge_card",
                f"{state.name(loser)} puts a challenge card in their negative pile (-1);"
                f" {state.challenge_left} left.",
                seat=loser,
                left=state.challenge_left,
            )
        elif state.hands[loser]:
            state.resume = resume
            state.phase, state.turn = PHASE_FORFEIT, loser
            state.record(
                events,
                "forfeit_due",
                f"The challenge cards are gone: {state.name(loser)} puts a card from hand"
                " in their negative pile.",
                seat=loser,
            )
        else:
            state.record(
                events,
                "forfeit_none",
                f"The challenge cards are gone and {state.name(loser)} has no card to give.",
                seat=loser,
            )

    def _take_back(
        self, state: KiitosState, word_open: dict[str, Any], events: list[Event]
    ) -> None:
        """A failed word: its letter goes back to the announcer, who plays again."""
        seat = word_open["seat"]
        state.hands[seat].append(word_open["card"])
        state.table = list(word_open["table"])
        state.target, state.sayer = word_open["target"], word_open["sayer"]
        if word_open["word"] not in state.refused:
            state.refused.append(word_open["word"])
        state.phase = PHASE_LEAD if word_open["lead"] else PHASE_PLAY
        state.turn = seat
        state.record(
            events,
            "take_back",
            f"{state.name(seat)} takes {word_open['card'][0]} back and plays again"
            " with a different word.",
            seat=seat,
            letter=word_open["card"][0],
        )

    def _forfeit(self, state: KiitosState, seat: Seat, action: Action, events: list[Event]) -> None:
        self._need_phase(state, PHASE_FORFEIT)
        letter = self._letter(state, action, seat)
        take(state.hands[seat], letter)
        state.negative[seat] += 1
        resume = state.resume or {"phase": PHASE_PLAY, "turn": seat}
        state.phase, state.turn, state.resume = resume["phase"], resume["turn"], None
        state.record(
            events,
            "forfeit",
            f"{state.name(seat)} puts a card from hand face down in their negative pile.",
            seat=seat,
        )
        state.record(events, "forfeit_card", f"You give up {letter}.", [seat], letter=letter)

    # Turns, drawing, round end ---------------------------------------------------------

    @staticmethod
    def _next_turn(state: KiitosState, seat: Seat) -> None:
        state.phase = PHASE_PLAY
        state.turn = (seat + 1) % len(state.players)

    def _draw_back(self, state: KiitosState, leader: Seat, events: list[Event]) -> None:
        """Everyone draws back to 8, from ``leader`` clockwise; short of cards, the round ends."""
        count = len(state.players)
        drawn = [0] * count
        short = False
        for step in range(count):
            seat = (leader + step) % count
            need = HAND_SIZE - len(state.hands[seat])
            cards = state.deck[: max(need, 0)]
            del state.deck[: len(cards)]
            state.hands[seat].extend(cards)
            drawn[seat] = len(cards)
            if cards:
                shown = letters(cards)
                state.record(events, "drawn", f"You draw {' '.join(shown)}.", [seat], letters=shown)
            if len(cards) < need:
                short = True
                break
        said = ", ".join(
            f"{state.name(seat)} {drawn[seat]}" for seat in range(count) if drawn[seat]
        )
        state.record(
            events,
            "draw",
            f"Everyone draws back to {HAND_SIZE} ({said or 'nobody needs a card'});"
            f" {len(state.deck)} left in the deck.",
            drawn=drawn,
            deck=len(state.deck),
        )
        if short:
            self._end_round(state, events)
            return
        state.phase, state.turn = PHASE_LEAD, leader
        state.pass_lead = False

    def round_score(self, state: KiitosState, seat: Seat) -> int:
        """This round's piles: positive (x2 with the card) minus negative and challenge cards."""
        times = 2 if state.sides[POSITIVE] else 1
        return state.positive[seat] * times - state.negative[seat] - state.challenges[seat]

    def _end_round(self, state: KiitosState, events: list[Event]) -> None:
        count = len(state.players)
        scores = [self.round_score(state, seat) for seat in range(count)]
        state.round_scores.append(scores)
        state.totals = [total + score for total, score in zip(state.totals, scores, strict=True)]
        parts = ", ".join(
            f"{state.name(seat)} {state.positive[seat]}"
            f"{'x2' if state.sides[POSITIVE] else ''}"
            f" - {state.negative[seat] + state.challenges[seat]} = {scores[seat]}"
            for seat in range(count)
        )
        state.record(
            events,
            "round_end",
            f"Round {state.round} is over: the deck cannot fill every hand. Scores: {parts}.",
            round=state.round,
            scores=scores,
            totals=list(state.totals),
        )
        state.hands = [[] for _ in range(count)]
        state.table, state.target, state.sayer = [], None, None
        state.positive, state.negative, state.challenges = [0] * count, [0] * count, [0] * count
        state.announced, state.resume, state.refused, state.pass_lead = None, None, [], False
        state.deck = []
        if state.round >= state.options["rounds"]:
            state.finished = True
            state.phase = PHASE_OVER
            winners = winners_by_score(state.totals)
            names = " and ".join(state.name(seat) for seat in winners)
            state.record(
                events,
                "game_end",
                f"{names} win{'s' * (len(winners) == 1)} with {state.totals[winners[0]]}!",
                winners=list(winners),
                totals=list(state.totals),
            )
            return
        state.round += 1
        lowest = min(state.totals)
        last = [seat for seat, total in enumerate(state.totals) if total == lowest]
        if len(last) == 1:
            state.phase, state.turn = PHASE_CHOOSE, last[0]
            state.record(
                events,
                "chooser",
                f"{state.name(last[0])} has the lowest score and chooses who starts round"
                f" {state.round}.",
                seat=last[0],
            )
            return
        first = self._cut(state, list(range(count)), events)
        self._start_round(state, first, events)

    # Queries ---------------------------------------------------------------------

    def legal_actions(self, state: KiitosState, seat: Seat) -> list[dict[str, Any]]:
        if state.finished:
            return []
        legal: list[dict[str, Any]] = []
        if seat == state.turn:
            legal.extend(self._turn_actions(state, seat))
        word_open = state.announced
        if word_open is not None and word_open["seat"] != seat:
            legal.append({"type": "challenge", "reveal": state.reveal_id})
        return legal

    def _turn_actions(self, state: KiitosState, seat: Seat) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        if state.phase == PHASE_LEAD:
            actions = self._word_actions(state, seat, "")
            if state.pass_lead:
                actions.append({"type": "pass_lead"})
            return actions
        if state.phase == PHASE_PLAY:
            compelled = self.compelled(state, seat)
            if compelled:
                return [{"type": "play", "letter": a, "side": b} for a, b in compelled]
            return [*self._word_actions(state, seat, table_string(state.table)), {"type": "pickup"}]
        if state.phase == PHASE_FLIP:
            return [{"type": "flip", "card": card} for card in RULE_CARDS if card != state.lock]
        if state.phase == PHASE_FORFEIT:
            return [{"type": "forfeit", "letter": letter} for letter in sorted(set(letters(hand)))]
        if state.phase == PHASE_CHOOSE:
            return [{"type": "choose", "seat": other} for other in range(len(state.players))]
        return []

    def _word_actions(self, state: KiitosState, seat: Seat, part: str) -> list[dict[str, Any]]:
        """A few dictionary words for each letter (and side) the seat could play.

        Any word may be said, so this list cannot be complete; it offers real
        words so that every seat always has a sensible legal move: the most used
        that fit, which the coach and the table's ideas suggest and the easy bot says
        (a beginner knows them, and may challenge nothing it has never heard of).
        """
        super_kiitos = self.is_super(state)
        shortest = self.min_length(state)
        words = dictionary().common
        order = frequency()
        actions: list[dict[str, Any]] = []
        sides = (END, START) if super_kiitos and part else (END,)
        refused = state.refused
        for letter in sorted({card[0] for card in state.hands[seat]}):
            for side in sides:
                grown = place(part, letter, side)
                found: list[str] = []
                for word in commonest(words, grown, super_kiitos, order):
                    if len(word) >= shortest and word != grown and word not in refused:
                        found.append(word)
                        if len(found) == LEGAL_WORDS:
                            break
                for word in found:
                    if part:
                        actions.append(
                            {"type": "say", "word": word, "letter": letter, "side": side}
                        )
                    else:
                        actions.append({"type": "lead", "word": word, "letter": letter})
        return actions

    def outcome(self, state: KiitosState) -> Outcome | None:
        if not state.finished:
            return None
        return Outcome(tuple(state.totals), winners_by_score(state.totals))

    def phase(self, state: KiitosState) -> str:
        return state.phase

    def scores(self, state: KiitosState) -> list[int]:
        """Each player's total: the rounds played plus this round's piles so far."""
        return [total + self.round_score(state, seat) for seat, total in enumerate(state.totals)]

    def reveal(self, state: KiitosState) -> int | None:
        """The announced word's moment, while it may still be challenged."""
        if state.finished or state.announced is None:
            return None
        return state.reveal_id

    def _view(self, state: KiitosState, seat: Seat | None) -> dict[str, Any]:
        """Own hand only; others' hand sizes; pile counts (negative piles face down)."""
        word_open = state.announced
        own_turn = seat is not None and seat == state.turn and not state.finished
        return {
            "round": state.round,
            "rounds": state.options["rounds"],
            "mode": state.options["mode"],
            "check": state.options["check"],
            "rules": {
                "min_length": self.min_length(state),
                "positive_x2": state.sides[POSITIVE],
                "super_kiitos": self.is_super(state),
            },
            "rule_cards": [
                {
                    "card": card,
                    "alternate": state.sides[card],
                    "text": RULE_TEXT[card][state.sides[card]],
                    "locked": state.lock == card,
                }
                for card in RULE_CARDS
            ],
            "turn": None if state.finished else state.turn,
            "first": state.first,
            "table": letters(state.table),
            "target": None if state.target is None else state.target.upper(),
            "sayer": state.sayer,
            "announcer": None if word_open is None else word_open["seat"],
            "hand": None if seat is None else sorted(letters(state.hands[seat])),
            "hand_counts": [len(hand) for hand in state.hands],
            "positive": list(state.positive),
            "negative": list(state.negative),
            "challenge_cards": list(state.challenges),
            "challenge_cards_left": state.challenge_left,
            "deck_count": len(state.deck),
            "round_scores": clone(state.round_scores),
            "totals": list(state.totals),
            "refused_words": [word.upper() for word in state.refused],
            "compelled": bool(own_turn and seat is not None and self.compelled(state, seat)),
            "pass_lead": bool(own_turn and state.pass_lead),
        }

    def hidden(self, state: KiitosState, seat: Seat | None) -> Secrets:
        """The ids of the cards in other hands and in the deck.

        Each physical card has an id in the state (``"E3"``: the third E dealt),
        and ids never leave the host: a view carries only letters, and only its
        own hand's, every hand's *size*, pile *counts* and the deck's *size*.
        So an id in anything a seat receives means a hand or the deck leaked
        (a raw state field dumped into a view or an event): that is what the
        contract's scan catches. Letters repeat (eight E's), so a leak spelt in
        letters cannot be named here; ``tests/engine/games/kiitos/test_playouts.py``
        checks that too: redealing every card a seat cannot see leaves its
        view unchanged.
        """
        secret = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
        secret.extend(state.deck)
        return {card: card for card in secret if len(card) > 1}


GAME = Kiitos()
