"""Cloud Tasks queue defaults and the retry policy (backoff schedule and when to give up)."""

from __future__ import annotations

from dataclasses import dataclass

from google.cloud import tasks_v2
from google.protobuf import duration_pb2

# The values Cloud Tasks picks for fields left unset when a queue is created.
DEFAULT_MAX_ATTEMPTS = 100
DEFAULT_MIN_BACKOFF_S = 0.1
DEFAULT_MAX_BACKOFF_S = 3600.0
DEFAULT_MAX_DOUBLINGS = 16
DEFAULT_MAX_DISPATCHES_PER_SECOND = 500.0
DEFAULT_MAX_BURST_SIZE = 100
DEFAULT_MAX_CONCURRENT_DISPATCHES = 1000


def _seconds(d: duration_pb2.Duration) -> float:
    return d.seconds + d.nanos / 1e9


def _set_seconds(d: duration_pb2.Duration, seconds: float) -> None:
    d.FromNanoseconds(round(seconds * 1e9))


@dataclass(frozen=True)
class RetryPolicy:
    """The effective retry settings of a task: its own retry_config, else its queue's."""

    max_attempts: int = DEFAULT_MAX_ATTEMPTS  # -1 = unlimited
    max_retry_duration_s: float = 0.0  # 0 = unlimited
    min_backoff_s: float = DEFAULT_MIN_BACKOFF_S
    max_backoff_s: float = DEFAULT_MAX_BACKOFF_S
    max_doublings: int = DEFAULT_MAX_DOUBLINGS

    @classmethod
    def of(cls, config: tasks_v2.RetryConfig, fallback: RetryPolicy | None = None) -> RetryPolicy:
        """Read a RetryConfig; zero/unset fields fall back (proto3 cannot tell 0 from unset)."""
        base = fallback or cls()
        pb = tasks_v2.RetryConfig.pb(config)
        return cls(
            max_attempts=pb.max_attempts or base.max_attempts,
            max_retry_duration_s=(
                _seconds(pb.max_retry_duration)
                if pb.HasField("max_retry_duration")
                else base.max_retry_duration_s
            ),
            min_backoff_s=_seconds(pb.min_backoff) if pb.HasField("min_backoff") else base.min_backoff_s,
            max_backoff_s=_seconds(pb.max_backoff) if pb.HasField("max_backoff") else base.max_backoff_s,
            max_doublings=pb.max_doublings or base.max_doublings,
        )

    def backoff_s(self, failures: int) -> float:
        """Delay before the next attempt after `failures` failed ones: doubling, then linear, capped."""
        i = max(failures - 1, 0)
        if i <= self.max_doublings:
            delay = self.min_backoff_s * 2**i
        else:
            delay = self.min_backoff_s * 2**self.max_doublings * (i - self.max_doublings + 1)
        return min(delay, self.max_backoff_s)

    def exhausted(self, attempts: int, age_s: float) -> bool:
        """Give up only when every configured limit (attempts, age since first try) is reached."""
        limits = []
        if self.max_attempts >= 0:
            limits.append(attempts >= self.max_attempts)
        if self.max_retry_duration_s > 0:
            limits.append(age_s >= self.max_retry_duration_s)
        return bool(limits) and all(limits)


def with_defaults(queue: tasks_v2.Queue) -> tasks_v2.Queue:
    """A copy of the queue as Cloud Tasks reports it after creation: unset limits filled, RUNNING."""
    queue = tasks_v2.Queue.deserialize(tasks_v2.Queue.serialize(queue))
    pb = tasks_v2.Queue.pb(queue)
    policy = RetryPolicy.of(queue.retry_config)
    retry = pb.retry_config
    retry.max_attempts = policy.max_attempts
    retry.max_doublings = policy.max_doublings
    _set_seconds(retry.min_backoff, policy.min_backoff_s)
    _set_seconds(retry.max_backoff, policy.max_backoff_s)
    _set_seconds(retry.max_retry_duration, policy.max_retry_duration_s)
    rate = pb.rate_limits
    rate.max_dispatches_per_second = rate.max_dispatches_per_second or DEFAULT_MAX_DISPATCHES_PER_SECOND
    rate.max_burst_size = rate.max_burst_size or DEFAULT_MAX_BURST_SIZE
    rate.max_concurrent_dispatches = rate.max_concurrent_dispatches or DEFAULT_MAX_CONCURRENT_DISPATCHES
    if pb.state == tasks_v2.Queue.State.STATE_UNSPECIFIED:
        pb.state = tasks_v2.Queue.State.RUNNING
    return queue
