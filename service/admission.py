"""Admission control for CPU work (embedding, answering, fact search): bounded, in order.

What it does: ``Admission.run`` runs a blocking call in a worker thread once a slot is free.
At most ``slots`` calls run at once, and heavy ones (long questions) at most ``slots - 1``,
so one slot is always left for short questions, which a flood of long ones never queues in
front of; heavy calls run in their own threads at a lower CPU priority (nice +10, Linux).
Waiting calls are served in arrival order (a heavy call that cannot take a slot yet lets the
light ones behind it pass, but is never passed for ever: serving the cheapest first starved
every question longer than the shortest under 8 steady clients); the total cost of the
waiting calls (it grows with the question's length) is bounded, and a call that would exceed
it, or that waited ``max_wait`` seconds, gets ``Overloaded`` (the API answers 503 with
Retry-After). A waiting call whose client hung up leaves the queue before any work is done
(``ClientGone``).
What it does not do: stop work that has started (a thread cannot be interrupted; its cost is
bounded by the slots instead), or know anything of HTTP beyond a ``gone()`` callback.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

T = TypeVar("T")
CHARS_PER_COST = 100  # a 500-character question costs 6, a short one 1
HEAVY_COST = 3  # from 200 characters on: an embedding of ~100 ms or more on an idle core
HEAVY_NICE = 10
POLL_SECONDS = 0.05  # how often a waiting call checks whether its client is still there


class Overloaded(Exception):
    """Too much work is waiting; try again after ``retry_after`` seconds."""

    code = "overloaded"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message, self.retry_after = message, retry_after


class ClientGone(Exception):
    """The client disconnected while its call was waiting; nothing was run."""


def _lower_priority() -> None:
    """Heavy work runs in threads the kernel schedules after the event loop's and the short
    questions' (nice +10): on a busy machine they take the CPU that is left over."""
    # Not Linux, or not allowed: the same priority, and still bounded by the slots.
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HEAVY_NICE)


def cost_of(text: str) -> int:
    return 1 + len(text) // CHARS_PER_COST


@dataclass(order=True)
class _Waiter:
    seq: int
    cost: int = field(compare=False)
    ready: asyncio.Future[None] = field(compare=False)


@dataclass
class Admission:
    slots: int = 2
    max_waiting: int = 32  # total cost of the calls waiting
    max_wait: float = 5.0  # seconds
    _running: int = 0
    _heavy: int = 0
    _waiting_cost: int = 0
    _queue: list[_Waiter] = field(default_factory=list)
    _seq: itertools.count[int] = field(default_factory=itertools.count)
    _pool: ThreadPoolExecutor | None = None

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def _fits(self, cost: int) -> bool:
        if self._running >= self.slots:
            return False
        heavy_slots = max(1, self.slots - 1)
        return cost < HEAVY_COST or self._heavy < heavy_slots

    def _take(self, cost: int) -> None:
        self._running += 1
        self._heavy += cost >= HEAVY_COST

    def _release(self, cost: int) -> None:
        self._running -= 1
        self._heavy -= cost >= HEAVY_COST
        self._wake()

    def _wake(self) -> None:
        # In arrival order; a heavy call that does not fit yet does not block a light one.
        for waiter in sorted(self._queue):
            if waiter.ready.done():
                continue
            if self._fits(waiter.cost):
                self._take(waiter.cost)
                waiter.ready.set_result(None)

    async def run(self, fn: Callable[..., T], *args: Any, cost: int = 1,
                  gone: Callable[[], Awaitable[bool]] | None = None) -> T:
        await self._admit(cost, gone)
        try:
            if gone is not None and await gone():  # left just as its turn came: no work
                raise ClientGone
            if cost >= HEAVY_COST:
                pool = self._heavy_pool()
                return await asyncio.get_running_loop().run_in_executor(pool, lambda: fn(*args))
            return await run_in_threadpool(fn, *args)
        finally:
            self._release(cost)

    def _heavy_pool(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max(1, self.slots - 1), "hakem-heavy",
                                            initializer=_lower_priority)
        return self._pool

    async def _admit(self, cost: int, gone: Callable[[], Awaitable[bool]] | None) -> None:
        # Whoever waits does not fit now (each release wakes every waiter that does), so a
        # call that fits takes its slot at once without passing anyone who could run.
        if self._fits(cost):
            self._take(cost)
            return
        if self._waiting_cost + cost > self.max_waiting:
            raise Overloaded("the server is busy; retry shortly", self._retry_after())
        waiter = _Waiter(next(self._seq), cost, asyncio.get_running_loop().create_future())
        heapq.heappush(self._queue, waiter)
        self._waiting_cost += cost
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_wait
        try:
            while True:
                try:
                    await asyncio.wait_for(asyncio.shield(waiter.ready), POLL_SECONDS)
                    return
                except TimeoutError:
                    pass
                if gone is not None and await gone():
                    raise ClientGone
                if loop.time() >= deadline:
                    raise Overloaded("the server is busy; retry shortly", self._retry_after())
        except BaseException:
            if waiter.ready.done() and not waiter.ready.cancelled():
                self._release(cost)  # admitted in the same instant: hand the slot on
            raise
        finally:
            self._queue.remove(waiter)
            heapq.heapify(self._queue)
            self._waiting_cost -= cost

    def _retry_after(self) -> int:
        return max(1, round(self._waiting_cost / max(1, self.slots) * 0.2))
