"""The rate limiter behind ``limit serve``'s limits, on a clock the test moves by hand."""

from __future__ import annotations

import pytest

from limitgames.web.limits import AddressBuckets, ServerLimits, TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_its_rate() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=2.0, capacity=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # 2 tokens a second: one more after half a second
    assert bucket.take() and not bucket.take()
    clock.now += 10  # never more than the capacity
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]


def test_reserve_says_how_long_to_wait() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=4.0, capacity=1, clock=clock)
    assert bucket.reserve() == 0.0  # the burst
    assert bucket.reserve() == pytest.approx(0.25)  # the next token in 1/4 s
    assert bucket.reserve() == pytest.approx(0.5)  # and the one after it, 1/4 s later
    clock.now += 0.5
    assert bucket.reserve() == pytest.approx(0.25)


def test_address_buckets_stay_bounded() -> None:
    clock = Clock()
    buckets = AddressBuckets(rate=1.0, capacity=2, max_addresses=3, clock=clock)
    for address in "abc":
        assert buckets.take(address)
    assert buckets.take("a") and not buckets.take("a")  # a's bucket is empty now
    clock.now += 1.0  # b and c are full again (1 + 1 token), a is not (0 + 1)
    assert buckets.take("d") and len(buckets) == 2  # the full ones were dropped, a kept
    assert buckets.take("a") and not buckets.take("a")  # a's one token: it was kept
    for address in "efgh":  # none is full: the least recently used goes
        buckets.take(address)
    assert len(buckets) == 3


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="send_queue"):
        ServerLimits(send_queue=0)
