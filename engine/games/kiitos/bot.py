"""Kiitos bots at three levels; the normal one chooses words it can finish and others cannot.

The levels (the game's ``bots``): ``easy`` (:class:`EasyKiitosBot`) says the
shortest of the few words the rules offer, with no search; ``normal``
(:class:`KiitosBot`) is described below; ``hard`` (:class:`HardKiitosBot`)
also plans the letters it leaves on the table, so that the next player is
likely to have no way on and must pick the table up.

It sees only its seat's view: its hand, the table, the target word, hand
sizes and pile counts. From those it estimates how likely each other player
is to hold a letter (the copies not in its hand or on the table, spread over
the cards it cannot see). A candidate word is valued by its chance to be
completed (so the bot, having said it, takes the cards) with the letters at
the bot's own later positions counting as sure when it holds them, and the
others' positions at the estimated chance that the player due holds them.

It plays the compelled letter (preferring to finish its own word and not to
finish another's), otherwise says the best word it finds among the commoner
dictionary words (sizes <= 50; then any word of the dictionary), picks up only
when no word fits, challenges
every word the dictionary lacks, and (:class:`KiitosBot`, not
:class:`PlainKiitosBot`) now and then bluffs a made-up word rather than pick
up a long table.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core import Rng
from engine.games.kiitos.memory import TableMemory, continuations
from engine.games.kiitos.rules import CHECK_STRICT, MAX_WORD_LENGTH
from engine.games.kiitos.table import LETTER_COUNTS, START, place, sample
from engine.games.kiitos.words import WordList, dictionary

SAMPLE = 120
"""How many candidate words are valued per letter and side (a bot move stays fast)."""
MAX_WORD = 11
"""Longer words are rarely completed; the bot does not say them."""
FALLBACK_SUPER_TABLE = 3
"""Under Super-Kiitos the rare words are searched only once the table has this many letters
(shorter strings have too many matches to search quickly)."""
BLUFF_CHANCE = 0.5
"""How often :class:`KiitosBot` bluffs when no real word fits (and the table is long enough)."""
BLUFF_TABLE = 2
"""The bluff is worth it only when picking up would cost at least this many cards."""
STUCK_EXTRA = 1.0
"""Cards a stuck player is expected to lose beyond the table (:class:`HardKiitosBot`):
a player with no way on may bluff instead of picking up, and a bluff challenged costs a
card (measured: normal bots lose about 1.4 challenge cards a round at 4 players)."""
CHALLENGE_REACTION_S = (0.9, 1.6)
"""Seconds a person takes to read a word and grab a challenge card (low, high)."""
MOVE_REACTION_S = (2.2, 3.2)
"""Seconds the bot waits before its own move while a word may be challenged: time for
people to read the word and challenge it first."""


class KiitosBot:
    """Plays Kiitos from ``view(state, seat)`` alone; bluffs now and then."""

    bluffs = True
    sample_size = SAMPLE
    """Candidate words valued per letter and side."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0

    # The decision ------------------------------------------------------------------

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal: list[dict[str, Any]] = view.get("legal") or []
        if not legal:
            return None
        challenge = next((a for a in legal if a["type"] == "challenge"), None)
        target = view.get("target")
        if challenge is not None and target and target.lower() not in dictionary():
            self.reaction_s = self._between(CHALLENGE_REACTION_S)
            return dict(challenge)
        own = [action for action in legal if action["type"] != "challenge"]
        if not own:
            return None  # the word stands as far as this bot knows: let it pass
        self.reaction_s = self._between(MOVE_REACTION_S) if challenge is not None else 0.0
        kind = own[0]["type"]
        if kind == "flip":
            return self._flip(view, own)
        if kind == "forfeit":
            return self._forfeit(view, own)
        if kind == "choose":
            return {"type": "choose", "seat": view["seat"]}
        if kind == "play":
            return self._continue(view, own)
        return self._word(view, own)

    def _between(self, bounds: tuple[float, float]) -> float:
        low, high = bounds
        return low + (high - low) * self.rng.random()

    # Compelled letters ---------------------------------------------------------------

    def _continue(self, view: dict[str, Any], plays: list[dict[str, Any]]) -> dict[str, Any]:
        """Finish its own word when it can; avoid finishing another's."""
        target = (view.get("target") or "").lower()
        table = "".join(view["table"]).lower()

        def value(action: dict[str, Any]) -> float:
            done = place(table, action["letter"], action["side"]) == target
            if not done:
                return 0.0
            return 1.0 if view.get("sayer") == view["seat"] else -1.0

        best = max(value(action) for action in plays)
        return dict(self.rng.choice([a for a in plays if value(a) == best]))

    # New words ------------------------------------------------------------------------

    def _word(self, view: dict[str, Any], own: list[dict[str, Any]]) -> dict[str, Any]:
        """The best word to lead or say; a bluff or a pick-up when none fits."""
        table = "".join(view["table"]).lower()
        found = dictionary()
        best = self._best_word(view, table, found.common, MAX_WORD)
        deep = len(table) >= (FALLBACK_SUPER_TABLE if view["rules"]["super_kiitos"] else 1)
        if best is None and deep:  # a rare word is still a word: better than picking up
            best = self._best_word(view, table, found.everything, MAX_WORD_LENGTH)
        if best is not None:
            return best
        pickup = next((a for a in own if a["type"] == "pickup"), None)
        if pickup is None:  # leading: every letter starts some word; take a listed one
            return dict(self.rng.choice([a for a in own if a["type"] == "lead"]))
        # Under the strict check a made-up word is refused on the spot: no bluffing there.
        bluffs = self.bluffs and view.get("check") != CHECK_STRICT
        if bluffs and len(table) >= BLUFF_TABLE and self.rng.random() < BLUFF_CHANCE:
            bluff = self._bluff(view, table)
            if bluff is not None:
                return bluff
        return dict(pickup)

    def _best_word(
        self, view: dict[str, Any], table: str, words: WordList, longest: int
    ) -> dict[str, Any] | None:
        rules = view["rules"]
        super_kiitos: bool = rules["super_kiitos"]
        shortest: int = rules["min_length"]
        refused = {word.lower() for word in view.get("refused_words", [])}
        hand = Counter(view["hand"])
        odds = self._odds(view)
        odds_at = self._odds_by_offset(view, odds)
        sides = ("end", START) if super_kiitos and table else ("end",)
        salt = self.rng.below(1 << 30)
        best: tuple[float, dict[str, Any]] | None = None
        for letter in sorted(hand):
            rest = hand.copy()
            rest[letter] -= 1
            for side in sides:
                grown = place(table, letter, side)
                left = self._leaves(view, grown, odds_at[1 % len(odds_at)], super_kiitos)
                for word in sample(words, grown, super_kiitos, self.sample_size, salt):
                    if not shortest <= len(word) <= longest or word == grown or word in refused:
                        continue
                    value = self._value(view, word, grown, rest, odds_at, super_kiitos) + left
                    if best is None or value > best[0]:
                        action = {"type": "say", "word": word, "letter": letter, "side": side}
                        if not table:
                            action = {"type": "lead", "word": word, "letter": letter}
                        best = (value, action)
        return None if best is None else best[1]

    def _leaves(
        self, view: dict[str, Any], grown: str, odds: dict[str, float], super_kiitos: bool
    ) -> float:
        """What leaving ``grown`` on the table is worth beyond the word said (here nothing:
        :class:`HardKiitosBot` plans it)."""
        return 0.0

    def _odds(self, view: dict[str, Any]) -> dict[str, float]:
        """For each letter, the chance that a given other player holds at least one."""
        unseen = self._unseen(view)
        total = max(sum(unseen.values()), 1)
        counts = [c for s, c in enumerate(view["hand_counts"]) if s != view["seat"]]
        size = max(sum(counts) / max(len(counts), 1), 1.0)
        return {letter: 1.0 - (1.0 - copies / total) ** size for letter, copies in unseen.items()}

    def _unseen(self, view: dict[str, Any]) -> dict[str, int]:
        """The copies of each letter this seat cannot see (in others' hands or the deck)."""
        seen = Counter(view["hand"]) + Counter(view["table"])
        return {letter: max(count - seen[letter], 0) for letter, count in LETTER_COUNTS.items()}

    def _odds_by_offset(
        self, view: dict[str, Any], odds: dict[str, float]
    ) -> list[dict[str, float]]:
        """The odds for the player ``offset`` seats on (index ``offset % players``); here the
        same for everyone (:class:`HardKiitosBot` reads each player's lacks)."""
        return [odds] * len(view["hand_counts"])

    @staticmethod
    def _value(
        view: dict[str, Any],
        word: str,
        grown: str,
        rest: Counter[str],
        odds_at: list[dict[str, float]],
        super_kiitos: bool,
    ) -> float:
        """The expected cards won by saying ``word``: its chance of completion times its length.

        Under Kiitos the positions after ``grown`` are taken in turn: the bot's
        own count as sure when it holds the letter (and nothing when it does
        not: it would have to say another word); the others' at the chance
        that they hold it. Under Super-Kiitos the order is unknown, so every
        missing letter counts that way.
        """
        players = len(view["hand_counts"])
        held = rest.copy()
        chance = 1.0
        start = word.find(grown)
        missing = word[:start] + word[start + len(grown) :] if super_kiitos else word[len(grown) :]
        for offset, char in enumerate(missing.upper(), start=1):
            mine = not super_kiitos and offset % players == 0
            if held[char] > 0 and (mine or super_kiitos):
                held[char] -= 1
            elif mine:
                chance *= 0.2
            else:
                chance *= odds_at[offset % players].get(char, 0.0)
        return chance * len(word) + 0.01 * len(word)

    def _bluff(self, view: dict[str, Any], table: str) -> dict[str, Any] | None:
        """A made-up word: the table, one of the bot's letters, then more of its letters."""
        shortest: int = view["rules"]["min_length"]
        hand: list[str] = list(view["hand"])
        self.rng.shuffle(hand)
        if not hand:
            return None
        letter = hand[0]
        grown = place(table, letter, "end")
        filler = "".join(hand[1:]).lower() or "e"
        word = grown + filler[: max(shortest - len(grown), 2)]
        refused = {w.lower() for w in view.get("refused_words", [])}
        if len(word) < shortest or word in dictionary() or word in refused:
            return None
        return {"type": "say", "word": word, "letter": letter, "side": "end"}

    # Rule cards and forfeits ----------------------------------------------------------

    def _flip(self, view: dict[str, Any], flips: list[dict[str, Any]]) -> dict[str, Any]:
        """Turn Positive x2 on when ahead on positive cards, off when behind; else any."""
        seat: int = view["seat"]
        positive: list[int] = view["positive"]
        ahead = positive[seat] >= max(positive)
        doubled = view["rules"]["positive_x2"]
        for action in flips:
            if action["card"] == "positive" and ahead != doubled:
                return dict(action)
        others = [a for a in flips if a["card"] != "positive"] or flips
        return dict(self.rng.choice(others))

    @staticmethod
    def _forfeit(view: dict[str, Any], forfeits: list[dict[str, Any]]) -> dict[str, Any]:
        """Give up the letter it holds most copies of (it keeps the most variety)."""
        hand = Counter(view["hand"])
        return dict(max(forfeits, key=lambda action: (hand[action["letter"]], action["letter"])))


class PlainKiitosBot(KiitosBot):
    """The same bot without bluffs: it picks up when no real word fits."""

    bluffs = False


class EasyKiitosBot(KiitosBot):
    """Easy: says one of the few real words the table offers for its letters, no search.

    It takes the words the rules list as legal moves (the two most used
    dictionary words per letter it holds) and says the shortest (it looks easiest to
    finish), without weighing who holds the missing letters; it plays a
    compelled letter as :class:`KiitosBot` does, challenges only words the
    dictionary lacks, never bluffs and never searches the rare words: with
    no listed word it picks up.
    """

    bluffs = False

    def _word(self, view: dict[str, Any], own: list[dict[str, Any]]) -> dict[str, Any]:
        words = [action for action in own if action["type"] in ("say", "lead")]
        if words:
            shortest = min(len(action["word"]) for action in words)
            return dict(self.rng.choice([a for a in words if len(a["word"]) == shortest]))
        pickup = next((a for a in own if a["type"] == "pickup"), None)
        return dict(pickup if pickup is not None else self.rng.choice(own))


class HardKiitosBot(KiitosBot):
    """Hard: plans the letters it leaves on the table, not just the word it says.

    It values words as :class:`KiitosBot` does (chance of completion times
    length, over twice as many candidates), and adds what the table it leaves
    is worth: the next player must extend it, so a string that few dictionary
    words continue (few letters ``c`` with ``table + c`` starting a word) is
    one they may hold no letter for, and then they pick the whole table up
    into their negative pile. That chance (every continuing letter missing
    from their hand, from the unseen-letter odds) times the table's length is
    added, at full weight against one opponent and shared among the rivals at
    a bigger table. It remembers (:class:`~engine.games.kiitos.memory.TableMemory`)
    the letters it saw go to piles and the letters each player was seen to lack,
    so each player's odds are their own. It never bluffs (a bluff that is challenged costs a card
    and the turn) and challenges only words the dictionary lacks.
    """

    bluffs = False
    sample_size = 2 * SAMPLE

    def __init__(self, rng: Rng) -> None:
        super().__init__(rng)
        self.memory = TableMemory()

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        if not view.get("legal"):
            return None  # the memory reads the views it may act in, as the ladder measured
        self.memory.see(view)
        action = super().choose(view)
        if action is not None:
            self.memory.played(view, action)
        return action

    def _unseen(self, view: dict[str, Any]) -> dict[str, int]:
        """As :class:`KiitosBot`, less the letters it saw go to piles this round."""
        unseen = super()._unseen(view)
        for letter, count in self.memory.gone.items():
            if letter in unseen:
                unseen[letter] = max(unseen[letter] - count, 0)
        return unseen

    def _odds_by_offset(
        self, view: dict[str, Any], odds: dict[str, float]
    ) -> list[dict[str, float]]:
        """Each player's odds, lowered for the letters it was seen to lack.

        A lacked letter is held again only if one of the cards drawn since is
        it: ``1 - (1 - p) ** drawn`` with ``p`` its share of the unseen cards.
        """
        seat: int = view["seat"]
        players = len(view["hand_counts"])
        unseen = self._unseen(view)
        total = max(sum(unseen.values()), 1)
        result = []
        for offset in range(players):
            other = (seat + offset) % players
            own = dict(odds)
            for letter in self.memory.lacks.get(other, {}):
                drawn = self.memory.lacking(other, letter) or 0
                share = unseen.get(letter, 0) / total
                own[letter] = min(own.get(letter, 0.0), 1.0 - (1.0 - share) ** drawn)
            result.append(own)
        return result

    def _leaves(
        self, view: dict[str, Any], grown: str, odds: dict[str, float], super_kiitos: bool
    ) -> float:
        """The chance the next player holds no letter that continues ``grown`` (from
        ``odds``, theirs), times the cards they would then lose: the table, and
        :data:`STUCK_EXTRA` for the bluff they may try first."""
        if super_kiitos or not grown:
            return 0.0  # either end may grow: a string is almost never a dead end
        none_held = 1.0
        for char in continuations(grown, view["rules"]["min_length"]):
            none_held *= 1.0 - odds.get(char, 0.0)
            if none_held < 0.01:
                return 0.0
        rivals = max(len(view["hand_counts"]) - 1, 1)
        return none_held * (len(grown) + STUCK_EXTRA) / rivals
