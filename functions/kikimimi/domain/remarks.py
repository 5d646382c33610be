"""Remarks (pure): what a line does other than answer what was asked — agreeing to a plan, taking an offer,
stepping away, changing the subject, welcoming someone, thanking, going to try what one was told, calling
someone by name, bumping one's own question. What a reply says to a question by its shape is
reply_shapes.py."""

from __future__ import annotations

import re

from kikimimi.domain.rule_terms import JA_I, normalized

__all__ = [
    "accepts",
    "adopts",
    "agrees",
    "bumps",
    "calls_only",
    "grateful",
    "joins",
    "shifts",
    "steps_away",
    "takes_it",
    "welcomes",
]


# Agreeing to a proposal: 「それでいこう」「いいね」「賛成」 "works for me", "sounds good", "+1".
_EN_AGREEMENT = re.compile(
    r"^(?:\+1|👍|yes|yeah|yep|yup|sure|ok|okay|k|alright|agreed|agree|deal|done|fine by me|fine|totally"
    r"|absolutely|definitely|of course|sounds (?:good|great|fine|like a plan)|works for me|that works"
    r"|good idea|great idea|let'?s do (?:it|that)|let'?s go|i'?m in|count me in|me too|same|why not"
    r"|perfect|great|cool|nice|i'?m down|down|in|bet|say less|lets do this|works"
    r"|(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|ish)?|either|both|any ?time) works"
    # the day said first: "thursday works for me", "friday's fine", "tomorrow yeah"
    r"|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tmrw|tomorrow|tonight|next week|the weekend)"
    r"(?:'?s)?\s*(?:works|is fine|fine|is good|good|yeah|yes|yep|ok|okay|👍))\b"
)
_JA_AGREEMENT = re.compile(
    r"^(?:それで(?:いこう|いい|行こう|OK|ok|オッケー|大丈夫)|いいね|いいよ|いいです|いいと思|賛成|了解|りょ|おけ|オッケー"
    r"|OK|ok|おっけー|うん|はい|ええ|そうしよう|そうしましょう|そうだね|それ(?:な|だ)|大丈夫|もちろん|ぜひ|是非|行く|いく"
    r"|参加|乗った|のった|異議なし|問題ない|決まり|決定|いいじゃん|いいやん|やろやろ|いこいこ|行こ行こ|しよしよ|アリ(?!ガト|[のがをにへ])|あり(?:だね|だな|やな|かも|です)|全然あり)"
)
# Yes on a condition: 「22時以降ならいける」, 「土曜やったら行ける」, "im in if its after 9".
_ON_A_CONDITION = re.compile(
    r"^[^？?]{1,20}(?:なら|やったら|だったら)(?:いける|行ける|行く|いく|大丈夫|参加|できる|出れる|出られる|アリ|あり(?!が))"
    r"|^(?:i'?m|im) (?:in|down|free|good) if\b|^(?:down|in|free) if\b"
)
# Taking an offer up: "yes please", "that'd be great", 「助かる！」「お願い」「ごめん助かる🙏」.
_ACCEPTS = re.compile(
    r"^(?:(?:oh|ah|omg|ooh|yes+|yeah|ya|sorry|まじ|マジ|え|おお|ごめん|すまん|すみません)[?？!！,、\s]*)?"
    r"(?:yes (?:please|pls|plz)|please do|pls do|(?:please|pls|plz)(?=\W*$)"
    r"|that'?d be (?:great|awesome|amazing|perfect|nice)|(?:that )?would be (?:great|awesome|amazing|perfect)"
    r"|life ?saver|you'?re a life ?saver"
    r"|助か(?:る|ります)|たすかる|ありがたい|ありがたや|お願い|おねがい|頼む|たのむ|頼んだ|たのんだ|よろしく)"
)


def agrees(text: str) -> bool:
    """Agreement (「それでいこう」「いいね」「賛成」 "works for me", "+1"), also on a condition."""
    low = normalized(text)
    return bool(_EN_AGREEMENT.match(low) or _JA_AGREEMENT.match(low) or _ON_A_CONDITION.match(low))


# A plan adopted, whatever way it was put (「いいね、それでいこ」 to 「…ミナトのパーティクルに繋げない？」,
# "ok let's go with that"): only something proposed can be taken so.
_ADOPTS = re.compile(
    r"それで(?:いこ|行こ|いきま|行きま|決まり|決定)|そうしよ|それにしよ|それでよろしく"
    r"|\blet'?s (?:do|go with) (?:it|that|this|those)\b|\bsounds like a plan\b|\bthat'?s the plan\b"
)


def adopts(text: str) -> bool:
    """A plan taken as one's own (「それでいこ」, 「そうしよう」, "let's go with that"), asking nothing."""
    low = normalized(text)
    return bool(_ADOPTS.search(low)) and "?" not in low and "？" not in low


def on_a_condition(text: str) -> bool:
    """Yes on a condition (「22時以降ならいける」, "im in if its after 9"), to "…again tomorrow?"."""
    return bool(_ON_A_CONDITION.match(normalized(text)))


# Joining in on what someone else said ("me too", "same here", 「俺も行くわ」): brief, about oneself.
_EN_JOINS = re.compile(
    r"^(?:(?:me too|me as well|me also|i'?m (?:in|down|coming|going) too|count me in too"
    r"|i'?ll (?:come|go|join|be there) too)\b[^?]{0,30}|same(?: here)?(?: lol| tbh)?[\W_]*)$"
)
_JA_JOINS = re.compile(rf"^(?:{JA_I})も[^？?]{{0,10}}$")


# … whatever it then says: "me too! need to practise the fast bit", 「私も！早弾きのとこ練習したい」.
_JOINS_FIRST = re.compile(
    rf"^(?:me too|me as well|count me in|i'?m in too|same)[!！,.\s]|^(?:{JA_I})も[!！、,。〜ー]"
    # … or by saying one is in: "i'm in, got a spoon handle to finish", 「行く！…」
    r"|^(?:i'?m|im|i am) (?:in|down|game)(?: for (?:it|that|this))?(?:[!！,.\s]|$)"
    r"|^(?:行く|いく|行きます|参加(?:する|します)?|乗った|のった)(?:[!！〜ー]|$)"
    # … or doubled: 「やるやる、お題なに？」, 「行く行く！」
    r"|^(?:やるやる|行く行く|いくいく|出る出る|乗る乗る|やろやろ|いこいこ|行こ行こ|しよしよ)(?:[!！、,。〜ー\s]|$)"
)


def joins_first(text: str) -> bool:
    """A line that opens by joining in ("me too! …", "i'm in, …", 「私も！…」)."""
    return bool(_JOINS_FIRST.match(normalized(text)))


def joins(text: str) -> bool:
    """A brief line joining in on what someone else said ("same here", 「俺も行くわ、リベンジや」)."""
    low = normalized(text)
    return bool(_EN_JOINS.match(low) or _JA_JOINS.match(low))


def accepts(text: str) -> bool:
    """Taking up an offer ("yes please", 「助かる！一応声かけといて」)."""
    return bool(_ACCEPTS.match(normalized(text)))


# Someone stepping away ("brb, coffee", "back in ten", 「ちょっと離席」): a line about themselves, no answer.
_AWAY = re.compile(
    r"^(?:(?:same|me too|ok|okay|k)[,!. ]+)?(?:brb|afk|gtg|g2g|bbl|bbiab|got(?:ta)? (?:go|run)|be right back"
    r"|back in (?:a |an |\d+|one|two|five|ten|fifteen|twenty|thirty|half)|stepping (?:out|away)"
    r"|(?:ちょっと)?(?:離席|(?:抜け|離れ|外し)(?:ます|る|ますね|てくる|とく|$))|落ちます|風呂(?:入って|行って)くる"
    # 「ミルク温めてくる」, 「コンビニ行ってくる」: off to do something, back later (not 「泣けてくる」,
    # 「眠くなってくる」: a feeling coming on)
    r"|(?:ちょっと|ちょい)?[^？?、。]{1,10}(?<![けえ])(?<!なっ)(?<!立っ)(?:て|で)くる[わねよー〜!！]*$)"
)


def steps_away(text: str) -> bool:
    """Someone says they are stepping away ("brb, coffee", "same, back in ten", 「離席します」)."""
    return bool(_AWAY.match(normalized(text)))


# A line that says it changes the subject ("by the way", 「そういえば」, 「てか」) answers nothing before it.
_SHIFT = re.compile(
    r"^(?:by the way|btw|anyway|anyways|speaking of|oh,? and|unrelated|off topic|totally unrelated"
    r"|そういえば|そう言えば|ところで|話変わる|話は変わる|関係ない|全然関係|てか|ってか|つーか|それより)"
    # … or opens an item of its own, labelled: "ok proposal: …", "psa: …", 「【告知】…」
    r"|^(?:(?:ok|okay|so|alright|right)[,!.]?\s+)?"
    r"(?:new topic|proposal|psa|poll|announcement|reminder|news)\s*[:：]"
    r"|^[【\[](?:告知|お知らせ|連絡|速報|提案|psa|news|announcement|poll)[】\]]"
    r"|^(?:ニュース|速報|朗報|悲報|お知らせ|告知|連絡|業務連絡|提案|報告)\s*[:：]"  # 「朗報：…」
)


def shifts(text: str) -> bool:
    """A line that opens by changing the subject ("btw …", 「そういえば…」, 「てか昨日の…」)."""
    return bool(_SHIFT.match(normalized(text)))


# A mishap of one's own, lamented: "why does this always happen to me", 「なんで俺だけ毎回…」.
_LAMENT = re.compile(
    r"\bwhy (?:does|do|did|is|must) (?:this|that|it|everything|stuff like this) (?:always |keep |only )?"
    r"happen(?:s|ing)?(?: to me)?\b|\bwhy (?:am i|do i always|do i keep|do i never|me)\b"
    r"|\bwhy is it always me\b"
    r"|(?:なんで|何で|どうして)(?:俺|私|僕|うち|自分|わたし|オレ|あたし)だけ|(?:なんで|何で|どうして)(?:いつも|毎回)"
)


def laments(text: str) -> bool:
    """A line that laments its author's own mishap ("…why does this keep happening to me"): theirs."""
    return bool(_LAMENT.search(normalized(text)))


# Welcoming someone who arrived ("welcome!", "wb", 「いらっしゃい〜」): to the newcomer, no answer.
_WELCOME = re.compile(
    r"^(?:hi+ and |hey+ and |oh )?(?:welcome|wb\b|welc)|^(?:いらっしゃい|ようこそ|ようこそようこそ|おかえり)"
)


# What a bare welcome may go on with: whom or where to ("welcome to the server", "welcome aboard, sam").
_WELCOME_REST = re.compile(
    r"^[\W_]*(?:(?:to (?:the )?[\w#-]+(?: server| channel| club)?|aboard|back|in)[\W_]*)?(?:\w+)?[\W_]*$"
)


def welcomes(text: str) -> bool:
    """Only a welcome to someone who just arrived ("welcome!", "welcome to the server", 「いらっしゃい〜」):
    it answers nothing they asked ("welcome! udisksctl mount works" does)."""
    low = normalized(text)
    welcome = _WELCOME.match(low)
    if welcome is None:
        return False
    rest = re.sub(r"^\w*", "", low[welcome.end() :])  # the rest of the word ("welcome", "いらっしゃい")
    if not low.isascii():
        return len(re.sub(r"[\W_]", "", rest)) <= 8
    return bool(_WELCOME_REST.match(rest))


# Gratitude or praise for help given ("thanks!", "you've been more helpful than google", 「助かった！」): said
# even to the asker (who helped someone else), it answers none of their questions.
_GRATEFUL = re.compile(
    r"\b(?:thanks|thank (?:you|u)|thx|tysm|tyvm|tyty|cheers|appreciated?|life ?saver|you rock"
    r"|(?<![@#])ty(?=\W*$)"  # "oh duh. ty": said last (not "ty" the name, "ty said…")
    r"|you(?:'ve| have| were| are|'re)? (?:been )?(?:so |very |really |super |more |most |the most )?helpful"
    r"|saved my (?:life|day|bacon|butt)|you(?:'re| are) (?:the best|awesome|a star|a legend|a hero))\b"
    r"|ありがと|有難う|ありがたい|ありがたや|助かった|助かりました|助かる|感謝"
)


# Going to act on what someone said ("ok will try that", 「おけ、見てくる」, 「試してみます」).
_TAKES_IT = re.compile(
    r"^(?:ok|okay|kk|k|oh|ah|ty|thx|thanks)?[,!. ]*(?:will try|i'?ll try|gonna try|trying that|will check"
    r"|i'?ll check|checking now|on it)\b"
    r"|^(?:ok|okay|oh|ah)[,!. ]+(?:cool|nice|perfect|sweet|bet)\b"  # "ok cool, my stand is def not level"
    # … or glad of it, and doing it: "nice, updating tonight", "perfect, ordering one now"
    r"|^(?![^?]*\?)(?:nice|cool|great|perfect|sweet|awesome|ace)[,!.]+ *"
    r"(?:\w+ing(?! (?:is|was|with|here)\b)|i'?ll|ill|gonna|will)\b"
    r"|^(?:おけ|おっけ|オッケ|了解|りょ|ありがと|なるほど)?[ー〜!！、,。\s]*(?:見てくる|見てみる|見てみます|試してみ|やってみ"
    r"|調べてみ|買ってくる|ポチ(?:る|った|りました|ります|っとく|っときます|っちゃった)"
    r"|注文(?:した|しました|します|しとく)|(?:買い|かい)ました|買っとく|買ってきます)"
    # … or bought at once: "ordered one, ty", "just ordered the kure one"
    # … or sold on it: "sold, into the cart next to torso", "sold. adding it to the cart"
    r"|^sold[,.!]+\s*(?![^?]*\?)|\b(?:into|in|to) (?:the|my) (?:cart|basket)\b(?![^?]*\?)"
    r"|^(?:ok|okay|oh|nice|sweet|perfect|done)?[,!. ]*(?:just )?(?:ordered|ordering|bought|grabbed)"
    r" (?:one|it|that|them|a pair|some|a can|the)\b"
    r"(?![^?]*\?)(?![^?]*\b(?:but|still|not|wrong|last|ago|years?|n't|(?:19|20)\d\d)\b)(?:\W+\w+){0,5}\W*$"
    r"|^なるほど"  # taking in what they were told: 「なるほど、一応現金も持ってくわ」
    # doing as they were told, after a word of their own: 「青です、10kにしてみます」
    r"|(?:^|[、,。\s])[^、,。\s]{0,12}(?:に|で|を)(?:して|変えて|替えて|換えて|付けて|使って|交換して)み(?:る|ます)"
    # … or, at its end, to try doing it: 「今度作ってみる」, 「週末に張ってみます」, 「倍…試算と比べてみます」
    r"|^(?![^？?]*[？?])(?:[^、,。\s…]{1,6}?(?:[…‥]+|\.{2,})\s*[^、,。\s…]{0,12}|[^、,。\s…]{0,8})(?:て|で)み(?:る|ます|よう|よっと)(?:わ|か|ね)?"
    r"[!！。〜ーw笑\s]*$"
)


def takes_it(text: str) -> bool:
    """Going to act on what one was told ("ok will try that", 「おけ、見てくる」, 「10kにしてみます」)."""
    return bool(_TAKES_IT.search(normalized(text)))


def grateful(text: str) -> bool:
    """Thanks or praise for help ("thx!", "you've been so helpful", 「助かった」), not a question."""
    low = normalized(text)
    return bool(_GRATEFUL.search(low)) and "?" not in low and "？" not in low


# What may stand beside a name in a bare call for someone's attention: "hey bob", "bob?", 「ゆうさーん」.
_CALL_WORDS = frozenset(
    {"hey", "hi", "hello", "yo", "oi", "ping", "psst", "さん", "くん", "ちゃん", "ねえ", "ねぇ", "おーい"}
)


def calls_only(text: str, name: str) -> bool:
    """Is the line only a call for someone's attention: their name or mention, with at most "hey" (said
    before what one has to say, it says nothing yet)?"""
    bare = re.sub(r"[\W_]+", "", normalized(name))
    low = re.sub(r"<@!?\d+>", " ", normalized(text)).replace("ー", "").replace("〜", "")
    called = "<@" in text
    for word in re.findall(r"\w+", low):
        if bare and word.startswith(bare) and (word == bare or word[len(bare) :] in _CALL_WORDS):
            called = True
        elif word not in _CALL_WORDS:
            return False
    return called


# A bump: the asker asking anyone again, nothing new ("anyone? 😅", "bump", 「誰かわかる人いますか…」).
_BUMP = re.compile(
    r"^(?:bump|anyone|any ?body|any ideas|any help|someone|help|still (?:stuck|need help)|[?？]+)\b"
    r"|\bbump(?:ing)?\b|\b(?:my|the) (?:earlier |previous |above )?question\b"
    r"|^(?:すみません|あの|あのー)?[、,\s]*(?:誰か|だれか|どなたか)"
    r"|(?:さっき|先ほど|先程|上)の.{0,24}(?:質問|件|やつ)"
    # asking again, naming it: 「たびたびすみません、…の件、どなたか分かる方…」, 「…反応しない件、どなたか…」
    r"|^(?:たびたび|度々|何度も)(?:すみません|すいません|失礼)|(?<![\u4e00-\u9fff])件[、,\s]*(?:誰か|だれか|どなたか)"
    # 「あげ🙏 …の件、わかる方…」: board slang for a bump (not 「あげる」, to give)
    r"|^(?:あげ|上げ|age)(?![ぁ-ゖ\w])"
)


def bumps(text: str) -> bool:
    """A short call for anyone to answer what was asked before, saying nothing new (or only naming it:
    "sorry to bump, anyone know about the cookie thing?", 「さっきの件わかる方いますか…？」)."""
    low = normalized(text)
    said = len(low) <= 200 and bool(re.search(r"\bbump(?:ing)?\b", low))  # "sorry to bump, …" said outright
    # "anyone? 😅 sorry, still stuck with the blinking remote, …": the call first, then why, at more length
    called = len(low) <= 200 and bool(_CALLS_FIRST.match(low))
    return said or called or (len(low) <= 80 and bool(_BUMP.search(low)))


_CALLS_FIRST = re.compile(r"^(?:anyone|any ?body|someone)\s*[?？]+")
