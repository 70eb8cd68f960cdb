"""The Redis broker against a real Redis: delivery across brokers, backoff, reconnect and resync."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from app.realtime.broker import BrokerConfigError, MemoryBroker, make_broker
from app.realtime.redis_broker import RedisBroker, backoff


class Recorder:
    """Stands in for the hub: what was delivered, and how many resyncs were asked for."""

    def __init__(self) -> None:
        self.delivered: list[tuple[str, int]] = []
        self.resyncs = 0

    async def deliver(self, campaign_id: str, seq: int, here: bool = False) -> None:
        self.delivered.append((campaign_id, seq))

    async def resync(self) -> None:
        self.resyncs += 1


async def eventually(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the condition never came true"
        await asyncio.sleep(0.02)


def test_backoff_grows_is_capped_and_jittered():
    rng = random.Random(7)
    delays = [backoff(n, 0.1, 2.0, rng) for n in range(12)]
    for n, delay in enumerate(delays):
        ceiling = min(2.0, 0.1 * 2**n)
        assert ceiling / 2 <= delay <= ceiling
    assert max(delays) <= 2.0
    assert delays[-1] >= 1.0  # reaches the cap's range and stays there
    assert len({round(d, 6) for d in delays[6:]}) > 1  # jittered, not one fixed value
    assert backoff(10_000, 0.1, 2.0, rng) <= 2.0  # no overflow however long Redis stays away


def test_broker_urls_choose_the_broker_and_bad_ones_are_sentences():
    assert isinstance(make_broker("memory://"), MemoryBroker)
    assert isinstance(make_broker("redis://127.0.0.1:6379/0"), RedisBroker)
    for url, says in [
        ("kafka://user:secret@host/", "is not a broker this version of Fray knows"),
        ("redis://host:notaport/0", "is not a Redis URL Fray can use"),
    ]:
        with pytest.raises(BrokerConfigError) as error:
            make_broker(url)
        assert says in str(error.value) and "secret" not in str(error.value)


def test_two_brokers_carry_a_seq_from_one_to_the_other(redis_url):
    async def scenario():
        one, two = Recorder(), Recorder()
        first, second = (
            RedisBroker(redis_url, channel="fray:test-a"),
            RedisBroker(redis_url, channel="fray:test-a"),
        )
        await first.start(one.deliver, one.resync)
        await second.start(two.deliver, two.resync)
        try:
            assert first.connected.is_set() and second.connected.is_set()
            await first.publish("campaign-1", 7)
            await eventually(
                lambda: ("campaign-1", 7) in two.delivered and ("campaign-1", 7) in one.delivered
            )
            assert one.resyncs == two.resyncs == 1  # once, on the first subscription
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(scenario())


def test_after_a_redis_restart_it_reconnects_with_backoff_and_resyncs(own_redis):
    async def scenario():
        hub, other = Recorder(), Recorder()
        broker = RedisBroker(own_redis.url, base_delay=0.05, max_delay=0.4)
        publisher = RedisBroker(own_redis.url, base_delay=0.05, max_delay=0.4)
        await broker.start(hub.deliver, hub.resync)
        await publisher.start(other.deliver, other.resync)
        try:
            assert hub.resyncs == 1
            await asyncio.to_thread(own_redis.stop)
            await eventually(lambda: not broker.connected.is_set())

            # Publishing while Redis is down neither raises nor hangs: this process hears it at once.
            began = time.monotonic()
            await publisher.publish("campaign-2", 3)
            assert time.monotonic() - began < 2
            assert ("campaign-2", 3) in other.delivered
            assert ("campaign-2", 3) not in hub.delivered  # lost for the other process, for now

            # Reconnect attempts back off: growing, capped, jittered.
            await eventually(lambda: len(broker.delays) >= 6)
            delays = list(broker.delays)
            for n, delay in enumerate(delays[:6]):
                ceiling = min(0.4, 0.05 * 2**n)
                assert ceiling / 2 <= delay <= ceiling, delays
            assert delays[5] > delays[0]

            await asyncio.to_thread(own_redis.start)
            # Back: the hub is asked to resync (that is how campaign-2 seq 3 reaches its sockets)...
            await eventually(lambda: hub.resyncs == 2 and broker.connected.is_set())
            # ...and messages flow again.
            await eventually(lambda: publisher.connected.is_set())
            await publisher.publish("campaign-2", 4)
            await eventually(lambda: ("campaign-2", 4) in hub.delivered)
            assert other.resyncs == 2
        finally:
            await broker.stop()
            await publisher.stop()

    asyncio.run(scenario())


def test_a_broker_started_before_redis_connects_when_it_comes(own_redis):
    async def scenario():
        await asyncio.to_thread(own_redis.stop)
        hub = Recorder()
        broker = RedisBroker(own_redis.url, base_delay=0.05, max_delay=0.2)
        began = time.monotonic()
        await broker.start(hub.deliver, hub.resync)  # waits a little, then goes on without Redis
        assert time.monotonic() - began < 5
        try:
            assert not broker.connected.is_set()
            await asyncio.to_thread(own_redis.start)
            await eventually(lambda: broker.connected.is_set() and hub.resyncs == 1)
            await broker.publish("campaign-3", 1)
            await eventually(lambda: ("campaign-3", 1) in hub.delivered)
        finally:
            await broker.stop()

    asyncio.run(scenario())
