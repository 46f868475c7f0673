"""Selfplay: whole games between bots on a simulated clock, reproducible from one seed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import registry
from engine.bots import default_bot
from engine.core import BASE_VIEW_KEYS, GameState, Rng, replay
from engine.selfplay import (
    BotMistakeError,
    StuckGameError,
    Summary,
    TooManyStepsError,
    derive_seed,
    game_seed,
    play_game,
    play_many,
    player_names,
    run_game,
)
from tests import toy_game
from tests.toy_game import GAME as TOY


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game.registered():
        yield


class SpyBot:
    """Records what it is given, then plays the first legal action."""

    seen: list[Any] = []  # noqa: RUF012 (shared on purpose: the tests read it)
    seeds: list[int] = []  # noqa: RUF012

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0
        SpyBot.seeds.append(rng.state)

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        SpyBot.seen.append(view)
        legal: list[dict[str, Any]] = view["legal"]
        return legal[0] if legal else None


class IllegalBot:
    """Always tries something the rules refuse."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.reaction_s = 0.0

    def choose(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return {"type": "add", "n": 5}


@pytest.fixture
def toy_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    bots = (("spy", f"{__name__}:SpyBot"), ("illegal", f"{__name__}:IllegalBot"))
    monkeypatch.setattr(toy_game.ToyGame, "bots", bots)
    SpyBot.seen = []
    SpyBot.seeds = []


def test_same_seed_same_summary(toy: None) -> None:
    first = play_many("toy", ["random"] * 3, games=40, seed=11)
    again = play_many("toy", ["random"] * 3, games=40, seed=11)
    assert first == again
    assert first.games == 40
    assert sum(first.wins) == 40
    assert first.actions > 40


def test_same_seed_same_game_move_for_move() -> None:
    one = run_game(TOY, ["random"] * 3, seed=5, options={"mode": "together"}, record=True)
    two = run_game(TOY, ["random"] * 3, seed=5, options={"mode": "together"}, record=True)
    assert one.entries == two.entries
    assert TOY.to_data(one.state) == TOY.to_data(two.state)


def test_different_seeds_give_different_games() -> None:
    games = [run_game(TOY, ["random"] * 2, seed=seed, record=True).entries for seed in range(20)]
    assert len({repr(entries) for entries in games}) > 10


def test_each_seat_s_bot_gets_its_own_seed_fixed_by_the_game_seed(toy_bots: None) -> None:
    play_game(TOY, ["spy", "spy", "spy"], seed=3)
    play_game(TOY, ["spy", "spy", "spy"], seed=3)
    play_game(TOY, ["spy", "spy", "spy"], seed=4)
    first, again, other = SpyBot.seeds[:3], SpyBot.seeds[3:6], SpyBot.seeds[6:]
    assert len(set(first)) == 3
    assert first == again
    assert set(first).isdisjoint(other)


def test_the_log_of_a_selfplay_game_replays_it_exactly() -> None:
    playout = run_game(TOY, ["random"] * 2, seed=9, options={"mode": "together"}, record=True)
    assert playout.ticks == toy_game.CARDS
    assert any(seat is None for seat, _, _ in playout.entries), "ticks are logged"
    players = player_names(["random"] * 2)
    state = replay(TOY, players, 9, {"mode": "together"}, playout.entries)
    assert TOY.to_data(state) == TOY.to_data(playout.state)


def test_the_clock_advances_per_action_and_jumps_to_deadlines() -> None:
    playout = run_game(TOY, ["random"] * 2, seed=1, options={"mode": "together"}, record=True)
    times = [now for _, _, now in playout.entries]
    assert times == sorted(times)
    ticks = [now for seat, _, now in playout.entries if seat is None]
    assert ticks[0] == 1.0  # the first card opens at 1.0: the clock jumped there


def test_simultaneous_games_do_not_favour_one_seat(toy: None) -> None:
    summary = play_many("toy", ["random"] * 2, games=60, seed=2, options={"mode": "together"})
    assert min(summary.wins) > 10


def test_bots_see_only_their_view(toy_bots: None) -> None:
    play_game(TOY, ["spy", "spy"], seed=4)
    assert SpyBot.seen
    for view in SpyBot.seen:
        assert isinstance(view, dict)
        assert set(view) == BASE_VIEW_KEYS | {"total"}
        assert not any(isinstance(value, GameState) for value in view.values())


def test_a_bot_playing_an_illegal_action_is_reported(toy_bots: None) -> None:
    with pytest.raises(BotMistakeError, match=r"bot 'illegal' at seat \d chose"):
        play_game(TOY, ["illegal", "illegal"], seed=4)


def test_a_game_where_nobody_can_act_is_reported_not_looped() -> None:
    with pytest.raises(StuckGameError, match="no bot acts and no timer is pending"):
        play_game(TOY, ["random"] * 2, seed=1, options={"mode": "stuck"})


def test_a_game_that_does_not_end_is_stopped() -> None:
    with pytest.raises(TooManyStepsError, match="no end after 3 steps"):
        play_game(TOY, ["random"] * 2, seed=1, max_steps=3)


def test_shared_wins_count_for_every_winner(toy: None) -> None:
    summary = play_many("toy", ["random"] * 3, games=5, seed=1, options={"mode": "tie"})
    assert summary == Summary(
        game="toy",
        bots=("random",) * 3,
        games=5,
        seed=1,
        wins=(5, 5, 5),
        shared_wins=(5, 5, 5),
        shared_games=5,
        draws=0,
        actions=5,
    )
    assert summary.win_rate(0) == 1.0


def test_games_without_winners_are_draws(toy: None) -> None:
    summary = play_many("toy", ["random"] * 2, games=4, seed=1, options={"mode": "nowinner"})
    assert (summary.wins, summary.draws, summary.shared_games) == ((0, 0), 4, 0)


def test_a_series_needs_a_game(toy: None) -> None:
    with pytest.raises(ValueError, match="at least one game"):
        play_many("toy", ["random"] * 2, games=0, seed=1)


def test_seeds_are_derived_not_reused() -> None:
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert len({derive_seed(1, salt) for salt in range(100)}) == 100
    assert game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 1)


@pytest.mark.parametrize("name", registry.names())
def test_registered_games_play_to_the_end_reproducibly(name: str) -> None:
    game = registry.get(name)
    bots = [default_bot(name)] + ["random"] * (game.min_players - 1)
    first = play_many(name, bots, games=5, seed=3)
    assert first == play_many(name, bots, games=5, seed=3)
    assert sum(first.wins) >= first.games - first.draws
