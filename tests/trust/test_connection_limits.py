"""The per-address connection counter of senet.web.connections (the server test is
tests/web/test_slow_clients.py)."""

from __future__ import annotations

from typing import Any

from senet.web.connections import AddressCounter


class Transport:
    def __init__(self, address: str) -> None:
        self.address = address

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 40000) if name == "peername" else None


def test_the_cap_counts_open_connections_per_address() -> None:
    counter = AddressCounter(2, trusted="")
    first, second, third = (Transport("192.0.2.1") for _ in range(3))
    assert counter.admit(first) and counter.admit(second)
    assert not counter.admit(third)  # at the cap
    assert counter.admit(Transport("192.0.2.2"))  # another address has its own
    counter.release(first)
    counter.release(first)  # idempotent
    counter.release(third)  # never counted: nothing
    assert counter.open["192.0.2.1"] == 1
    assert counter.admit(third)
    assert not counter.admit(Transport("192.0.2.1"))


def test_trusted_proxies_and_no_cap_are_not_counted() -> None:
    proxy = AddressCounter(1, trusted="127.0.0.1, 10.0.0.0/8")
    for _ in range(5):
        assert proxy.admit(Transport("127.0.0.1")) and proxy.admit(Transport("10.1.2.3"))
    assert proxy.admit(Transport("192.0.2.1")) and not proxy.admit(Transport("192.0.2.1"))
    assert all(AddressCounter(1, trusted="*").admit(Transport("192.0.2.1")) for _ in range(3))
    assert all(AddressCounter(0).admit(Transport("192.0.2.1")) for _ in range(3))
