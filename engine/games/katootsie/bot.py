"""Katootsie! bots: they know (part of) the category lists and think like people do.

The levels (the game's ``bots``) differ in what they know and how they
claim, and only then in speed: ``easy`` (:class:`EasyBot`) knows a third of
the answers, is slow and repeats answers already taken (refused: locked out);
``normal`` (:class:`ExpertBot`) knows 70% and calls Katootsie! on a hunch
when a letter's list is short; ``hard`` (:class:`HardBot`) knows 85%, is a
little quicker, and calls Katootsie! only when the odds say nobody answers.

A bot sees only its view. When a letter is open it looks up the category's
known answers for the letter (:func:`engine.games.katootsie.answers.answers_for`),
leaving out answers already taken in this category, and "knows" each one
with its level's chance (:attr:`KatootsieBot.knows`), drawn afresh each time,
as a person remembers some answers and not others.

Thinking time (:attr:`KatootsieBot.reaction_s`, after which the host submits
the claim): the level's base time, longer for rare letters (fewer known
answers: ``base * (1 + RARITY / sqrt(answers))``), with seeded jitter, plus
typing time per character. After a Katootsie! call, a bot only answers if it
thinks it can within the ten seconds.

Katootsie!: a bot that knows no answer, where the list for the letter is
short (at most :data:`RARE_ANSWERS` answers: it believes nobody can answer),
calls with its level's chance after a few seconds' thought.

Votes (a stated rule, since a bot cannot judge meaning): an answer in the
category's list is accepted; an unlisted answer is accepted when its last
word matches the last word of a known answer ("golden delicious apple" for
Fruits, because of "apple"), otherwise rejected. Who was first in a tie: a bot
cannot tell, so it always votes "the same time".
"""

from __future__ import annotations

import math
from typing import Any

from engine.core import Rng
from engine.games.katootsie import answers

RARITY = 4.0
"""How much longer a letter with few answers takes to think of (see the module doc)."""

RARE_ANSWERS = 6
"""A letter with at most this many known answers feels impossible: a bot may call Katootsie!."""

TYPING_S_PER_CHAR = 0.12
"""About 100 characters a minute (a quick typist under pressure)."""

VOTE_S = 1.5
"""How long reading and voting on an answer takes."""

KATOOTSIE_S = 10.0
MIN_REACTION_S = 0.4


class KatootsieBot:
    """A Katootsie! player of a given level (see the module doc)."""

    knows = 0.5
    """Chance of thinking of each known answer."""
    think_s = 2.0
    """Base thinking time for a letter with many answers."""
    call_chance = 0.3
    """Chance of calling Katootsie! when it believes nobody can answer."""
    remembers_used = True
    """Whether it leaves out answers already taken in this category (a repeat is refused
    and locks the player out of the letter)."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = self.think_s

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        types = {action["type"] for action in legal}
        if "vote" in types:
            self.reaction_s = VOTE_S * (0.7 + 0.6 * self.rng.random())
            return {"type": "vote", "accept": self.judge(view)}
        if "first" in types:
            self.reaction_s = VOTE_S
            return {"type": "first", "seat": None}
        if not types & {"answer", "katootsie"}:
            return None
        reveal = next(action["reveal"] for action in legal)
        category = view["category"]["code"]
        used = (view.get("used") or []) if self.remembers_used else []
        options = self.candidates(category, view["letter"], used)
        known = [answer for answer in options if self.rng.random() < self.knows]
        if "answer" in types and known:
            answer: str = self.rng.choice(known)
            self.reaction_s = self.think_time(len(options)) + TYPING_S_PER_CHAR * len(answer)
            if view.get("call") is not None and self.reaction_s > KATOOTSIE_S - 0.5:
                return None
            return {"type": "answer", "reveal": reveal, "text": answer}
        if "katootsie" in types and self.calls(view, options):
            self.reaction_s = self.think_s + 2.0 + 3.0 * self.rng.random()
            return {"type": "katootsie", "reveal": reveal}
        return None

    def calls(self, view: dict[str, Any], options: list[str]) -> bool:
        """Whether to call Katootsie! on a letter it knows no answer for: now and then,
        when the list for the letter is short (it feels impossible)."""
        return len(options) <= RARE_ANSWERS and self.rng.random() < self.call_chance

    def candidates(self, category: str, letter: str, used: list[str]) -> list[str]:
        """The known answers for this letter not yet taken in this category."""
        taken = {answers.used_key(answer) for answer in used}
        return [
            answer
            for answer in answers.answers_for(category, letter)
            if answers.used_key(answer) not in taken
        ]

    def think_time(self, count: int) -> float:
        """Longer for rare letters, with jitter; never below a human bound."""
        base = self.think_s * (1.0 + RARITY / math.sqrt(max(count, 1)))
        return max(MIN_REACTION_S, base * (0.7 + 0.6 * self.rng.random()))

    def judge(self, view: dict[str, Any]) -> bool:
        """The bots' voting rule (module doc)."""
        vote = view.get("vote") or {}
        text = str(vote.get("answer", ""))
        category = (view.get("category") or {}).get("code")
        if category is None:
            return True
        if answers.listed(category, text):
            return True
        found = answers.category(category)
        words = answers.words(text)
        if not words:
            return False
        last = answers.singular(words[-1])
        return any(
            answers.singular(known[-1]) == last
            for known in (answers.words(a) for a in found.answers)
            if known
        )


class ExpertBot(KatootsieBot):
    """Normal: knows most answers, thinks fast, calls Katootsie! boldly on short lists."""

    knows = 0.7
    think_s = 1.2
    call_chance = 0.5


class CasualBot(KatootsieBot):
    """Knows a third of the answers, takes its time, rarely calls."""

    knows = 0.35
    think_s = 2.5
    call_chance = 0.15


class EasyBot(CasualBot):
    """Easy: a casual player who also forgets what was already said.

    It knows a third of the answers and thinks slowly (:class:`CasualBot`),
    and it does not keep track of the answers already taken in this
    category, so now and then it repeats one: the rules refuse a repeat and
    lock it out of that letter. Those wrong answers, not only its slowness,
    are what make it easy.
    """

    remembers_used = False


NOBODY_ANSWERS = 0.6
""":class:`HardBot` calls Katootsie! only when it believes nobody answers with at least
this chance (a wrong call gives the answerer one of its letters, or a debt)."""
OTHERS_KNOW = 0.6
"""What :class:`HardBot` assumes another player knows of each listed answer."""


class HardBot(KatootsieBot):
    """Hard: knows nearly every answer, never repeats one, and calls Katootsie! by the odds.

    It knows 85% of the listed answers (so it answers letters the others
    cannot), thinks a little faster than :class:`ExpertBot`, and keeps track
    of the answers taken. Rather than calling Katootsie! on a hunch, it
    calls only when it knows no answer and the chance that none of the other
    players still in knows any of the letter's remaining answers (each
    known with :data:`OTHERS_KNOW`) is at least :data:`NOBODY_ANSWERS`: a
    wrong call hands a letter to the player who answers. At equal reaction
    times its edge is what it knows and when it calls, not its speed.
    """

    knows = 0.85
    think_s = 1.0
    call_chance = 0.0

    def calls(self, view: dict[str, Any], options: list[str]) -> bool:
        players_in: list[int] = view.get("players_in") or []
        locked: list[int] = view.get("locked") or []
        others = sum(1 for seat in players_in if seat != view.get("seat") and seat not in locked)
        if others == 0:
            return False
        nobody = (1.0 - OTHERS_KNOW) ** (len(options) * others)
        return nobody >= NOBODY_ANSWERS
