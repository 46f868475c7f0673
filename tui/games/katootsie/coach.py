"""The coach of a first Katootsie!: what to type now and why, and why each letter went where
it did.

It reads only this seat's :class:`~engine.games.katootsie.rules.KatootsieView` (and the log
lines in it), and the engine's pure rules of reading an answer
(:mod:`engine.games.katootsie.answers`). The rules it explains are the engine's:

- A category, then a letter: the first answer that fits the category and starts with the
  letter takes it (Q, X and Z may be anywhere in the answer). Two letters per category.
- A leading "The", "A" or "An" is left out of every answer (``answers.ARTICLE_RULE``):
  "The Shining" counts for S, never for T.
- An answer in the game's list is accepted at once; another that fits the letter goes to
  the other players' vote (y / n): a strict majority against rejects it.
- A refused answer (wrong letter, a repeat in this category, nothing typed) or a rejected
  one locks its player out of that letter; when only one player is left in, they take it
  by default.
- Katootsie! (``!`` on the empty answer line, or ctrl+k) bets that nobody answers within
  ten seconds: the caller takes the letter, or loses one of theirs (or owes one) to
  whoever answers in time.
- Ties: the others vote who was first (1-9, 0: the same time); without a strict majority,
  tie-break letters for the tied players. A shared top score at the end: sudden death.

On this screen typing goes straight to the answer line when a letter shows, Enter sends;
single-letter keys (r, q) need ``/`` (or Esc) first, which leaves the line. The panel
(:meth:`KatootsieCoach.now`) is the board's width (about 48 columns at 80x24) and six
rows at most (:func:`fit`); what happened (:meth:`KatootsieCoach.after`) goes into the
log, which scrolls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from engine.games.katootsie import answers
from engine.games.katootsie.answers import ANYWHERE, ARTICLES
from engine.games.katootsie.rules import KATOOTSIE_SECONDS, SUDDEN_DEATH_WINS, KatootsieView
from net.wire.text import clean_text
from tui.coach import MOST_LINES, Coach, clip, new_log_lines
from tui.coach import fit as fit_panel
from tui.you import capital, is_you

PANEL_WIDTH = 46
"""The panel's text width at 80x24: the board's column (80 less the 30-column scores, less
its padding), a little less for safety."""
ANSWER_CHARS = 28
"""An answer quoted by the coach is cut to this (answers may be 60 characters)."""
SECONDS = f"{KATOOTSIE_SECONDS:g}"

REFUSED = re.compile(
    r"^(?:“(?P<text>.*)”|a blank answer): refused, "
    r"(?P<reason>nothing was typed|it does not begin with (?P<letter>[A-Z])"
    r"|it has no (?P<anywhere>[A-Z]) anywhere in it"
    r"|it already took a letter in this category)\.$"
)
"""The rest of the engine's refusal line after "NAME answered " (``Katootsie._refuse``)."""
REJECTED = re.compile(r"^“(?P<text>.*)” is rejected \((?P<yes>\d+) for, (?P<no>\d+) against\): ")
"""The engine's line for a vote that rejected an answer (``Katootsie._close_vote``)."""
STANDS = re.compile(r"^“(?P<text>.*)” stands \((?P<why>[^)]*)\)")
"""The engine's line for a vote that let an answer stand."""
TALLY = re.compile(r"^(?P<yes>\d+) for, (?P<no>\d+) against$")
IGNORE_ARTICLES = "Ignore A, An and The at the start of an answer: they never count as its letter."
"""The category card's reminder of the article rule (``answers.ARTICLE_RULE``), explained."""
FIRST = re.compile(r"^The table says .* was first \((?P<count>\d+) of (?P<cast>\d+)\)\.$")
"""The engine's line when the others' vote named who was first in a tie."""


# --------------------------------------------------------------------------- words


def fit(needed: Sequence[str], extra: Sequence[str] = ()) -> list[str]:
    """:func:`tui.coach.fit` at this table's panel width (:data:`PANEL_WIDTH`)."""
    return fit_panel(needed, extra, width=PANEL_WIDTH)


def quoted(text: str | None) -> str:
    """An answer as the coach quotes it: cleaned, cut short, in the game's quotes."""
    shown = clean_text(" ".join(str(text or "").split()))
    if len(shown) > ANSWER_CHARS:
        shown = shown[: ANSWER_CHARS - 3].rstrip() + "..."
    return f"“{shown}”"


def title_of(view: KatootsieView) -> str:
    """The category's title as the coach says it (``Fruits``)."""
    category = view["category"]
    return "this category" if category is None else clean_text(str(category["title"]))


def fits_words(letter: str) -> str:
    """The letter rule for ``letter``: ``starts with B`` or ``has Q anywhere in it``."""
    return f"has {letter} anywhere in it" if letter in ANYWHERE else f"starts with {letter}"


def article_of(text: str) -> str | None:
    """The leading article the engine leaves out of ``text`` (``The`` of "The Shining")."""
    first, _, rest = text.strip().partition(" ")
    return first if first.lower() in ARTICLES and rest.strip() else None


def must(letter: str) -> str:
    """The letter rule after "must": ``start with B``, ``have Q anywhere in it``."""
    return f"have {letter} anywhere in it" if letter in ANYWHERE else f"start with {letter}"


def stood_why(fresh: Sequence[str]) -> str:
    """Why a vote let an answer stand, from the engine's new line: `` (2 for, 0 against)``."""
    for line in fresh:
        found = STANDS.match(line)
        if found is None:
            continue
        why = found["why"]
        tally = TALLY.match(why)
        if tally is not None:
            return f" ({tally['yes']} for, {tally['no']} against)"
        if why == "no votes":
            return " (nobody voted)"
        if why == "a tied vote":
            return " (a tied vote)"
    return ""


def letters_words(letters: Sequence[str]) -> str:
    """``B`` or ``B and S`` (the letters a result took)."""
    return Coach.listed(list(letters)) if letters else "the letter"


def stage_of(view: KatootsieView) -> str:
    """The phase without its sudden-death prefix (``letter``, ``vote``...)."""
    return str(view["phase"]).removeprefix("sudden_death_")


class KatootsieCoach(Coach[KatootsieView]):
    """Says what to type or vote now and why, and explains who took each letter and why."""

    game: ClassVar[str] = "katootsie"
    seats: ClassVar[int] = 3
    """Two easy bots: answers race from two others, and a vote has a majority to find."""
    panel_width: ClassVar[int] = PANEL_WIDTH
    first_game: ClassVar[dict[str, Any]] = {"vote_seconds": 15}
    """Longer votes (8 s by default): time to read the answer and the coach, then y or n."""
    held_moments: ClassVar[int] = 3
    """The first three letters wait for the learner: read the coach, then type an answer,
    or press Enter on the empty line to let the bots answer."""
    bot_pace: ClassVar[int] = 2
    """Then the easy bots think twice as long as usual (5 s and more for a letter)."""
    welcome: ClassVar[str] = (
        "Win letters: a category shows, then a letter, and the first to type an answer"
        " that fits both takes the letter. Most letters at the end win."
    )

    # What may be done now ------------------------------------------------------------

    def opening(self, view: KatootsieView) -> list[str]:
        """The aim, then the keys: typing goes to the answer line, so r and q need ``/``."""
        keys = (
            "When a letter shows, just type your answer and press Enter. To use keys"
            " instead, press / first: then r shows the rules and q leaves."
        )
        held = (
            f"The first {self.held_moments} letters wait for you to read: Enter on the empty"
            " line lets the bots answer."
        )
        return [self.welcome, keys, held]

    def now(self, view: KatootsieView) -> list[str]:
        """What to type, vote or call now, from ``view["legal"]``, with the rule behind it;
        else what the table is waiting for (one line)."""
        seat = view["seat"]
        if seat is None or view["outcome"] is not None or view["phase"] == "over":
            return []
        kinds = {str(action.get("type")) for action in view["legal"]}
        if "vote" in kinds:
            return self._vote_advice(view)
        if "first" in kinds:
            return self._first_advice(view)
        if "answer" in kinds or "katootsie" in kinds:
            return self._letter_advice(view, kinds)
        return fit([self._waiting(view)], self._waiting_extra(view))

    def _letter_advice(self, view: KatootsieView, kinds: set[str]) -> list[str]:
        """A letter is open for this seat: what fits, the keys, and the rules that bite."""
        letter = str(view["letter"] or "?")
        title = title_of(view)
        call = view["call"]
        needed: list[str] = []
        extra: list[str] = []
        if call is not None and call["seat"] != view["seat"]:
            caller = self.name(view, call["seat"])
            needed.append(
                f"{capital(caller)} called Katootsie!: answer within {SECONDS} s to take"
                f" {letter} and one of {self.possessive(view, call['seat'])} letters."
            )
        if "answer" in kinds:
            needed.append(
                f"Type an answer for {title} that {fits_words(letter)}, then press Enter:"
                f" the first answer that fits takes {letter}."
            )
        if letter in ANYWHERE:
            extra.append(f"{letter} is an Anywhere letter: Q, X and Z may be anywhere in the word.")
        taken = self._taken_for(view, letter)
        if taken:
            extra.append(
                f"Not {self.listed([quoted(text) for text in taken], 'or')}: an answer takes"
                f" one letter per category, and a repeat is refused."
            )
        article = self._article_hint(view, letter)
        if article:
            extra.append(article)
        if "katootsie" in kinds:
            extra.append(
                f"Stuck? ! calls Katootsie!: if nobody answers in {SECONDS} s, {letter}"
                " is yours; if someone does, they take one of your letters."
            )
        extra.append("A wrong answer locks you out of this letter.")
        return fit(needed, extra)

    def _article_hint(self, view: KatootsieView, letter: str) -> str | None:
        """The article rule, where it can catch a newcomer out: T and A, marked categories."""
        if letter == "T":
            return "A leading “The” is left out: “The Shining” counts for S, never for T."
        if letter == "A":
            return "A leading “A” or “An” is left out: “A Star Is Born” counts for S, not A."
        category = view["category"]
        if category is not None and category["ignore_articles"]:
            return IGNORE_ARTICLES
        return None

    def _taken_for(self, view: KatootsieView, letter: str) -> list[str]:
        """Answers already taken in this category that would fit ``letter`` (so a repeat)."""
        out = []
        for text in view["used"]:
            if answers.fits_letter(answers.key(str(text)), letter):
                out.append(str(text))
        return out[-3:]

    def _vote_advice(self, view: KatootsieView) -> list[str]:
        """A disputed answer to vote on: what it is, the keys, and what a vote decides."""
        vote = view["vote"]
        letter = str(view["letter"] or "?")
        if vote is None:
            return ["Vote on the answer: y accepts it, n rejects it."]
        whose = self.possessive(view, vote["seat"])
        return fit(
            [
                f"Vote: does {whose} {quoted(vote['answer'])} fit {title_of(view)} and"
                f" {must(letter)}? Press y to accept, n to reject.",
            ],
            [
                "It is not in the game's list, so the table decides: it is rejected only if"
                " most votes cast are against.",
            ],
        )

    def _first_advice(self, view: KatootsieView) -> list[str]:
        """Tied answers: who was first (1-9), or 0 for the same time, and what follows."""
        first = view["first_vote"]
        tied = [] if first is None else first["answers"]
        keys = [
            f"{number} {self.name(view, seat)} {quoted(text)}"
            for number, (seat, text) in enumerate(tied, start=1)
        ]
        return fit(
            [
                f"Too close to call! Who answered first? Press {self.listed(keys, 'or')};"
                " 0 says the same time.",
            ],
            [
                "A strict majority for one player decides; otherwise the tied players"
                " play a tie-break letter.",
            ],
        )

    def _waiting(self, view: KatootsieView) -> str:
        """What the table waits for while this seat cannot act (one line)."""
        stage = stage_of(view)
        me = view["seat"]
        letter = str(view["letter"] or "?")
        title = title_of(view)
        tiebreak = view["tiebreak"]
        sudden = view["sudden_death"]
        if stage == "category":
            if sudden is not None:
                players = self.listed([self.name(view, seat) for seat in sudden["players"]])
                return (
                    f"Sudden death: {players} play {title}; the first to win"
                    f" {SUDDEN_DEATH_WINS} letters wins."
                )
            return f"New category: {title}. Think of some now: a letter comes in a moment."
        if stage == "between":
            if tiebreak is not None:
                players = self.listed([self.name(view, seat) for seat in tiebreak["players"]])
                stake = letters_words(tiebreak["stake"])
                return f"Tie-break next: only {players} answer it, and its taker also wins {stake}."
            number = min(int(view["category_letter"]) + 1, 2)
            return f"Letter {number} of 2 for {title} comes next: get ready to type."
        if stage == "letter":
            call = view["call"]
            if call is not None and call["seat"] == me:
                return (
                    f"Your Katootsie! is on: if nobody answers {letter} within {SECONDS} s,"
                    " it is yours. The caller may not answer."
                )
            if me in view["locked"]:
                return (
                    f"You are out for {letter}: a refused answer locks you out until the"
                    " next letter."
                )
            if me not in view["players_in"]:
                players = self.listed([self.name(view, seat) for seat in view["players_in"]])
                return f"Only {players} play this letter: watch how it goes."
            return f"Wait: {letter} is being decided."
        if stage == "vote":
            vote = view["vote"]
            if vote is not None and vote["seat"] == me:
                return (
                    f"Your {quoted(vote['answer'])} is not in the game's list: the others vote."
                    " Only a majority against rejects it."
                )
            return "You voted: wait for the others."
        if stage == "first_vote":
            first = view["first_vote"]
            if first is not None and any(seat == me for seat, _ in first["answers"]):
                return "Too close to call: the others vote who answered first."
            return "You voted: wait for the others."
        return "Wait for the next letter."

    def _waiting_extra(self, view: KatootsieView) -> list[str]:
        """While a new category is read: the article rule if its card prints the reminder,
        and how many letters it gets."""
        category = view["category"]
        if stage_of(view) != "category" or category is None:
            return []
        extra = [IGNORE_ARTICLES] if category["ignore_articles"] else []
        if view["sudden_death"] is None:
            extra.append("Each category gets two letters, then the next category is turned.")
        return extra

    # What just happened --------------------------------------------------------------

    def after(self, before: KatootsieView, view: KatootsieView) -> list[str]:
        """Each result explained once, when it happens: refused and rejected answers (why,
        with the count), a Katootsie! call, ties, who took the letter and why, sudden death
        and the end. Empty for most views."""
        if view["seat"] is None:
            return []
        said: list[tuple[int, str]] = []
        """(priority, line) in the order things happened; the highest priorities are kept."""
        letter = str(view["letter"] or before["letter"] or "?")
        fresh = new_log_lines(before["log"], view["log"])
        for line in fresh:
            said += self._from_log(before, view, line, letter)
        if view["call"] is not None and before["call"] is None:
            said.append((3, self._call_words(view, view["call"]["seat"], letter)))
        said += self._tie_words(before, view, fresh)
        if view["last"] is not None and (
            view["last"] != before["last"] or self._closed_again(before, view)
        ):
            said.append((1, self._result_words(before, view, fresh)))
            said += [(1, line) for line in self._debt_words(before, view)]
        said += self._end_words(before, view)
        kept = sorted(range(len(said)), key=lambda index: said[index][0])[:MOST_LINES]
        return [clip(said[index][1]) for index in sorted(kept)]

    def _closed_again(self, before: KatootsieView, view: KatootsieView) -> bool:
        """A letter closed with the same result as the one before (same letter, same taker,
        same way): the result did not change, but a letter went."""
        closed = before["letter"] is not None and view["letter"] is None
        return closed and not view["tiebreak"] and stage_of(view) != "over"

    def _from_log(
        self, before: KatootsieView, view: KatootsieView, line: str, letter: str
    ) -> list[tuple[int, str]]:
        """The log's refusals and rejections, explained (the view keeps no trace of them)."""
        for seat, name in sorted(enumerate(view["players"]), key=lambda pair: -len(pair[1])):
            head = f"{name} answered "
            if line.startswith(head):
                found = REFUSED.match(line[len(head) :])
                if found is not None:
                    return [self._refused_words(before, view, seat, found, letter)]
                return []
        rejected = REJECTED.match(line)
        if rejected is not None:
            vote = before["vote"]
            yes, no = int(rejected["yes"]), int(rejected["no"])
            who = "its player" if vote is None else self.name(view, vote["seat"])
            return [
                (
                    2,
                    f"{quoted(rejected['text'])} was voted down: {no} of {yes + no} votes"
                    f" against is a strict majority, so {who} {'are' if is_you(who) else 'is'}"
                    f" out for {letter}.",
                )
            ]
        return []

    def _refused_words(
        self,
        before: KatootsieView,
        view: KatootsieView,
        seat: int,
        found: re.Match[str],
        letter: str,
    ) -> tuple[int, str]:
        """Why an answer was refused, and what it costs (out for the letter)."""
        reason = found["reason"]
        text = found["text"] or ""
        letter = found["letter"] or found["anywhere"] or letter
        if seat != view["seat"]:
            who = self.name(view, seat)
            return (
                5,
                f"{who} is out for {letter}: a refused answer locks its player out of that"
                " letter (no more answers, no Katootsie!).",
            )
        out = f"You are out for {letter} until the next letter."
        if reason == "nothing was typed":
            return (0, f"An empty answer is refused. {out}")
        if reason.startswith("it already took"):
            return (
                0,
                f"Your {quoted(text)} was refused: it already took a letter in"
                f" {title_of(before)}, and an answer counts once per category. {out}",
            )
        article = article_of(text)
        if article is not None:
            rest = text.strip()[len(article) :].strip()
            start = (answers.key(rest)[:1] or "?").upper()
            return (
                0,
                f"Your {quoted(text)} was refused: “{clean_text(article)}” is left out of every"
                f" answer, so it counts for {start}, not {letter}. {out}",
            )
        return (0, f"Your {quoted(text)} was refused: it must {must(letter)}. {out}")

    def _call_words(self, view: KatootsieView, caller: int, letter: str) -> str:
        """A Katootsie! call: the bet, and what each side wins or loses."""
        if caller == view["seat"]:
            return (
                f"Your bet: nobody answers {letter} within {SECONDS} s. Right, {letter} is yours;"
                " wrong, the answerer also takes one of your letters."
            )
        who = self.name(view, caller)
        return (
            f"{who} bets nobody answers {letter} within {SECONDS} s. Answer in time and you"
            f" take {letter} and one of {self.possessive(view, caller)} letters."
        )

    def _tie_words(
        self, before: KatootsieView, view: KatootsieView, fresh: Sequence[str]
    ) -> list[tuple[int, str]]:
        """A tie settled: by the others' vote, or sent to a tie-break letter."""
        said: list[tuple[int, str]] = []
        was = before["tiebreak"]
        now = view["tiebreak"]
        if now is not None and (was is None or len(now["stake"]) > len(was["stake"])):
            players = self.listed([self.name(view, seat) for seat in now["players"]])
            stake = letters_words(now["stake"])
            said.append(
                (
                    2,
                    f"Too close to call, and no majority said who was first: a tie-break."
                    f" Only {players} answer the next letter; its taker also wins {stake}.",
                )
            )
        elif before["first_vote"] is not None and view["first_vote"] is None:
            for line in fresh:
                found = FIRST.match(line)
                if found is not None:
                    said.append(
                        (
                            2,
                            f"{found['count']} of {found['cast']} votes is a strict majority:"
                            " that player was first, so only their answer is judged.",
                        )
                    )
        return said

    def _debt_words(self, before: KatootsieView, view: KatootsieView) -> list[str]:
        """A letter won by someone who owed one (a Katootsie! lost with no letters) goes to
        the player owed: who, and why."""
        said = []
        for seat, owed in enumerate(before["debts"]):
            now = view["debts"][seat] if seat < len(view["debts"]) else []
            if owed and len(now) < len(owed):
                who = self.name(view, seat)
                to = self.name(view, owed[0])
                said.append(
                    f"But {who} owed a letter (a Katootsie! lost with none to give), so that"
                    f" letter goes to {to}."
                )
        return said

    def _result_words(
        self, before: KatootsieView, view: KatootsieView, fresh: Sequence[str]
    ) -> str:
        """Who took the letter and why (the rule that gave it to them)."""
        last = view["last"]
        assert last is not None
        letter = str(last["letter"])
        got = letters_words(last["letters"] or [letter])
        how = last["how"]
        seat = last["seat"]
        if seat is None:
            if before["tiebreak"] is not None:
                return (
                    f"Nobody took the tie-break letter {letter} in time: the tie-break ends and"
                    f" the letters at stake are set aside."
                )
            return f"Nobody answered {letter} in time: it is set aside, and nobody scores it."
        who = self.name(view, seat)
        took = f"{capital(who)} {'take' if is_you(who) else 'takes'} {got}"
        sudden = view["sudden_death"]
        if sudden is not None and before["sudden_death"] is not None:
            wins = sudden["wins"][seat] if seat < len(sudden["wins"]) else 0
            took += f" (sudden death: {wins} of {SUDDEN_DEATH_WINS})"
        answer = str(last["answer"] or "")
        # The category the letter was played in: a second letter taken turns the next one.
        title = title_of(before) if before["category"] is not None else title_of(view)
        if how == "answer":
            article = article_of(answer)
            read = ""
            if article is not None:
                read = f" (“{clean_text(article)}” left out)"
            return (
                f"{took}: {quoted(answer)} came first, fits {title} and"
                f" {fits_words(letter)}{read} (it is in the game's list, so it counts at once)."
            )
        if how == "vote":
            why = stood_why(fresh)
            return (
                f"{took}: {quoted(answer)} is not in the game's list, but the vote let it stand"
                f"{why}; only a majority against rejects."
            )
        if how == "katootsie":
            return (
                f"{took} with Katootsie!: the bet was that nobody answers in {SECONDS} s, and"
                " nobody else gave a fitting answer in time."
            )
        if how == "caught":
            caller = last["caller"]
            whose = self.possessive(view, caller)
            cost = f"{who} also {'take' if is_you(who) else 'takes'} one of {whose} letters"
            if caller is not None and len(view["debts"][caller]) > len(before["debts"][caller]):
                cost = f"{self.name(view, caller)} had no letter to give, so owes the next one"
            return (
                f"{took}: {quoted(answer)} came within {whose} {SECONDS} s of Katootsie!, so"
                f" the bet is lost and {cost}."
            )
        if how == "default":
            return (
                f"{took} by default: everyone else was out, and a refused answer locks its"
                " player out of that letter."
            )
        if how == "tiebreak":
            return f"{took}: the tie-break's winner takes every letter at stake."
        return f"{took}."

    def _end_words(self, before: KatootsieView, view: KatootsieView) -> list[tuple[int, str]]:
        """A new round, sudden death, or the end: what decided it."""
        said: list[tuple[int, str]] = []
        outcome = view["outcome"]
        if outcome is not None and before["outcome"] is None:
            winners = list(outcome["winners"])
            scores = list(outcome["scores"])
            names = self.listed([self.name(view, seat) for seat in winners])
            sudden = view["sudden_death"]
            if sudden is not None and len(winners) == 1:
                why = f"the first to win {SUDDEN_DEATH_WINS} letters in sudden death wins"
            elif sudden is not None:
                why = "the letters ran out in sudden death, so the tied players share the win"
            else:
                top = scores[winners[0]] if winners else 0
                why = f"the most letters win, and {top} was the most"
            verb = "win" if winners == [view["seat"]] or len(winners) > 1 else "wins"
            said.append((1, f"{capital(names)} {verb}: {why}."))
            return said
        sudden = view["sudden_death"]
        if sudden is not None and before["sudden_death"] is None:
            players = self.listed([self.name(view, seat) for seat in sudden["players"]])
            said.append(
                (
                    2,
                    f"The top score is shared, so {players} play sudden death: one new category,"
                    f" and the first to win {SUDDEN_DEATH_WINS} letters wins.",
                )
            )
        elif view["round"] > before["round"]:
            said.append(
                (
                    2,
                    f"Round {before['round']} is over: letters add up over the rounds, and a"
                    " fresh pile of letters starts the next one.",
                )
            )
        return said
