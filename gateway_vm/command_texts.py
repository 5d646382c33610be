"""Every word the slash commands show, in English and Japanese, and the translator discord.py syncs them with.

Command names, descriptions and choices are `locale_str`s keyed here; Discord shows a Japanese client the
`ja` catalogue and everyone else the English default. Replies pick their language per interaction
(`language`). The group keeps its one name, `/kikimimi`, in every language: it is the bot's name.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

EN: dict[str, str] = {
    # Command names (Discord: lower case, at most 32 characters) and descriptions (at most 100).
    "group.desc": "kikimimi in this channel",
    "enable.name": "enable",
    "enable.desc": "Let kikimimi listen and speak in this channel",
    "disable.name": "disable",
    "disable.desc": "Stop kikimimi listening in this channel",
    "quiet.name": "quiet",
    "quiet.desc": "Be quiet here for a while (mentions are still answered); 0 minutes ends it",
    "quiet.minutes.name": "minutes",
    "quiet.minutes.desc": "How long, in minutes (default 60); 0 ends a quiet period now",
    "visibility.name": "visibility",
    "visibility.desc": "Who may hear what kikimimi remembers from this channel",
    "visibility.mode.name": "mode",
    "visibility.mode.desc": "private: memory stays here; public: it may reach other channels; "
    "auto: Discord decides",
    "choice.public": "public",
    "choice.private": "private",
    "choice.auto": "auto",
    "status.name": "status",
    "status.desc": "kikimimi's settings here, and why it last spoke or stayed silent",
    "forget.name": "forget",
    "forget.desc": "Make kikimimi forget",
    "forget.me.name": "me",
    "forget.me.desc": "Forget what kikimimi keeps about you in this server",
    "forget.channel.name": "channel",
    "forget.channel.desc": "Forget everything kikimimi keeps about this channel",
    "know.name": "what-do-you-know",
    "know.desc": "Show (only to you) what kikimimi keeps about you",
    # Replies.
    "manage": "Manage Channels permission is required.",
    "enabled": "kikimimi is enabled here.",
    "disabled": "kikimimi is disabled here.",
    "quiet_until": "Quiet until {time}; mentions are still answered. "
    "`/kikimimi quiet minutes:0` ends it early.",
    "quiet_ended": "The quiet period is over: I may speak here again.",
    "quiet_none": "I was not quiet here; nothing changed.",
    "memory_private": "memory stays in this channel",
    "memory_public": "memory may be used in every channel",
    "why_moderator": "set by a moderator ({mode})",
    "why_unknown": "Discord permissions not known yet: private until they are",
    "why_discord_private": "from Discord permissions (@everyone cannot view)",
    "why_discord_public": "from Discord permissions (@everyone can view)",
    "status_on": "enabled here",
    "status_off": "disabled here",
    "status_quiet": "quiet until {time}",
    "status_not_quiet": "not quiet",
    "forget_me": "I will forget what I kept about you in this server: your recent messages, your "
    "profile, facts from your messages and your lines in my summaries. It takes a few seconds.",
    "forget_channel": "I will forget everything I kept about this channel and its threads.",
    "nothing": "I keep nothing about you in this server.",
    "head": "What I keep about you in this server:",
    "profile": "profile: {exchanges} exchanges with me, last topic: {topic}",
    "buffered": "recent messages (kept {minutes} min): {n}",
    "facts": "facts from your messages ({n}):",
    "lines": "lines of yours in my summaries (kept 7 days): {n}",
    "hint": "`/kikimimi forget me` removes all of it.",
}

JA: dict[str, str] = {
    "group.desc": "このチャンネルでの聞き耳",
    "enable.name": "有効化",
    "enable.desc": "このチャンネルで聞き耳が聞いて話せるようにする",
    "disable.name": "無効化",
    "disable.desc": "このチャンネルで聞き耳を止める",
    "quiet.name": "静かに",
    "quiet.desc": "しばらく黙る（メンションには答える）。0 分で終わる",
    "quiet.minutes.name": "分",
    "quiet.minutes.desc": "何分間か（既定 60）。0 で今すぐ終える",
    "visibility.name": "公開範囲",
    "visibility.desc": "このチャンネルで覚えたことを誰が聞けるか",
    "visibility.mode.name": "モード",
    "visibility.mode.desc": "非公開: ここだけ／公開: 他のチャンネルでも／自動: Discord の権限で決める",
    "choice.public": "公開",
    "choice.private": "非公開",
    "choice.auto": "自動",
    "status.name": "状態",
    "status.desc": "このチャンネルの設定と、前回話した・黙った理由",
    "forget.name": "忘れて",
    "forget.desc": "聞き耳に忘れさせる",
    "forget.me.name": "私のこと",
    "forget.me.desc": "このサーバーで覚えているあなたのことを忘れる",
    "forget.channel.name": "このチャンネル",
    "forget.channel.desc": "このチャンネルについて覚えていることをすべて忘れる",
    "know.name": "覚えていること",
    "know.desc": "あなたについて覚えていることを（あなただけに）見せる",
    "manage": "チャンネルの管理権限が必要です。",
    "enabled": "このチャンネルで聞き耳を有効にしました。",
    "disabled": "このチャンネルで聞き耳を無効にしました。",
    "quiet_until": "{time} まで静かにします（メンションには答えます）。"
    "`/kikimimi 静かに 分:0` で早めに終わります。",
    "quiet_ended": "静かにする時間を終えました。また話すことがあります。",
    "quiet_none": "静かにしていませんでした。変更はありません。",
    "memory_private": "覚えたことはこのチャンネルの中だけ",
    "memory_public": "覚えたことは他のチャンネルでも使う",
    "why_moderator": "モデレーターが設定（{mode}）",
    "why_unknown": "Discord の権限がまだ分からないので、分かるまでは非公開",
    "why_discord_private": "Discord の権限から（@everyone は見られない）",
    "why_discord_public": "Discord の権限から（@everyone が見られる）",
    "status_on": "このチャンネルで有効",
    "status_off": "このチャンネルで無効",
    "status_quiet": "{time} まで静か",
    "status_not_quiet": "静かにしていない",
    "forget_me": "このサーバーで覚えているあなたのこと（最近の発言、プロフィール、"
    "発言から覚えたこと、要約の中のあなたの行）を忘れます。数秒かかります。",
    "forget_channel": "このチャンネルとスレッドについて覚えていることをすべて忘れます。",
    "nothing": "このサーバーであなたについて覚えていることはありません。",
    "head": "このサーバーであなたについて覚えていること:",
    "profile": "プロフィール: 私とのやりとり {exchanges} 回、最近の話題: {topic}",
    "buffered": "最近の発言（{minutes} 分保持）: {n} 件",
    "facts": "発言から覚えたこと（{n} 件）:",
    "lines": "要約に残るあなたの行（7 日保持）: {n} 件",
    "hint": "`/kikimimi 忘れて 私のこと` ですべて消せます。",
}

CATALOGUES = {"en": EN, "ja": JA}
LANGUAGES = tuple(CATALOGUES)


def ls(key: str) -> app_commands.locale_str:
    """A command string: the English text is Discord's default, the key finds its translations."""
    return app_commands.locale_str(EN[key], key=key)


def say(lang: str, key: str, **values: Any) -> str:
    """A reply in `lang` (en or ja)."""
    return CATALOGUES.get(lang, EN)[key].format(**values)


def _spoken(locale: object) -> str | None:
    value = str(locale or "")  # discord.Locale's str is its code: "ja", "en-US", "fr"
    if value.startswith("ja"):
        return "ja"
    return "en" if value.startswith("en") else None


def language(interaction: discord.Interaction, default: str) -> str:
    """The server's language when it is one we speak (the issue's rule for every reply), else the
    caller's, else BOT_LANGUAGE."""
    for locale in (interaction.guild_locale, interaction.locale):
        spoken = _spoken(locale)
        if spoken is not None:
            return spoken
    return "ja" if default == "ja" else "en"


class Translator(app_commands.Translator):
    """Japanese clients see the `ja` catalogue; every other locale the English default (None)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.japanese:
            return None
        key = string.extras.get("key")
        return JA.get(key) if isinstance(key, str) else None
