"""The doors' shared rules (net/doors/guard.py), on made-up times: budgets per address and
for the whole host, password tries answered ever later, and a log that a flood cannot fill.

Each test names the finding of issue 30 it answers; the doors' own tests
(test_ssh_gateway.py, test_web_gateway.py) show the same rules over real sockets.
"""

from __future__ import annotations

import pytest

from net.doors.guard import (
    TRY_DELAY_MAX_S,
    TRY_FORGET_S,
    PerAddress,
    QuietLog,
    SharedBudget,
    Tries,
    try_delay,
)


def test_one_address_holds_at_most_its_share_and_the_table_keeps_no_empty_rows() -> None:
    """Findings 3, 5 and 6 of issue 30: a per-address budget, whose table holds only the
    addresses holding something (a LAN's worth of strangers passing leaves nothing)."""
    budget = PerAddress(2)
    assert budget.take("10.0.0.2") and budget.take("10.0.0.2")
    assert not budget.take("10.0.0.2") and budget.full("10.0.0.2")
    assert budget.take("10.0.0.3")
    assert budget.total == 3
    for _ in range(2):
        budget.give_back("10.0.0.2")
    budget.give_back("10.0.0.3")
    budget.give_back("10.0.0.3")  # one too many changes nothing
    assert budget.total == 0 and budget._held == {}
    with pytest.raises(ValueError, match="at least 1"):
        PerAddress(0)


def test_the_doors_and_the_game_port_share_one_budget() -> None:
    """Finding 5 of issue 30: the web door was not counted by --max-connections. Every door
    takes its descriptors from the host's one budget, and the game port is told its share."""
    game = [3]
    shared = SharedBudget(5, game=lambda: game[0])
    told: list[int] = []
    shared.on_change = told.append
    assert shared.take() and shared.take()
    assert not shared.take()  # 3 game connections + 2 of the doors: full
    assert told == [4, 3] and shared.game_budget == 3
    game[0] = 1
    assert shared.take(2)
    shared.give_back(4)
    assert shared.doors == 0 and told[-1] == 5


def test_a_wrong_password_waits_twice_as_long_as_the_last_up_to_a_bound() -> None:
    """Finding 4 of issue 30: the delay grows with each wrong password, to at most 30 s."""
    assert [try_delay(n) for n in range(8)] == [0, 1, 2, 4, 8, 16, 30, 30]
    assert try_delay(10_000) == TRY_DELAY_MAX_S


def test_tries_from_one_address_are_answered_one_after_another() -> None:
    """Finding 4 of issue 30: 200 parallel guesses from one browser finished in 1.4 s. Tries
    arriving together are answered in turn; a right one waits its turn too, then the address
    starts afresh; another address is never held up."""
    tries = Tries()
    delays = [tries.attempt("10.0.0.2", None, False, now=100.0) for _ in range(4)]
    assert delays == [1, 3, 7, 15]
    assert tries.wait("10.0.0.2", 100.0) == 15
    assert tries.attempt("10.0.0.2", None, True, now=101.0) == 14  # its turn, at 115
    assert tries.wait("10.0.0.2", 101.0) == 0 and tries.failures("10.0.0.2") == 0
    assert tries.attempt("10.0.0.3", None, True, now=101.0) == 0


def test_two_hundred_guesses_from_one_address_take_over_an_hour_and_a_half() -> None:
    """Finding 4 of issue 30: each guess waits for the last one's answer, then its own."""
    tries, now = Tries(), 0.0
    for _ in range(200):
        now += tries.attempt("10.0.0.2", "ann", False, now)
    assert now > 90 * 60


def test_a_name_s_wrong_tries_slow_its_wrong_answers_but_never_a_right_one() -> None:
    """Finding 4 of issue 30 (per user name): guessing one name from many addresses is slow,
    and nobody can lock a player out of their name by guessing at it."""
    tries = Tries()
    for n in range(5):
        tries.attempt(f"10.0.1.{n}", "ann", False, now=0.0)
    assert tries.attempt("10.0.2.1", "ann", False, now=0.0) == try_delay(6)
    assert tries.attempt("10.0.2.2", "ann", True, now=0.0) == 0
    assert tries.attempt("10.0.2.3", "bea", False, now=0.0) == try_delay(1)


def test_tries_are_forgotten_in_time_and_the_tables_stay_bounded() -> None:
    """Finding 7's spirit (issue 30): nothing a stranger sends grows the host for ever."""
    tries = Tries(kept=10)
    tries.attempt("10.0.0.2", "ann", False, now=0.0)
    later = TRY_FORGET_S + 1
    assert tries.attempt("10.0.0.2", "ann", False, now=later) == try_delay(1)
    for n in range(100):
        tries.attempt("10.0.0.9", f"made-up-{n}", False, now=later)
    assert len(tries._names) <= 10 and len(tries._addresses) <= 10


def test_a_flood_of_one_kind_of_line_is_a_few_lines_that_say_how_many() -> None:
    """Finding 4 of issue 30: every wrong password wrote a line. Now a kind of line is
    logged at most 5 times in 10 s, and the next one says how many were left out."""
    lines: list[str] = []
    now = [0.0]
    quiet = QuietLog(lines.append, clock=lambda: now[0])
    for n in range(100):
        quiet("password", f"wrong {n}")
    quiet("other", "another kind")
    assert lines == ["wrong 0", "wrong 1", "wrong 2", "wrong 3", "wrong 4", "another kind"]
    now[0] = 10.0
    quiet("password", "wrong again")
    assert lines[-1] == "wrong again (and 95 more like it)"
