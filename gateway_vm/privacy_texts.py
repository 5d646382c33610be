"""The privacy notice's words, en and ja (privacy.py puts them together; command_texts.py serves them)."""

PRIVACY_EN: dict[str, str] = {
    "privacy.title": "**Privacy: kikimimi in this channel**",
    "privacy.title_general": "**Privacy: what kikimimi reads and keeps**",
    "privacy.reads.on": "I am enabled here: I read every message in this channel and its threads (but "
    "none of members who opted out), and every edit and delete.",
    "privacy.reads.off": "I am disabled here: I read nothing in this channel (only the slash commands run "
    "here).",
    "privacy.reads.general": "I read every message in the channels a moderator enabled me in "
    "(`/kikimimi enable`) and in their threads (but none of members who opted out), and every edit and "
    "delete there; nothing elsewhere.",
    "privacy.dms.off": "I do not read direct messages.",
    "privacy.dms.on": "I also read direct messages sent to me.",
    "privacy.keep": "**What I keep, and for how long**",
    "privacy.buffer": "- recent messages, as context: {minutes} minutes (then deleted, within about a day)",
    "privacy.snippets": "- what I said, with the lines just before it: {hours} hours",
    "privacy.chunks": "- summaries of the conversation and the lines they came from: {days} days",
    "privacy.facts": "- facts drawn from messages: until they fade, at most about {days} days after they "
    "last came up",
    "privacy.facts_forever": "- facts drawn from messages: until they are erased",
    "privacy.profiles": "- a profile of each member who talks with me (how often, recent topics, a few tags, "
    "a line on our last talk, a few on what they seem like; public channels only): until it is erased",
    "privacy.no_memory": "- nothing longer: summaries, facts and profiles are switched off",
    "privacy.early_edits": "- an edit of a message I no longer hold (the message itself may still be on its "
    "way): {days} days",
    "privacy.marker": "- after `forget me`: a marker without words (a digest of your id and the time) so "
    "that your earlier messages still on their way are refused: {days} days",
    "privacy.transit": "- on the way in, each message waits in a Google Cloud Pub/Sub topic at most "
    "{topic_hours} hours (one that cannot be delivered, {dead_days} days); operators' logs keep ids and "
    "counts, never the words",
    "privacy.who": "**Who can hear it**: {visibility}.",
    "privacy.who.general": "**Who can hear it**: what I remember from a private channel (@everyone cannot "
    "view it) stays in that channel; from a public one it may come up in every channel. Moderators choose "
    "per channel with `/kikimimi visibility`.",
    "privacy.erase": "**How to erase it**: `/kikimimi-me what-do-you-know` shows what I keep about you; "
    "`/kikimimi-me forget` erases all of it in this server; `/kikimimi-me opt-out` also stops me reading "
    "you here. A deleted message is forgotten, an edited one replaced.",
}

PRIVACY_JA: dict[str, str] = {
    "privacy.title": "**プライバシー: このチャンネルでの聞き耳**",
    "privacy.title_general": "**プライバシー: 聞き耳が読むもの・覚えるもの**",
    "privacy.reads.on": "このチャンネルでは有効です。このチャンネルとスレッドのすべての発言と、"
    "その編集・削除を読みます（読まないでと設定したメンバーの発言は読みません）。",
    "privacy.reads.off": "このチャンネルでは無効です。ここでは何も読みません（ここで使われた"
    "スラッシュコマンドだけ）。",
    "privacy.reads.general": "モデレーターが有効にしたチャンネル（`/kikimimi 有効化`）とそのスレッドの"
    "すべての発言と、その編集・削除を読みます（読まないでと設定したメンバーの発言は読みません）。"
    "ほかのチャンネルは読みません。",
    "privacy.dms.off": "ダイレクトメッセージは読みません。",
    "privacy.dms.on": "私に送られたダイレクトメッセージも読みます。",
    "privacy.keep": "**覚えるものと期間**",
    "privacy.buffer": "- 最近の発言（文脈として）: {minutes} 分（その後、おおむね 1 日以内に削除）",
    "privacy.snippets": "- 私の発言と、その直前の発言: {hours} 時間",
    "privacy.chunks": "- 会話の要約と、そのもとになった発言: {days} 日",
    "privacy.facts": "- 発言から覚えたこと: 薄れるまで（最後に話題になってから長くて約 {days} 日）",
    "privacy.facts_forever": "- 発言から覚えたこと: 消されるまで",
    "privacy.profiles": "- 私と話したメンバーのプロフィール（やりとりの回数、最近の話題、"
    "いくつかのタグ、前回の会話の一行、人柄のメモ数行。公開チャンネルから）: 消されるまで",
    "privacy.no_memory": "- それより長くは覚えません（要約・発言から覚えたこと・プロフィールは無効）",
    "privacy.early_edits": "- もう手元にない発言の編集（発言そのものがまだ届いていないとき）: {days} 日",
    "privacy.marker": "- `忘れて` のあと: 言葉を含まない目印（あなたの ID から作った値と"
    "日時）。まだ届いていない以前の発言を受け取らないために: {days} 日",
    "privacy.transit": "- 受け取る途中、各メッセージは Google Cloud Pub/Sub のトピックに"
    "最長 {topic_hours} 時間（届けられなかったものは {dead_days} 日）とどまります。"
    "運用者のログには ID と件数だけが残り、発言の言葉は残りません",
    "privacy.who": "**誰が聞けるか**: {visibility}。",
    "privacy.who.general": "**誰が聞けるか**: 非公開チャンネル（@everyone が見られない）で覚えたことは"
    "そのチャンネルの中だけ、公開チャンネルで覚えたことは他のチャンネルでも話題にすることがあります。"
    "モデレーターが `/kikimimi 公開範囲` でチャンネルごとに決められます。",
    "privacy.erase": "**消すには**: `/kikimimi-me 覚えていること` で私が覚えているあなたのことが見られます。"
    "`/kikimimi-me 忘れて` でこのサーバーでのあなたのことをすべて忘れます。`/kikimimi-me 読まないで` "
    "でここではあなたの発言も読まなくなります。削除された発言は忘れ、編集された発言は置き換えます。",
}
