"""Fault plans: drawn from the seed alone, within the profile's bounds, every kind in use."""

from __future__ import annotations

import random
from collections import Counter

from tests.sim.faults import FaultKind, plan_faults
from tests.sim.profiles import LONG, QUICK
from tests.sim.world import World


def test_the_same_seed_gives_the_same_plan() -> None:
    for seed in range(20):
        first = plan_faults(random.Random(seed), LONG, [0, 1, 2], [3])
        again = plan_faults(random.Random(seed), LONG, [0, 1, 2], [3])
        assert first == again


def test_plans_stay_within_the_profile() -> None:
    for profile in (QUICK, LONG):
        for seed in range(300):
            plan = plan_faults(random.Random(seed), profile, [0, 1, 2], [3, 4])
            assert len(plan.faults) <= profile.max_faults
            assert len(plan.crashes) <= profile.max_crashes
            times = [fault.at_s for fault in plan.faults]
            assert times == sorted(times)
            assert all(1.0 <= t <= profile.fault_span_s for t in times)
            for fault in plan.faults:
                assert 0 <= fault.client <= 4 and fault.away_s > 0
                if fault.client >= 3:  # spectators get no seat faults
                    assert fault.kind not in (
                        FaultKind.GIVE_UP,
                        FaultKind.STEP_AWAY,
                        FaultKind.TWIN,
                        FaultKind.DUP_HELLO,
                    )
                else:
                    assert fault.kind is not FaultKind.HOP
            records = [crash.record for crash in plan.crashes]
            assert records == sorted(set(records)) and all(r >= 2 for r in records)
            assert all(c.keep is None or 0 <= c.keep <= 40 for c in plan.crashes)


def test_every_kind_of_fault_and_both_kinds_of_crash_turn_up() -> None:
    kinds: Counter[FaultKind] = Counter()
    torn = whole = 0
    for seed in range(400):
        plan = plan_faults(random.Random(seed), LONG, [0, 1, 2], [3])
        kinds.update(fault.kind for fault in plan.faults)
        torn += sum(crash.keep is not None for crash in plan.crashes)
        whole += sum(crash.keep is None for crash in plan.crashes)
    assert set(kinds) == set(FaultKind)
    assert torn and whole


def test_a_world_is_the_same_from_the_same_seed() -> None:
    """Everything a run draws comes from its seed: people, options, faults, links."""
    a, b = World("blackcat", 11, QUICK), World("blackcat", 11, QUICK)
    assert a.plan == b.plan and a.start_ns == b.start_ns
    assert [(p.seats, p.bots, p.options) for p in a.plans] == [
        (p.seats, p.bots, p.options) for p in b.plans
    ]
    assert [c.clock.offset_ns for c in a.clients] == [c.clock.offset_ns for c in b.clients]
    c = World("blackcat", 12, QUICK)
    assert (c.plan, c.start_ns) != (a.plan, a.start_ns)


def test_a_run_replays_exactly() -> None:
    """Two runs of one seed take the same steps to the same figures (no wall clock, no
    global random, no dict-order dependence)."""
    first = World("catchy", 5, QUICK).run()
    again = World("catchy", 5, QUICK).run()
    for name in ("steps", "virtual_s", "frames", "views", "acts_checked", "faults", "crashes"):
        assert getattr(first, name) == getattr(again, name), name


def test_a_real_time_run_replays_exactly() -> None:
    """The same for a real-time game: arbiter rulings, bots' reactions, crashes."""
    first, again = World("blackcat", 7, QUICK).run(), World("blackcat", 7, QUICK).run()
    for name in ("steps", "virtual_s", "views", "rulings", "fairness_pairs", "crashes"):
        assert getattr(first, name) == getattr(again, name), name
