"""Pure reaction classifier: the emoji a friendly member would add to a short message, without an LLM."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from kikimimi.domain.rule_terms import is_question

# Longer messages carry more than one signal; a reaction would answer only part of them.
MAX_LENGTH = 120

# Preferred emoji per kind, best first; the first one the bot is allowed to use wins.
REACTIONS: Mapping[str, tuple[str, ...]] = {
    "good_news": ("🎉", "👍"),
    "thanks": ("🙏", "👍"),
    "laughter": ("😄",),
    "agreement": ("👍",),
}

# The text is NFKC-normalised and casefolded first, so full-width ！？ｗ（） arrive as !?w().

# A complaint or a "but" means the message is not simply happy, whatever else it says.
_MIXED = re.compile(
    r"\b(?:broken|not working|isn't working|doesn't work|does not work|didn't work|won't work|still (?:fails?"
    r"|failing|broken|not|doesn't|crash\w*)|no luck|nothing works|for nothing|no,? thanks?|no thank you"
    r"|thanks? anyway|but|unfortunately|sadly|sucks)\b"
    r"|動かない|動きません|直らない|直りません|うまくいかない|上手くいかない|できない|できません|出来ない"
    r"|壊れ|ダメ|だめ|駄目|失敗|不合格|落ちた|落ちました|残念|笑えない|笑い事|けど|けれど"
)
# Hedges and conditionals: "if it works now", "hopefully shipped", "リリースしたい", "直るかも".
_HEDGED = re.compile(
    r"\b(?:if|not|never|hope|hopefully|maybe|might|should|would|will|until|unless|yet)\b|n't\b"
    r"|かも|はず|予定|つもり|(?<!が)たい|ますように|といいな"
)
_GOOD_NEWS = re.compile(
    r"\b(?:it |that |this )?(?:works|working) now\b|(?<!how )\bit (?:works|worked)\b|\bthat worked\b"
    r"|\bfinally (?:works|working|fixed|got|did|done|passed|merged|shipped|released|solved)\b"
    r"|\b(?:fixed|solved|nailed) it\b|\bgot it (?:working|running)\b"
    r"|\b(?:we|i|we've|i've|just) (?:just |finally )?(?:shipped|launched|released|deployed|published)\b"
    r"|\b(?:is|are|got|has been) (?:released|shipped|launched|merged|approved|live)\b"
    r"|\bpassed (?:the |my |our |all )?(?:\w+ )?(?:exams?|tests?|interview|certification|review|bar)\b"
    r"|\b(?:all )?tests (?:are )?(?:passing|passed|green)\b|\bbuild (?:is )?green\b"
    r"|\bgot (?:the job|an offer|the offer|promoted|accepted|engaged|married)\b"
    r"|\bcongrat(?:s|ulations)\b|\bbirthday\b|\bhappy new year\b|\b(?:hooray|hurray|yay+|woo+hoo+)\b"
    r"|\bwe did it\b|🎉|🥳|🎊"
    # Japanese success verbs, unless a conditional ら follows ("動いたら" is "if it works").
    r"|(?:動いた|動きました|動くようになった|直った|直りました|治った|治りました|解決した|解決しました"
    r"|(?:でき|出来)(?:た|ました)(?:よ|ぞ|ー|~|〜)*[!.。…\sw]*$"
    r"|合格(?:し(?:た|ました)|でした|だった|!|$)|受かった|受かりました"
    r"|(?:テスト|試験|審査|レビュー|ci)(?:が|に|も)?通(?:った|りました)"
    r"|リリースし(?:た|ました)|リリースされ|公開し(?:た|ました)|マージされ|マージし(?:た|ました)"
    r"|成功し(?:た|ました)|完成し(?:た|ました)|内定|優勝|当選|誕生日|おめでと"
    r"|やった[ー~〜!]|やったぁ|よっしゃ)(?!ら)"
)
_THANKS = re.compile(
    r"\b(?:thanks|thank you|thank u|thx|thanx|ty|tysm|tyvm|much appreciated|appreciate it)\b"
    r"|ありがと|有難う|有り難う|ありがたい|サンキュ|感謝|助かり(?:ます|ました)|助かった|助かる"
    r"|あざす|あざっす|あざます"
)
_LAUGHTER = re.compile(
    r"\b(?:lo+l+|lmf?ao+|rofl|(?:a?ha){2,}h?|(?:he){2,}|xd+)\b|😂|🤣|😆"
    r"|(?<!微)笑(?!顔|み)|(?<![a-z0-9./])w{2,}(?![a-z0-9.])|草(?:生え|[\s!w]|$)|大草原"
    r"|ワロタ|わろた|爆笑|ウケる"
)

# A line that only acknowledges or agrees (なるほど, そうですね, i see): the floor stays with the other.
_AGREEMENT = re.compile(
    r"^(?:@\S+\s*|[\w\-\[\]`^{}|.]{2,32}[:,]\s*)?"
    r"(?:うん(?:うん)?|ええ|はい|へ[ーぇえ]+|ほ[うー]|なるほど(?:です)?|そうなん(?:だ|です(?:ね|か)?)|あ[ーあ]+|お[おー]+"
    r"|ふむ|たしかに|確かに|いいね|いいですね|すごい(?:ですね)?|そっか|そうか|そう(?:です|だ)(?:よ)?ね|ですよね|だよね"
    r"|わかる|分かる|わかります|分かります|了解(?:です)?|ok(?:ay)?|k|i see|yeah|yes|yep|right|hmm+|ah|oh|cool"
    r"|nice|sure|alright|agreed|true|indeed)"
    r"[\s、。,.!…ー〜~w笑]*$"
)


# A request for the bot to be quiet ("not now bot", 「今はいいから」), NFKC-normalised and casefolded.
_QUIET = re.compile(
    # "my brain won't shut up" says nothing to the bot
    r"\b(?:(?<!wont )(?<!won't )(?<!never )(?<!cant )(?<!can't )(?<!doesnt )(?<!doesn't )shut up"
    r"|be quiet(?! about)|stop talking|not now,? bot|quiet,? bot|nobody asked|no one asked"
    r"|go away|stfu|hush|zip it|nobody (?:was )?talking to you|stay out of (?:this|it))\b"
    r"|静かにして|静かにしろ|静かに(?:ね|して(?:て|ください))|黙って|黙れ|だまって|うるさい|うるせ"
    r"|しゃべらないで|喋らないで|話しかけないで|呼んでない|出てこないで|今はいいから|空気読んで"
)
QUIET_ACKNOWLEDGMENT = ("👍", "👌", "🙏")  # heard, and quiet: the first the bot may use


def asks_quiet(text: str) -> bool:
    """Does the line ask the bot to be quiet (stop talking, not now, go away)?"""
    return bool(_QUIET.search(_normalized(text)))


def _normalized(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


# A question put before the line's last words (its mark inside, a word of it asking first, after a few
# words at most: "ok so roughly how many days…? thanks kikimimi").
_ASKED_INSIDE = re.compile(
    r"^(?:\S+\s+){0,3}?(?:is|are|do|does|did|can|could|will|would|should|what|what's|whats|which|where|when"
    r"|how|who|why)\b[^?？]*[?？]\s*\S"
)


# A Japanese question, then a laugh: 「ききみみも起きてるの？笑」 (not 「まじ？ｗ」, surprise).
_ASKED_THEN_LAUGHED = re.compile(
    r"(?:の|か|る|た|ない|ます|です|って|なに|何|どう|いつ|どこ|誰)[？?]+\s*(?:笑|[wｗ]+|草)+[\W_]*$"
)


def reaction_kind(text: str) -> str | None:
    """What a short, non-question message clearly is: good_news, thanks, laughter or agreement (None when
    unclear)."""
    body = _normalized(text)
    if not body or len(body) > MAX_LENGTH or is_question(text) or _MIXED.search(body):
        return None
    if _ASKED_INSIDE.search(body) or _ASKED_THEN_LAUGHED.search(body):
        return None  # "is it true you can't bring peanut butter, kikimimi? … lol": asked, then laughed
    # Good news first: "thanks, it works now!" is worth celebrating more than acknowledging.
    if _GOOD_NEWS.search(body) and not _HEDGED.search(body):
        return "good_news"
    if _THANKS.search(body):
        return "thanks"
    if _LAUGHTER.search(body):
        return "laughter"
    if _AGREEMENT.match(body):
        return "agreement"
    return None


def reaction_for(text: str, allowed: Sequence[str]) -> str | None:
    """The allowed emoji a friendly member would react with to `text`, or None."""
    kind = reaction_kind(text)
    if kind is None:
        return None
    return next((emoji for emoji in REACTIONS[kind] if emoji in allowed), None)


def acknowledgment(text: str, allowed: Sequence[str], bot_asked: bool) -> str | None:
    """The emoji that answers a line said to the bot which only acknowledges it (thanks, laughter,
    agreement, good news), or None when it needs words. "yes" right after the bot asked is an answer."""
    if asks_quiet(text):
        return next((emoji for emoji in QUIET_ACKNOWLEDGMENT if emoji in allowed), None)
    kind = reaction_kind(text)
    if kind is None or (kind == "agreement" and bot_asked):
        return None
    return reaction_for(text, allowed)
