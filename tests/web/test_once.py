"""Requests answered once (src/loveletter/web/once.py), without a server: asked again while the first
is being answered, and after the first was cancelled."""

from __future__ import annotations

import asyncio

import pytest
from starlette.requests import Request

from loveletter.web.once import AnsweredOnce


def request(body: bytes = b'{"name": "Bob"}', key: str = "k" * 32) -> Request:
    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request({"type": "http", "method": "POST", "path": "/api/tables/ABC123/join", "query_string": b"",
                    "headers": [(b"request-key", key.encode())]}, receive)


def test_a_request_asked_again_while_the_first_is_answered_waits_for_that_answer():
    async def go() -> None:
        once, calls = AnsweredOnce(), []

        async def work() -> dict[str, object]:
            calls.append(len(calls))
            await asyncio.sleep(0.05)
            return {"seat": 1, "call": len(calls)}

        both = await asyncio.gather(once.answer(request(), work), once.answer(request(), work))
        assert both == [{"seat": 1, "call": 1}] * 2 and len(calls) == 1
        other = await once.answer(request(body=b'{"name": "Cy"}'), work)  # (another body: another request)
        assert other == {"seat": 1, "call": 2}

    asyncio.run(go())


def test_a_request_asked_again_while_the_first_is_cancelled_is_answered_anew():
    """The first's cancellation (the server stopping) was handed on to the one waiting for its answer,
    which nobody had cancelled."""
    async def go() -> None:
        once, started = AnsweredOnce(), asyncio.Event()

        async def stuck() -> dict[str, object]:
            started.set()
            await asyncio.sleep(60)
            return {"seat": 0}

        async def quick() -> dict[str, object]:
            return {"seat": 1}

        first = asyncio.ensure_future(once.answer(request(), stuck))
        await started.wait()
        second = asyncio.ensure_future(once.answer(request(), quick))
        await asyncio.sleep(0.01)  # (waiting for the first's answer)
        first.cancel()
        assert await second == {"seat": 1}
        with pytest.raises(asyncio.CancelledError):
            await first

    asyncio.run(go())
