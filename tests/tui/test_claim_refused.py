"""A real-time claim the host refuses without ruling on it can be made again.

Seen in CI (a coached Katootsie! game under load): keys of one answer were still arriving as
the next letter was drawn, so the rest of the word went to the new letter at once and the
host refused it as faster than a person can react. The screen kept that refused answer as
"waiting for the ruling": every later Enter said "You already answered ...; the host is
deciding", and the letter, held for the learner, stayed held for ever. The host's refusal
of an ``action`` now ends the wait, so the player may claim the same moment again; a refused
*typing notice* (``about: typing``) is not a refusal of the answer and changes nothing.

The app first looked for ``about: act`` (the class's name, not its wire type ``action``), and a
test that handed it the same word passed while every real refusal still left the claim
waiting: the errors here are the host core's own, for a real claim and a real notice.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

from net.core.table import START_COUNTDOWN_S
from net.wire.messages import Act, Error, Join, Typing, View
from tests.net.core_driver import SECOND, CoreDriver
from tests.tui.harness import TableHarness, blackcat_view
from tui import app as app_module
from tui.app import AtTable, ClowderApp
from tui.games.blackcat.screen import BlackCatTable
from tui.widgets.prompt import PromptLine

SIZE = (80, 24)
FOUR = [(0, 0), (1, 0), (0, 1), (1, 1)]
"""Four grabs from the harness deck: the game goes on with piles to grab into."""
TOO_FAST = "A reaction of 41 ms is faster than a person can react (the limit is 80 ms): too early."


def prompt_text(table: Any) -> str:
    return str(table.query_one(PromptLine).render())


def waiting(table: BlackCatTable) -> bool:
    """Whether the screen holds a claim of this player's as sent, waiting for the ruling."""
    return table.pending_claim is not None


async def test_after_the_hosts_refusal_a_second_grab_of_the_same_card_is_sent() -> None:
    view = blackcat_view(FOUR)
    app = TableHarness(view, presence=[], screen=BlackCatTable)
    async with app.run_test(size=SIZE) as pilot:
        table = cast(BlackCatTable, app.table)
        await pilot.press("1")
        assert waiting(table)
        table.act_refused(TOO_FAST)
        assert not waiting(table)
        assert "too early" in prompt_text(table)
        await pilot.press("1")
        grab = {"type": "take", "pile": 0, "reveal": view["reveal"]}
        assert app.actions == [grab, grab]
        assert "already grabbed" not in prompt_text(table)


class Client:
    """A client as the app sees it at a table: its queue of messages and what it sent."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[Any] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    async def act(self, table: str, action: dict[str, Any], **stamps: Any) -> None:
        self.sent.append(action)


def host_refusal(refused: Act | Typing) -> Error:
    """The error the host core sends when it refuses ``refused``: a grab stamped 41 ms after
    the card was drawn (quicker than a person), or a typing notice (Black Cat takes none)."""
    driver = CoreDriver()
    runner = driver.core.create_table("blackcat", {}, seats=2, bots=1, now_ns=driver.now_ns)
    ann = driver.connect("Ann")
    driver.send(ann, Join(table=runner.table.id, role="player"))
    driver.run_for(START_COUNTDOWN_S + 1.0)
    reveal = ann.last("view")["view"]["reveal"]
    assert reveal is not None
    stamps = {"reveal": reveal, "drawn_ns": SECOND, "acted_ns": SECOND + 41 * SECOND // 1000}
    if isinstance(refused, Act):
        sent: Act | Typing = Act(
            table=runner.table.id, action={**refused.action, "reveal": reveal}, **stamps
        )
    else:
        sent = Typing(table=runner.table.id, **stamps)
    driver.send(ann, sent)
    error = ann.last("error")
    return Error(code=error["code"], message=error["message"], about=error.get("about"))


@pytest.mark.parametrize(
    ("refused", "forgotten"),
    [
        (Act(table="t1", action={"type": "take", "pile": 0}), True),
        (Typing(table="t1", reveal=1, drawn_ns=1, acted_ns=2), False),
    ],
    ids=["action", "typing"],
)
async def test_the_app_ends_the_wait_only_for_a_refused_act(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: Act | Typing, forgotten: bool
) -> None:
    error = host_refusal(refused)
    assert error.about == refused.TYPE
    monkeypatch.setattr(app_module, "LIST_EVERY_S", 3600.0)  # no host to list here
    app = ClowderApp(name="Ann", config_dir=tmp_path, discovery=None)
    async with app.run_test(size=SIZE) as pilot:
        client = Client()
        table = BlackCatTable(table_id="t1", place="127.0.0.1:7707")
        app.at_table = AtTable(cast(Any, client), "t1", table)
        app.run_worker(app._pump(cast(Any, client)), group="table")
        await app.push_screen(table)
        view = blackcat_view(FOUR)
        client.incoming.put_nowait(View(table="t1", version=1, view=view, events=[]))
        for _ in range(200):
            await pilot.pause(0.01)
            if table.view is not None and view["reveal"] in table._drawn:
                break
        await pilot.press("1")
        for _ in range(50):
            if client.sent:
                break
            await pilot.pause(0.01)
        assert len(client.sent) == 1 and waiting(table)
        client.incoming.put_nowait(error)
        for _ in range(50):
            await pilot.pause(0.01)
            if error.message in prompt_text(table):
                break
        assert error.message in prompt_text(table)
        assert waiting(table) is not forgotten
