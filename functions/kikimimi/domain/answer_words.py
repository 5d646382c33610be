"""What a line says to a question (pure): whether it takes the question up by its words or its shape, at a
level set by where it stands (`answer_turns`): right after it, loosely; where people name whom they answer,
by its shape ("yes", "20", "check the pinned message"); after others' lines, only by its words."""

from __future__ import annotations

import re

from kikimimi.domain.answer_shapes import answer_shaped
from kikimimi.domain.figures import (
    corrects_figure,
    counts_people,
    same_figure,
    says_a_figure,
    says_roughly,
)
from kikimimi.domain.invitations import invites
from kikimimi.domain.open_questions import asks
from kikimimi.domain.question_echoes import tells_own_experience
from kikimimi.domain.question_kinds import asks_a_number, asks_yes_no, guesses
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import accepts, agrees, on_a_condition, steps_away, welcomes
from kikimimi.domain.reply_shapes import disbelieves, laughs
from kikimimi.domain.rule_terms import JA_I, muses, norm
from kikimimi.domain.tension import says_farewell
from kikimimi.domain.topic_words import inflected, shared_words

# How a line may answer, by where it stands: right after the question in a room that does not address
# people by name, loosely ("the one downtown"); right after it where people use names, by its shape ("yes",
# "20", "check the pinned message") or words; after others' lines, only by its words or a content shape.
LOOSE, SHAPE, WORDS = 0, 1, 2


def says_how_it_is(asked: str, text: str, common: frozenset[str], late: bool) -> bool:
    """Does the line answer the question loosely ("bit mushy tbh", 「木工用ボンド」), not as an agreement, an
    ack or an offer to the talk going on ("sounds good to me", "I will bring some snacks")?"""
    if agrees(text) or accepts(text) or _bare_ack(text) or _VOLUNTEER.match(norm(text)):
        return False
    return takes_up(asked, text, LOOSE, common, late=late)


def takes_up_by_shape(asked: str, text: str, common: frozenset[str]) -> bool:
    """Does the line take up the question by its words or its shape (a yes/no, a figure, a pointer)?"""
    return takes_up(asked, text, SHAPE, common)


# Whether a thing still holds, asked ("is the fall expo still happening?", "is the fence actually happening
# this year?") and told ("still on, …", "nope, not anymore", "starts on the 10th", "pushed to fall").
_ASKS_STILL = re.compile(r"\b(?:still|happening|going ahead)\b[^?？]*[?？]")


# Whether it is as before, asked ("bingo teams random again?", 「今回もシングル？」), and how it is this
# time, told ("captains draft this time", 「今回はダブル！」).
_ASKS_AGAIN = re.compile(r"\bagain\b[^?？]*[?？]|(?:今回|今年|今度|次)も[^？?]*[？?]")
_SAYS_THIS_TIME = re.compile(r"\bthis (?:time|year|round|season|week)\b|(?:今回|今年|今度|次)は")


# What they use, asked ("what hook and yarn are you using?", 「アダプターどれ使ってる？」), and told briefly,
# by a size, a model or a number, with no question of its own ("5mm, label says worsted / 4", 「中サイズ」).
_ASKS_WHAT_THEY_USE = re.compile(
    r"\b(?:what|which)\b[^?？]{0,30}\b(?:are|r) (?:you|u) (?:using|running|on|with)\b"
    r"|\b(?:what|which)\b[^?？]{0,30}\b(?:do|did) (?:you|u) (?:use|have|get|buy|run)\b"
    r"|(?:何|なに|どれ|どの\S{0,6})(?:を)?(?:使って|使っと|使て|入れて|つけて|付けて)(?:る|ます|ん)"
)
_TELLS_A_SPEC = re.compile(r"^(?!.*[?？])(?=.{1,60}$).*\d")


# How much, asked (「どのくらい固くしたいの？」) and told by a likeness or an amount (「…っぽいくらい」).
_ASKS_DEGREE = re.compile(
    r"(?:どの|どれ|どん)(?:くらい|ぐらい)"
    # … or what a thing is like: "what's the mantle shade like?"
    r"|\bwhat(?:'s| is| was| are| were)\b[^?？]{1,40}\blike\s*[?？]"
)
_SAYS_DEGREE = re.compile(
    r"(?:くらい|ぐらい|ほど|程度)(?:かな|かも|で|だ|や|よ|ね|が)*[!！。〜ーw笑]*$"
    # … or by a likeness said first: "paler than the herrings next to it", "kinda dark, like slate"
    r"|^(?:(?:way|much|a bit|a little|slightly|def|definitely|pretty|kinda|quite|really|super|very"
    r"|fairly)\s+)?"
    r"(?:[a-z]{3,}er|more [a-z]+|less [a-z]+) than\b"
)


_SAYS_STILL = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|ya|nope|no|nah)[,!.]*\s+)?(?:it'?s |it is |they'?re |it )?(?:still|not anymore"
    # … or when it is now: "starts on the 10th", "pushed to fall", "moved to march"
    r"|(?:starts|begins|opens|kicks off|runs) (?:on|in|at|from|next|this)"
    r"|(?:got |been )?(?:pushed|moved|postponed|delayed|rescheduled|bumped) (?:to|back|until|till)"
    r"|(?:got |been )?(?:cancell?ed|canned|called off)"
    # … or that it is mended or found now: "fixed in 25.04.1 for me", "patched since 1.2", "found it in the
    # paddle bin"
    r"|(?:got |been |was )?(?:fixed|patched|resolved) (?:in|since|with|by|for|after)"
    r"|found (?:it|them)|(?:it )?(?:turned|showed) up)\b"
)


# A statement of what is said or looks so: 「…らしいで」, 「…みたいよ」, 「…っぽい」.
# What everyone uses or does, asked of the room: 「最近みんなカスタム何使てる？」, "what's everyone running?"
_ASKS_AROUND = re.compile(
    r"(?:みんな|皆|各自|他の人)[^？?]{0,12}(?:何|なに|どれ|どこ|どんな)[^？?]{0,10}"
    r"(?:てる|でる|使|派|やって|して)[^？?]{0,4}[？?]"
    # … or with no subject, what one uses asked of the room: 「人工餌どこのん使てる？」
    r"|(?:何|なに|どれ|どこの|どんな)[^？?]{0,6}(?:使て|使って|使っ)(?:る|てる|ます)[^？?]{0,4}[？?]"
    r"|\b(?:what|which)(?: [a-z]+){0,2}?(?:'s| is| are| do)? (?:you all|y'?all|everyone|everybody|you guys"
    r"|u guys|people) "
    r"(?:using|running|playing|on|maining|doing|use|run|play|main)\b"
)
# One's own, told first: 「うちまだデイジーで…」, "i'm still on daisy", "mine's the stock one".
_TELLS_OWN = re.compile(
    rf"^(?:{JA_I})(?:は|も)?(?:まだ|今|いま|ずっと|最近)?[^？?]{{2,30}}$"
    r"|^(?:i'?m|i|me|mine(?:'s| is)?)\b[^?]{2,60}$"
)
# A pick, named with what makes it one: 「complementary一択」, 「ウラン推し」, "bsl all the way", "g pro,
# hands down" (to what one uses, asked: the name alone says nothing of a thread, the mark of a choice does).
_NAMES_A_PICK = re.compile(
    r"^[^？?、。\s]{2,24}\s*(?:一択|安定|一強|推し|派|しか勝たん)(?:かな|だな|やな|です|だよ|よ|ね)?[!！。wｗ笑〜ー]*$"
    r"|^[\w'.+ -]{2,30}?,?\s+(?:all the way|hands down|no contest|every time|for me|or bust|ftw)[!.]*$"
)
# Whether there are enough, asked: 「メンツ足りとる？」, "do we have enough for 6v6?"; answered by a count.
_ASKS_ENOUGH = re.compile(r"足り|揃|集まっ|\benough\b|\bfull\b")
_COUNT_FIRST = re.compile(
    r"^(?:いま|今|現在|今んとこ|今のところ|あと|currently|rn|so far|we'?re at|at)?\s*\d+\s*"
    r"(?:人|名|ppl|people|of|so far|rn|now|$|[、,。.!！])"
)
# Who is coming, named: "me and priya", "just me", "sam and me", "both of us", 「俺とけんた」, 「私だけ」.
_NAMES_WHO_COMES = re.compile(
    r"^(?:(?:just|only|prob|probably|maybe|i think)\s+)?(?:me|us|myself)"
    r"(?:\s*(?:and|&|\+|n)\s+\S+|\s*$|\s+(?:too|only|i think)\b)"
    r"|^\S+\s*(?:and|&|\+)\s*me\b|^(?:both|all (?:three|four|five) of us|the (?:two|three|four) of us)\b"
    rf"|^(?:{JA_I})(?:と\S|だけ|ひとり|一人)"
)
# What someone said, told first: "doc said hes on it", "mod told us it's back friday".
# (not "IT says You installation CD could not be mounted": an error quoted)
_EN_HEARSAY = re.compile(
    r"^(?!(?:it|this|that|the|error|log)\b)(?:[\w.'-]+ ){1,2}"
    r"(?:said|says|told (?:me|us)|mentioned|confirmed)\b"
)
# Where the news comes from, told to a brief question ("pushed to fall. got an email from the highway
# dept", 「県の道路情報だと…」, "according to the site…"): whether something holds, passed on from a source.
_SOURCED = re.compile(
    r"\b(?:got|get|saw|received) (?:an? |the |their )?(?:email|e-mail|mail|text|notice|letter|newsletter"
    r"|update|announcement)\b|\baccording to\b|\bheard (?:back )?from\b"
    r"|\b(?:site|website|page|notice|schedule|sign|announcement|email|newsletter|app|forecast|board|tracker)"
    r" (?:says|said)\b"
    r"|(?:情報|発表|お知らせ|告知|公式|ニュース|サイト|hp|ホームページ|アプリ|メール|掲示|貼り紙|張り紙|案内|予報)"
    r"(?:だと|では|によると|によれば|見たら|で見た|に書いて)|によると|によれば"
)
# A case told to a yes/no question: what happened last time ("last time we went nobody checked", 「前回は
# …言われんかった」), or what one's own does ("mine lasts about 8 hours", 「うちのは弱なら8時間いける」).
_TELLS_A_CASE = re.compile(
    r"^(?:(?:we|i) (?:\w+ )?)?last (?:time|year|summer|winter|month|week)\b(?! (?:i checked|i looked)\b)"
    r"|^(?:mine|my (?:\w+ ){1,2}?)(?:lasts?|lasted|does|did|runs?|ran|goes|went|works?|worked|handles?"
    r"|handled|(?:is|was|has been) fine|gets|got|holds?|held)\b"
    r"|^(?:前回|この前|こないだ|去年|昨年|先月|先週|前行った時|前やった時)(?:は|も)?[、,\s]?\S"
    r"|^(?:うちの|うちは|俺の|おれの|私の|わたしの|僕の|ぼくの|自分の)\S*?"
    r"(?:いける|いけた|もつ|もった|持つ|持った|大丈夫|問題ない|問題なかった|平気|できる|できた)"
)
_JA_HEARSAY = re.compile(
    r"(?:らしい|みたい|っぽい)(?:で|よ|ね|だよ|やで|です|やって|だって)?[ｗw笑!！。〜ー]*$"
    # … or what one was told, first thing: 「午後からやって。午前中勝負やな」, 「中止なんだって」
    r"|^[^。！!？?]{1,16}(?:から|まで|なん|なの|んの|\d[%％]?)(?:やって|だって)(?:[。！!ｗw笑〜ー]|$)"
)
# How a thing stands, asked: 「土曜の雨予報どうなってる？」, 「あの件どんな感じ？」 (told by what one heard).
_JA_ASKS_HOW_IT_STANDS = re.compile(r"どうなって(?:る|た|ん|の)|どんな感じ")


_KANA_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # Japanese, not an emoji or "£2"


_JA_VERB = re.compile(r"[うくすつぬふむゆるぐずづぶぷい]$")  # a verb's or adjective's dictionary form


DETAILED = 80  # characters of a question told with its details (half as many in Japanese)


def is_detailed(text: str) -> bool:
    """A question told with its details (a newcomer's setup, what they tried): its answer takes up its
    words or its shape, not whatever short line comes next ("ottoman builds character")."""
    return len(text) > (DETAILED // 2 if _KANA_KANJI.search(text) else DETAILED)


def _on_its_words(
    asked: str, text: str, common: frozenset[str], level: int = LOOSE, linked: bool = False
) -> bool:
    """Does the line take up the question's words: a distinctive one ("grub", 設定) or two, not a passing
    verb ("trying")? After others' lines (WORDS) one word must be a name or a version ("10.04", "ext4"),
    unless the reader too links the line to the question ("recording goes up friday" past a newcomer's
    question, to "is there a recording?")."""
    shared = shared_words(asked, text, common)
    if is_detailed(asked):
        # A verb alone (「入れとく」, 「出よう」, 「やりたい」) ties nothing to a long question, whose answer
        # takes up what it is about (「タンク誰やる？」「自分やるよ」: to a short one it may)
        shared = frozenset(w for w in shared if not _JA_VERB.search(w))
    if len(shared) >= 2:
        return True
    if linked and level < WORDS and any(not inflected(w) for w in shared):
        # "u igl, you're the only one who talks" to "who's igl tonight?": the reader agrees (a verb's form,
        # "called", ties nothing)
        return True
    if level == WORDS and not linked:
        return any(not w.isascii() or any(c.isdigit() or c in ".-_/" for c in w) for w in shared)
    # a figure of the question said back ("im 142" — "142 is plenty") is as distinctive as a name
    return any(
        not w.isascii() or any(c.isdigit() for c in w) or (len(w) >= 4 and not inflected(w)) for w in shared
    )


# How a next turn takes a question up when it names nothing: a fragment ("the one downtown", "a bit",
# "7ish") or someone volunteering ("I'm in", "I can take it") after a yes/no or who/anyone question.
_FRAGMENT = re.compile(
    r"^(?:the|a|an|at|in|on|by|around|about|after|before|from|with|just|only|maybe|probably"
    r"|bit|kinda|pretty|quite|fairly|mostly|super"  # how it is: "bit mushy tbh", "pretty solid"
    r"|\d[\d.,:]*(?:st|nd|rd|th|am|pm|k|x|h|m|s|ish)?)\b"
)


_VOLUNTEER = re.compile(
    r"^(?:(?:ya|yah|yeah|yep|yes|sure|ok|okay)[,!.]*\s+)?"  # "ya ill call"
    r"(?:i'?m in|i am in|me(?:!+|\s*$|\s+(?:but|too|tho|though|if|after|later|maybe)\b)"  # "me but after 9"
    r"|i can|i'?ll|i will|i do|i did|i have|me too|count me|we can"
    r"|(?:i )?(?:did|tried|used|done|ran|run) (?:it|that|this|those|them)|yep,? (?:did|tried|used)"
    # … or has one: "got them on my tenor"
    r"|(?:i )?(?:got|have|had|own|use|bought) (?:them|those|these|em|one|a pair|a set)"
    r"|(?:i )?(?:got|have) it (?=\w))\b"  # "got it in the car already" to "is anyone bringing the spare…"
)


# "the dash cancel change is the big one tho": a determiner's phrase that goes on as the subject of a clause
# is a statement of its own, no answer to what a word means or why ("what does plus on block mean?"); on
# anything else it may be ("the new tilemap layers are nice but…" to "anyone tried the 4.3 beta?")
_STATEMENT = re.compile(r"^(?:the|a|an)\s+(?:[\w'+-]+\s+){0,4}(?:is|are|was|were|has|have)\b")


_ASKS_MEANING = re.compile(r"\bwhat (?:does|do|did)\b.*\bmean|\bwhy\b")


_INVITES = re.compile(
    r"^(?:is|are|am|do|does|did|can|could|will|would|should|has|have|was|were|who)\b|\bany ?(?:one|body)\b"
)


# A Japanese yes or no said first, as the west and everyone say them: 「せやで、そのあと…」, 「ちゃうで」.
JA_YES_NO = re.compile(
    r"^(?:まあ|まぁ)?(?:うん|ううん|はい|いいえ|いや|せや|そう|そうそう|ちゃう|ちがう|違う|たしかに|確かに"
    # a guess confirmed: 「それくらい。…」 to 「中古で8000円くらい？」
    r"|それくらい|そのくらい|それぐらい|そのぐらい|そんなもん|そんなとこ|だいたいそう)"
    r"(?:で|よ|ね|な|だよ|やで|です)?(?:[、,。!！\s]|$)"
)


def _own_topic_first(asked: str, text: str) -> bool:
    """Does a Japanese line name a topic of its own first, one the question does not share
    (「キルゾーンの通路、…」 after a question on the forge)? What it then wonders is about that."""
    # a noun before the comma, not 「遊舎工房かな、」
    topic = re.match(r"^([^、。？?！!\s]{1,14}[一-龥ァ-ヶー])、", norm(text))
    return topic is not None and not shared_words(asked, topic.group(1), frozenset())


# A guess said outright: "probably the katana tbh", 「たぶん刀のほうが人気だった気がする」.
_GUESSED = re.compile(
    r"\b(?:probably|prob|i think|i thought|pretty sure|iirc|afaik|i guess|should be)\b"
    r"|たぶん|多分|気がする|はず|と思う|と思います|だったかな|やったかな"
)


def guessed_first(text: str) -> bool:
    """Does the line open with a guess said outright, then go on to ask or suggest ("probably the katana tbh.
    if you went faith maybe eonia?", 「たぶん刀のほうが人気だった気がする…エオニアもあり？」)?"""
    first = re.split(r"(?<=[。.！!…])\s*", text.strip(), maxsplit=1)[0]
    return first != text.strip() and not re.search(r"[?？]", first) and bool(_GUESSED.search(norm(first)))


def takes_up(
    asked: str,
    text: str,
    level: int,
    common: frozenset[str] = frozenset(),
    *,
    late: bool = False,
    linked: bool = False,
    picked: bool = False,
) -> bool:
    """Does this line read as a reply to the question (not a new topic) at this `level`: sharing a content
    word with it, a content shape (a version to "which version", "check the pinned message"); at SHAPE
    also a bare yes/no (まだ, そうだよ, "same here") or agreement to a proposal; at LOOSE also a short line
    (not when it comes minutes later, `late`: "heading to lunch"), a fragment, someone volunteering, an
    answer's form."""
    # "saturday 7 i think. night!!": the answer, then a goodnight on the way out
    said = _LEAVING_AFTER.sub("", text)
    if said != text and said.strip():
        return takes_up(asked, said, level, common, late=late, linked=linked, picked=picked)
    # "lol classic", "brb", "night all", "welcome!": not answers
    if (
        laughs(text)
        or steps_away(text)
        or says_farewell(text)
        or welcomes(text)
        # 「夕方走れるかな〜」: wondering about one's own plans (not 「出すで。連鶴にしよかな」, said first)
        or (muses(text) and not re.search(r"[。！!]\s*\S", text.strip()))
        or profile(text).kind == "hi"
    ):
        return False
    if _ASKS_FOR.search(norm(text)):
        return False  # "not the one where i tilted on my last ball pls": something asked for, no answer
    if invites(text) and not invites(asked):
        return False  # 「今夜ボイスで作業通話する人ー、22時から」: a plan of its own, put to the room
    # "probably 0.2mm?", 「たしか〜じゃなかった？」: an answer, unsure; not a joke (「雨男おるんちゃう？ｗ」)
    if (
        (guesses(text) or guessed_first(text))
        and level < WORDS
        and not JOKE_END.search(text)
        and not invites(text)  # 「…そろそろピークじゃない？みんなで行こうよ」: a plan of its own
        and not _own_topic_first(asked, text)  # 「キルゾーンの通路、もう一段伸ばしたほうがいいかな」
    ):
        return True
    if _on_its_words(asked, text, common, level, linked) or answer_shaped(asked, text, bare=level < WORDS):
        return True
    if opens_on_its_topic(asked, text):
        return True
    if level < WORDS and same_figure(asked, text) and not asks(text):
        return True  # "for ur rims 44 is fine ya" to "what valve length, 44mm?": the figure said back
    if level < WORDS and corrects_figure(asked, text):
        return True  # 「土日は700になったで」 to 「駐車場ってまだ500円やんな？」: the figure, as it is now
    if level < WORDS and asks_a_number(asked) and says_roughly(text) and not asks(text):
        return True  # 「ピークで12万くらい」 to 「同接何人いってたっけ」: a figure, roughly
    if level < WORDS and asks_a_number(asked) and _FIGURE_FIRST.match(norm(text)) and not asks(text):
        return True  # 「4.2mを2本。…」 to 「これ長さ何メートル？」: the figure, said first
    if (
        level < WORDS
        and asks_a_number(asked)
        and _FIGURE_BOUND.search(_first_clause(text))
        and not asks(text)
    ):
        return True  # "keep it under 80F. …" to "whats the safe temp range for them?": a bound, told
    if level < WORDS and asks_a_number(asked) and _FIGURE_SOON.match(norm(text)) and not asks(text):
        return True  # "ran 130 no problem, …" to "what's the most segments you've had…?": told early
    if (
        level < WORDS
        and _ASKS_DEGREE.search(norm(asked))
        and _SAYS_DEGREE.search(norm(text))
        and not asks(text)
    ):
        return True  # 「クリームチーズっぽいくらい」 to 「どのくらい固くしたいの？」: a degree, by a likeness
    if level < WORDS and _ASKS_WHAT_THEY_USE.search(norm(asked)) and _TELLS_A_SPEC.search(norm(text)):
        return True  # "5mm, label says worsted / 4" to "what hook and yarn are you using?": theirs, told
    if _ASKS_AGAIN.search(norm(asked)) and _SAYS_THIS_TIME.search(norm(text)) and not asks(text):
        return True  # "captains draft this time" to "bingo teams random again?": how it is now, told
    if _ASKS_STILL.search(norm(asked)) and _SAYS_STILL.match(norm(text)):
        return True  # "still on, just moved to the convention center" to "is the fall expo still happening?"
    if level < WORDS and _JA_RECOMMENDS.match(norm(text)) and not asks(text):
        return True  # 「オトシンクルスにしとき。…」 to 「小さいのはおらんの？」: a pick, recommended
    if level < WORDS and _SEEKS_AGREEMENT.search(norm(asked)) and relates(text):
        # 「わかる、あれプロかと思った」 to 「隣の人めちゃくちゃ歌うまくなかった？」: the same felt
        return True
    if level < WORDS and _ASKS_AROUND.search(norm(asked)) and _TELLS_OWN.match(norm(text)) and not asks(text):
        return True  # 「うちまだデイジーで…」 to 「最近みんなカスタム何使てる？」: their own, told
    if (
        level < WORDS
        and (_ASKS_AROUND.search(norm(asked)) or _ASKS_WHAT_THEY_USE.search(norm(asked)))
        and _NAMES_A_PICK.match(norm(text))
    ):
        return True  # 「complementary一択」 to 「みんなシェーダー何入れてる？」: a pick, named as one
    if level < WORDS and counts_people(asked) and _NAMES_WHO_COMES.match(norm(text)) and not asks(text):
        return True  # "me and priya i think" to "how many of you? i've got 3 seats": a headcount, by name
    if level < WORDS and _ASKS_ENOUGH.search(norm(asked)) and _COUNT_FIRST.match(norm(text)):
        return True  # 「いま5人。あと一人おったらいける」 to 「メンツ足りとる？」: how many so far
    if level < WORDS and tells_own_experience(asked, text):
        return True  # "saw one at the covent garden store, …" to "has anyone seen the titanium T Line?"
    if level < WORDS and asks_yes_no(asked) and not is_detailed(asked) and _SOURCED.search(norm(text)):
        # 「県の道路情報だと今週末から開通」 to 「今年はもう開いてる？」: what a source says
        return not asks(text)
    if level < WORDS and asks_yes_no(asked) and _EN_HEARSAY.match(norm(text)) and not asks(text):
        return True  # "doc said hes on it" to "are we short a medic again tonight or did someone pick it up"
    if level < WORDS and asks_yes_no(asked) and _TELLS_A_CASE.match(norm(text)) and not asks(text):
        # 「前回は21時までは何も言われんかったで」 to 「…警備員さんに止められへん？」, 「うちの500Whで弱
        # なら8時間いける」 to 「…一晩もつ？」: what happened last time, or what their own does, told
        return True
    if (
        level < WORDS
        and _JA_ASKS_EXPERIENCE.search(norm(asked))
        and _JA_PAST_SAID.search(norm(text))
        and not asks(text)
    ):
        return True  # 「去年やったよ。…」 to 「…で腰やったことある人いない？」: it happened to them, told
    if level < WORDS and gives_verdict(asked, text):
        return True  # "fine for small stuff, streaky on big panels" to "has anyone tried the eco-flo dyes?"
    if same_figure(asked, text) and agrees(text) and not asks(text):
        return True  # "9 works for me" to "9 est like usual?", past another pair's line: the figure agreed
    line = profile(text)
    if level == WORDS:
        return False
    if line.kind in ("yes", "no") and not disbelieves(text):
        return True
    if level == LOOSE and asks_yes_no(asked) and on_a_condition(text) and not asks(text):
        return True  # 「22時以降ならいける」 to 「明日の夜もまた通話する？」: yes, on a condition
    if level == SHAPE or line.kind in ("lol", "thx") or _bare_ack(text):  # "ok", "nice": heard, not answered
        return False
    if asks_a_number(asked) and not says_a_figure(text) and not counts_people(asked):
        return False  # 「じゃあヒーラーは私で」 to 「…いつまでだっけ？」: a when or how many wants a figure
    if _JA_PAST_ASKED.search(norm(asked)) and _JA_PAST_SAID.search(norm(text)) and not asks(text):
        return True  # 「朝起きたら落ちてた😇」 to 「昨日のレンダリング終わった？」: what happened, told
    if line.answer:
        return True
    low = norm(text)
    stands = asks_yes_no(asked) or _JA_ASKS_HOW_IT_STANDS.search(norm(asked)) is not None
    if not low.isascii() and stands and _JA_HEARSAY.search(low) and not asks(text):
        return True  # 「午後から降るらしいで」 to 「明日って雨なん？」: what is said, told
    if not late and (len(low.split()) <= 3 if low.isascii() else len(low) <= 8):
        return True
    # 「どこになったんだっけ」 — 「葛西臨海公園！土曜の10時集合」: a brief answer first, then more
    head = re.split(r"[！!、,。…\s]", low, maxsplit=1)[0]
    named = len(head) <= 12 and bool(_JA_NOUN_END.search(head))  # a name, a place, a time: no verb
    named = named or bool(
        _JA_TITLE_FIRST.match(low)
    )  # 「『坊っちゃん』から入るのが無難」: a title named first
    named = named or bool(_JA_LISTED.match(low))  # 「オレンジ2本とピンク1本」: things listed, no verb
    choice = named or _JA_CHOICE.search(low) is not None
    if not late and not low.isascii() and _JA_WH.search(norm(asked)) and choice and not asks(text):
        return True
    if picked and not late and _ASKS_WHICH.match(norm(asked)) and _names_one(low):
        # "mclaren by a mile, like 3 tenths" to "whos got the best medium pace so far?", where the reader too
        # reads it as going to the question
        return True
    if not late and low.isascii() and _brief_first(asked, low):
        return True  # "lot behind it, free after 6" to "…have parking or is it street only": brief, then more
    if _FRAGMENT.match(low):
        return not (_STATEMENT.match(low) and _ASKS_MEANING.search(norm(asked)))
    return bool(_VOLUNTEER.match(low) and _INVITES.search(norm(asked)))


_JA_TITLE_FIRST = re.compile(r"^[『「【][^』」】]{1,30}[』」】]")


# A line that opens by sharing what was said or felt (「わかる、…」, "same lol", "ikr").
_RELATES = re.compile(
    r"^(?:わかる|分かる|わかりみ|それな|ほんとそれ|まじそれ|same|mood|relatable|me too|ikr|so true)"
    r"(?:\W|$|[ｗw笑〜ー])"
)


def relates(text: str) -> bool:
    """Does the line open by sharing the feeling ("same lol", 「わかる、…」)?"""
    return bool(_RELATES.match(norm(text)))


# A question put for agreement, negatively: 「…うまくなかった？」, "wasn't that set insane?"
_SEEKS_AGREEMENT = re.compile(
    r"(?:なかった|くない|じゃない|やない|ちゃう|へん|ひん)(?:か|の|ん)?[？?]"
    r"|^(?:\S+\s+)?(?:wasn'?t|isn'?t|didn'?t|doesn'?t|aren'?t|weren'?t|don'?t)\b"
)


# Something asked for, not said: "send it pls", "not that one please".
_ASKS_FOR = re.compile(r"\b(?:pls|plz|please|pleas+e)[\s!.🙏]*$")


# Someone's experience of a thing, asked ("has anyone tried the eco-flo dyes?"), and a verdict on it, first
# thing ("fine for small stuff, …", "meh, …", "not worth it imo").
def gives_verdict(asked: str, text: str) -> bool:
    """Does the line say how something was found ("have two, they're fine…") to "has anyone tried…?"?"""
    low = norm(text)
    owned = _OWNED.search(low) and _PAST.search(low) and len(low.split()) <= 15  # "juno solved hers in 4 min"
    told = _VERDICT.match(low) or owned
    return bool(_ASKS_TRIED.search(norm(asked)) and told) and not asks(text)


# How it went with the thing asked about: "juno solved hers in about 4 minutes", "ours lasted a week", "we
# used them all summer" (not "i pushed the docs fix": nothing of it said).
_OWNED = re.compile(r"\b(?:mine|ours|hers|his|theirs|it|them)\b")
_PAST = re.compile(r"\b(?:\w{3,}ed|got|had|took|broke|ate|went|was|were|did|made|gave|wore|tore|lasted)\b")


_ASKS_TRIED = re.compile(
    r"\b(?:any ?one|any ?body|some ?one|who|you|u|y'?all) (?:ever )?(?:tried|used|played|run|owned|had)\b"
)
_VERDICT = re.compile(
    # "have two, they're fine": owning or having tried them, said first
    r"^(?:(?:i )?(?:have|got|own|had|use|used|tried)(?: (?:one|two|three|a couple|a few|some|them|it|\d+))?"
    r"[,.;]?\s+(?:and )?)?"
    r"(?:(?:yeah|yep|ya|yes|tbh|honestly|imo)[,.]?\s+)?(?:it'?s |its |they'?re |theyre |they are )?"
    r"(?:fine|good|great|decent|solid|meh|ok|okay|not bad|pretty good|pretty bad|terrible|awful|mid|garbage"
    r"|overrated|underrated|worth it|not worth it|amazing|love (?:it|them|em)|hate (?:it|them|em))\b"
)


# A brief answer first, then more ("lot behind it, free after 6", "new place, it's in #announcements") to a
# question that asks which, where or what: its first clause names it.
_OPEN_ASK = re.compile(r"\bor\b|^(?:\S+\s+)?(?:what|which|where|when|how many|how much|how long)\b")


def _brief_first(asked: str, low: str) -> bool:
    """Does the English line open with a clause of three words or fewer that names something?"""
    head = re.split(r"[,;—]|\s-\s", low, maxsplit=1)[0]  # not "beer traps!! saved my lettuce": exclaimed
    if head == low or len(head.split()) > 3 or not _OPEN_ASK.search(norm(asked)):
        return False
    words = head.split()
    return (
        bool(words)
        and words[0] not in _NOT_A_NAME
        and not _bare_ack(head)
        and not laughs(head)
        and not agrees(head)
        and profile(head).kind not in ("lol", "thx", "hi")
        and not asks(low)
    )


_LEAVING_AFTER = re.compile(
    r"(?:[.!,、。！]\s*|\s+)(?:good ?night|night|nite|gn|bye|cya|see ya|おやすみ\S*|じゃあね|またね)"
    r"[\s!！.〜ー~💤🌙]*$",
    re.IGNORECASE,
)


JOKE_END = re.compile(r"(?:[ｗ笑]|(?<![a-z])w|\blol|\blmao)[\s!！ｗw笑]*$", re.IGNORECASE)  # said laughing


# "who's got…?", "which one…?": answered by naming someone or something first ("mclaren by a mile").
_ASKS_WHICH = re.compile(r"^(?:so |ok |and |wait )?(?:who|whos|who's|who has|which)\b")


_NOT_A_NAME = frozenset(
    [
        "i",
        "im",
        "i'm",
        "ive",
        "i've",
        "id",
        "i'd",
        "you",
        "u",
        "ur",
        "we",
        "they",
        "he",
        "she",
        "it",
        "its",
        "it's",
        "that",
        "thats",
        "that's",
        "this",
        "there",
        "theres",
        "lol",
        "lmao",
        "lmfao",
        "omg",
        "wait",
        "so",
        "and",
        "but",
        "or",
        "if",
        "what",
        "why",
        "how",
        "when",
        "where",
        "who",
        "idk",
        "dunno",
        "no",
        "yes",
        "yeah",
        "yep",
        "nah",
        "ok",
        "okay",
        "hmm",
        "same",
        "me",
        "my",
    ]
)


def _names_one(low: str) -> bool:
    """Does a brief line (not a question) open with a name or a thing, not a pronoun or a reaction?"""
    words = low.split()
    return 0 < len(words) <= 10 and not asks(low) and words[0].strip(",.!") not in _NOT_A_NAME


# 「今回はダブル！」 to 「今回もシングル？」, 「土曜は無理」 to 「土曜は空いてる？」: the line opens on the
# question's topic (a word the question marks with も or は) and says what holds for it.
_JA_TOPIC_LEAD = re.compile(
    r"^(?:(?:あ|お|え|いや|うーん)[、,\s]*)?([\u4e00-\u9fff\u30a0-\u30ffa-z0-9]{2,8})は"
)


def opens_on_its_topic(asked: str, text: str) -> bool:
    """Does a Japanese line open on the topic the question is about (「今回は…」 to 「今回も…？」)?"""
    lead = _JA_TOPIC_LEAD.match(norm(text))
    return lead is not None and re.search(re.escape(lead.group(1)) + "[もは]", norm(asked)) is not None


# A figure told as a bound, in the line's first clause: "keep it under 80F", "no more than 2 tbsp",
# 「25度以下で」.
_FIGURE_BOUND = re.compile(
    r"\b(?:under|over|below|above|at least|at most|no more than|less than|more than|up to|max|min|between)"
    r"\s+\$?\d|\d+(?:[.,]\d+)?\s*[a-z%℃°]{0,4}\s*(?:以下|以上|未満|まで|前後|以内)"
)


# A figure in a line's first few words, after a verb: "ran 130 no problem", "got 42 on mine", "i did 8".
_FIGURE_SOON = re.compile(r"^(?:i |we |mine )?[a-z]{2,8} (?:like |about |around )?\d+(?:[.,]\d+)?\b")


def _first_clause(text: str) -> str:
    """The line up to its first full stop ("keep it under 80F" of "keep it under 80F. they can't sweat…")."""
    return re.split(r"(?<=[.!?。！？])\s*", norm(text), maxsplit=1)[0]


# A figure said first, with its unit or alone: 「4.2mを2本」, "12 i think", 「たしか3000円」.
_FIGURE_FIRST = re.compile(
    r"^(?:(?:約|だいたい|たぶん|多分|確か|たしか|like|about|around|roughly|maybe|prob)\s*)?\d+(?:[.,]\d+)?"
    r"(?:\s*[a-z%]{1,5}\b|\s*[ぁ-んァ-ヶ一-龥ー](?![目番])|[\s、,。.!！]|$)"  # not 「2点目の…」, an ordinal
)
# A Japanese question about what happened (「終わった？」「届いた？」) and a line that tells it, in the past.
_JA_PAST_ASKED = re.compile(r"[たっ]た(?:の|ん)?[？?]")
# Whether it ever happened to anyone: 「腰やったことある人いない？」, 「使ったことある？」.
_JA_ASKS_EXPERIENCE = re.compile(r"[たっだ]こと(?:ある|あり|ない)[^？?]{0,8}[？?]")


_JA_PAST_SAID = re.compile(
    r"(?:た|てた|でた|だった|ちゃった|じゃった|なかった)(?:わ|よ|な|ね|けど|し)?(?:[^\w]|$)"
)


_JA_WH = re.compile(
    # … and Kansai's なん: 「ブキ編成なんやったん」
    r"何|なに|どこ|いつ|誰|だれ|どれ|どの|いくら|なん(?:やった|やっけ|だった|だっけ|やねん|なん)"
)


# A choice named, then what one will do with it: 「いつものニンフィアで行くわ」, 「駅前のラーメンにする」.
_JA_CHOICE = re.compile(
    r"[\u4e00-\u9fff\u30a0-\u30ff]{2,}(?:で|に|を)(?:行く|いく|する|やる|決めた|頼む|持ってく|連れてく)"
)


# Something recommended, first thing: 「オトシンクルスにしとき」, 「ネオンテトラがおすすめ」.
_JA_RECOMMENDS = re.compile(
    r"^[^。？?！!]{1,20}(?:にしとき|にしとけ|にしたら|にすれば|にしな"
    r"|がおすすめ|がオススメ|がええで|がいいよ|がいいと思う)"
)


_JA_NOUN_END = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff0-9０-９]$")


_JA_LISTED = re.compile(
    r"^(?:[^\s、。？?！!]{1,10}?(?:と|や|、)){1,4}[^\s、。？?！!]{0,9}[\u4e00-\u9fff\u30a0-\u30ff0-9０-９]$"
)


_ACK = re.compile(
    r"^(?:ok|okay|k|kk|ah|oh|ahh|ohh|i see|alright|cool|nice|great|hmm+|なるほど|了解|りょ"
    # glad for someone's news ("yay", 「よかったー」): heard, not an answer to anything asked
    r"|yay+|congrats|grats|gz|よかった[ねー〜]*|おめでと[うー〜]*|やった[ーあ〜]*)[\W_]*"
)


def _bare_ack(text: str) -> bool:
    """Only an acknowledgement ("ok", "nice!"), not one that goes on to say something (「了解、10時ね」)."""
    ack = _ACK.match(norm(text))
    return ack is not None and not norm(text)[ack.end() :].strip()
