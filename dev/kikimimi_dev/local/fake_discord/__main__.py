"""Run the fake Discord on its own: `python -m kikimimi_dev.local.fake_discord [--guilds N]`."""

from __future__ import annotations

import argparse
import contextlib
import threading

from kikimimi_dev.local.fake_discord.server import FakeDiscord


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--guilds", type=int, default=1)
    parser.add_argument("--token", default=None, help="accept only this bot token (default: any)")
    args = parser.parse_args()
    with FakeDiscord(token=args.token, guilds=args.guilds) as fake:
        print(f"DISCORD_API_BASE={fake.api_base}")
        print(f"gateway: {fake.gateway_url}")
        print(f"bot {fake.bot.id}, guild {fake.guild.id}, channel #general {fake.channel.id}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
