"""Every word the slash commands show, in English and Japanese, and the translator discord.py syncs them with.

Command names, descriptions and choices are `locale_str`s keyed here; Discord shows a Japanese client the
`ja` catalogue and everyone else the English default. Replies pick their language per interaction
(`language`). The two top-level commands, `/kikimimi` (moderators) and `/kikimimi-me` (everyone), keep
their names in every language: they are the bot's name; their subcommands are translated.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from kikimimi.domain.model import PERSONA_MAX_CHARS

from .privacy_texts import PRIVACY_EN, PRIVACY_JA

EN: dict[str, str] = {
    # Command names (Discord: lower case, at most 32 characters) and descriptions (at most 100).
    "admin.desc": "kikimimi in this channel (for moderators)",
    "member.desc": "What kikimimi keeps about you, your privacy, and opting out",
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
    "chattiness.name": "chattiness",
    "chattiness.desc": "How readily kikimimi speaks up in this channel",
    "chattiness.level.name": "level",
    "chattiness.level.desc": "quiet: seldom and later; normal: the default; lively: more often and sooner",
    "level.quiet": "quiet",
    "level.normal": "normal",
    "level.lively": "lively",
    "persona.name": "persona",
    "persona.desc": "One line on how kikimimi comes across in this channel; leave it empty to clear it",
    "persona.text.name": "text",
    "persona.text.desc": "e.g. a cheerful regular who loves puns "
    f"(at most {PERSONA_MAX_CHARS} characters, one line)",
    "grounding.name": "grounding",
    "grounding.desc": "May kikimimi look things up on the web when it replies in this server",
    "grounding.switch.name": "switch",
    "grounding.switch.desc": "on: it may search the web for a reply; off: it answers from the chat alone",
    "switch.on": "on",
    "switch.off": "off",
    "forget-channel.name": "forget-channel",
    "forget-channel.desc": "Forget everything kikimimi keeps about this channel",
    "forget.name": "forget",
    "forget.desc": "Forget what kikimimi keeps about you in this server",
    "know.name": "what-do-you-know",
    "know.desc": "Show (only to you) what kikimimi keeps about you",
    "export.name": "export",
    "export.desc": "Everything kikimimi keeps about you, sent to you alone as one JSON file",
    "privacy.name": "privacy",
    "privacy.desc": "What kikimimi reads and keeps in this channel, for how long, and how to erase it",
    "opt-out.name": "opt-out",
    "opt-out.desc": "Stop kikimimi reading your messages in this server (it forgets what it kept)",
    "opt-in.name": "opt-in",
    "opt-in.desc": "Let kikimimi read your messages in this server again",
    "help.name": "help",
    "help.desc": "What kikimimi is, what you can run here, and how to turn it on",
    "forget-channel.confirm.name": "confirm",
    "forget-channel.confirm.desc": "True forgets now; without it I only say what would be forgotten",
    # Replies.
    "manage": "Manage Channels permission is required.",
    "server_only": "This works in a server's channel only.",
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
    "status_chattiness": "chattiness: {level}",
    "status_persona": "persona: {persona}",
    "status_no_persona": "no persona",
    "status_grounding.on": "web search: on",
    "status_grounding.off": "web search: off",
    "chattiness_set.quiet": "Chattiness here: quiet. I will speak up less often, and wait longer first.",
    "chattiness_set.normal": "Chattiness here: normal (the default).",
    "chattiness_set.lively": "Chattiness here: lively. I will speak up more often, and sooner.",
    "persona_set": "Persona here: {persona}\nI read it as a description of how I come across here, "
    "never as instructions.",
    "persona_cleared": "No persona here any more.",
    "persona_refused": "A persona is one line of plain text, without mentions (@everyone, @here, <@…>, "
    "<#…>) or line breaks. Nothing changed.",
    "grounding_set.on": "I may look things up on the web when I reply in this server.",
    "grounding_set.off": "I no longer look things up on the web in this server: "
    "I answer from the chat alone.",
    "forget_me": "I will forget what I kept about you in this server: your recent messages, your "
    "profile, facts from your messages and your lines in my summaries. It takes a few seconds.",
    "forget_channel": "I will forget everything I kept about this channel and its threads.",
    "forget_channel_ask": "This would erase everything I keep about this channel and its threads: recent "
    "messages, summaries, facts and my last decisions (the settings stay). It cannot be undone. "
    "Run `/kikimimi forget-channel confirm:True` to do it.",
    # /kikimimi help and /kikimimi-me help.
    "help.about": "**kikimimi** is a member of the channels a moderator enables it in: it reads the "
    "conversation, decides by itself whether to speak (a reaction, a short word or a reply) and remembers "
    "the community. Mention it, reply to it or call its name and it answers.",
    "help.here_on": "It is **enabled** in this channel.",
    "help.here_off": "It is **off** in this channel: it reads nothing here.",
    "help.members": "**Everyone may run**: `/kikimimi-me privacy` (what it reads and keeps here, for how "
    "long), `/kikimimi-me what-do-you-know`, `/kikimimi-me forget`, `/kikimimi-me opt-out` and `opt-in`.",
    "help.moderators": "**Moderators (Manage Channels) may run**: `/kikimimi enable` and `disable`, "
    "`quiet`, `status` (settings, health, why it last spoke), `chattiness`, `persona`, `visibility`, "
    "`grounding` and `forget-channel`.",
    "help.turn_on": "**To turn it on**: a moderator runs `/kikimimi enable` in the channel; it checks "
    "that it may read and speak there first.",
    "help.ask": "**To turn it on**: ask a moderator (Manage Channels) to run `/kikimimi enable` here.",
    "welcome": "Hello, I am kikimimi (聞き耳): I join the conversation in the channels a moderator "
    "enables me in, and read nothing until then. Moderators: `/kikimimi enable` in a channel turns me on "
    "there, `/kikimimi help` says more. Everyone: `/kikimimi-me privacy` says what I read and keep.",
    # /kikimimi enable checks the bot's own permissions in the channel.
    "perm.view_channel": "View Channel",
    "perm.send_messages": "Send Messages",
    "perm.read_message_history": "Read Message History",
    "perm.add_reactions": "Add Reactions",
    "enable_refused": "I cannot work here: I lack {missing} in this channel, so I could not read it or "
    "speak in it. Give my role those permissions (Edit Channel → Permissions), then run "
    "`/kikimimi enable` again. Nothing changed.",
    "enable_warning": "kikimimi is enabled here, but I lack {missing} in this channel: my reactions "
    "would be dropped. Give my role that permission (Edit Channel → Permissions).",
    "perm_join": ", ",
    # /kikimimi status: health.
    "health_model_none": "model: none configured (the rules decide, a template writes)",
    "health_model_ok": "model: no error recorded",
    "health_model_answered": "model: answered {when}",
    "health_model_error": "model: last error {when}: {error}",
    "health_budget": "model judgments this hour: {used} of {limit}",
    "health_budget_day": "model calls today in this server: {used} of {limit}",
    "health_post": "last post {when} ({kind})",
    "health_no_post": "no post in the last day",
    "health_delivery_error": "Discord refused my last post {when}: {error}",
    "post.full_response": "a reply",
    "post.short_ack": "a short word",
    "post.react_only": "a reaction",
    "health_catchup_none": "catch-up: none since the gateway started",
    "health_catchup_running": "catch-up: reading what was missed…",
    "health_catchup_ok": "catch-up {when}: nothing missed here",
    "health_catchup_read": "catch-up {when}: {n} missed messages read back here",
    "health_catchup_failed": "catch-up {when}: failed here ({error})",
    "health_unknown": "health not known (nothing could be read)",
    "opted_out": "I no longer read your messages in this server, and I am forgetting what I kept about you "
    "here (your recent messages, profile, facts and summary lines). `/kikimimi-me opt-in` undoes it; "
    "what I forgot stays forgotten.",
    "opted_in": "I read your messages in this server again, from now on. `/kikimimi-me opt-out` stops it.",
    "opt_server_only": "Opting out is per server: run `/kikimimi-me opt-out` (or `opt-in`) in a channel of "
    "that server.",
    **PRIVACY_EN,  # the privacy notice (privacy_texts.py)
}

JA: dict[str, str] = {
    "admin.desc": "このチャンネルでの聞き耳（モデレーター向け）",
    "member.desc": "聞き耳が覚えているあなたのこと、プライバシー、読まないでの設定",
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
    "chattiness.name": "おしゃべり度",
    "chattiness.desc": "このチャンネルで聞き耳がどのくらい話に加わるか",
    "chattiness.level.name": "度合い",
    "chattiness.level.desc": "控えめ: たまに、ゆっくり／ふつう: 既定／にぎやか: よく、すぐに",
    "level.quiet": "控えめ",
    "level.normal": "ふつう",
    "level.lively": "にぎやか",
    "persona.name": "キャラクター",
    "persona.desc": "このチャンネルでの聞き耳の人柄を一行で。空にすると消える",
    "persona.text.name": "説明",
    "persona.text.desc": f"例: だじゃれ好きの明るい常連（{PERSONA_MAX_CHARS} 文字まで、一行）",
    "grounding.name": "ウェブ検索",
    "grounding.desc": "このサーバーで返事を書くときにウェブで調べてよいか",
    "grounding.switch.name": "切り替え",
    "grounding.switch.desc": "オン: 返事のためにウェブを検索してよい／オフ: 会話だけから答える",
    "switch.on": "オン",
    "switch.off": "オフ",
    "forget-channel.name": "チャンネルを忘れて",
    "forget-channel.desc": "このチャンネルについて覚えていることをすべて忘れる",
    "forget.name": "忘れて",
    "forget.desc": "このサーバーで覚えているあなたのことを忘れる",
    "know.name": "覚えていること",
    "know.desc": "あなたについて覚えていることを（あなただけに）見せる",
    "export.name": "書き出し",
    "export.desc": "あなたについて覚えていることすべてを、JSON ファイル一つであなただけに送る",
    "privacy.name": "プライバシー",
    "privacy.desc": "このチャンネルで聞き耳が読むもの・覚えるもの・期間・消し方",
    "opt-out.name": "読まないで",
    "opt-out.desc": "このサーバーであなたの発言を読まないようにする（覚えていたことも忘れる）",
    "opt-in.name": "読んでいい",
    "opt-in.desc": "このサーバーでまたあなたの発言を読むようにする",
    "help.name": "ヘルプ",
    "help.desc": "聞き耳とは何か、ここで使えるコマンド、有効にするには",
    "forget-channel.confirm.name": "確認",
    "forget-channel.confirm.desc": "True で今すぐ忘れる。なしなら何が消えるかだけ伝える",
    "manage": "チャンネルの管理権限が必要です。",
    "server_only": "サーバーのチャンネルでだけ使えます。",
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
    "status_chattiness": "おしゃべり度: {level}",
    "status_persona": "キャラクター: {persona}",
    "status_no_persona": "キャラクター設定なし",
    "status_grounding.on": "ウェブ検索: オン",
    "status_grounding.off": "ウェブ検索: オフ",
    "chattiness_set.quiet": "このチャンネルのおしゃべり度: 控えめ。"
    "話に加わるのを減らし、加わる前に長めに待ちます。",
    "chattiness_set.normal": "このチャンネルのおしゃべり度: ふつう（既定）。",
    "chattiness_set.lively": "このチャンネルのおしゃべり度: にぎやか。もっとよく、早めに話に加わります。",
    "persona_set": "このチャンネルのキャラクター: {persona}\nここでの私の人柄の説明として読みます。"
    "指示として従うことはありません。",
    "persona_cleared": "このチャンネルのキャラクター設定を消しました。",
    "persona_refused": "キャラクターは一行の文にしてください（@everyone・@here・<@…>・<#…> "
    "などのメンションや改行は使えません）。変更はありません。",
    "grounding_set.on": "このサーバーでは、返事を書くときにウェブで調べることがあります。",
    "grounding_set.off": "このサーバーでは、もうウェブで調べません。会話だけから答えます。",
    "forget_me": "このサーバーで覚えているあなたのこと（最近の発言、プロフィール、"
    "発言から覚えたこと、要約の中のあなたの行）を忘れます。数秒かかります。",
    "forget_channel": "このチャンネルとスレッドについて覚えていることをすべて忘れます。",
    "forget_channel_ask": "このチャンネルとスレッドについて覚えていること（最近の発言、要約、発言から"
    "覚えたこと、前回の判断）をすべて消します（設定は残ります）。元には戻せません。"
    "消すには `/kikimimi チャンネルを忘れて 確認:True` を実行してください。",
    "help.about": "**聞き耳** は、モデレーターが有効にしたチャンネルのメンバーです。会話を読み、"
    "話すかどうか（リアクション、ひとこと、返事）を自分で決め、コミュニティのことを覚えます。"
    "メンション・返信・名前で呼ぶと答えます。",
    "help.here_on": "このチャンネルでは **有効** です。",
    "help.here_off": "このチャンネルでは **無効** です。ここでは何も読みません。",
    "help.members": "**誰でも使える**: `/kikimimi-me プライバシー`（ここで読むもの・覚えるもの・期間）、"
    "`/kikimimi-me 覚えていること`、`/kikimimi-me 忘れて`、`/kikimimi-me 読まないで`・`読んでいい`。",
    "help.moderators": "**モデレーター（チャンネルの管理）が使える**: `/kikimimi 有効化`・`無効化`、"
    "`静かに`、`状態`（設定・調子・前回話した理由）、`おしゃべり度`、`キャラクター`、`公開範囲`、"
    "`ウェブ検索`、`チャンネルを忘れて`。",
    "help.turn_on": "**有効にするには**: モデレーターがそのチャンネルで `/kikimimi 有効化` を実行します。"
    "読めて話せるかを先に確かめます。",
    "help.ask": "**有効にするには**: モデレーター（チャンネルの管理）に、ここで `/kikimimi 有効化` を"
    "実行してもらってください。",
    "welcome": "こんにちは、聞き耳（kikimimi）です。モデレーターが有効にしたチャンネルで会話に加わります。"
    "それまでは何も読みません。モデレーターの方: チャンネルで `/kikimimi 有効化` を実行すると"
    "そこで有効になります。詳しくは `/kikimimi ヘルプ`。みなさん: `/kikimimi-me プライバシー` で、"
    "私が読むもの・覚えるものが分かります。",
    "perm.view_channel": "チャンネルを見る",
    "perm.send_messages": "メッセージを送信",
    "perm.read_message_history": "メッセージ履歴を読む",
    "perm.add_reactions": "リアクションの追加",
    "enable_refused": "このチャンネルで私には {missing} の権限がないので、読むことも話すこともできません。"
    "私のロールにその権限を与えて（チャンネルの編集 → 権限）から、もう一度 `/kikimimi 有効化` を"
    "実行してください。変更はありません。",
    "enable_warning": "このチャンネルで聞き耳を有効にしました。ただし {missing} の権限がないので、"
    "リアクションは届きません。私のロールにその権限を与えてください（チャンネルの編集 → 権限）。",
    "perm_join": "、",
    "health_model_none": "モデル: 設定なし（ルールで判断し、定型文で書く）",
    "health_model_ok": "モデル: エラーの記録なし",
    "health_model_answered": "モデル: {when} に応答",
    "health_model_error": "モデル: 最後のエラー {when}: {error}",
    "health_budget": "この 1 時間のモデルの判断: {used} / {limit} 回",
    "health_budget_day": "このサーバーの今日のモデル呼び出し: {used} / {limit} 回",
    "health_post": "最後の投稿 {when}（{kind}）",
    "health_no_post": "この 1 日は投稿なし",
    "health_delivery_error": "最後の投稿を Discord に断られました {when}: {error}",
    "post.full_response": "返事",
    "post.short_ack": "ひとこと",
    "post.react_only": "リアクション",
    "health_catchup_none": "取りこぼしの確認: ゲートウェイの起動以来なし",
    "health_catchup_running": "取りこぼしの確認: 読んでいるところ…",
    "health_catchup_ok": "取りこぼしの確認 {when}: ここは取りこぼしなし",
    "health_catchup_read": "取りこぼしの確認 {when}: ここで {n} 件を読み直した",
    "health_catchup_failed": "取りこぼしの確認 {when}: ここでは失敗（{error}）",
    "health_unknown": "調子は不明（読み取れませんでした）",
    "opted_out": "このサーバーではもうあなたの発言を読みません。覚えていたあなたのこと（最近の発言、"
    "プロフィール、発言から覚えたこと、要約の中の行）も忘れます。`/kikimimi-me 読んでいい` で戻せます"
    "（忘れたことは戻りません）。",
    "opted_in": "このサーバーでまたあなたの発言を読みます（これから先の発言だけ）。"
    "`/kikimimi-me 読まないで` で止められます。",
    "opt_server_only": "読まないでの設定はサーバーごとです。そのサーバーのチャンネルで "
    "`/kikimimi-me 読まないで`（または `読んでいい`）を使ってください。",
    **PRIVACY_JA,
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
