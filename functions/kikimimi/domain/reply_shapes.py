"""What a reply says by its shape (pure): a shrug, laughter, a pointer to the answer, something to try, leave
given, a yes or a no, its author's own trouble. Whether its shape alone answers a question is
answer_shapes.py; what a question asks is question_kinds.py; remarks that answer nothing (thanks, a welcome,
a bump) are remarks.py."""

from __future__ import annotations

import re

from kikimimi.domain.open_questions import LINK
from kikimimi.domain.rule_terms import normalized

__all__ = [
    "laughs",
    "points",
    "shrugs",
    "tells_own_trouble",
]

# Laughter opens a line about a joke, not an answer ("lol classic", "haha she loves the warm laptop").
_LAUGH = re.compile(r"^(?:lo+l|lmao|rofl|ha(?:ha)+h?|he(?:he)+|heh|xd|😂|🤣|草|笑|ｗ{2,}|w{2,})(?:\W|$)")
# Disbelief at what someone said, not a no: "no way you're holding the flyer wave with that".
_NO_WAY = r"way (?:you|u|he|she|they|we|that|this|it|i)\b"
_DISBELIEF = re.compile(rf"^no {_NO_WAY}")


def disbelieves(text: str) -> bool:
    """Does the line open on disbelief ("no way you're holding it"), which is no "no"?"""
    return bool(_DISBELIEF.match(normalized(text)))


EN_YES_NO = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|ya|yah|ye(?=[,.!\s])"
    rf"|no(?! {_NO_WAY})"  # not disbelief: "no way you're holding it"
    r"|nope|nah|sure|correct|right|exactly|indeed|maybe|probably|possibly"
    r"|not (?:yet|really|anymore)"
    r"|it (?:is|was|does|did|should|shouldn'?t|doesn'?t|isn'?t|can|can'?t|will|won'?t|works?|worked)"
    r"|it'?s (?:not|fine|down|up|back|working)"
    r"|there (?:is|was|are|were)(?:n'?t)?\b"  # "there is. brb" to "was there a dp cable in the box?"
    r"|they(?:'re| are| were| do| did| have)\b|they (?:aren'?t|weren'?t|don'?t|didn'?t|haven'?t)\b"
    r"|works (?:for me|fine|here)|not for me"
    r"|i (?:think|believe|guess|doubt|don'?t think|don'?t know|haven'?t)"
    r"|you (?:can|can'?t|need|should|have to|must)"
    r"|only|just|always|never|sometimes|depends"
    # a guess confirmed: "about that, …" to "like $80 used?"
    r"|about that|around that|roughly|ballpark|thereabouts|something like that|sounds about right)\b"
)
JA_YES_NO = re.compile(
    r"^(?:うん|ううん|はい|いいえ|いえ|いや(?!ー|あ)|まだ|そう(?!いえば|言えば|いう|いや)|ええ|もちろん|たぶん|多分"
    r"|あります|ありません|ある|ない|違う|ちがう|違います|できる|できない|大丈夫|無理"
    r"|こっちも|私も|僕も|俺も|うちも|同じく|同じ|いる(?!か)|いらない|いらん|要る|要らない"
    # not any more: 「もうないよ、春で終わっちゃった」, 「もうやってない」
    r"|もう(?:ない|無い|[ぁ-ん一-龥]{1,4}(?:てない|でない|ってない)))"
)
# Pointing to where the answer is: "check the pinned message", "pinned 📌", "see the wiki", 「ピン留め見て」.
_POINTER = re.compile(
    r"\b(?:check|see|read|look (?:at|in)|search|google|rtfm|it'?s in)\b.{0,30}"
    r"\b(?:pins?|pinned|faq|wiki|docs?|documentation|readme|manual|man ?page|channel topic|topic|changelog"
    r"|release notes|above|thread|link)\b"
    r"|\bpinned\b|📌|https?://|www\.|\b(?:in|on) the pins\b|\bscroll up\b"
    # what to search for, quoted: 'search "monoverbal"', "google 'pet safe glue'"
    r"|\b(?:search|google|look up)(?: for)? [\"“'][^\"”']{2,40}[\"”']"
    # the place named as holding it: "faq has it", "the wiki covers that", "faq, bottom section"
    r"|\b(?:faq|wiki|docs|readme|pins)\b (?:has|have|had|covers?|explains?|says)\b"
    r"|^(?:the )?(?:faq|wiki|docs)\s*[,:]"
    # … or named alone: "pins", "faq lol", "the wiki"
    r"|^(?:the |in the )?(?:pins?|faq|wiki|docs)[^\w?？]*(?:lol|ya|yep|bro)?[^\w?？]*$"
    # a channel named as where it is: "#announcements has it", "it's in #faq", 「#お知らせ に書いてある」
    # (as typed, `#faq`, or as Discord sends a channel mention, `<#123…>`)
    r"|(?:<#\d+>|(?:^|\s)#[\w-]+)\s*"
    r"(?:has|had|says|said|ha[sd] the|参照|見て|の?(?:ほう|方)で|に(?:書いて|ある|あった|載って)"
    # … or where to ask: 「#機材相談 で聞いて」, 「#mix-soudan で聞いたほうが詳しい人おるで」
    r"|で(?:聞いて|きいて|聞いた(?:ほう|方)|聞くと|質問して|相談して)|(?:に|へ)(?:行って|いって|どうぞ))"
    r"|\bin (?:#[\w-]+|<#\d+>)"
    # … said first, as a suggestion ("#marketplace maybe, people sell them there"), or where to ask
    r"|^(?:<#\d+>|#[\w-]+)(?:\s*[,.!]|\s+(?:maybe|prob|probably|i think|perhaps|is where|or)\b|\s*$)"
    r"|\b(?:try|check|see|read|ask (?:in|over in)|head (?:to|over to)|go to|over in|post (?:it )?in)\s+"
    r"(?:<#\d+>|#[\w-]+)"
    # a site named as having it up: "the club site has the full results up", "they're up on flickr"
    r"|\b(?:has|have|had|put) (?:the (?:whole |full )?)?"
    r"(?:gallery|pics?|photos?|images?|list|schedule|details|info|specs|video|vod|recap|results?|trailer|it"
    r"|them|one) (?:up|out|online)\b"
    r"|\b(?:it'?s|they'?re|its|theyre) (?:up|out|posted) on \w+"
    # shown in voice: "hop in vc i'll show you", 「VCおいで、画面共有で見せる」
    r"|\b(?:hop|jump|come|get|pop) (?:in|on|into) (?:the )?(?:vc|voice|call)\b"
    r"|\bjoin (?:the )?(?:vc|voice|call)\b"
    r"|(?:vc|ボイチャ|通話)(?:に)?(?:来て|きて|おいで|入って|はいって|来れる|これる)"
    r"|ピン(?:留め|止め|どめ)|固定(?:メッセージ|された)"
    r"|(?:faq|よくある質問|wiki|ドキュメント|マニュアル|説明書|公式|上の|概要欄|説明欄).{0,6}"
    r"(?:見て|参照|読んで|に書いて|にある|に載って|に載っと|にのって|にのっと)"
    r"|(?:概要欄|説明欄)に.{0,6}(?:貼って|はって|載って|のって|書いて)(?:ある|あった|る)"
    # what it holds, said after: 「FAQに当番表のリンクあるで」
    r"|(?:faq|よくある質問|wiki|マニュアル)に.{0,12}(?:ある|あり|あった|載って|のって|書いて|まとめて)"
    # a menu path, where the setting is: "quick menu > core options", 「設定→表示→文字サイズ」
    r"|\b(?:settings?|options?|menu|preferences|prefs|config|configuration|tools|system|advanced|general"
    r"|display|controls|view|edit|file)\s*(?:>|->|→)\s*[a-z]"
    r"|(?:設定|メニュー|オプション|ツール|プロパティ)\s*(?:>|->|→|＞)"
)
# Whose trouble a line with a link is about: its author's ("I get…", "my…") or the room's to answer
# ("anyone", "any idea", 「分かる人」).
_OWN_TROUBLE = re.compile(
    r"\b(?:i|i'?m|i'?ve|i'?d|my|me|any ?(?:one|body)|some ?(?:one|body)"
    r"|any (?:help|idea|ideas|suggestions?|clue))\b"
    r"|誰か|だれか|どなたか|(?:分かる|わかる|知ってる)(?:人|方)|私|僕|俺|うち(?:の|で|は)"
)
# … or with something of its author's own, offered to the room ("also i'm streaming some runs later if
# anyone wants to lurk <link>"): news, not a pointer for the question before ("i made a guide for this
# <link>" still points).
_SHARES = re.compile(
    r"\b(?:i'?m (?:streaming|live|selling|hosting|running|doing)|i'?ll be (?:streaming|live)"
    r"|my (?:stream|channel|shop))\b"
    r"|\bif (?:any ?one|any ?body|u|you|ya|y'?all) (?:wants?|wanna|needs?)\b"
)
# An interjection before the answer ("oh, no I didn't", "well yes"): the answer is what follows.
_INTERJECTION = re.compile(
    r"^(?:oh|ah|uh|um+|hmm+|hm|well|ok|okay|so|yo|lol|haha|え|あ|えっと|うーん|んー)[,!.、。…\s]+"
)


def answer_part(low: str) -> str:
    return _INTERJECTION.sub("", low, count=1)


# "No idea, sorry", 「わからない」: the question is taken up, not answered; someone who knows still may.
_SHRUG = re.compile(
    r"^(?:sorry[,.]?\s*)?(?:not sure|no idea|no clue|dunno|idk|i don'?t know|i have no idea|can'?t help"
    r"|not that i know|beats me|no clue)\b"
    r"|^(?:i )?(?:forgot|can'?t remember|don'?t remember)(?:,?\s+(?:tbh|sorry|lol|too|honestly|tho))*\W*$"
    r"|^(?:ごめん[、,]?\s*)?(?:わからない|分からない|わかんない|分かんない|わからん|分からん|わからへん|分からへん"
    r"|知らない|しらない|知らん|不明)"
    # forgotten too, the question said back first or not: 「誰だっけ…忘れた」, 「覚えてない」
    r"|^(?:[^、。….!！?？\s]{0,8}(?:だっけ|やっけ)[…。、,.!！?？\s]*)?(?:忘れた|わすれた|忘れちゃった|覚えてない|おぼえてない"
    r"|記憶にない)(?:わ|な|よ|ね|や|w|ｗ|笑|…|\.|。|!|！|\s)*$"
)


def shrugs(text: str) -> bool:
    """Someone says they do not know ("not sure, sorry", 「わからない」), or wants to know too ("+1 i wanna
    know too", 「私も知りたい」): the question is still open."""
    low = answer_part(normalized(text))
    return (bool(_SHRUG.match(low)) and len(low.split()) <= 8) or (
        bool(_ASKS_TOO.search(low)) and len(low.split()) <= 16
    )


def asks_too(text: str) -> bool:
    """Does the line ask the question before it again, as its own ("same q actually", 「私も知りたい」)?"""
    return bool(_ASKS_TOO.search(answer_part(normalized(text)))) and len(text.split()) <= 16


_ASKS_TOO = re.compile(
    r"^same q(?:uestion)?\b|\b(?:i|i'?d) (?:wanna|want to|would like to|'?d like to|also want to) know"
    r"(?: this)? too\b|^(?:also|same,?) wondering\b"
    r"|^(?:私|わたし|自分|俺|おれ|僕|ぼく|うち|ワイ)も(?:知りたい|気になる|気になって)|^(?:それ)?(?:私も|自分も)?気になる[！!。〜ー]*$"
)


def opens_unsure(text: str) -> bool:
    """Does the line open by saying its author does not know, however it goes on ("not sure tbh, maybe the
    blue one? i just use…")? A half answer: it takes the question up and leaves it for someone who knows."""
    return bool(_SHRUG.match(answer_part(normalized(text))))


def only_shrugs(text: str) -> bool:
    """A shrug and nothing else to go on ("idk sorry, never grown it", 「わからん」), not one with a lead
    ("idk, try the wiki", "no idea but i think it's 3 days")."""
    low = normalized(text)
    return shrugs(text) and not points(text) and not _LEAD.search(low)


_LEAD = re.compile(
    r"\b(?:but|try|maybe|prob|probably|think|guess|might|check)\b|けど|かも|たぶん|多分|思う|見て"
)


def laughs(text: str) -> bool:
    """A line that opens with laughter ("lol classic", 「草」): about a joke, not an answer ("lol yes" is)."""
    low = normalized(text)
    laugh = _LAUGH.match(low)
    if laugh is None:
        return False
    rest = low[laugh.end() :].lstrip(" ,.!、。")
    return not (EN_YES_NO.match(rest) or (not rest.isascii() and JA_YES_NO.match(rest)))


# Something to try, put as a question to the one who asked: "have you tried drying them first?", "did u
# reseat the ram?", 「再起動してみた？」. Whoever says it has taken the question up.
_SUGGESTS = re.compile(
    r"^(?:(?:hm+|hmm+|oh|ok|so|well|wait)[,.!]*\s+)?(?:have|did|have you|did you)?\s*(?:you|u|ya)\s+"
    r"(?:tri|try|check|clean|updat|reset|restart|reboot|reseat|reinstall|dri|dry|swap|turn|flash|clear)\w*"
    r"[^?？]*[?？]"
    r"|^(?:maybe |perhaps |or )?(?:tried|try) (?!to\b)[^?？]*[?？]"
    r"|(?:してみた|試した|ためした|やってみた|確認した|再起動した|入れ直した|挿し直した)(?:[？?]|ん?か[？?]|\s*$)"
)


def suggests(text: str) -> bool:
    """Is the line something to try, asked of the one who asked ("have you tried reseating it?")?"""
    low = normalized(text)
    return bool(_SUGGESTS.search(low)) and len(low) <= 120


def grants(question: str, line: str) -> bool:
    """Does the line let the asker have or use what they asked to borrow ("sure, grab the blue one", 「👍
    小屋の横のやつ使っていいよ」 to 「…1匹借りたい」, "go ahead" to "mind if i use the big kiln?")?"""
    return bool(_ASKS_LEAVE.search(normalized(question))) and bool(_GRANTS.search(normalized(line)))


# Asking to borrow or use something: "can i borrow…", "mind if i use…", 「借りたい」「使っていい？」.
_ASKS_LEAVE = re.compile(
    r"\b(?:can|could|may) i (?:borrow|use|grab|take|have)\b|\bmind if i\b|\b(?:ok|okay) if i\b"
    r"|\b(?:anyone|any ?body|someone) (?:have|got) [^?？]{1,30}i (?:can|could) borrow\b"
    r"|借りたい|借りていい|借りても|借りれる|借りられる|貸して|使っていい|使わせて|使ってもいい|もらっていい|もらってもいい"
)
# Leave given: said first ("sure", "go ahead", 👍), or 「使っていいよ」「どうぞ」 in the line.
_GRANTS = re.compile(
    r"^(?:👍\s*)?(?:sure|of course|ofc|go ahead|go for it|help yourself|be my guest|np|yeah go|yep go"
    r"|all yours|take it|grab it)\b"
    r"|(?:使って|持ってって|持っていって|連れてって|連れていって|借りて|乗って|取って)(?:いい|ええ|OK|ok|おk)"
    r"|どうぞ|^👍"
)


_GIF = re.compile(r"(?:https?://)?(?:www\.|media\d*\.)?(?:tenor\.com|giphy\.com|gfycat\.com)/\S*|\S+\.gif")


def points(text: str) -> bool:
    """Points to where the answer is: a link, "check the pinned message", "pinned 📌", 「ピン留め見て」.
    A link that comes with its author's own trouble or a call to the room ("I get this error: <paste>, any
    idea?") is the question's evidence, and one with something of their own to share is news: neither
    points to an answer."""
    low = normalized(text)
    if not _POINTER.search(low) or _GIF.fullmatch(low.strip()):
        return False  # a GIF alone (tenor, giphy) is a reaction, not where an answer is
    bare = LINK.sub(" ", low)
    if _POINTER.search(bare):
        return True
    asked = ("?" in bare or "？" in bare) and _OWN_TROUBLE.search(bare)
    return not (asked or _SHARES.search(bare))


# A verdict on what was asked about, said first ("those are perfect. what's the gap?", "that works",
# 「それで大丈夫。何ミリ？」): whatever follows, it answers.
_VERDICT_FIRST = re.compile(
    r"^(?:(?:yeah|yep|yes|oh|ah|ok)[,!\s]+)?"
    r"(?:(?:those|these|that|this|they|it)(?:'s|'re| is| are| will| would|'ll)? (?:be |do )?"
    r"(?:perfect|fine|ok|okay|good|great|right|enough|the right ones?)|that works)"
    r"(?:[.!,]\s+\S|[.!]*$)"
    r"|^(?:それ|そのまま|それで|そっち)(?:で|でも)?(?:大丈夫|ok|いい|ええ|いける|十分)(?:よ|やで|だよ|です)?"
    r"(?:[。！!、,]\s*\S|[。！!]*$)"
)


def wonders_a_view(text: str) -> bool:
    """A view wondered at aloud (「キルゾーンの通路、もう一段伸ばしたほうがいいかな」): one's own question to
    the room, put without a mark."""
    return bool(_WONDERED.search(normalized(text)))


def verdict_first(text: str) -> bool:
    """Does the line open on a verdict on what was asked about ("those are perfect. …", 「それで大丈夫」)?"""
    return bool(_VERDICT_FIRST.match(normalized(text)))


EN_SAME = re.compile(r"^(?:same(?: here| for me| issue| problem)?|me too|here too)\b")
ASKS_OTHERS = re.compile(r"\b(?:any ?(?:one|body)|just me|only me|for you|you too|others?|y'?all|you guys)\b")


# Its author's own trouble told ("when i install ubuntu my sound driver doesnt work", "I'm getting buffer I/O
# errors"): another asker, not an answer — unless the question asks whether others have it too, or the line
# says how it was fixed. (English: a Japanese 「うちも…動かない」 is as often the answer to 「アプデした？」.)
_EN_TROUBLE = re.compile(
    r"\b(?:i'?m getting|i get|i got|i keep getting|i'?m having|i have|i'?ve got|i'?m seeing|i see)"
    r" (?:an? |the |this |these |some |same )?(?:[\w/.-]+ ){0,3}"
    r"(?:errors?|problems?|issues?|crash(?:es)?|segfaults?|warnings?|freezes?)\b"
    r"|\bmy [\w-]+(?: [\w-]+){0,2} (?:doesn'?t|does not|won'?t|will not|can'?t|cannot|isn'?t|is not"
    r"|stopped|keeps|fails?|failed|crashe[sd]|is broken|broke)\b"
    # … or asked for help with it: "I cant figure out why …", "I need a little help about terminal"
    r"|\bi (?:can'?t|cannot|couldn'?t) (?:figure out|seem to|get (?:it|my|the)|make (?:it|my|the))\b"
    r"|\bi need (?:some |a little |a bit of )?help\b|\bi'?ve been (?:trying|having|struggling)\b"
    r"|^(?:question|quick question|q)\s*:"
)
_FIXED = re.compile(r"\b(?:fixed|solved|worked|works now|sorted|try|tried|you|u)\b")


def tells_own_trouble(question: str, line: str) -> bool:
    """Does the line tell its author's own trouble, asked by nobody (`_EN_TROUBLE`), to a question that does
    not ask whether others have it too?"""
    low, q = normalized(line), normalized(question)
    return (
        bool(_EN_TROUBLE.search(low))
        and not _FIXED.search(low)
        and not ASKS_OTHERS.search(q)
        and not EN_SAME.match(low)
    )


# How to do something, asked ("how do you guys…", "any tips for…", 「どうやったら…」) …
_ASKS_HOW = re.compile(
    r"\bhow (?:do|does|did|can|could|should|would|to)\b|\bany tips\b|どうやったら|どうすれば|どうしたら|コツ"
)
# … and a mishap of one's own, told with when it happened ("so i tilted on ball 3… last night"): news of
# theirs, not a way to do it.
_OWN_PAST = re.compile(
    r"^(?:(?:so|ok so|okay so|welp|well|ugh|lol)[,!.]?\s+)?i (?:just |totally |accidentally |literally )?"
    r"(?:\w+ed|got|had|went|broke|lost|fell|ate|took|made|did|forgot|left|ran|threw|dropped)\b"
    r"[^?？]*\b(?:last night|yesterday|this morning|earlier today|last week|on (?:fri|satur|sun)day)\b"
)


def tells_own_mishap(question: str, line: str) -> bool:
    """Does the line tell what befell its author, and when, to a question that asks how to do something?"""
    return bool(_ASKS_HOW.search(normalized(question))) and bool(_OWN_PAST.match(normalized(line)))


_WONDERED = re.compile(r"(?:ほうが|方が|のが)(?:いい|良い)かな[ぁあー〜~]*[\s。…~〜ｗw笑]*$")
