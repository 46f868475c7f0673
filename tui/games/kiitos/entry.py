"""Kiitos' word entry: what a typed word would do, checked as the player types.

Pure (a view and a word in, an :class:`Entry` out) so it is tested without a
screen. The rules knowledge is the engine's own word logic
(:mod:`engine.games.kiitos.table`: where a letter goes, whether a part fits a
word); the dictionary is passed in (``None`` while it loads). Nothing here
refuses a word the rules allow: any word may be said, the dictionary only
warns (or, at a ``check = strict`` table, blocks).

An entry says, for the word typed so far: whether it is long enough, which
of your letters it would play and where (Super-Kiitos: at the start or the
end of the table's letters), whether the dictionary knows it, and what Enter
would send: one action (sent at once), several (the player picks one), or
none (and why not).
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.games.kiitos.rules import MAX_WORD_LENGTH
from engine.games.kiitos.table import END, START, extensions, fits, place

OK, BAD, WARN, WAIT = "ok", "bad", "warn", "wait"
"""How a check reads: passed, fails (Enter is refused), a warning, not known yet."""

MARKS = {OK: "✓", BAD: "✗", WARN: "!", WAIT: "…"}
"""Each check's mark, so the line reads without colour too."""


@dataclass(frozen=True, slots=True)
class Check:
    """One thing the entry line says about the word: ``✓ 5 letters``."""

    mark: str
    text: str


@dataclass(frozen=True, slots=True)
class Entry:
    """What the typed word would do now."""

    word: str
    """The word as typed, upper case."""
    checks: tuple[Check, ...] = ()
    actions: tuple[dict[str, Any], ...] = ()
    """What Enter may send: one is sent at once, several are offered to choose from."""
    problem: str = ""
    """Why Enter sends nothing now (empty when it can)."""
    hint: str = ""
    """What Enter does, in words (``⏎ says CLASP, playing S``)."""
    plays: frozenset[str] = field(default_factory=frozenset)
    """The letters of the hand this entry would play (drawn lit in the hand)."""


def side_words(side: str) -> str:
    return "at the start" if side == START else "at the end"


def play_words(action: Mapping[str, Any], super_kiitos: bool) -> str:
    """``S at the end`` (where only matters under Super-Kiitos, and not for a lead)."""
    letter = str(action.get("letter", "?"))
    if action.get("type") == "lead" or not super_kiitos:
        return letter
    return f"{letter} {side_words(str(action.get('side', END)))}"


def choices_words(actions: Sequence[Mapping[str, Any]], super_kiitos: bool) -> str:
    """``S or T`` / ``A at the start or A at the end``."""
    return " or ".join(play_words(action, super_kiitos) for action in actions)


def table_part(view: Mapping[str, Any]) -> str:
    """The table's letters as the engine compares them (lower case; empty before a lead)."""
    return "" if view["phase"] == "lead" else "".join(view["table"]).lower()


def own_turn(view: Mapping[str, Any]) -> bool:
    seat = view["seat"]
    return seat is not None and view["turn"] == seat and view["outcome"] is None


def analyse(view: Mapping[str, Any], typed: str, words: Container[str] | None) -> Entry:
    """What ``typed`` would do at this table now (``words``: the dictionary, ``None`` loading)."""
    word = typed.upper()
    if view["seat"] is None:
        return Entry(word, problem="You are watching: only players say words")
    if view["outcome"] is not None:
        return Entry(word, problem="The game is over")
    mine = own_turn(view)
    phase = view["phase"]
    if mine and phase == "forfeit":
        return _forfeit(view, word)
    compelled = [action for action in view["legal"] if action.get("type") == "play"]
    if mine and compelled:
        return _compelled(view, word, compelled)
    if not word:
        return Entry(word, problem="Type a word first", hint=_empty_hint(view, mine))
    return _word(view, word, words, mine)


def _empty_hint(view: Mapping[str, Any], mine: bool) -> str:
    if not mine or view["phase"] not in ("lead", "play"):
        return ""
    part = table_part(view).upper()
    shortest = view["rules"]["min_length"]
    if not part:
        where = "any letter you hold" if view["rules"]["super_kiitos"] else "a letter you hold"
        return f"Type a word of {shortest}+ letters with {where}"
    if view["rules"]["super_kiitos"]:
        return f"Type a word of {shortest}+ letters: {part} with a letter of yours before or after"
    return f"Type a word of {shortest}+ letters: {part}, then a letter of yours, then any"


def _forfeit(view: Mapping[str, Any], word: str) -> Entry:
    hand = view["hand"] or []
    if len(word) == 1 and word in hand:
        action = {"type": "forfeit", "letter": word}
        return Entry(word, actions=(action,), hint=f"⏎ gives up {word}", plays=frozenset(word))
    return Entry(word, problem="Type one letter of your hand to give up, then ⏎")


def _compelled(view: Mapping[str, Any], word: str, compelled: list[dict[str, Any]]) -> Entry:
    super_kiitos = bool(view["rules"]["super_kiitos"])
    target = str(view["target"] or "")
    letters = sorted({str(action["letter"]) for action in compelled})
    must = " or ".join(letters)
    matching = [action for action in compelled if not word or action["letter"] == word]
    if len(word) <= 1 and matching:
        what = choices_words(matching, super_kiitos)
        choose = " (then choose)" if len(matching) > 1 else ""
        return Entry(
            word,
            actions=tuple(matching),
            hint=f"⏎ plays {what}{choose}",
            plays=frozenset(str(action["letter"]) for action in matching),
        )
    return Entry(
        word,
        problem=f"You hold {must}: you must continue {target} (⏎ plays it)",
        plays=frozenset(letters),
    )


def _word(view: Mapping[str, Any], word: str, words: Container[str] | None, mine: bool) -> Entry:
    lower = word.lower()
    shortest = int(view["rules"]["min_length"])
    super_kiitos = bool(view["rules"]["super_kiitos"])
    checks: list[Check] = []
    problems: list[str] = []
    if not (lower.isascii() and lower.isalpha()):
        return Entry(word, problem="A word is letters a-z only")
    if len(lower) < shortest:
        checks.append(Check(BAD, f"{len(lower)} letters ({shortest}+)"))
        problems.append(f"A target word has at least {shortest} letters")
    elif len(lower) > MAX_WORD_LENGTH:
        checks.append(Check(BAD, f"over {MAX_WORD_LENGTH} letters"))
        problems.append(f"A word is at most {MAX_WORD_LENGTH} letters")
    else:
        checks.append(Check(OK, f"{len(lower)} letters"))
    actions, fit, why = _plays(view, lower, super_kiitos)
    checks.append(fit)
    if why:
        problems.append(why)
    if word in view["refused_words"] and mine:
        checks.append(Check(BAD, "failed a challenge"))
        problems.append(f"{word} failed a challenge: say a different word")
    strict = view["check"] == "strict"
    if words is None:
        checks.append(Check(WAIT, "dictionary loading"))
    elif lower in words:
        checks.append(Check(OK, "in the dictionary"))
    elif strict:
        checks.append(Check(BAD, "not in the dictionary"))
        problems.append(f"The dictionary does not know {word} (this table refuses it)")
    else:
        checks.append(Check(WARN, "not in the dictionary"))
    if not mine:
        problems.insert(0, _not_yours(view))
    plays = frozenset(str(action["letter"]) for action in actions)
    if problems:
        return Entry(word, tuple(checks), (), problems[0], plays=plays)
    verb = "says" if view["phase"] == "play" else "leads with"
    choose = " (then choose)" if len(actions) > 1 else ""
    hint = f"⏎ {verb} {word}, playing {choices_words(actions, super_kiitos)}{choose}"
    return Entry(word, tuple(checks), tuple(actions), "", hint, plays)


def _not_yours(view: Mapping[str, Any]) -> str:
    turn = view["turn"]
    players = view["players"]
    name = players[turn] if isinstance(turn, int) and 0 <= turn < len(players) else "someone"
    return f"It is {name}'s turn: keep the word ready"


def _plays(
    view: Mapping[str, Any], word: str, super_kiitos: bool
) -> tuple[list[dict[str, Any]], Check, str]:
    """The actions that would say ``word`` now, a check saying which letter, and why not."""
    held = sorted(set(view["hand"] or []))
    part = table_part(view)
    if not part:
        if super_kiitos:
            letters = [letter for letter in held if letter.lower() in word]
        else:
            letters = [word[0].upper()] if word[0].upper() in held else []
        actions = [{"type": "lead", "word": word, "letter": letter} for letter in letters]
        if actions:
            return actions, Check(OK, f"plays {choices_words(actions, super_kiitos)}"), ""
        if super_kiitos:
            return [], Check(BAD, "you hold none of its letters"), "You hold none of its letters"
        first = word[0].upper()
        return [], Check(BAD, f"starts with {first}: you hold no {first}"), f"You hold no {first}"
    shown = part.upper()
    if not fits(part, word, super_kiitos):
        how = "contain" if super_kiitos else "start with"
        text = f"does not {how} {shown}"
        return [], Check(BAD, text), f"{word.upper()} does not {how} {shown}, the table's letters"
    if len(word) <= len(part):
        text = f"{word.upper()} is no longer than {shown}"
        return [], Check(BAD, text), f"A new word must be longer than {shown}"
    sides = (END, START) if super_kiitos else (END,)
    actions = []
    finishing = []
    for letter in held:
        for side in sides:
            grown = place(part, letter, side)
            if not fits(grown, word, super_kiitos):
                continue
            if grown == word:
                finishing.append(letter)
                continue
            actions.append(
                {"type": "say", "word": word, "letter": letter, "side": side},
            )
    if actions:
        return actions, Check(OK, f"plays {choices_words(actions, super_kiitos)}"), ""
    if finishing:
        text = f"your {finishing[0]} would finish it"
        why = f"Your {finishing[0]} would finish {word.upper()}: leave a letter to play"
        return [], Check(BAD, text), why
    needed = sorted({letter for letter, _ in extensions(part, word, super_kiitos)})
    wanted = " or ".join(needed) if needed else "nothing more"
    text = f"needs {wanted}: not in your hand"
    return [], Check(BAD, text), f"{word.upper()} needs {wanted} next and you hold none"
