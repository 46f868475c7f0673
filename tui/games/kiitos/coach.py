"""The Kiitos coach: which of your letters may go on the table now and why, and what each
word, challenge, pick-up and rule card did (:mod:`tui.coach`).

It reads only this seat's views. What may be played comes from the view's legal actions
(the compelled letters, or a few example words per letter of the hand, which the engine
lists because any word may be said) and from the engine's own word logic
(:func:`engine.games.kiitos.table.extensions`: which letters continue the table's
letters towards the target word). What happened is read from one view to the next: the
piles that grew (a finished word, a pick-up, a challenge card), the rule cards that
turned, the target that changed, the round that ended. Only a move that also ended the
round (its piles are emptied at once) is recognised from the log's new lines.

The keys named are the ones the Kiitos table shows (:mod:`tui.games.kiitos.screen`, its
footer and prompt): letters type the word line, Enter says it (or plays the letter you must
play), ``!`` challenges, ``-`` picks up, ``>`` uses the 4-player rule, digits flip a rule
card or choose who starts, ``*`` gives an idea, ``?`` lists the keys, ``<`` leaves. They
are the :data:`KEYS`; the tests check that the table binds each to its action.

The panel is narrow (29 columns, six rows at 80x24), so advice is two or three short
lines: the rule that applies with the letters it names, one or two example words, and the
other way out (pick up, challenge).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.games.kiitos.rules import KiitosView
from engine.games.kiitos.table import LETTER_COUNTS, START, extensions
from engine.games.kiitos.words import frequency
from tui.coach import MOST_LINES, Coach, clip, fit, new_log_lines
from tui.you import capital, is_you

KEYS = {
    "challenge": "!",
    "pickup": "-",
    "pass_lead": ">",
    "idea": "*",
    "show_keys": "?",
    "leave": "<",
}
"""The table's key for each action the coach names (plain keys: letters type words)."""

EXAMPLES = 2
"""How many example words the advice offers (the most used the legal actions list)."""
DECK_LOW = 10
"""When the deck falls below this, the coach warns that the round is about to end."""


RULE_MEANING = {
    ("length", False): "target words need 4+ letters",
    ("length", True): "target words need 5+ letters",
    ("positive", False): "each kept card scores 1",
    ("positive", True): "each kept card scores 2",
    ("super", False): "letters go on the end only",
    ("super", True): "letters go on either end",
}
"""What each side of each rule card means, in a few words (card, alternate side up)."""

SUPER_MORE = "the table's letters may sit anywhere in the word, and a lead plays any of its letters"
"""What Super-Kiitos changes besides the ends, said when it comes into play."""

FLIP_SHORT = {
    ("length", False): "4+ letters",
    ("length", True): "5+ letters",
    ("positive", False): "kept cards x1",
    ("positive", True): "kept cards x2",
    ("super", False): "end only",
    ("super", True): "either end",
}
"""A rule card's side as the flip advice names it (the panel is narrow)."""


class KiitosCoach(Coach[KiitosView]):
    """Coaches a first game of Kiitos: one easy bot, the simple game, one round.

    Two players, because the learner then acts every other move, every word said is the
    learner's to continue or to challenge, and the game is shortest. The simple game
    (``mode = simple``) keeps the three rule cards on their green sides (words of 4+
    letters, letters added at the end, each kept card scores 1): the rulebook itself says
    to learn with a simple round or two before Super-Kiitos and the full game, where the
    cards flip. One round is the rulebook's quick game. Challenges stay on (``check =
    challenge``, not ``strict``): they are part of the game, the word line already warns
    when a word is not in the dictionary, and the easy bot challenges only non-words, so
    a challenge the learner meets is one the coach can explain with the dictionary's
    verdict. The coach still knows the full game's rule cards, flips and Super-Kiitos,
    for any table it is given.
    """

    panel_width: ClassVar[int] = 29
    """The Kiitos side column is 31 wide: its panel has a column more than most."""

    game = "kiitos"
    seats = 2
    bot_pace = 2
    """The bot challenges a word (and moves on after one may be challenged) twice as slowly as
    usual, so the learner has time to read a word and challenge it first. No moment is held
    (:attr:`~tui.coach.Coach.held_moments`): a word the learner may challenge is said just
    before their own turn, which waits for them anyway."""
    first_game: ClassVar[dict[str, Any]] = {"mode": "simple", "rounds": 1, "check": "challenge"}
    welcome = (
        "Kiitos: say a word and play its first letter; the others must play its next letters."
        " When someone finishes your word, say Kiitos: its cards score for you."
    )

    # What the screen calls ------------------------------------------------------------

    def opening(self, view: KiitosView) -> list[str]:
        """The aim, the rule cards in play and what they mean, and this table's keys (letters
        type words here, so the keys are not the usual ``r`` and ``q``)."""
        return [
            self.welcome,
            rules_line(view),
            f"Type a word and press Enter to say it; {KEYS['pickup']} picks up,"
            f" {KEYS['challenge']} challenges, {KEYS['idea']} gives an idea,"
            f" {KEYS['show_keys']} lists the keys (rules too), {KEYS['leave']} leaves.",
        ]

    def now(self, view: KiitosView) -> list[str]:
        """What this seat may do now, the rule behind it, the letters and words it names,
        and the keys: the letter you must play, the words you may say, the card to flip."""
        seat = view["seat"]
        if seat is None or view["outcome"] is not None:
            return []
        advice = self._advice(view, seat)
        return fit(advice[:2], advice[2:], width=self.panel_width)

    def _advice(self, view: KiitosView, seat: int) -> list[str]:
        """The advice for the kind of turn the legal actions show (one method each)."""
        kinds = kinds_of(view)
        mine = view["turn"] == seat
        if mine and "flip" in kinds:
            return self._flip_advice(view)
        if mine and "forfeit" in kinds:
            return self._forfeit_advice(view)
        if mine and "choose" in kinds:
            return self._choose_advice(view)
        if mine and "play" in kinds:
            return self._compelled_advice(view)
        if mine and kinds & {"lead", "say", "pickup", "pass_lead"}:
            return self._free_advice(view, kinds)
        if "challenge" in kinds:
            return self._challenge_advice(view)
        if mine and view["phase"] == "lead":
            return [f"Get ready: you lead. Think of a word of {min_length(view)}+ letters."]
        if view["legal"]:  # an action this coach does not know: the generic reading
            return super().now(view)
        return [self.waiting_line(view)]

    def after(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Explains what just happened: a challenge and its verdict, a finished word and who
        keeps its cards, a pick-up, a rule card flipped, a new target word, the end of a
        round or of the game. Most views (a letter played as it had to be) say nothing."""
        if view["seat"] is None:
            return []
        return [clip(line) for line in self._results(before, view)[:MOST_LINES]]

    def _results(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Every result ``view`` shows after ``before``, most telling first (a challenge's
        verdict explains why the target changed back, so no new-word line follows it)."""
        ended = len(view["round_scores"]) > len(before["round_scores"])
        fresh = new_log_lines(before["log"], view["log"])
        challenged = self._challenge_result(before, view, ended, fresh)
        lines = list(challenged)
        finished = self._kiitos_result(before, view, ended, fresh)
        lines += finished
        picked = self._pickup_result(before, view, ended, fresh)
        lines += picked
        lines += self._flip_result(before, view)
        lines += self._forfeit_result(before, view)
        lines += self._pass_lead_result(before, view)
        if not challenged:
            lines += self._new_word(before, view)
            if not finished and not picked:
                lines += self._word_stands(before, view)
        if ended:
            lines += self._round_end(before, view)
        dealt = ended or before["phase"] == "choose"  # a tie for lowest deals at once
        if dealt and view["outcome"] is None and view["phase"] == "lead":
            lines += self._new_round(view)
        if view["outcome"] is not None and before["outcome"] is None:
            lines += self._game_end(view)
        elif not ended and before["deck_count"] >= DECK_LOW > view["deck_count"]:
            lines.append(
                f"Only {view['deck_count']} cards left in the deck: the round ends as soon"
                " as a hand cannot be refilled to 8."
            )
        return lines

    def waiting_line(self, view: KiitosView) -> str:
        """Whose turn it is and what they are about to do (and why, in a few words)."""
        turn = view["turn"]
        if turn is None or turn == view["seat"]:
            return "Wait for the others."
        who = self.name(view, turn)
        phase = view["phase"]
        target = view["target"]
        if phase == "lead":
            return f"Wait: {who} leads a new word."
        if phase == "flip":
            return (
                f"Wait: {self.possessive(view, turn)} word was finished, so they flip a rule card."
            )
        if phase == "forfeit":
            return f"Wait: {who} lost a challenge and gives up a card from hand."
        if phase == "choose":
            return f"Wait: {who} has the lowest score and chooses who leads round {view['round']}."
        if phase == "play" and target:
            if view["announcer"] == view["seat"]:
                return f"Wait: {who} may challenge {target}, or play on."
            return f"Wait: {who} must play the next letter of {target} if they hold it."
        return super().waiting_line(view)

    # Advice, one kind of turn each ------------------------------------------------------

    def _compelled_advice(self, view: KiitosView) -> list[str]:
        """You hold a letter that continues the target: you must play it (Enter)."""
        plays = [action for action in view["legal"] if action.get("type") == "play"]
        target = str(view["target"] or "")
        if view["rules"]["super_kiitos"]:
            shown = or_list([side_words(action) for action in plays])
            rule = f"You must play {shown}: it continues {target}."
        else:
            letters = or_list(sorted({str(action["letter"]) for action in plays}))
            rule = f"You must play {letters}, the next letter of {target}."
        choose = ", then its number" if len(plays) > 1 else ""
        lines = [rule, f"Press Enter{choose}.{self._finishes(view, plays)}"]
        if "challenge" in kinds_of(view):
            lines.append(f"Doubt the word? Press {KEYS['challenge']} first (wrong: -1).")
        return lines

    def _finishes(self, view: KiitosView, plays: Sequence[dict[str, Any]]) -> str:
        """`` It finishes it: Bot Tom keeps 4.`` when a compelled letter completes the word."""
        target = str(view["target"] or "")
        part = "".join(view["table"])
        done = any(
            (str(a["letter"]) + part if a.get("side") == START else part + str(a["letter"]))
            == target
            for a in plays
        )
        sayer = view["sayer"]
        if not done or sayer is None:
            return ""
        if sayer == view["seat"]:
            return f" It finishes your word: you keep {len(target)}!"
        return f" It finishes it: {self.name(view, sayer)} keeps {len(target)}."

    def _free_advice(self, view: KiitosView, kinds: set[str]) -> list[str]:
        """Lead a word, or (holding no next letter) say a new word or pick up."""
        if view["phase"] == "lead":
            return self._lead_advice(view, kinds)
        refused = view["refused_words"]
        challenge = "challenge" in kinds
        examples = example_words(view, 1 if challenge else EXAMPLES)
        count = len(view["table"])
        head = (
            f"{refused[-1]} was not a word. Say another" if refused else self._no_next_letter(view)
        )
        if examples:
            lines = [f"{head}, e.g. {' or '.join(examples)}, Enter."]
            lines.append(f"Or press {KEYS['pickup']}: pick up {count} (-{count}).")
        else:
            lines = [f"{head} if you know one: type, Enter."]
            lines.append(f"Or press {KEYS['pickup']}: pick up {count} (-{count}).")
        if challenge:
            lines.append(f"{KEYS['challenge']} challenges it (wrong: -1).")
        return lines

    def _lead_advice(self, view: KiitosView, kinds: set[str]) -> list[str]:
        """Your lead: a word long enough whose first letter (Super-Kiitos: any) you hold."""
        shortest = min_length(view)
        refused = view["refused_words"]
        examples = example_words(view)
        if refused:
            head = f"{refused[-1]} was not a word: lead another."
        elif view["rules"]["super_kiitos"]:
            head = f"Lead a word: {shortest}+ letters, any one of them yours."
        else:
            head = f"Lead a word: {shortest}+ letters, the first one yours."
        lines = [head]
        if examples:
            lines.append(f"E.g. type {' or '.join(examples)}, Enter.")
        else:
            lines.append("Type it, then Enter.")
        if "pass_lead" in kinds:
            lines.append(f"Or press {KEYS['pass_lead']}: take -1, your right-hand player leads.")
        elif not refused:
            lines.append("If others finish it, its cards are yours.")
        return lines

    def _no_next_letter(self, view: KiitosView) -> str:
        """``No T for CATS: say a new word`` (why the seat is free to change the word)."""
        target = str(view["target"] or "")
        needed = next_letters(view["table"], target, view["rules"]["super_kiitos"])
        if not needed:
            return "Say a new word"
        return f"You have no {or_list(needed)} for {target}: say a new word"

    def _challenge_advice(self, view: KiitosView) -> list[str]:
        """Another's word may be challenged now (it is not this seat's turn)."""
        target = view["target"] or "the word"
        announcer = view["announcer"]
        said = (
            f"{capital(self.name(view, announcer))} said {target}. "
            if announcer is not None
            else ""
        )
        return [
            f"{said}Not a word? Press {KEYS['challenge']} (wrong: -1).",
            self.waiting_line(view),
        ]

    def _flip_advice(self, view: KiitosView) -> list[str]:
        """Full game: after your word is finished you flip a rule card without the lock."""
        choices = []
        for index, card in enumerate(view["rule_cards"]):
            if card["locked"]:
                continue
            choices.append(f"{index + 1}: {FLIP_SHORT[(card['card'], not card['alternate'])]}")
        return [
            "Kiitos! Flip a rule card that has no lock token:",
            f"press {', '.join(choices)}.",
        ]

    def _forfeit_advice(self, view: KiitosView) -> list[str]:
        """The challenge cards are gone: a card from hand pays for the lost challenge."""
        hand = view["hand"] or []
        rare = min(hand, key=lambda letter: (LETTER_COUNTS.get(letter, 0), letter), default="")
        idea = f" e.g. {rare}," if rare else ""
        return [
            "You lost a challenge and the 8 challenge cards are gone.",
            f"Type a letter of your hand,{idea} then Enter: -1.",
        ]

    def _choose_advice(self, view: KiitosView) -> list[str]:
        """The lowest total chooses who leads the next round."""
        keys = [f"{seat + 1} {self.name(view, seat)}" for seat in range(len(view["players"]))]
        return [
            f"Your total is lowest: choose who leads round {view['round']}.",
            f"Press {', '.join(keys)}.",
        ]

    # Results ----------------------------------------------------------------------------

    def _challenge_result(
        self, before: KiitosView, view: KiitosView, ended: bool, fresh: Sequence[str]
    ) -> list[str]:
        """A challenge was decided: the word was or was not in the dictionary, who lost."""
        announcer = before["announcer"]
        word = before["target"]
        if announcer is None or word is None or ended:
            return []
        failed = word in view["refused_words"] and word not in before["refused_words"]
        rose = [
            seat
            for seat, count in enumerate(view["challenge_cards"])
            if count > before["challenge_cards"][seat]
        ]
        forfeit = view["phase"] == "forfeit" and before["phase"] != "forfeit"
        if rose:
            loser: int | None = rose[0]
        elif forfeit:
            loser = view["turn"]
        else:
            loser = announcer if failed else None
        if loser is None:
            return []
        if not failed:
            challenger = self.name(view, loser)
            return [
                f"{capital(challenger)} challenged {word}, but it is in the dictionary:"
                f" {challenger} {verb(challenger, 'lose')} and {penalty(challenger, forfeit)}."
                f" {word} stands."
            ]
        who = self.name(view, announcer)
        challenger = self._challenger(view, announcer, fresh)
        letter = returned_letter(before["table"], view["table"])
        back = f"{verb(who, 'take')} {letter or 'the letter'} back"
        again = "lead another word" if view["phase"] == "lead" else "say another word or pick up"
        return [
            f"{capital(challenger)} challenged {word}: it is not in the dictionary, so {who}"
            f" {verb(who, 'lose')} and {penalty(who, forfeit)}.",
            f"{capital(who)} {back} and must {again}.",
        ]

    def _challenger(self, view: KiitosView, announcer: int, fresh: Sequence[str]) -> str:
        """Who challenged a word that failed: the other player, or the log's challenger."""
        players = view["players"]
        others = [seat for seat in range(len(players)) if seat != announcer]
        if len(others) == 1:
            return self.name(view, others[0])
        named = [
            seat
            for seat in others
            for line in fresh
            if line.startswith(f"{players[seat]} challenges ")
        ]
        if named:
            return self.name(view, max(named, key=lambda seat: len(players[seat])))
        return "someone"

    def _kiitos_result(
        self, before: KiitosView, view: KiitosView, ended: bool, fresh: Sequence[str]
    ) -> list[str]:
        """A word was finished: whoever said it keeps its cards, whoever played the last letter."""
        word, sayer, finisher = before["target"], before["sayer"], before["turn"]
        if word is None or sayer is None or finisher is None or before["phase"] != "play":
            return []
        if ended:
            if not any(line.startswith(f"{word} is complete!") for line in fresh):
                return []
            count = len(word)
        else:
            count = view["positive"][sayer] - before["positive"][sayer]
            if count <= 0:
                return []
        keeper = self.name(view, sayer)
        double = " (x2 at the round's end)" if view["rules"]["positive_x2"] else ""
        gain = f"{count} cards, +{count}{double}"
        if finisher == sayer:
            own = "your" if is_you(keeper) else "their"
            text = f"Kiitos! {capital(keeper)} finished {own} own {word}"
            text += f" and {verb(keeper, 'keep')} its {gain}."
        elif sayer == view["seat"]:
            text = f"Kiitos! {self.name(view, finisher)} had to play the last letter of your"
            text += f" {word}: you keep its {gain}."
        elif finisher == view["seat"]:
            text = f"Kiitos! Your letter finished {word}; {keeper} said it, so {keeper}"
            text += f" keeps its {gain}."
        else:
            text = f"Kiitos! {self.name(view, finisher)} finished {word}; {keeper} said it,"
            text += f" so {keeper} keeps its {gain}."
        if not ended:
            text += f" {capital(keeper)} {verb(keeper, 'lead')} next."
        return [text]

    def _pickup_result(
        self, before: KiitosView, view: KiitosView, ended: bool, fresh: Sequence[str]
    ) -> list[str]:
        """The player at turn could not go on: the table goes to their negative pile."""
        actor = before["turn"]
        table = before["table"]
        if actor is None or before["phase"] != "play" or not table:
            return []
        part = "".join(table)
        count = len(table)
        if ended:
            name = before["players"][actor]
            if not any(
                line.startswith(f"{name} cannot continue and picks up {part}") for line in fresh
            ):
                return []
        elif view["negative"][actor] - before["negative"][actor] != count:
            return []
        who = self.name(view, actor)
        needed = next_letters(table, str(before["target"] or ""), before["rules"]["super_kiitos"])
        why = (
            f"no {or_list(needed)} for {before['target']} and no new word"
            if needed
            else "no way on"
        )
        if is_you(who):
            cards = "card" if count == 1 else "cards"
            text = f"You picked up {part}: {count} {cards} to your negative pile, -{count}."
        else:
            text = f"{who} had {why}, so picks up {part}: -{count}."
        if not ended:
            text += f" {capital(who)} {verb(who, 'lead')} next, once all draw back to 8."
        return [text]

    def _flip_result(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Full game: a rule card turned; what its new side means; the lock token."""
        lines = []
        for old, new in zip(before["rule_cards"], view["rule_cards"], strict=False):
            if old["alternate"] == new["alternate"] or before["turn"] is None:
                continue
            who = self.name(view, before["turn"])
            meaning = RULE_MEANING[(new["card"], new["alternate"])]
            if (new["card"], new["alternate"]) == ("super", True):
                meaning += f"; {SUPER_MORE}"
            lines.append(f"{capital(who)} flipped {old['text']} to {new['text']}: {meaning}.")
            lines.append("The lock token now sits on it: it cannot be flipped next time.")
        return lines

    def _forfeit_result(self, before: KiitosView, view: KiitosView) -> list[str]:
        """A card from hand paid for a lost challenge (the challenge cards were gone)."""
        actor = before["turn"]
        if before["phase"] != "forfeit" or view["phase"] == "forfeit" or actor is None:
            return []
        if view["round"] != before["round"]:
            return []
        who = self.name(view, actor)
        return [f"That card pays for the lost challenge: -1 for {who}."]

    def _pass_lead_result(self, before: KiitosView, view: KiitosView) -> list[str]:
        """The 4-player rule: the top card to the negative pile, the lead to the right."""
        actor = before["turn"]
        if (
            actor is None
            or before["phase"] != "lead"
            or view["phase"] != "lead"
            or view["turn"] == actor
            or view["round"] != before["round"]
            or view["negative"][actor] != before["negative"][actor] + 1
        ):
            return []
        who = self.name(view, actor)
        return [
            f"{capital(who)} used the 4-player rule: the deck's top card is -1 for {who},"
            f" and {self.name(view, view['turn'])} leads instead."
        ]

    def _new_word(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Another player changed the target: they held no letter that continued it."""
        sayer = view["announcer"]
        if (
            sayer is None
            or sayer == view["seat"]
            or before["phase"] != "play"
            or view["target"] == before["target"]
            or before["target"] is None
        ):
            return []
        who = self.name(view, sayer)
        needed = next_letters(before["table"], before["target"], before["rules"]["super_kiitos"])
        lacked = f"had no {or_list(needed)} for {before['target']}, so " if needed else ""
        return [
            f"{capital(who)} {lacked}said {view['target']}: the new target, and their word now."
        ]

    def _word_stands(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Your word outlived its challenge window: a letter was played after it."""
        word = before["target"]
        if (
            before["announcer"] != view["seat"]
            or view["announcer"] is not None
            or word is None
            or view["target"] != word
            or len(view["table"]) <= len(before["table"])
        ):
            return []
        return [f"Nobody challenged {word} before the next letter, so it stands."]

    def _round_end(self, before: KiitosView, view: KiitosView) -> list[str]:
        """Why the round ended and how its scores are made."""
        number = len(before["round_scores"]) + 1
        scores = view["round_scores"][-1]
        seat = view["seat"]
        mine = scores[seat] if seat is not None and seat < len(scores) else 0
        lines = [
            f"Round {number} ends: the deck could not refill every hand to 8. A score is kept"
            " cards minus picked-up cards and challenge cards; hands do not count.",
            f"You scored {mine} this round.",
        ]
        if view["outcome"] is None and view["mode"] == "full":
            lines.append("The rule cards keep their sides into the next round.")
        return lines

    def _new_round(self, view: KiitosView) -> list[str]:
        """A later round is dealt: who leads, and the rule cards it starts with (in the full
        game they keep the sides the last round left)."""
        leader = view["turn"]
        return [
            f"Round {view['round']}: new hands of 8; {self.name(view, leader)}"
            f" {verb(self.name(view, leader), 'lead')}. Rules: {rules_text(view)}."
        ]

    def _game_end(self, view: KiitosView) -> list[str]:
        """Who won, by the totals; what makes a score."""
        outcome = view["outcome"]
        assert outcome is not None
        scores = list(outcome["scores"])
        winners = list(outcome["winners"])
        seat = view["seat"]
        names = self.listed([self.name(view, winner) for winner in winners])
        best = scores[winners[0]] if winners else 0
        mine = scores[seat] if seat is not None and seat < len(scores) else 0
        if seat in winners:
            head = (
                f"You win with {best}" if len(winners) == 1 else f"{capital(names)} share the win"
            )
        else:
            head = f"{capital(names)} {verb(names, 'win')} with {best}; you have {mine}"
        return [
            f"{head}: the highest total wins.",
            "Next time: say words others can finish (+), and avoid long tables you must"
            " pick up (-).",
        ]


# Reading the view ---------------------------------------------------------------------------


def kinds_of(view: KiitosView) -> set[str]:
    """The kinds of the seat's legal actions (``play``, ``challenge``...)."""
    return {str(action.get("type")) for action in view["legal"]}


def min_length(view: KiitosView) -> int:
    """The shortest target word the length rule card allows now (4 or 5)."""
    return int(view["rules"]["min_length"])


def rules_text(view: KiitosView) -> str:
    """What the rule cards say now, in words: ``target words need 4+ letters, ...``."""
    return ", ".join(RULE_MEANING[(card["card"], card["alternate"])] for card in view["rule_cards"])


def rules_line(view: KiitosView) -> str:
    """The rule cards in play and whether they will change."""
    fixed = "they stay put this game" if view["mode"] != "full" else "each finished word flips one"
    return f"Rule cards: {rules_text(view)} ({fixed})."


def next_letters(table: Sequence[str], target: str | None, super_kiitos: bool) -> list[str]:
    """The letters that continue the table's letters towards ``target`` (any holder must)."""
    if not target:
        return []
    part = "".join(table).lower()
    return sorted({letter for letter, _ in extensions(part, target.lower(), super_kiitos)})


def example_words(view: KiitosView, count: int = EXAMPLES) -> list[str]:
    """The most used example word for each letter the legal actions offer, the most used
    first (:func:`~engine.games.kiitos.words.frequency`; SCOWL's sizes alone offered
    ANECDOTA): ``CAKE (your K)`` (the letter is the one of yours it plays)."""
    order = frequency()

    def rank(word: str) -> tuple[int, int, str]:
        return order.key(word.lower()), len(word), word

    best: dict[str, str] = {}
    for action in view["legal"]:
        if action.get("type") not in ("lead", "say"):
            continue
        letter, word = str(action["letter"]), str(action["word"]).upper()
        if letter not in best or rank(word) < rank(best[letter]):
            best[letter] = word
    ranked = sorted(best.items(), key=lambda item: rank(item[1]))
    if view["phase"] == "lead" and not view["rules"]["super_kiitos"]:
        return [word for _, word in ranked[:count]]  # a lead plays its first letter
    return [f"{word} (your {letter})" for letter, word in ranked[:count]]


def side_words(action: dict[str, Any]) -> str:
    """``A at the start`` / ``T at the end`` (Super-Kiitos: which end of the table's letters,
    as the screen's choices name them)."""
    where = "at the start" if action.get("side") == START else "at the end"
    return f"{action['letter']} {where}"


def returned_letter(before: Sequence[str], now: Sequence[str]) -> str:
    """The letter that left the table (a failed word's letter, back in its sayer's hand)."""
    gone = Counter(before) - Counter(now)
    return next(iter(gone), "")


def penalty(who: str, forfeit: bool) -> str:
    """What losing a challenge costs: a challenge card, or (once the 8 are gone) a card from
    hand, -1 either way."""
    if forfeit:
        return f"{verb(who, 'give')} up a card from hand, -1 (the challenge cards are gone)"
    return f"{verb(who, 'take')} a challenge card, -1"


def or_list(items: Sequence[str]) -> str:
    """``A or T``: the letters any of which may (or must) be played."""
    return " or ".join(items)


def verb(subject: str, base: str) -> str:
    """``you take`` / ``Bot Tom takes``: the verb agreeing with its subject."""
    return base if is_you(subject) or " and " in subject else f"{base}s"
