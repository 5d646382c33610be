"""The gateway's heartbeat: a log line a minute while Discord is connected (its absence pages)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("gateway_vm.gateway")  # the heartbeat is the gateway's own log line
HEARTBEAT_SECONDS = 60.0


async def beat(gateway: Any) -> None:
    """A heartbeat log line while Discord is connected; one warning when it is not."""
    # The 'gateway silent' alert fires when heartbeats stop: a process that lost Discord (and hears
    # nothing) must not keep it quiet.
    told = True  # the current outage was logged (before the first READY there is none to tell)
    while not gateway.is_closed():
        if gateway.connected():
            told = False
            log.info(
                {
                    "event": "gateway_heartbeat",
                    "guilds": len(gateway.guilds),
                    "latency_ms": _ms(gateway.latency),
                    "backlog": gateway.backlog.backlog,
                    "published": gateway.backlog.published,
                    "dropped": gateway.backlog.dropped,
                    "received": gateway.admission.received,
                    "ignored": gateway.admission.ignored,
                }
            )
        elif not told:
            told = True
            log.warning(
                "Discord gateway connection down (%d of %d shards closed): no heartbeat until it is back",
                sum(shard.is_closed() for shard in gateway.shards.values()),
                len(gateway.shards),
                extra={"event": "gateway_disconnected"},
            )
        await asyncio.sleep(HEARTBEAT_SECONDS)


def _ms(seconds: float) -> float | None:
    return None if seconds != seconds or seconds == float("inf") else round(seconds * 1000, 1)
