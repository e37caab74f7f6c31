"""The bots' thinking taken in turn by client address (web/fair.py)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from loveletter.web.fair import TakingTurns


def test_one_key_with_many_jobs_waits_its_turn_beside_another():
    """One address's twenty tables had every other table's bots wait behind their twenty searches."""
    ran: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        gate.wait(10)  # (the first job holds the one thread until all are queued)
        ran.append(name)
        return name

    turns = TakingTurns(ThreadPoolExecutor(1), 1)

    async def scenario() -> list[str]:
        many = [asyncio.ensure_future(turns.run("many", job, f"many {i}")) for i in range(5)]
        await asyncio.sleep(0.05)
        one = asyncio.ensure_future(turns.run("one", job, "one"))
        await asyncio.sleep(0.05)
        gate.set()
        return await asyncio.gather(*many, one)

    answers = asyncio.run(scenario())
    assert answers == ["many 0", "many 1", "many 2", "many 3", "many 4", "one"]  # each its own answer
    assert ran == ["many 0", "one", "many 1", "many 2", "many 3", "many 4"]
    assert not turns._served and not turns._busy  # keys with nothing to do are forgotten (addresses come and go)


def test_a_job_cancelled_while_it_waits_never_runs_and_one_that_fails_says_why():
    ran: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        gate.wait(10)
        ran.append(name)
        if name == "bad":
            raise ValueError("no move")
        return name

    async def scenario() -> None:
        turns = TakingTurns(ThreadPoolExecutor(2), 1)  # (one at once, though the executor has two threads)
        first = asyncio.ensure_future(turns.run("a", job, "first"))
        dropped = asyncio.ensure_future(turns.run("b", job, "dropped"))
        bad = asyncio.ensure_future(turns.run("c", job, "bad"))
        await asyncio.sleep(0.05)
        dropped.cancel()  # (a table whose bot's move was no longer wanted)
        gate.set()
        assert await first == "first"
        with pytest.raises(ValueError, match="no move"):
            await bad
        assert await turns.run("a", job, "after") == "after"  # the places were given back

    asyncio.run(scenario())
    assert ran == ["first", "bad", "after"]
