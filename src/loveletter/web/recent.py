"""The limits per client address: how often each did a thing lately (made a table, named a code with
no table, took a seat)."""

from __future__ import annotations

import collections
import ipaddress
import time

from loveletter.web.table import Refused

#: How many client addresses the limits per address remember at most (see :class:`Recent`).
ADDRESSES_KEPT = 100_000


class Recent:
    """When each client address did a thing (made a table, named no table, took a seat) within the
    last ``seconds``. An address whose times are all older is forgotten; past :data:`ADDRESSES_KEPT`
    addresses, the longest idle are, so that many addresses cannot fill the memory."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.times: dict[str, collections.deque[float]] = {}

    def count(self, address: str) -> int:
        """How often ``address`` did it lately."""
        done = self.times.get(address)
        if done is None:
            return 0
        while done and done[0] <= time.monotonic() - self.seconds:
            done.popleft()
        if not done:
            del self.times[address]
        return len(done)

    def check(self, address: str, most: int, key: str) -> None:
        """:class:`Refused` (the message ``key``) for an ``address`` that did it ``most`` times lately,
        unless it is this machine's own (:func:`this_machine`)."""
        if self.count(address) >= most and not this_machine(address):
            raise Refused(key, most=most, minutes=round(self.seconds / 60))

    def note(self, address: str) -> None:
        """``address`` did it now. The addresses are kept in the order they last did it, so that the
        ones to forget are found at the front, never by a pass over them all."""
        done = self.times.pop(address, None)
        if done is None:
            while self.times and len(self.times) >= ADDRESSES_KEPT:
                first = next(iter(self.times))  # the longest idle: forgotten, whether its times are old or not
                del self.times[first]
            done = collections.deque()
        self.times[address] = done
        done.append(time.monotonic())


def this_machine(address: str) -> bool:
    """Whether a client ``address`` is this machine's own, held to no limit: its owner's, or a proxy's
    there that names its clients. Any loopback address (127.0.0.2 as well as 127.0.0.1, and ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # (an IPv6 network, or no address at all)
        return False
