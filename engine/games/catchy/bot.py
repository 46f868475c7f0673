"""A Catchy! bot that reasons one trick ahead from what its seat can see.

It knows its hand, the cards played this round and the follow rule, so it
knows which cards the opponent may still hold (the unseen ones, minus the
colours the opponent has shown to be out of). As follower it knows the led
card and picks the reply whose outcome it likes best. As leader it scores
each card against every card the opponent could answer with, blending the
average (an unpredictable opponent) with the worst case (a sharp one).

Outcomes are valued as round points: a cat in someone's Arms is decided, a
cat after the last trick scores as it stands, otherwise the cat's distance
counts with the tricks still to come discounting it. Among equal choices the
bot keeps its strong cards and the Joker for later.
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.games.catchy.rules import (
    ARMS_POINTS,
    CLOSER_POINTS,
    JOKER,
    PLAYABLE,
    colour,
    number,
    resolve_trick,
)

LEADER_BONUS = 0.15
"""Value of leading the next trick (in round points)."""

WORST_CASE_WEIGHT = 0.5
"""How much a leader fears the opponent's best reply versus an average one."""

SPEND_COST = 0.02
"""Cost per point of strength spent, so ties go to the weaker card."""


class CatchyBot:
    """Plays Catchy! from ``view(state, seat)`` alone."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0
        """Catchy! is turn-based: the host paces bots with its own delay."""

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        if legal[0]["type"] == "swap":
            # Every face-down course card is equally unknown.
            choice: dict[str, Any] = self.rng.choice(legal)
            return choice
        seat: int = view["seat"]
        scored = [(self._value(view, seat, a["card"]), index) for index, a in enumerate(legal)]
        best = max(value for value, _ in scored)
        ties = [legal[index] for value, index in scored if value >= best - 1e-9]
        pick: dict[str, Any] = self.rng.choice(ties)
        return pick

    # Valuation ------------------------------------------------------------------

    def _value(self, view: dict[str, Any], seat: int, card: str) -> float:
        trick: list[str] = view["trick"]
        side: str = view["cat"]["side"]
        cost = SPEND_COST * (number(card) + (2 if card == JOKER else 0))
        if trick:
            return self._outcome(view, seat, 1 - seat, trick[0], card, side) - cost
        replies = self._possible_replies(view, seat, card)
        if not replies:
            return -cost
        values = [self._outcome(view, seat, seat, card, reply, side) for reply in replies]
        average = sum(values) / len(values)
        worst = min(values)
        return (1 - WORST_CASE_WEIGHT) * average + WORST_CASE_WEIGHT * worst - cost

    def _outcome(
        self, view: dict[str, Any], seat: int, leader: int, led: str, followed: str, side: str
    ) -> float:
        """Round points (ours minus theirs, roughly) after this trick."""
        result = resolve_trick(leader, led, followed, side)
        position: int = view["cat"]["position"]
        if result.toward is not None:
            position += -1 if result.toward == 0 else 1
        mine = -position if seat == 0 else position  # steps towards us
        arms: int = view["cat"]["arms"]
        if abs(mine) >= arms:
            return ARMS_POINTS * (1 if mine > 0 else -1) * 2
        tricks_left = view["tricks_per_round"] - len(view["tricks"]) - 1
        sign = (mine > 0) - (mine < 0)
        if tricks_left == 0:
            return float(CLOSER_POINTS * 2 * sign)
        # With tricks to come the cat's place is less certain; nearer the Arms is better.
        closeness = mine / arms
        value = CLOSER_POINTS * 2 * closeness * (0.5 + 0.5 / tricks_left)
        if result.next_leader == seat:
            value += LEADER_BONUS
        return float(value)

    def _possible_replies(self, view: dict[str, Any], seat: int, led: str) -> list[str]:
        """Cards the opponent might answer ``led`` with, by the follow rule."""
        unseen = self._unseen(view, seat)
        voids = self._opponent_voids(view, seat)
        candidates = [card for card in unseen if colour(card) not in voids]
        led_colour = colour(led)
        if led_colour is None or led_colour in voids:
            return candidates
        following = [c for c in candidates if colour(c) == led_colour or c == JOKER]
        # If they may hold the colour they must follow it; if they may not, anything goes.
        return following if any(colour(c) == led_colour for c in following) else candidates

    def _unseen(self, view: dict[str, Any], seat: int) -> list[str]:
        seen = set(view["hand"] or ())
        for trick in view["tricks"]:
            seen.update(trick["cards"])
        seen.update(view["trick"])
        return [card for card in PLAYABLE if card not in seen]

    def _opponent_voids(self, view: dict[str, Any], seat: int) -> set[str | None]:
        """Colours the opponent showed they lacked by not following them."""
        voids: set[str | None] = set()
        for trick in view["tricks"]:
            led, followed = trick["cards"]
            followed_suit = followed == JOKER or colour(followed) == colour(led)
            if trick["leader"] == seat and colour(led) is not None and not followed_suit:
                voids.add(colour(led))
        return voids
