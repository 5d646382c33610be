"""`python -m gateway_vm`: run the gateway until SIGTERM/SIGINT, then flush the backlog and exit."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord

from kikimimi.logs import configure_logging
from kikimimi.settings import Settings

from .backlog import BacklogPublisher
from .endpoints import point_discord_py_at
from .gateway import Gateway

log = logging.getLogger("gateway_vm")
FLUSH_SECONDS = 20.0
INTENT_HELP = (
    "Discord refused the MESSAGE CONTENT intent (close 4014). Enable it for the bot: Discord Developer "
    "Portal → your application → Bot → Privileged Gateway Intents → MESSAGE CONTENT INTENT, then restart."
)


def build(settings: Settings) -> Gateway:
    """The gateway with its Publisher and StorePorts from the one composition root."""
    from kikimimi import bootstrap

    if settings.discord_gateway_url or settings.discord_api_base != Settings().discord_api_base:
        point_discord_py_at(settings.discord_api_base.rsplit("/api/", 1)[0])
    publisher = bootstrap.build_publisher(settings)
    backlog = BacklogPublisher(publisher, settings.gateway_backlog)
    return Gateway(settings, backlog, bootstrap.build_store_ports(settings))


async def serve(gateway: Gateway, token: str, stop: asyncio.Event | None = None) -> int:
    """Run until `stop` is set (SIGTERM/SIGINT set it) or the connection ends; then hand on everything
    received, save the marks and return the exit code."""
    loop = asyncio.get_running_loop()
    if stop is None:
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(gateway.start(token))
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    code = 0
    if runner in done and runner.exception() is not None:
        exc = runner.exception()
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            log.error(INTENT_HELP, extra={"event": "gateway_intents_refused"})
            code = 2
        elif isinstance(exc, discord.LoginFailure):
            log.error(
                "Discord rejected the token (DISCORD_TOKEN): %s",
                exc,
                extra={"event": "gateway_token_rejected"},
            )
            code = 2
        else:
            log.error("gateway stopped: %r", exc, extra={"event": "gateway_stopped"})
            code = 1
    # close() also decides the envelopes still waiting for their channel's settings: into the backlog.
    await gateway.close()
    stopper.cancel()
    # Flush what was received before exit so a deploy or preemption loses nothing it could send.
    flushed = await asyncio.to_thread(gateway.backlog.flush, FLUSH_SECONDS)
    # After the flush: what it published moved the marks, and the next start's catch-up begins there.
    await gateway.save_marks()
    return code if flushed else max(code, 1)


def main() -> int:
    configure_logging()
    settings = Settings.from_env()
    if not settings.discord_token:
        log.error("DISCORD_TOKEN is not set", extra={"event": "gateway_token_missing"})
        return 2
    gateway = build(settings)
    return asyncio.run(serve(gateway, settings.discord_token))


if __name__ == "__main__":
    sys.exit(main())
