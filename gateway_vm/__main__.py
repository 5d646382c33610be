"""`python -m gateway_vm`: run the gateway until SIGTERM/SIGINT, then flush the backlog and exit."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import discord

from kikimimi.logs import configure_logging
from kikimimi.settings import Settings

from .backlog import BacklogPublisher
from .gateway import Gateway

log = logging.getLogger("gateway_vm")
FLUSH_SECONDS = 20.0
INTENT_HELP = (
    "Discord refused the MESSAGE CONTENT intent (close 4014). Enable it for the bot: Discord Developer "
    "Portal → your application → Bot → Privileged Gateway Intents → MESSAGE CONTENT INTENT, then restart."
)


def build(settings: Settings) -> Gateway:
    from google.cloud import firestore

    from kikimimi.adapters.firestore import FirestoreStore
    from kikimimi.adapters.pubsub import PubSubPublisher, make_publisher_client

    if settings.discord_gateway_url or settings.discord_api_base != Settings().discord_api_base:
        from kikimimi.local.fake_discord import point_discord_py_at

        point_discord_py_at(settings.discord_api_base.rsplit("/api/", 1)[0])
    client = make_publisher_client(emulator=bool(os.environ.get("PUBSUB_EMULATOR_HOST")))
    publisher = PubSubPublisher(client, client.topic_path(settings.project, settings.pubsub_topic))
    store = FirestoreStore(firestore.Client(project=settings.project, database=settings.firestore_database))
    return Gateway(settings, BacklogPublisher(publisher, settings.gateway_backlog), store)


async def serve(gateway: Gateway, token: str) -> int:
    loop = asyncio.get_running_loop()
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
            log.error(INTENT_HELP)
            code = 2
        elif isinstance(exc, discord.LoginFailure):
            log.error("Discord rejected the token (DISCORD_TOKEN): %s", exc)
            code = 2
        else:
            log.error("gateway stopped: %r", exc)
            code = 1
    await gateway.close()
    stopper.cancel()
    # Flush what was received before exit so a deploy or preemption loses nothing it could send.
    flushed = await asyncio.to_thread(gateway.backlog.flush, FLUSH_SECONDS)
    return code if flushed else max(code, 1)


def main() -> int:
    configure_logging()
    settings = Settings.from_env()
    if not settings.discord_token:
        log.error("DISCORD_TOKEN is not set")
        return 2
    gateway = build(settings)
    return asyncio.run(serve(gateway, settings.discord_token))


if __name__ == "__main__":
    sys.exit(main())
