"""You Gotta Be Kitten Me! (Deluxe Edition): bid, bluff, and call "You Gotta Be Kitten Me!".

Rules: ``shared/rules/kitten-me.txt`` and the Kitten Me! section of
``CLARIFICATIONS.md``; every assumption is a named constant or a table
option below and is listed in :data:`ASSUMPTIONS` (the rules screen shows it).
Cards, their codes and how a reveal counts them: :mod:`engine.games.kitten.cards`.

A round
    The dealer deals each player still in the game their *deal size* (5, or 3
    with 7+ players; it changes for the rest of the game when a player loses
    or gains a card) and opens with a bid: a count of one accessory (hat, bow
    tie, glasses) or colour (blue, red, green). Clockwise (to higher seats),
    each player raises the count (any thing), challenges the standing bid,
    calls Purrfect (if the table plays it) or plays a Skip, Draw 3 or Go Fish.
    A challenge or Purrfect ends the round: every hand is revealed, the top
    card of the deck is flipped and counts too, and the loser loses a card
    (Purrfect's winner and Hang In There holders gain one). The player who
    lost a card deals next (if they are out, the next player still in). The
    last player with cards wins. The next round is dealt at once; the reveal
    stays in the view under ``last_reveal`` until the next one.

Actions
    ``{"type": "bid", "count": 4, "thing": "hat"}``; things: ``hat``, ``bowtie``,
    ``glasses``, ``blue``, ``red``, ``green``.
    ``{"type": "challenge"}``: "You Gotta Be Kitten Me!" on the standing bid.
    ``{"type": "purrfect"}``: the standing bid is exactly right (table option).
    ``{"type": "play", "card": "skip"}``, ``{"type": "play", "card": "draw-3"}``,
    ``{"type": "play", "card": "go-fish", "target": 2, "thing": "red"}``.

Dealing and ``options["deck"]``
    Each round every card is collected and shuffled. An explicit ``deck`` (top
    first, every card of the chosen deck set) replaces the shuffle: seat 0
    gets the first deal-size cards, then seat 1 and so on (players who are
    out get none); the rest is the deck, whose top card is drawn by Draw 3 or,
    at the reveal, flipped. A flat list sets round 1; a list of lists sets one
    round each (later rounds are shuffled).

Scores
    :meth:`Kitten.scores` is each player's deal size: the cards they will be
    dealt next round, 0 once out. The winner's is the final score.

Secrecy
    A hand is seen only by its holder until a reveal; Draw 3's cards only by
    the drawer, Go Fish's cards only by the giver and the taker (the others
    see how many); the deck is never shown (only its size).
"""

from __future__ import annotations

from collections.abc import Mapping
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
    NotYourTurn,
    Option,
    Outcome,
    Rng,
    Seat,
    Secrets,
    action_field,
    action_type,
    check_deck,
    clone,
    deck_for_round,
    deck_orders,
)
from engine.games.kitten.cards import (
    CANT_SEE_ME,
    DECK_SETS,
    DOUBLE_TROUBLE,
    DRAW_3,
    FLIP_DOUBLE,
    FLIP_ZERO,
    GO_FISH,
    HANG_IN_THERE,
    PLAYABLE,
    SKIP,
    SPECIAL_NAMES,
    THING_WORDS,
    THINGS,
    apply_flip,
    card_name,
    count_hand,
    deck,
    flip_effect,
    matches,
    parse,
    sort_key,
    thing_words,
    value,
)

HAND_SIZE = 5
"""Found: five cards each..."""
BIG_TABLE = 7
BIG_TABLE_HAND_SIZE = 3
"""Found: ...or three each with seven or more players."""

MIN_BID = 1
"""Assumed: a bid is at least 1."""
MAX_BID = 40
"""Assumed: the highest bid a table accepts (option ``max_bid``). Only Double
Trouble with both decks can make a real total come near it; a cap keeps the
list of legal bids finite."""
DRAW_COUNT = 3
FLIP_RESERVE = 1
"""Assumed: Draw 3 (and a gained card) always leaves this many cards in the deck for the flip."""

CHALLENGE = "challenge"
PURRFECT = "purrfect"
CALL_WORDS = {CHALLENGE: "You Gotta Be Kitten Me!", PURRFECT: "Purrfect!"}

PHASE_OPEN = "open"
"""The dealer's opening bid is due."""
PHASE_BID = "bid"
"""A bid stands: raise it, call on it, or play a special card."""
PHASE_OVER = "over"

ASSUMPTIONS: tuple[str, ...] = (
    "Decks (table option 'deck_set', default base): the base (white) deck has, for each of"
    " the 9 accessory x colour pairs, 4 singles, 1 double and 1 triple, plus 1 Wild (55 cards);"
    " the Deluxe (grey) deck has 3 singles, 1 double and 1 triple of each pair, plus 1 Wild,"
    " 1 Double Wild, 1 Triple Wild, 2 Skip, 1 Draw 3, 1 Go Fish, 1 Can't See Me, 1 Hang In"
    " There and 1 Double Trouble (55 cards); 'both' shuffles them together.",
    "Purrfect is off unless the table turns it on (option 'purrfect'), as the rulebook"
    " advises for a first game.",
    "Special cards count 0 themselves. Can't See Me makes the rest of its hand count 0, even"
    " with Double Trouble. Each Double Trouble doubles the rest of its hand (two give x4).",
    "A flipped Can't See Me makes the round's total 0; a flipped Double Trouble doubles the"
    " grand total; any other flipped special adds 0.",
    f"A bid is at least {MIN_BID} and at most {MAX_BID} (option 'max_bid'). When the standing"
    " bid is already the highest allowed, Skip, Draw 3 and Go Fish cannot be played on it.",
    "The dealer's opening turn is always a bid. Later, Skip, Draw 3 or Go Fish may be played"
    " instead of a bid or a challenge, one per turn.",
    "A challenge or Purrfect is always on the standing (last) bid. Nobody calls on their own"
    " bid: when your own bid comes back to you, you must make a new bid (no special card).",
    f"Draw 3 draws at most {DRAW_COUNT} cards and always leaves at least {FLIP_RESERVE} in the"
    " deck for the flip. Cards drawn by Draw 3 or taken by Go Fish count this round only;"
    " every card is collected and reshuffled at the round's end.",
    "Go Fish names any other player still in the game (even one with no cards in hand) and"
    " an accessory or colour; they hand over every normal card showing it, never a Wild or"
    " a special card. Only the giver and the taker see which cards changed hands; the others"
    " see how many. Only the drawer sees Draw 3's cards.",
    "A lost card lowers that player's deal size for the rest of the game; a gained card"
    " raises it, with no cap, except that the deal sizes together never use up the deck: a"
    f" gain that would leave fewer than {FLIP_RESERVE} card to flip is not granted.",
    "Hang In There: 'correct' means the side of the call that does not lose a card (for"
    " Purrfect: the caller when the total is exact, otherwise the bidder). Each Hang In There"
    " in that player's hand gains one card, on top of Purrfect's gain.",
    "The first dealer is drawn at random. The loser of a call deals next; a player who is"
    " out passes the deal to the next player still in on their left.",
)
"""Where the rulebook is silent and this engine chose; shown on the rules screen."""


class BidView(TypedDict):
    """One bid: who made it, how many, of which accessory or colour (a key of ``THINGS``)."""

    seat: Seat
    count: int
    thing: str


class ChangeView(TypedDict):
    """A card lost (``delta`` -1) or gained (+1) at a reveal, and why, in words."""

    seat: Seat
    delta: int
    reason: str


class RevealHandView(TypedDict):
    """One hand at a reveal and what it added to the bid's thing (:class:`HandCount`)."""

    seat: Seat
    cards: list[str]
    base: int
    cant_see_me: bool
    doublings: int
    adds: int


class RevealView(TypedDict):
    """The last challenge or Purrfect, explained (``last_reveal``; see :meth:`Kitten._reveal`)."""

    round: int
    call: str
    """``challenge`` or ``purrfect``."""
    bid: BidView
    caller: Seat
    dealer: Seat
    """Who flipped the deck's top card."""
    hands: list[RevealHandView]
    flipped: str
    flip_effect: str
    """``adds``, ``zero`` or ``double`` (:func:`flip_effect`)."""
    flip_adds: int
    subtotal: int
    total: int
    loser: Seat
    correct: Seat
    changes: list[ChangeView]
    refused: list[ChangeView]
    """Gains not granted: the deck had no card to spare."""
    out: list[Seat]
    deal_sizes: list[int]
    next_dealer: Seat | None


class KittenView(BaseView):
    """A Kitten Me! view: the common keys and those :meth:`Kitten._view` adds."""

    round: int
    dealer: Seat
    turn: Seat | None
    hand: list[str] | None
    """This seat's cards, sorted; ``None`` for a spectator."""
    hand_counts: list[int]
    deal_sizes: list[int]
    out: list[Seat]
    bid: BidView | None
    bids: list[BidView]
    must_bid: bool
    played: list[dict[str, Any]]
    deck_count: int
    last_reveal: RevealView | None
    things: list[str]
    deck_set: str
    purrfect: bool
    max_bid: int
    winner: Seat | None


@dataclass(slots=True, kw_only=True)
class KittenState(GameState):
    """A Kitten Me! game. Bids and played specials are this round's; the deck is top first."""

    round: int = 1
    deal_sizes: list[int]
    """Each seat's cards for the game (0: out). The scores."""
    dealer: Seat
    turn: Seat
    hands: list[list[str]]
    deck: list[str]
    bids: list[dict[str, Any]]
    """This round's bids, oldest first: ``{"seat", "count", "thing"}``."""
    played: list[dict[str, Any]]
    """This round's specials, face up: ``{"seat", "card", ...}``. A Draw 3 or Go Fish
    entry carries ``cards`` (only its drawer, or giver and taker, see them) and ``count``."""
    last_reveal: dict[str, Any] | None = None
    winner: Seat | None = None
    named: list[str] = field(default_factory=list)
    """Cards whose names this game has written in a public sentence (see :meth:`Kitten.hidden`)."""
    named_to: list[list[str]] = field(default_factory=list)
    """Per seat: cards whose names it was told in a private sentence."""

    def name_cards(self, codes: list[str], seats: list[Seat] | None = None) -> None:
        """Note that a sentence names ``codes``, for everyone or for ``seats`` only."""
        for seat in range(len(self.players)) if seats is None else seats:
            while len(self.named_to) < len(self.players):
                self.named_to.append([])
            target = self.named if seats is None else self.named_to[seat]
            target.extend(code for code in dict.fromkeys(codes) if code not in target)


class Kitten(Game[KittenState]):
    """The You Gotta Be Kitten Me! rules behind the engine contract."""

    name = "kitten"
    title = "You Gotta Be Kitten Me!"
    short_title = "Kitten Me!"
    min_players = 2
    max_players = 10
    state_type = KittenState
    view_type = KittenView
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option(
            "deck_set",
            "base",
            "Which cards: the white base deck, the grey Deluxe deck, or both shuffled together",
            kind=str,
            choices=DECK_SETS,
            label="Cards",
        ),
        Option(
            "purrfect",
            False,
            "Advanced rule: call Purrfect when you think the last bid is exactly right",
            kind=bool,
            label="Purrfect calls",
        ),
        Option(
            "max_bid",
            MAX_BID,
            "The highest bid allowed",
            minimum=5,
            maximum=200,
            label="Highest bid",
        ),
        DECK_OPTION,
    )
    assumptions = ASSUMPTIONS
    bots = (
        ("normal", "engine.games.kitten.bot:KittenBot"),
        ("easy", "engine.games.kitten.bot:PlainKittenBot"),
        ("hard", "engine.games.kitten.bot:HardKittenBot"),
        ("kitten", "engine.games.kitten.bot:KittenBot"),
        ("plain", "engine.games.kitten.bot:PlainKittenBot"),
    )

    # Setup --------------------------------------------------------------------

    def _setup(self, players: list[str], rng: Rng, options: dict[str, Any]) -> KittenState:
        full = deck(options["deck_set"])
        for order in deck_orders(options["deck"]):
            check_deck(self.title, order, full)
        size = BIG_TABLE_HAND_SIZE if len(players) >= BIG_TABLE else HAND_SIZE
        dealer = rng.below(len(players))
        state = KittenState(
            players=players,
            options=options,
            rng=rng,
            deal_sizes=[size] * len(players),
            dealer=dealer,
            turn=dealer,
            hands=[[] for _ in players],
            deck=[],
            bids=[],
            played=[],
            named_to=[[] for _ in players],
        )
        self._deal(state, [])
        return state

    def _deal(self, state: KittenState, events: list[Event]) -> None:
        """Collect every card, shuffle (or take the explicit order), deal the deal sizes."""
        order = deck_for_round(state.options["deck"], state.round)
        if order is None:
            cards = deck(state.options["deck_set"])
            state.rng.shuffle(cards)
        else:
            cards = list(order)
        position = 0
        for seat, size in enumerate(state.deal_sizes):
            state.hands[seat] = cards[position : position + size]
            position += size
        state.deck = cards[position:]
        state.bids, state.played = [], []
        state.turn = state.dealer
        sizes = ", ".join(
            f"{state.name(seat)} {size}" for seat, size in enumerate(state.deal_sizes) if size
        )
        state.record(
            events,
            "deal",
            f"Round {state.round}: {state.name(state.dealer)} deals ({sizes})"
            " and opens the bidding.",
            round=state.round,
            dealer=state.dealer,
            deal_sizes=list(state.deal_sizes),
        )

    # Actions -------------------------------------------------------------------

    def _apply(
        self, state: KittenState, seat: Seat, action: Action, now: float, events: list[Event]
    ) -> None:
        kind = action_type(action, ("bid", CHALLENGE, PURRFECT, "play"))
        if seat != state.turn:
            raise NotYourTurn(f"It is {state.name(state.turn)}'s turn")
        if kind == "bid":
            self._bid(state, seat, action, events)
        elif kind == "play":
            self._play(state, seat, action, events)
        else:
            self._call(state, seat, kind, events)

    def _bid(self, state: KittenState, seat: Seat, action: Action, events: list[Event]) -> None:
        count = action_field(action, "count", int)
        thing = self._thing(action)
        highest = state.options["max_bid"]
        if count < MIN_BID:
            raise IllegalAction(f"A bid is at least {MIN_BID}")
        if count > highest:
            raise IllegalAction(f"Bids go up to {highest} at this table")
        standing = state.bids[-1] if state.bids else None
        if standing is not None and count <= standing["count"]:
            said = thing_words(standing["thing"], standing["count"])
            raise IllegalAction(
                f"Bid more than {said}: at least {standing['count'] + 1} of any accessory or colour"
            )
        state.bids.append({"seat": seat, "count": count, "thing": thing})
        state.record(
            events,
            "bid",
            f"{state.name(seat)} bids {thing_words(thing, count)}.",
            seat=seat,
            count=count,
            thing=thing,
        )
        state.turn = self._next_in(state, seat)

    def _thing(self, action: Action) -> str:
        thing = action_field(action, "thing", str)
        if thing not in THINGS:
            raise InvalidAction(f"Name an accessory or colour: {', '.join(THINGS)}; not {thing!r}")
        return thing

    def _play(self, state: KittenState, seat: Seat, action: Action, events: list[Event]) -> None:
        card = action_field(action, "card", str)
        if parse(card) is None:
            raise InvalidAction(f"{card!r} is not a Kitten Me! card")
        target, thing = None, None
        if card == GO_FISH:
            target = action_field(action, "target", int)
            if not 0 <= target < len(state.players):
                raise InvalidAction(f"There is no seat {target} at this table")
            thing = self._thing(action)
        if card not in PLAYABLE:
            name = card_name(card)
            if card in SPECIAL_NAMES:
                raise IllegalAction(f"{name} works from your hand; it is never played")
            raise IllegalAction("Only Skip, Draw 3 and Go Fish are played; bid or call instead")
        if card not in state.hands[seat]:
            raise IllegalAction(f"You do not hold a {card_name(card)}")
        self._check_special_allowed(state, seat)
        if target is not None and (target == seat or not state.deal_sizes[target]):
            raise IllegalAction("Go Fish names another player who is still in the game")
        state.hands[seat].remove(card)
        if card == SKIP:
            state.played.append({"seat": seat, "card": card})
            state.name_cards([card])
            state.record(
                events,
                "play",
                f"{state.name(seat)} plays Skip.",
                seat=seat,
                card=card,
            )
        elif card == DRAW_3:
            self._draw(state, seat, events)
        else:
            assert target is not None and thing is not None
            self._go_fish(state, seat, target, thing, events)
        state.turn = self._next_in(state, seat)

    def _check_special_allowed(self, state: KittenState, seat: Seat) -> None:
        if not state.bids:
            raise IllegalAction("The dealer opens the round with a bid")
        standing = state.bids[-1]
        if standing["seat"] == seat:
            raise IllegalAction("Your own bid came back to you: make a new bid")
        if standing["count"] >= state.options["max_bid"]:
            raise IllegalAction(
                "The bid is already the highest allowed: challenge it"
                + (" or call Purrfect" if state.options["purrfect"] else "")
            )

    def _draw(self, state: KittenState, seat: Seat, events: list[Event]) -> None:
        """Draw 3: up to three cards from the deck, always leaving one to flip."""
        count = max(0, min(DRAW_COUNT, len(state.deck) - FLIP_RESERVE))
        drawn, state.deck = state.deck[:count], state.deck[count:]
        state.hands[seat].extend(drawn)
        state.played.append({"seat": seat, "card": DRAW_3, "count": count, "cards": drawn})
        state.name_cards([DRAW_3])
        state.record(
            events,
            "play",
            f"{state.name(seat)} plays Draw 3 and draws {count} card{'s' * (count != 1)}.",
            seat=seat,
            card=DRAW_3,
            count=count,
        )
        if drawn:
            names = ", ".join(card_name(code) for code in drawn)
            state.name_cards(drawn, [seat])
            state.record(events, "drawn", f"You drew {names}.", [seat], cards=list(drawn))

    def _go_fish(
        self, state: KittenState, seat: Seat, target: Seat, thing: str, events: list[Event]
    ) -> None:
        """Go Fish: ``target`` hands over every normal card showing ``thing`` (never a Wild)."""
        given = [code for code in state.hands[target] if matches(code, thing)]
        state.hands[target] = [code for code in state.hands[target] if not matches(code, thing)]
        state.hands[seat].extend(given)
        count = len(given)
        state.played.append(
            {
                "seat": seat,
                "card": GO_FISH,
                "target": target,
                "thing": thing,
                "count": count,
                "cards": given,
            }
        )
        plural = THING_WORDS[thing][1]
        state.name_cards([GO_FISH])
        state.record(
            events,
            "play",
            f"{state.name(seat)} plays Go Fish on {state.name(target)} for {plural}:"
            f" {count} card{'s' * (count != 1)} handed over.",
            seat=seat,
            card=GO_FISH,
            target=target,
            thing=thing,
            count=count,
        )
        if given:
            names = ", ".join(card_name(code) for code in given)
            state.name_cards(given, [seat, target])
            state.record(
                events,
                "handed",
                f"{state.name(target)} hands {state.name(seat)} {names}.",
                [seat, target],
                giver=target,
                taker=seat,
                cards=list(given),
            )

    def _call(self, state: KittenState, seat: Seat, kind: str, events: list[Event]) -> None:
        if kind == PURRFECT and not state.options["purrfect"]:
            raise IllegalAction("This table does not play Purrfect (table option 'purrfect')")
        if not state.bids:
            raise IllegalAction("There is no bid to call yet: the dealer opens with a bid")
        standing = state.bids[-1]
        if standing["seat"] == seat:
            raise IllegalAction("That is your own bid: make a new bid")
        state.record(
            events,
            kind,
            f"{state.name(seat)} calls {CALL_WORDS[kind]} on {state.name(standing['seat'])}'s"
            f" {thing_words(standing['thing'], standing['count'])}.",
            seat=seat,
            bidder=standing["seat"],
        )
        self._reveal(state, seat, kind, events)

    # The reveal ------------------------------------------------------------------

    def _reveal(self, state: KittenState, caller: Seat, kind: str, events: list[Event]) -> None:
        bid = state.bids[-1]
        bidder, count, thing = bid["seat"], bid["count"], bid["thing"]
        flipped = state.deck[0]
        hands: list[dict[str, Any]] = []
        for seat, cards in enumerate(state.hands):
            if not state.deal_sizes[seat]:
                continue
            counted = count_hand(cards, thing)
            hands.append(
                {
                    "seat": seat,
                    "cards": sorted(cards, key=sort_key),
                    "base": counted.base,
                    "cant_see_me": counted.cant_see_me,
                    "doublings": counted.doublings,
                    "adds": counted.adds,
                }
            )
        subtotal = sum(hand["adds"] for hand in hands)
        total = apply_flip(subtotal, flipped, thing)
        changes, loser, correct = self._judge(state, kind, caller, bidder, count, total)
        refused = self._settle(state, changes)
        out = [change["seat"] for change in changes if change["delta"] < 0]
        out = [seat for seat in out if not state.deal_sizes[seat]]
        active = [seat for seat, size in enumerate(state.deal_sizes) if size]
        next_dealer = loser if state.deal_sizes[loser] else self._next_in(state, loser)
        state.last_reveal = {
            "round": state.round,
            "call": kind,
            "bid": dict(bid),
            "caller": caller,
            "dealer": state.dealer,
            "hands": hands,
            "flipped": flipped,
            "flip_effect": flip_effect(flipped),
            "flip_adds": value(flipped, thing),
            "subtotal": subtotal,
            "total": total,
            "loser": loser,
            "correct": correct,
            "changes": changes,
            "refused": refused,
            "out": out,
            "deal_sizes": list(state.deal_sizes),
            "next_dealer": None if len(active) == 1 else next_dealer,
        }
        state.record(
            events,
            "reveal",
            self._describe_reveal(state, hands, flipped, thing, total),
            **clone(state.last_reveal),
        )
        state.record(
            events,
            "result",
            self._describe_result(state, kind, bid, total, changes, refused, out),
            call=kind,
            total=total,
            loser=loser,
            changes=clone(changes),
            out=list(out),
        )
        if len(active) == 1:
            state.winner = active[0]
            state.record(
                events,
                "game_end",
                f"{state.name(active[0])} is the last player with cards and wins!",
                winners=[active[0]],
                scores=list(state.deal_sizes),
            )
            return
        state.round += 1
        state.dealer = next_dealer
        self._deal(state, events)

    def _judge(
        self, state: KittenState, kind: str, caller: Seat, bidder: Seat, count: int, total: int
    ) -> tuple[list[dict[str, Any]], Seat, Seat]:
        """Who loses and gains cards: ``(changes, loser, the side that was correct)``."""
        changes: list[dict[str, Any]] = []
        if kind == CHALLENGE:
            bid_holds = total >= count
            loser, correct = (caller, bidder) if bid_holds else (bidder, caller)
            reason = "the bid held" if bid_holds else "the bid failed"
            changes.append({"seat": loser, "delta": -1, "reason": reason})
        elif total == count:
            loser, correct = bidder, caller
            changes.append({"seat": bidder, "delta": -1, "reason": "the bid was exact"})
            changes.append({"seat": caller, "delta": 1, "reason": "Purrfect was right"})
        else:
            loser, correct = caller, bidder
            changes.append({"seat": caller, "delta": -1, "reason": "Purrfect was wrong"})
        for _ in range(state.hands[correct].count(HANG_IN_THERE)):
            changes.append({"seat": correct, "delta": 1, "reason": SPECIAL_NAMES[HANG_IN_THERE]})
        return changes, loser, correct

    def _settle(self, state: KittenState, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Apply losses, then gains while the deck can still deal them; the gains refused."""
        for change in changes:
            if change["delta"] < 0:
                state.deal_sizes[change["seat"]] -= 1
        room = len(deck(state.options["deck_set"])) - FLIP_RESERVE
        refused: list[dict[str, Any]] = []
        for change in changes:
            if change["delta"] > 0:
                if sum(state.deal_sizes) < room:
                    state.deal_sizes[change["seat"]] += 1
                else:
                    refused.append(change)
        for change in refused:
            changes.remove(change)
        return refused

    def _describe_reveal(
        self,
        state: KittenState,
        hands: list[dict[str, Any]],
        flipped: str,
        thing: str,
        total: int,
    ) -> str:
        parts = []
        for hand in hands:
            why = ""
            if hand["cant_see_me"]:
                state.name_cards([CANT_SEE_ME])
                why = f" ({SPECIAL_NAMES[CANT_SEE_ME]})"
            elif hand["doublings"]:
                state.name_cards([DOUBLE_TROUBLE])
                times = 2 ** hand["doublings"]
                why = f" ({SPECIAL_NAMES[DOUBLE_TROUBLE]} x{times})"
            parts.append(f"{state.name(hand['seat'])} {hand['adds']}{why}")
        effect = flip_effect(flipped)
        if effect == FLIP_ZERO:
            flip = "the total is 0"
        elif effect == FLIP_DOUBLE:
            flip = "the total doubles"
        else:
            flip = f"+{value(flipped, thing)}"
        plural = THING_WORDS[thing][1]
        state.name_cards([flipped])
        return (
            f"Reveal, {plural}: {', '.join(parts)}; {state.name(state.dealer)} flips"
            f" {card_name(flipped)} ({flip}); total {total}."
        )

    def _describe_result(
        self,
        state: KittenState,
        kind: str,
        bid: dict[str, Any],
        total: int,
        changes: list[dict[str, Any]],
        refused: list[dict[str, Any]],
        out: list[Seat],
    ) -> str:
        count = bid["count"]
        if kind == CHALLENGE:
            head = (
                f"{total} is at least {count}: the bid holds."
                if total >= count
                else f"{total} is less than {count}: the bid fails."
            )
        else:
            head = (
                f"Exactly {count}: Purrfect!"
                if total == count
                else f"{total} is not exactly {count}: no Purrfect."
            )
        if any(change["reason"] == SPECIAL_NAMES[HANG_IN_THERE] for change in changes + refused):
            state.name_cards([HANG_IN_THERE])
        said = []
        for change in changes:
            verb = "loses" if change["delta"] < 0 else "gains"
            said.append(f"{state.name(change['seat'])} {verb} a card ({change['reason']})")
        for change in refused:
            said.append(
                f"{state.name(change['seat'])} would gain a card ({change['reason']}),"
                " but the deck has none to spare"
            )
        tail = "".join(f" {state.name(seat)} is out." for seat in out)
        return f"{head} {'; '.join(said)}.{tail}"

    # Helpers ---------------------------------------------------------------------

    def _next_in(self, state: KittenState, seat: Seat) -> Seat:
        """The next player clockwise (to the left) who is still in the game."""
        count = len(state.players)
        for step in range(1, count + 1):
            other = (seat + step) % count
            if state.deal_sizes[other]:
                return other
        return seat

    # Queries ---------------------------------------------------------------------

    def legal_actions(self, state: KittenState, seat: Seat) -> list[dict[str, Any]]:
        if state.winner is not None or seat != state.turn:
            return []
        standing = state.bids[-1] if state.bids else None
        low = MIN_BID if standing is None else standing["count"] + 1
        legal: list[dict[str, Any]] = [
            {"type": "bid", "count": count, "thing": thing}
            for count in range(low, state.options["max_bid"] + 1)
            for thing in THINGS
        ]
        if standing is None or standing["seat"] == seat:
            return legal
        legal.append({"type": CHALLENGE})
        if state.options["purrfect"]:
            legal.append({"type": PURRFECT})
        if standing["count"] >= state.options["max_bid"]:
            return legal
        hand = state.hands[seat]
        for card in (SKIP, DRAW_3):
            if card in hand:
                legal.append({"type": "play", "card": card})
        if GO_FISH in hand:
            for target, size in enumerate(state.deal_sizes):
                if target != seat and size:
                    legal.extend(
                        {"type": "play", "card": GO_FISH, "target": target, "thing": thing}
                        for thing in THINGS
                    )
        return legal

    def outcome(self, state: KittenState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(tuple(state.deal_sizes), (state.winner,))

    def phase(self, state: KittenState) -> str:
        if state.winner is not None:
            return PHASE_OVER
        return PHASE_BID if state.bids else PHASE_OPEN

    def scores(self, state: KittenState) -> list[int]:
        """Each player's deal size: the cards they hold for the game (0 once out)."""
        return list(state.deal_sizes)

    def _view(self, state: KittenState, seat: Seat | None) -> dict[str, Any]:
        """Only the seat's own hand; the others' counts; the public round; the last reveal."""
        own = None if seat is None else sorted(state.hands[seat], key=sort_key)
        standing = state.bids[-1] if state.bids else None
        return {
            "round": state.round,
            "dealer": state.dealer,
            "turn": None if state.winner is not None else state.turn,
            "hand": own,
            "hand_counts": [len(hand) for hand in state.hands],
            "deal_sizes": list(state.deal_sizes),
            "out": [s for s, size in enumerate(state.deal_sizes) if not size],
            "bid": None if standing is None else dict(standing),
            "bids": clone(state.bids),
            "must_bid": standing is None or standing["seat"] == state.turn,
            "played": [self._played_view(entry, seat) for entry in state.played],
            "deck_count": len(state.deck),
            "last_reveal": clone(state.last_reveal),
            "things": list(THINGS),
            "deck_set": state.options["deck_set"],
            "purrfect": state.options["purrfect"],
            "max_bid": state.options["max_bid"],
            "winner": state.winner,
        }

    @staticmethod
    def _played_view(entry: dict[str, Any], seat: Seat | None) -> dict[str, Any]:
        """A played special as ``seat`` sees it: moved cards only for those involved."""
        shown = {key: value for key, value in entry.items() if key != "cards"}
        if "cards" in entry and seat is not None and seat in (entry["seat"], entry.get("target")):
            shown["cards"] = list(entry["cards"])
        return shown

    def hidden(self, state: KittenState, seat: Seat | None) -> Secrets:
        """Other hands and the deck, less every card the seat may legitimately meet.

        Codes repeat (four Single Blue Hats, both decks), so a card is a secret
        only if its code is nowhere in what the seat may see now (its hand, the
        specials played, what changed hands with it, the last reveal) and its
        name was never written in a sentence for it (:attr:`KittenState.named`).
        Both come from the game's own records, never from the log, so a card
        leaked by an event or a log line is caught, not excused.
        """
        secret = [code for other, hand in enumerate(state.hands) if other != seat for code in hand]
        secret.extend(state.deck)
        seen = set(state.named)
        if seat is not None:
            seen.update(state.hands[seat])
            seen.update(state.named_to[seat])
        for entry in state.played:
            seen.update(_codes(self._played_view(entry, seat)))
        if state.last_reveal is not None:
            seen.update(_codes(state.last_reveal))
        return {code: card_name(code) for code in secret if code not in seen}


def _codes(data: Mapping[str, Any]) -> list[str]:
    """The card codes a view entry, event or reveal carries (where this module puts them)."""
    codes: list[str] = []
    for key in ("card", "flipped"):
        if isinstance(data.get(key), str):
            codes.append(data[key])
    codes.extend(data.get("cards") or ())
    for hand in data.get("hands") or ():
        codes.extend(hand["cards"])
    return codes


GAME = Kitten()
