"""Open questions (pure): which questions the bot watches — a human question to the room, not to the bot,
not to one person (by name, mention or reply; one for the person before is back_questions.py's), and one
that asks something a member could answer (not an invitation, a rhetorical question or a group's plan)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from kikimimi.domain import name_calls
from kikimimi.domain.model import Message
from kikimimi.domain.question_kinds import for_the_bot, guesses, says_how_unsure
from kikimimi.domain.rule_terms import directed_to, is_addressed, is_question, norm

# `nick: …` addresses a person even if they have not spoken lately (IRC's and many chats' convention);
# these words before a colon introduce the message instead; a bracketed "[image: a tank]" is a picture.
# (not an attachment's placeholder, "[image: a screenshot of …]", 「[画像: …]」)
NICK_PREFIX = re.compile(
    r"^@?(?!\[[^\]]*\]\s*$)(?!\[(?:image|img|photo|picture|pic|video|gif|file|attachment|screenshot|画像|写真"
    r"|動画|スクショ|ファイル)\b)([\w\-\[\]`^{}|.]{2,32}):\s",
    re.IGNORECASE,
)
NOT_NICKS = frozenset(
    {
        "question",
        "q",
        "edit",
        "update",
        "note",
        "ps",
        "btw",
        "fyi",
        "tl;dr",
        "tldr",
        "problem",
        "issue",
        "error",
        "help",
        "info",
        "hi",
        "hello",
        "hey",
        "ok",
        "so",
        "well",
        "also",
        "and",
        "but",
        "anyway",
        "re",
        "answer",
        "a",
        "summary",
        "context",
        "background",
        "example",
        "eg",
        "ie",
        "warning",
        "bug",
    }
)
USER_MENTION = re.compile(r"<@!?\d+>")
# A link, without the sentence's mark after it ("… link on www.ubuntu.com?" still asks).
LINK = re.compile(r"(?:https?://|www\.)\S*?(?=[?？.,!)]*(?:\s|$))", re.IGNORECASE)
# Code said inline: a `backticked` span, or a pattern's "(?d)", "(?i)", "(?:".
# Letters with blanks in them, as puzzles write words ("T?RC?", "C?A?T?R"): no question (not "ok?Cheers").
_BLANKS = re.compile(r"(?<![\w?])[A-Z]+\?[A-Z](?![a-z])[A-Z?]*")
_CODE = re.compile(r"`[^`\n]+`|\(\?[a-zA-Z:=!<#]")
# Words quoted, as someone (or something) said them: "brain just goes 'remember this? 🙂'" asks nothing.
_QUOTED = re.compile(
    r"(?:(?<=\s)|^)(?:'[^'\n]{1,80}'|\"[^\"\n]{1,80}\"|‘[^’\n]{1,80}’|“[^”\n]{1,80}”)(?=\s|$|[.,!?;:])"
    r"|「[^」\n]{1,80}」|『[^』\n]{1,80}』"
)


def asks(text: str) -> bool:
    """A question that asks something: a question mark anywhere, or a Japanese question form.

    An English request without one ("can anyone help", "i need help too") is usually an opener with
    the real question still to come, or a musing: the pause judgment may take it, a watch does not.
    Japanese questions often end without ？ (…ですか。, どこで買える), so their forms count.
    """
    bare = LINK.sub(" ", text)  # a link's own "?" ("…/follow.php?comp=28114") asks nothing
    bare = _CODE.sub(" ", bare)  # nor does code's: "`git stash pop`?" does, "(?d)node_modules did it" not
    bare = _BLANKS.sub(" ", bare)  # nor a letter left blank in a word: "the squares give T?RC?"
    if "?" in bare or "？" in bare:
        return True
    return not text.isascii() and is_question(text)


def participants_of(messages: Sequence[Message]) -> dict[str, str]:
    """Who is present, by casefolded display name (what `nick:` / `nickさん` refers to), and by the name a
    Japanese display name of the form 「紙屋のテツ」 ("Tetsu of the paper shop") is called by: テツ."""
    present = {norm(m.author_name): m.author_name for m in messages if m.is_human}
    for key, name in list(present.items()):
        called = _OF_A_PLACE.match(key)
        if called and not key.isascii():
            present.setdefault(called.group(1), name)
    return present


_OF_A_PLACE = re.compile(r"^[^\sの]{1,6}の([^\sの]{2,8})$")  # 紙屋のテツ, 池田のおっちゃん


def is_open_question(message: Message, others: dict[str, str], names: Sequence[str]) -> bool:
    """A human question to the room: not to the bot (answered at once), not to a person, not a reply, and
    not one for the people asked ("tea, anyone?", 「〜よね？」, "should we …?": `question_kinds`)."""
    if not message.is_human or message.reply_to_id or is_addressed(message, names, others.values()):
        return False
    if name_calls.named(
        message.content, names
    ):  # about the bot, to friends: 「キキミミって夜中も起きてるのかな」
        return False
    # A link's "?" (`viewtopic.php?f=9`) asks nothing, nor do words quoted, nor a surprise said first
    # (「まじ？お願いしたい🙏」, "wait really? omg yes").
    text = _QUOTED.sub(" ", LINK.sub(" ", message.content))
    surprise = _SURPRISE.match(text.strip())
    if surprise and surprise.end() < len(text.strip()):
        text = text.strip()[surprise.end() :]
    if _MARKS_ONLY.match(text.strip()):
        return False  # "kevii, ???": a nudge to someone about what they said, nothing in it for the room
    if not (asks(text) or asks_unmarked(text)) or not for_the_bot(text) or _THANKED_AFTER.search(norm(text)):
        return False  # "ah the urob one? ty": a check, thanked for already
    if _ANSWERED_ITSELF.search(norm(text)) or says_how_unsure(text):
        return False  # "should i? yes", "will i? no": asked and answered in one breath
    if guesses(text) and re.search(r"[?？]", text):
        # "like 350ish? havent timed it properly", 「22時じゃない？たぶん」: a guess offered, its mark one of
        # doubt (not 「ゴアテックスじゃないとダメかな」, wondered aloud for someone to answer)
        return False
    if _CALLS_THE_DOER.search(norm(text)):
        return False  # "who booked the enlarger thursday? wanna swap slots with you": the doer's to answer
    if _CONCLUDES.match(text.strip()):
        return False  # 「じゃあ傘いらないか」: what the asker draws from an answer, said to themselves
    if _SENDS_ELSEWHERE.match(text.strip()) and not re.search(r"[?？]", text):
        return False  # 「#kakou-tech で聞いて、あっちに詳しい人おる」: where to ask, told
    if USER_MENTION.search(message.content):  # a Discord mention of someone (the bot's is handled above)
        return False
    prefix = NICK_PREFIX.match(message.content.strip())
    if prefix and norm(prefix.group(1)) not in NOT_NICKS:
        return False
    present = {k: v for k, v in others.items() if k != norm(message.author_name)}
    return (
        directed_to(message, present) is None
        and not called_first(text, present)
        and not _asks_of_someone(text, present)
    )


# Question marks alone after a name: "kevii, ???" (not "hi ?", "anyone, ??", "??": a call for anyone's help).
_MARKS_ONLY = re.compile(
    r"^(?!(?:hi|hey|hello|yo|anyone|anybody|someone|somebody|guys|all|folks|people|help|please|pls)\b)"
    r"[^\s,:]{2,32}\s*[,:]\s*[?？]+[?？!！.。…]*$",
    re.IGNORECASE,
)
_SURPRISE = re.compile(
    r"(?:え[ーっ〜]*[、,]?\s*)?(?:まじ|マジ|まじで|マジで|ほんま|ほんまに|本当|ほんと|ほんとに|えっ)[？?!！]+\s*"
    r"|(?:は|はあ|はぁ|え|えぇ|ええ)[？?][？?!！]*\s*"  # 「は？？えぐ」: surprise, then what one thinks
    r"|(?:wait |oh )?(?:really|seriously|fr|for real|no way|right|ikr)[?!]+\s*",  # "right?? i had like four"
    re.IGNORECASE,
)
# Whoever did something, asked for and then spoken to ("who booked the enlarger thursday? wanna swap slots
# with you", 「誰が予約したの？代わってほしい」): not "who's got a guide? can you link it", anyone's to give.
_CALLS_THE_DOER = re.compile(
    r"\bwho (?:\w+ed|took|left|ate|broke|put|stole|drank|wrote|threw|hid|grabbed)\b[^?]*\?+\s*"
    r"[^?]*\b(?:you|u|ya)\b"
    r"|(?:誰|だれ)が[^？?]{1,30}(?:した|った|んだ|いた|えた|れた)(?:の|ん)?[？?]+\s*[^？?]*"
    r"(?:てほしい|て欲しい|てくれ|てください|て下さい|お願い|返して|教えて|連絡)"
)
_SENDS_ELSEWHERE = re.compile(r"(?:<#\d+>|#[\w-]+)\s*(?:で|に|へ|is where|maybe|prob)")
_ANSWERED_ITSELF = re.compile(
    r"[?？]\s*(?:yes|yep|yeah|no|nope|nah|obviously|absolutely(?: not)?|of course|never|nope not|probably not"
    r"|hell (?:no|yes|yeah)|no way|no chance|not a chance|not even close|not for me"
    r"|definitely(?: not)?|not really|はい|いいえ|うん|ううん|いや|無理|むり)[\s.!。！ｗw笑]*$"
    # "the teal one? yes, gorgeous, but shake it": a check, then the answer said on
    r"|[?？]\s*(?:yes|yep|yeah|no|nope|nah|はい|うん|ううん)[,、!！]\s*\S"
    # "the aliexpress ones? tried one. works but…": which is meant, checked, then told on without asking
    r"|^(?:oh |ah |wait |hm+ )?(?:the|those|these|that|you mean(?: the)?) [^?？.!]{1,30}[?？]\s+[^?？]{3,}$"
    # "on a 2416b? kinda yeah. under 1ms…": what it is about, checked, then answered
    r"|^(?:on|for|with|in|at|from) [^?？.!]{1,30}[?？]\s+(?:kinda|kind of|sort of|yes|yeah|yep|yup|no|nope"
    r"|nah|probably|prob|def|definitely|depends|not really)\b"
    # 「アリエクのやつ？使ったことある」
    r"|^[^？?。、\s]{1,12}(?:のやつ|のこと|の方|ってこと)[？?]\s*[^？?]{3,}$"
)
# A conclusion drawn from what was just said, ending on a musing 「か」 with no question mark.
_CONCLUDES = re.compile(
    # … after thanks: 「ありがと、じゃあ朝マズメ狙いかな」
    r"^(?:(?:ありがと\S*|サンキュ\S*|なるほど|そっか|おけ|了解)[、,!！\s]+)?"
    r"(?:じゃあ|じゃ|ほな|なら|それなら|ほんなら|そしたら)[、,\s]*"
    r"(?![^？?]*(?:何|なに|なん|どこ|どう|いつ|誰|だれ|どれ|どっち|いくら))"  # not 「じゃあ何時がいいかな」
    r"[^？?]{1,20}か(?:な[ぁあ]?)?[ー〜。…]*$"
)
_THANKED_AFTER = re.compile(
    r"[?？]\s*(?:ty|thx|thanks|thank you|tysm|ありがと\S*|サンキュ\S*|さんきゅ\S*)\W*$"
)


# A question asked without its mark, as Discord people often do: one between two things ("are hall effect
# sticks actually better or is that just marketing"), or how to do something, after what was tried ("i added
# it to .gitignore but it still shows up. how do i make git stop tracking it"). Its form asks; a sentence
# may follow it ("… main hand. tryna fix my shield").
# … after a word that only opens the line ("wait does ancient fruit keep producing … or do i replant").
_CLAUSE = (
    r"(?:^|[.!;:]\s+|\b(?:lol|lmao|btw|ok|so|quick q|quick question|quick one|dumb q|dumb question)[,:]?\s+"
    # … or after a condition: "if the host runs the mod do the rest of us need it too or is it host only"
    r"|\bif\s+[^.!?;,]{3,60}?\s+(?=(?:do|does|is|are|can|should|will)\s)"
    r"|^(?:wait|hmm+|hey|oh|um+|uh+|also|actually)[,.]?\s+)"
)
_EITHER_OR = re.compile(
    rf"{_CLAUSE}(?:is|are|was|were|do|does|did|should|would|will|can|could)"
    r"\s+(?!(?:be|been|have|not|just|get|go)\b)[a-z0-9]\S*\s[^.!?;]{2,80}\bor\b[^.!?;]{2,60}(?:[.!;]|$)"
)
_HOW_AFTER = re.compile(
    r"[.!;,]\s+(?:so |but |and |ok |now )?"
    r"(?:how (?:do|can|would|should) (?:i|we)|what(?:'s| is) the best way to|is there a way to)\b[^.!?;]{6,}$"
)


# … or two asked of oneself, either-or, anywhere in the line: "… if i come tonight do i need my own card,
# or can i play as guest"
_ME_EITHER_OR = re.compile(
    r"\b(?:do|does|can|should|will|would|could|am|is|are)\s+(?:i|we)\s+[^.!?;]{2,80}\bor\s+"
    r"(?:can|do|should|will|would|could|is|are|am)\s+(?:i|we)\b"
)


# A Japanese question of its topic put politely with no mark, then why it is asked: 「日曜って外のスニーカー
# でも入れますかね…体育館シューズまだ買えてなくて」 (not 「そろそろ寝ますかね」, said to oneself).
_JA_ASKS_ON = re.compile(
    r"^[^。！!？?]{2,}(?:って|は)[^。！!？?]{2,40}?(?:ます|です|でしょう)か(?:ね|な)?[…。、\s]+\S"
)


# A trouble told, ending on not knowing why: "…keeps failing with 'no space left' but the drive is only 20%
# full, no idea why", 「…0.5秒くらい遅れてく感じで原因がわからないです」.
_STUCK = re.compile(
    r"\b(?:no idea why|any idea why|idk why|not sure why|can'?t figure out (?:why|what)|cant work out why"
    r"|what am i (?:doing|missing) wrong|what am i missing)[\W_]*$"
    r"|(?:原因|理由)が?(?:わから|分から|わかん|分かん|不明)|(?:どうしたら|どうすれば)(?:いい|良い)(?:か|の)?(?:わから|分から)"
)


def asks_unmarked(text: str) -> bool:
    """A question asked without its mark: either-or, or how to, after what the asker tried, or a trouble
    told that ends on not knowing why."""
    low = norm(text)
    if _STUCK.search(low) and len(low) >= 40:
        return True
    if not low.isascii():
        return bool(_JA_ASKS_ON.search(low))
    return bool(
        _EITHER_OR.search(low)
        or _HOW_AFTER.search(low)
        or _ME_EITHER_OR.search(low)
        or _ANNOUNCED_ASK.search(low)
        or _ANYONE_KNOWS_WHY.search(low)
    )


# A question the line says it asks, then asked without its mark: "ok dumb question, how do you make hitsounds
# louder than the music".
_ANNOUNCED_ASK = re.compile(
    r"\b(?:quick|dumb|stupid|random|noob|silly|real|actual|serious|newbie)\s+(?:q|qn|question)\b[\s,:;.!-]+"
    r"(?:how|what|what's|whats|where|which|who|why|when|is|are|do|does|did|can|could|should|would|will|has|have)"
    r"\s[^.!?]{8,}$"
)


# Whether anyone knows a way, then why it is asked, its mark left off: "anyone know a good way to flatten
# foils that curled, my whole deck looks like a bag of pringles rn" (not "anyone know how to mount a usb
# drive", an opener whose question may still come).
_ANYONE_KNOWS_WHY = re.compile(
    r"^(?:(?:ok|so|hey|also|random q|quick q)[,:]?\s+)?(?:does\s+)?(?:any ?one|any ?body|someone)"
    r"(?: here)?\s+(?:know|knows|got|have|has)\s+"
    r"(?:a\s+(?:good\s+)?(?:way|fix|trick|tip|place|site)|how|where|if|whether|what|which|why|when)\b[^.!?;,]{6,}[,;]\s+(?:my|i|i'?m|im|it'?s|its|the|mine|our|we)\b[^?]{6,}$"
)


# A name put first, then the question, with no comma (Discord habit): "lena does the battery hold up?",
# "priya did u switch to linux". After the name comes a verb that asks, never one it could be the subject of.
_CALLED = re.compile(
    r"^@?([^\s,:]{3,32})\s+(?:do|does|did|have|has|can|could|would|will|u|r|you|what|whats|what's|how|where|when"
    r"|which|why)\b"
)


def _one_of(token: str, present: dict[str, str]) -> bool:
    """Is the word the name of someone present, or a slip of it ("arnetzt" for ArNezT)?"""
    if token in present:
        return True
    if len(token) >= 3 and any(token in re.split(r"[_.\-\d]+", name) for name in present):
        return True  # "dan what eyepiece…" for dobsonian_dan
    return token.isalnum() and any(
        len(name) >= 5 and difflib.SequenceMatcher(None, token, name).ratio() >= 0.85 for name in present
    )


# After a Japanese name put first: an honorific, a particle or a break (「ねこ丸さんの…」, 「はるぴ、」).
_JA_AFTER_NAME = re.compile(
    r"(?:さん|ちゃん|くん|君|氏|様)|[はがのもにと、,\s!！?？]|って|そういえば|そう言えば|てか|ところで"
)


_JA_OPENER = re.compile(r"^(?:(?:そういえば|そう言えば|てか|ところで|ねえ|ねぇ|そうだ)[、,\s]*|あ[、,\s]+)")


def called_first(text: str, present: dict[str, str]) -> bool:
    """Does the question open by calling someone present by name ("lena does the battery hold up?",
    「はるぴ去年のセールで何玉買ったっけｗ」)? A Japanese name runs into the words after it: it counts where
    an honorific, a particle or another script follows (not 「ゆうべ…」 for ゆう)."""
    low = norm(text)
    called = _CALLED.match(low)
    if called is not None and _one_of(called.group(1), present):
        return True
    if low.isascii():
        return False
    opened = _JA_OPENER.sub("", low)  # 「そういえばあやね、…」: the name after an opener still comes first
    return any(
        len(name) >= 2 and text.startswith(name) and _runs_on(name, text[len(name) :])
        for name in present
        for text in {low, opened}
    )


def _asks_of_someone(text: str, present: dict[str, str]) -> bool:
    """Does a Japanese question ask about someone present, by name, at its end (「Kuroもいける？」,
    「ゆうは来る？」)? Theirs to answer."""
    low = norm(text)
    return not low.isascii() and any(
        re.search(
            rf"(?:^|[^\w]|[^\x00-\x7f]){re.escape(name)}(?:さん|ちゃん|くん)?[もは][^？?。!！]{{0,8}}[？?]",
            low,
        )
        for name in present
        if len(name) >= 2
    )


def _runs_on(name: str, rest: str) -> bool:
    """Does a Japanese name end where `rest` begins: a break, an honorific or particle, another script?"""
    if not rest or _JA_AFTER_NAME.match(rest):
        return True
    return _script(name[-1]) != _script(rest[0])


def _script(char: str) -> str:
    """Hiragana, katakana, kanji or other, for where a name run into the text ends."""
    if "\u3040" <= char <= "\u309f":
        return "hiragana"
    if "\u30a0" <= char <= "\u30ff":
        return "katakana"
    return "kanji" if "\u4e00" <= char <= "\u9fff" else "other"
