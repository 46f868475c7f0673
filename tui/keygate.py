"""One key at a time: a key is handled, and what it opened is up, before the next key goes.

Textual hands each key to the focused widget (or the screen) the moment the app
takes it from the terminal, by posting it to that widget's queue; the key then
bubbles up to the screen and the app, where the bindings that are not priority
ones act, and an action often posts a message of its own (a table's ``q`` asks
the app, which opens the leave dialog). Keys that come in one burst (over SSH,
from a paste, on a slow machine) were all handed to the table before the first
one's dialog was up: after ``/`` at Katootsie!, ``quartz`` opened the leave
dialog with ``q`` and typed ``uartz`` into the answer under it (issue 36, item 3).

:class:`KeyGateApp` holds each key until the one before it has gone all the way:
through every widget it was handed to, up to the app, and through the messages
its action posted on the same way (a second pass of that path, whose queues then
hold them ahead of the pass). So a key that opens a dialog (a modal screen) has
its dialog on top before the next key is handed out, and every key after it
goes to the dialog. A key never waits longer than :data:`KEY_WAIT_S` for the one
before it (a widget removed before it passed the key on would otherwise hold
every key after it).

Keys the player could not have meant for a screen: a screen that asks something
with single keys (:class:`SeenFirst`: leave or give the seat up, end the game,
the results' "Enter leaves", Kitten Me!'s reveal box that any key closes) takes
only keys that came after its first frame was drawn. The rest of a burst typed
for the screen below is dropped: after ``/`` at Katootsie!, ``quagmire`` opened
the leave dialog with ``q``, and its ``g`` gave the seat up.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import TYPE_CHECKING, Any, TypeVar

from textual import events
from textual.app import App

from tui.refresh import after_own_refresh

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.message_pump import MessagePump

ReturnType = TypeVar("ReturnType")

KEY_WAIT_S = 1.0
"""The longest a key waits for the one before it to be handled (a safety: it takes a few
milliseconds)."""


UNSEEN_FOR_S = 1.0
"""A :class:`SeenFirst` screen whose first frame has not been noted this long after it was
mounted takes keys anyway (a safety: a frame takes milliseconds)."""


class SeenFirst:
    """A screen (this class first among its bases) whose keys count only once it is seen.

    :class:`KeyGateApp` drops a key that reached the app before the screen's first frame
    (``events.Key.time`` and :attr:`seen_at` are both ``time.monotonic`` seconds): it was
    typed for what was on screen before.
    """

    seen_at: float | None = None
    """When the screen's first frame was drawn (``None``: not yet)."""
    mounted_at: float | None = None
    """When the screen was mounted, or last showed something anew (``None``: not yet; keys
    wait for that, and its frame)."""

    def on_mount(self) -> None:
        self.unseen()

    def unseen(self) -> None:
        """What the screen asks has changed (it was just mounted, shown again, or shows a
        new page in place): keys count again only from its next frame on."""
        self.seen_at = None
        self.mounted_at = time.monotonic()
        after_own_refresh(self, self._first_frame)  # type: ignore[arg-type]

    def _first_frame(self) -> None:
        self.seen_at = time.monotonic()

    def typed_before_seen(self, key: events.Key) -> bool:
        """Whether ``key`` came in before this screen was on show (a screen not drawn a
        second after it was mounted, if that ever happens, takes keys all the same: no
        screen may be left deaf)."""
        if self.seen_at is None:
            return self.mounted_at is None or key.time < self.mounted_at + UNSEEN_FOR_S
        return key.time < self.seen_at


class KeyGateApp(App[ReturnType]):
    """An app that hands out its keys one at a time (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held_keys: deque[events.Key] = deque()
        """Keys that came while one was on its way, in their order."""
        self._key_on_way = 0
        """The number of the key on its way (0: none): a late pass of an earlier key, or
        its :data:`KEY_WAIT_S`, finds another number and does nothing."""
        self._keys_let = 0
        self._key_wait: asyncio.TimerHandle | None = None

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            if self._key_on_way:
                self._held_keys.append(event)
                return
            await self._let_key(event)
            return
        await super().on_event(event)

    async def _let_key(self, event: events.Key) -> None:
        """Hand ``event`` out as Textual does, then follow it along its way (a key typed
        before the :class:`SeenFirst` screen on top was drawn is dropped, and the next
        held key goes)."""
        while self._typed_blind(event):
            if not self._held_keys:
                return
            event = self._held_keys.popleft()
        self._keys_let += 1
        number = self._key_on_way = self._keys_let
        try:
            target: DOMNode = self.focused or self.screen
        except Exception:  # no screen yet (or none left): nothing to follow
            target = self
        await super().on_event(event)
        if self._key_on_way != number:
            return  # already done (the app is closing)
        path: list[MessagePump] = [*target.ancestors_with_self] if target is not self else []
        if not path or path[-1] is not self:
            path.append(self)
        self._key_wait = asyncio.get_running_loop().call_later(
            KEY_WAIT_S, self._waited_too_long, number
        )
        self._follow(number, [*path, *path])

    def _typed_blind(self, event: events.Key) -> bool:
        """Whether ``event`` came before the screen on top (one that asks for it) was seen."""
        try:
            screen = self.screen
        except Exception:  # no screen yet (or none left)
            return False
        return isinstance(screen, SeenFirst) and screen.typed_before_seen(event)

    def _follow(self, number: int, path: list[MessagePump]) -> None:
        """After what each node of ``path`` has in its queue now, go on to the next node; the
        key is done after the last (the app)."""
        if number != self._key_on_way:
            return
        while path:
            node, path = path[0], path[1:]
            if node.call_later(self._follow, number, path):
                return
            # a node that takes no more messages (closed): the key cannot be there
        self.call_later(self._key_done, number)

    def _waited_too_long(self, number: int) -> None:
        self.call_later(self._key_done, number)

    async def _key_done(self, number: int) -> None:
        """The key ``number`` has been handled: the next held key goes."""
        if number != self._key_on_way:
            return
        self._key_on_way = 0
        if self._key_wait is not None:
            self._key_wait.cancel()
            self._key_wait = None
        if self._held_keys:
            await self._let_key(self._held_keys.popleft())
