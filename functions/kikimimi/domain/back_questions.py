"""Questions back (pure): a question for the person before rather than the room — asked inside a
two-person exchange, back to the line just before it, a guess or a retort put as a question, a check on
what they did — whatever its words, theirs to answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import LINK, asks, asks_unmarked, called_first
from kikimimi.domain.question_kinds import guesses, kind_of, works_out
from kikimimi.domain.remarks import steps_away
from kikimimi.domain.reply_shapes import points
from kikimimi.domain.rule_terms import TO_THE_ROOM, directed_to, is_addressed, norm
from kikimimi.domain.topic_words import shared_words


def _to_one_away(question: Message, humans: Sequence[Message]) -> bool:
    """Did someone, in the last few lines, step away ("ok brb", 「ちょっと見てくる」) right after a line of
    the asker's to them: the asker's next question is for them, when they are back?"""
    for i in range(len(humans) - 1, max(-1, len(humans) - 4), -1):
        if humans[i].author_id != question.author_id and steps_away(humans[i].content):
            return i > 0 and humans[i - 1].author_id == question.author_id
    return False


def between_two(question: Message, before: Sequence[Message]) -> bool:
    """Asked inside a two-person exchange (the last lines by the asker and one other, taking turns), or a
    brief question back to the line just before ("what was that for?", "GET what?"), and not to the room
    ("anyone", 「誰か」): it is for the other person, as a line to them by name would be. A guess or a
    retort put as a question (`answers_with_a_guess`, `_surprised`) is for the lines it answers."""
    humans = [m for m in before if m.is_human and m.id != question.id][-5:]
    low = norm(question.content)
    other = bool(humans) and humans[-1].author_id != question.author_id  # the last line is someone else's
    if _HELLO.match(low):
        return False  # "hi, I'm trying to … and get this error, maybe…?": a newcomer's question to the room
    if answers_with_a_guess(question, humans) or (
        _surprised(question.content, humans) and not TO_THE_ROOM.search(low)
    ):
        return True  # an answer or a reaction to the lines before, whoever it names ("someone said…")
    if other and _reacts(question.content):
        return True  # 「何の話ｗ」, 「それ毎回言ってない？ｗ」, 「その色いいね、何の糸？」: for the speaker
    told = other and not asks(humans[-1].content)
    if other and _FELT_THEN_ASKS.match(low) and not TO_THE_ROOM.search(low):
        return True  # 「あらら。素材なに？ウール100？」 after 「セーター縮んでもうた…」: about their trouble
    if told and _JA_ASKS_WHICH_OF_IT.match(low):
        return True  # 「どれ買うん」 right after 「ほなポチるわ」: what they just said they would do
    if other and _EN_MARVELS.match(low):
        return True  # "wait it went UP?? ridiculous" at the screenshot just shown: a reaction, asked of none
    if told and _THE_ONE_WHERE.match(low):
        return True  # "the one where kev died in the first 2 minutes?" after "last night's run was cursed"
    if not TO_THE_ROOM.search(low) and _after_a_story(question, humans):
        return True  # 「結末は？」 two lines after 「…別れ話に聞き耳立てちゃってさ…」: for the teller
    if not TO_THE_ROOM.search(low) and _about_a_plan(question, humans):
        return True  # 「レンタルスペースって一人いくら？」 a few lines after the plan to book one: theirs
    if _asked_just_before(humans, question.author_name) and not _ASKS_WH.search(norm(question.content)):
        return True  # "honestly pretty good?? …" after "omar how'd the interview go?": omar's answer
    if TO_THE_ROOM.search(low):
        return False
    if _to_one_away(question, humans):
        return True  # "oh also is the bar on a power strip…?" after the helped one's "ok brb": theirs
    if other and _ADVICE_AFTER.search(norm(question.content)):
        return True  # "light roast? go finer and hotter" after "…its fighting me": advice, a check first
    if other and asks(humans[-1].content) and _CHECKS_WITH_YOU.match(norm(question.content)):
        return True  # "did u update the app?" right after "f1tv keeps kicking me… anyone else??": theirs
    if other and asks(humans[-1].content) and _SETTING_CHECKED.match(norm(question.content)):
        return True  # "camera on auto exposure?" right after "anyone else getting flicker…?": their setup
    if other and _JA_DONE_YET.match(norm(question.content)):
        return True  # 「もう入れた？重くなってない？」 right after 「アプデ来てるね」: how it went for them
    previous = humans[-1].content if humans else ""
    back = humans and (
        _asks_back(question.content)
        or _offers(question.content, previous)
        or _echoes(question.content, previous)
        or _asks_of_it(question.content, [m.content for m in humans if m.author_id == humans[-1].author_id])
    )
    if back and other:
        return True
    people = {m.author_id for m in humans} | {question.author_id}
    turns = sum(1 for a, b in pairwise(humans) if a.author_id != b.author_id)
    return len(humans) >= 3 and len(people) == 2 and turns >= 2


PLAN_LINES = 4  # a question this many lines after a plan may ask about it
# A detail of a plan asked: how much, what time, where, how many, how long.
_ASKS_A_DETAIL = re.compile(
    r"\b(?:how much|what time|where|how many|how long|how far)\b"
    r"|いくら|何時|なんじ|どこ|何人|何分|どのくらい|どれくらい"
)


# A greeting first: someone arriving with their own question ("Hello, today I updated …", 「こんにちは、…」).
_HELLO = re.compile(
    r"^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening))\b"
    r"(?:\s+(?:all|everyone|everybody|guys|folks|there|people))?\s*[,.!…:]"
    r"|^(?:こんにちは|こんばんは|おはようございます|はじめまして|初めまして)"
)


# Sympathy or alarm at what was just told, then a brief question about it: 「あらら。素材なに？」,
# "oof, what temp did you run it at?", "oh no which one?"
_FELT_THEN_ASKS = re.compile(
    r"^(?:あらら|あら|ありゃ|あちゃ[ーあ〜]*|うわ[ーあっ〜]*|まじか|マジか|えー+"
    r"|oh no+|oof|ouch|yikes|rip|no+o|aw+|damn)"
    r"[ー〜っ!！、,。.…\s]+[^?？]{1,40}[?？]"
)


# A brief check, then advice: "light roast? go finer and hotter, like 94-95", "on wayland? try x11 first".
_ADVICE_AFTER = re.compile(
    r"^[^?？]{1,30}[?？]+\s*(?:then |if so,? |if yes,? )?(?:try|go|use|just|grind|turn|set|switch|drop|bump"
    r"|you(?:'ll)? (?:need|can|should|want)|u (?:need|can|should|want))\b[^?？]*$"
    # 「ついでに水たまってへん？たまってたらキッチンペーパーで吸うといて」, 「冷えてない？なら温めてみて」
    r"|^[^?？]{1,20}[?？]+[^?？]{0,40}(?:といて|とき|ときな|てみて|でみて|してみ|たらええ|たらいい|ればいい|とけば)"
    r"[。！!ね〜ー]*$"
)
# A yes/no question to "you" checking what they did or have ("did u update the app?", "have you tried
# a different cable?", "r u on the beta?"), not to the room ("did you guys see…").
_CHECKS_WITH_YOU = re.compile(
    r"^(?:\S+[,:]\s*)?(?:wait |so |ok |and |hm+ |oh )?"
    r"(?:(?:did|have) (?:you|u|ya) (?:already |even |ever )?"
    r"(?:tr(?:y|ied)|updated?|install(?:ed)?|restart(?:ed)?|reboot(?:ed)?|check(?:ed)?|clear(?:ed)?|run|ran|plug(?:ged)?|turn(?:ed)?|enable(?:d)?|disable(?:d)?"
    r"|log(?:ged)? ?out|reinstall(?:ed)?|reset)"
    r"|(?:are|r) (?:you|u) (?:on|using|running))\b"
)

# A setting of theirs checked in a few words, with no verb of its own: "camera on auto exposure?", "vsync
# off?", "firmware up to date?", "cable in the front port?".
_SETTING_CHECKED = re.compile(
    r"^(?!.*\b(?:is|are|was|were|be|been|has|have|had|get|got|gets|goes|going|i|we|they)\b)"
    r"(?:\S+[,:]\s*)?(?:wait |so |hm+ |oh )?(?!(?:any ?one|any ?body|is|are|does|do|did|can|what|which|who"
    r"|where|how|why|when)\b)(?:[\w.-]+\s+){1,3}"
    r"(?:on|off|enabled|disabled|plugged in|up to date|set to|in|at)\b[^?？.!]{0,24}[?？]+\W*$"
)


# Whether the one before has done it yet, asked with no subject: 「もう入れた？」, 「まだ見てる？」.
_JA_DONE_YET = re.compile(
    r"^(?:え|えっ|お|おー)?[、,]?\s*(?:もう|まだ)[^、。？?\s]{1,10}(?:(?<!され|られ)た|だ|てる|でる)[？?]"
)


# A question word: "okay, where is that?" asks back, whatever was asked of its author.
_ASKS_WH = re.compile(r"\b(?:what|where|which|who|why|how|when)\b|何|なに|どこ|いつ|誰|だれ|どれ|どの|なんで")


# Which, what or where of what the one before just said they did or will do, in a few words: 「どれ買うん」,
# 「何作ったん？」, 「どこで買ったの」.
_JA_ASKS_WHICH_OF_IT = re.compile(
    r"^(?:で|ほんで|それで|え)?[、,]?\s*(?:どれ|何|なに|どこ|どっち)(?:を|に|で|から)?"
    r"[^\s？?、。]{1,5}(?:ん|の|んや|のん)[？?]*$"
)


# Surprise at what was just said or shown, then a word on it: "wait it went UP?? ridiculous".
_EN_MARVELS = re.compile(
    r"^[^?？]{1,40}(?:[?？]{2,}|[?？]!+)\s*(?:ridiculous|insane|crazy|wild|nuts|unreal|wow|damn|dang|lol|lmao"
    r"|bruh|wtf|no way|cmon|come on|rip|nice|love it|amazing|incredible|absurd|criminal)\W*$"
)
# Which one the one before means, checked: "the one where kev died in the first 2 minutes?", 「昨日のやつ？」.
_THE_ONE_WHERE = re.compile(
    r"^(?:wait |oh |you mean |u mean |like )?(?:the|that) (?:one|run|game|match|time|night|video|vid|thing"
    r"|guy|ep|episode|clip)"
    # … a word on it may follow: "the one where he strips all the armor off? yeah thats unhinged"
    r" (?:where|when|with|that|who|from|at|in)\b[^?？]{0,60}[?？]+(?:\s+[^?？]{1,40})?\W*$"
    r"|^(?:あの|その)?[^？?\s]{1,20}(?:の|た|てた|だった)(?:やつ|時|とき|回)(?:の(?:こと)?)?[？?]+[ｗw笑]*$"
)


# What comes next in someone's story, asked in a word: 「結末は？」, 「その後は？」, "and then?".
_JA_AND_THEN = re.compile(
    r"^(?:で|それで|んで|えっ?)?[、,]?\s*(?:[^\s？?、。]{1,6}は|どうなった(?:の|ん)?|その(?:後|あと)(?:は)?)[?？]+[ｗw笑!！]*$"
)
_EN_AND_THEN = re.compile(
    r"^(?:so |and |wait |ok )?(?:and then|then what|what happened(?: next| after| then)?|how did it end)\W*$"
)
_JA_TOLD = re.compile(r"(?:た|て|ちゃ|じゃ)(?:ん|の)?(?:さ|てさ|けど|て|ねん|んだけど)?[、,。…ｗw笑]")
# … or a brief question of what was in it, in the past: 「どこの会の人だったの？」, "who was it??"
_OF_THE_STORY = re.compile(
    r"^(?=[^？?]*(?:どこ|だれ|誰|何|なに|なん|どんな|どう|いつ))[^？?]{1,16}"
    r"(?:だったの|だったん|やったん|やったの|てたの|てたん|った(?:の|ん)|した(?:の|ん))[？?]+[ｗw笑!！]*$"
    r"|^(?:wait |so |and )?(?:who|what|where|which|how)\b[^?]{0,30}\b(?:was|were|did)\b[^?]{0,30}\?+\W*$"
)
STORY_LINES = 3  # how far back the story a brief "and then?" follows may be


def _after_a_story(question: Message, before: Sequence[Message]) -> bool:
    """A brief "and then?", or what was in it, after another member told what happened to them: only they
    can go on."""
    low = norm(question.content)
    and_then = (_JA_AND_THEN.match(low) or _EN_AND_THEN.match(low)) and not _ASKS_WH.search(
        low.split("は")[0]
    )
    if not (and_then or _OF_THE_STORY.match(low)):
        return False
    for line in before[-STORY_LINES:]:
        told = norm(line.content)
        if line.author_id == question.author_id or asks(line.content):
            continue
        if told.isascii() and len(told.split()) >= 10 and re.search(r"\b(?:i|my|me)\b", told):
            return True
        if not told.isascii() and len(told) >= 20 and _JA_TOLD.search(told):
            return True
    return False


def _about_a_plan(question: Message, before: Sequence[Message]) -> bool:
    """A detail (how much, what time, where) of a plan another member just put to the room, asked in its
    words: only they know it."""
    low = norm(question.content)
    if not _ASKS_A_DETAIL.search(low):
        return False
    return any(
        line.author_id != question.author_id
        and kind_of(line.content) == "proposal"
        and shared_words(line.content, question.content, frozenset())
        for line in before[-PLAN_LINES:]
    )


CALL_JOINED_SECONDS = 90  # how soon after a question put to the bot another's question on it joins it


def joins_a_call(question: Message, before: Sequence[Message], names: Sequence[str]) -> bool:
    """Does the question take up one another person just put to the bot, sharing its words (「キキミミ教えて、
    「ぬか喜び」の「ぬか」って…？」, then 「たしかに、米ぬかのぬか？」)? The bot's answer to the call answers
    it."""
    present = [m.author_name for m in before if m.is_human]
    calls = [
        m
        for m in before[-4:]
        if m.is_human
        and m.author_id != question.author_id
        and (question.created_at - m.created_at).total_seconds() <= CALL_JOINED_SECONDS
        and is_addressed(m, names, present) in ("mention", "name_call")
        and asks(m.content)
    ]
    return any(shared_words(m.content, question.content, frozenset()) for m in calls)


def _asked_just_before(humans: Sequence[Message], name: str) -> bool:
    """Was `name` asked by name in the last line, or in the one before it, past another's aside ("brb
    microwaving a burrito")?"""
    if humans and _asked_of(humans[-1], name):
        return True
    return len(humans) >= 2 and humans[-1].author_name != name and _asked_of(humans[-2], name)


def _asked_of(line: Message, name: str) -> bool:
    """Is the line another's question put to `name` by name ("omar how'd the interview go??", "ozzy do you
    need the cable too or just the pad", its mark left off)?"""
    if line.author_name == name:
        return False
    person = {norm(name): name}
    text = LINK.sub(" ", line.content)
    if not asks(line.content):
        return called_first(text, person) and _ASKS_YOU.match(norm(text)) is not None
    return directed_to(line, person) is not None or called_first(text, person)


# A name first, then "do you …": asked of them, with its mark or not.
_ASKS_YOU = re.compile(r"^\S+,?\s+(?:do|did|does|can|could|will|would|are|were|have)\s+(?:you|u|ya)\b")


# A brief Japanese question that laughs (「何の話ｗ」, 「それ毎回言ってない？ｗ」) or points at what was just
# said or shown (「その色いいね、何の糸？」, 「それってどこの？」): banter or curiosity about another's line.
_JA_LAUGHS_LAST = re.compile(r"^.{1,14}?[?？]*\s*[ｗw笑草]+[!！]*$")
_JA_POINTS_BACK = re.compile(r"^(?:え[ー〜っ]*|へー|いや|てか)?[、,]?\s*(?:それ|その|そっち|そこ|あれ|あの)")
# 「どれ？」, 「え、いつ？」, 「なにそれ」: a bare question word asked back.
_JA_BARE_WH = re.compile(
    r"^(?:え[ー〜っ]*|へー|まじ|ん)?(?:すご|すごい|いいな|まじか|やば)?[、,!！]?\s*"
    r"(?:どれ|どこ|どこの|なに|何|なんで|いつ|誰|だれ|どの|どっち|なにそれ|何それ)"
    r"(?:で|から|に|と|まで)?(?:ですか|だっけ|の)?[?？!！ｗw〜ー…]*$"
    # 「どんなテク？」, 「どういう意味？」, 「どうやって？」: what kind or how, asked back in a word or two
    r"|^(?:え[ー〜っ]*[、,]?\s*)?(?:どんな|どういう|どうやって|どうやったん)[^\s？?。、]{0,5}[?？!！ｗw〜ー…]*$"
)


def _reacts(text: str) -> bool:
    """A brief Japanese question reacting to another's line: laughing at it, or pointing back at it."""
    low = norm(text)
    if low.isascii() or not asks(low):
        return False
    short = len(low) <= 20 and bool(_JA_POINTS_BACK.match(low))
    marvels = _JA_MARVELS.match(low) is not None and not _ASKS_WH.search(low)
    marvels = marvels or _JA_PRAISE_FIRST.match(low) is not None  # 「ええやん、サイズぴったりちゃう？」
    return bool(_JA_LAUGHS_LAST.match(low) or _JA_BARE_WH.match(low)) or short or marvels


# A few words asked back, then marvelled at: 「この時間に？強い」, 「3周目？やば」.
_JA_MARVELS = re.compile(
    r"^[^？?]{1,10}[？?]+\s*(?:強い|つよ|強すぎ|すご|凄|えら|偉|やば|ヤバ|天才|神|さすが|流石|ウケ|草|笑|ｗ|w"
    r"|まじか|マジか|うらやま|羨ま|いいな|勇者|猛者|正気)[^？?]{0,4}$"
)


# Praise first, then a brief question on what was shown: 「ええやん、サイズぴったりちゃう？」.
_JA_PRAISE_FIRST = re.compile(
    r"^(?:ええやん|いいやん|いいね|ええな|すご|すごい|かわいい|可愛い|きれい|綺麗|めっちゃええ|かっこいい|かっこええ)"
    r"[ー〜!！、,。\s]+[^？?]{1,16}[？?]+[ｗw笑!！]*$"
)


# A question back: short, with a question word or a bare echo ("GET what?", "like?", 「駅前の？」).
_BACK = re.compile(
    r"^(?:\S+\s+){0,2}(?:what|which|why|how|where|who|when|like|really|huh|eh)(?:,\s*\w+)?\W*[?？]\W*$"
)  # "to what, astro?": a guess may follow the question word


# "what yeast?", "what distro?", "which ones?", "which one, the 888?": a guess of which may follow
_WHICH_ONE = re.compile(
    r"^(?:what|which)\s+[\w.-]+\s*[?？]+\W*$"
    r"|^(?:what|which)\s+[\w.-]+,\s*(?:the\s+)?[\w.'-]+(?:\s+[\w.'-]+)?\s*[?？]+\W*$"
)


# A brief question about what the one before just told, its subject a pronoun for it: "how did it even get
# in??" after "a raccoon got into my car today", "what did he say?".
_ABOUT_IT = re.compile(
    r"^(?:wait |ok |so |but )?(?:how|what|why|where|when)(?: (?:did|does|do|is|was|were|would|could|can))?"
    r" (?:it|he|she|they|that|this)\b[^?？]{0,30}[?？]+\W*$"
)


# One word asked back in surprise, its mark doubled: "again??", "wait tonight?!".
_ONE_WORD_BACK = re.compile(r"^(?:wait |oh |so |lol |bro )?[a-z']+\s*(?:[?？]{2,}|[?？]!+|!+[?？])\W*$")


def _asks_back(text: str) -> bool:
    """A brief question back to the line before ("what was that for?", "GET what?", "like?", "why?",
    "what yeast?", "again??")."""
    low = norm(text)
    brief = low.isascii() and len(low) <= 25
    told = low.isascii() and len(low.split()) <= 8 and bool(_ABOUT_IT.match(low))
    back = _BACK.match(low) or _WHICH_ONE.match(low) or _ONE_WORD_BACK.match(low)
    return told or (brief and (back is not None or low.endswith(" for?")))


# A guess or a suggestion put as a question, right after someone else's "where/what/when…?":
# 「駅前の定食屋は？」 after 「お昼どこ行く？」, "the one on 5th?" after "which cafe?".
# It answers them: it is theirs to take up.
_WH_ASKED = re.compile(
    r"^(?:\S+[:,]\s*)?(?:what|where|which|who|when)\b.*[?？]"
    r"|(?:何|なに|どこ|いつ|誰|だれ|どれ|どの|どっち)(?!か|も|でも).*(?:[?？]|する|行く|いく|食べる|やる)\W*$"
)
_JA_OFFER = re.compile(r"^.{1,14}(?:は|とか|とかどう|じゃない|でいい|かな)[?？]+\W*$")
_EN_OFFER = re.compile(r"^(?:what about|how about|maybe|perhaps|or|the|a)\b.{0,30}[?？]+\W*$")


def _offers(text: str, before: str) -> bool:
    """A brief guess or suggestion offered as an answer to the line before, a what/where/which question."""
    low, prior = norm(text), norm(before)
    if not _WH_ASKED.search(prior):
        return False
    return bool(_JA_OFFER.match(low) if not low.isascii() else _EN_OFFER.match(low))


def _asks_of_it(text: str, told: Sequence[str]) -> bool:
    """A brief Japanese question about a word of what the last speaker just told: 「島ってどこの島ｗ」 after
    「…「俺は島を買う」って…」, 「何色の猫？」 after a story of a cat — for the one telling it."""
    low = re.sub(r"[ｗw笑]+$", "", norm(text))
    if low.isascii() or len(low) > 12 or not told or asks(told[-1]):
        return False
    words = set(re.findall(r"[\u4e00-\u9fff]+|[\u30a0-\u30ff]{2,}", low)) - {"何", "誰", "何処", "何色"}
    return any(word in norm(line) for line in told for word in words)


GUESS_LINES = 4  # how far back a guess put as a question ("probably 9 i think?") may answer someone


def answers_with_a_guess(question: Message, before: Sequence[Message]) -> bool:
    """A guess put as a question ("probably around 9 i think?", 「22時じゃない？たぶん」), or a line that
    points to where the answer is ("i think it just reads what's posted here? the pinned post in #meta
    explains it"), after another person's question among the last lines: it answers them, it asks nobody."""
    if works_out(question.content):
        return True  # "~1.1k/hr with 3 rows so like 4k when its done?": their own estimate, whoever asked
    recent = [m for m in before if m.is_human and m.id != question.id][-GUESS_LINES:]
    if recent and recent[-1].author_id != question.author_id and _GUESSES_WHY.search(norm(question.content)):
        return True  # 「今年は麹多めにしたからかな」 after 「去年のより明るいですね」: why, as they guess it
    asked = any(m.author_id != question.author_id and _asked(m.content) for m in recent)
    # … or after a line that tells what its writer did not catch or know (「…聞き取れんかった」): a wonder
    wondered = (
        bool(recent)
        and recent[-1].author_id != question.author_id
        and _UNCAUGHT.search(norm(recent[-1].content))
    )
    return (asked or bool(wondered)) and (guesses(question.content) or points(question.content))


# What one did not catch or does not know, told: 「聞き取れんかった」, 「なんやったんやろ」, "couldn't hear
# what he said", "no idea what that was".
_UNCAUGHT = re.compile(
    r"(?:聞き取れ|聞こえ|分から|わから|読め|見え)(?:ん|へん|ない|なかった|んかった)|(?:なん|何)(?:やった|だった)(?:んやろ|んだろ)"
    r"|\bcould(?:n'?t|nt) (?:hear|tell|catch|read|see|make out)\b|\bno idea what\b|\bwonder what\b"
)


# A reason guessed: 「…したからかな」, 「…のせいかも」, "prob cause i used more koji?"
_GUESSES_WHY = re.compile(
    r"(?:から|ので|せい|おかげ)(?:か|かな|かなぁ|かも)[。…〜ｗw笑]*$"
    r"|^(?:prob(?:ably)? |maybe |i think |i guess )?(?:cause|because|cuz|bc) [^?？]{3,}[?？]?$"
)


_WH_OPENS = re.compile(r"^(?:\S+[:,]\s*)?(?:so |and |ok |wait )?(?:what|where|which|who|when|how)\b")


_KNOW_WH = re.compile(
    r"\b(?:any ?one|any ?body|some ?one|you|u) knows? (?:what|when|where|which|who|how|if|whether)\b"
    # … or a request to the room, its mark left off: "does anyone have the link to that guide"
    r"|^(?:does|do|did|can|could|has) (?:any ?one|any ?body|some ?one) (?:have|got|know|remember|still)\b"
)
# … or wondered aloud: 「キキミミって名前さ、誰がつけたんだろうね」
_JA_ASKED = re.compile(
    r"(?:何|なに|なん|どこ|いつ|誰|だれ|どれ|いくら|どう)[^。？?]{0,24}(?:だっけ|っけ|んだろう?|のかな|んやろ|やろか)"
)


def _asked(text: str) -> bool:
    """A question, with its mark or opening with a question word ("what time are ppl showing up tho",
    "anyone know when the next night is", 「何倍に薄めるんだっけ いつも忘れる」)."""
    low = norm(text)
    return (
        asks(text)
        or asks_unmarked(text)  # "do eggshells actually work or is that a myth"
        or bool(_WH_OPENS.match(low) or _KNOW_WH.search(low) or _JA_ASKED.search(low))
        or bool(_YES_NO_OPENS.match(low))
    )


# … or a yes/no question, its mark left off: "did they finally fix the harpoon rubberbanding"
_YES_NO_OPENS = re.compile(
    r"^(?:so |wait |ok )?(?:did|does|do|is|are|was|were|has|have|can|will)"
    r" (?:they|it|he|she|the|anyone|anybody|you|u|we|this|that)\b"
)


# Surprise at what someone just said, asked back: "38 hrs on one plate?? brave", "170 for a keyboard??",
# 「3時間並んだの！？」 — a few words and a doubled mark, taking up a word or a number of a line just before.
_SURPRISE = re.compile(r"^((?:\S+\s+){0,5}\S+?)\s*(?:[?？]{2,}|[?？][!！]|[!！][?？])")
SURPRISE_LINES = 3
# … longer, put as a statement: "the dragon that's been 'almost done' since 2021 has a TAIL??"
_LONG_SURPRISE = re.compile(r"^((?:\S+\s+){6,13}\S+?)\s*(?:[?？]{2,}|[?？][!！]|[!！][?？])")


# A retort: a few words of a line just before asked back, then a word on it ("jealous of a shirt from when i
# was 4? sure mate"); no question word or verb opens it.
_RETORT = re.compile(r"^((?:\S+\s+){0,8}\S+?)\s*[?？]\s+(?:\S+\s*){1,4}$")
_ASKS_FIRST = re.compile(
    r"^(?:is|are|am|was|were|do|does|did|can|could|will|would|should|has|have|any|anyone|anybody|what|how"
    r"|where|which|who|why|when)\b"
)


def _surprised(text: str, before: Sequence[Message]) -> bool:
    """Surprise at another's line just before, asked back with a doubled mark, or a retort echoing it;
    for them, not the room."""
    low = norm(text)
    said = _SURPRISE.match(low)
    if said is None and low.isascii() and not _ASKS_FIRST.match(low):
        retort = _RETORT.match(low) or _LONG_SURPRISE.match(low)
        said = retort if retort is not None and _echoed_word(retort.group(1), before) else None
    if said is None or _WH_OPENS.match(low):
        return False
    echoed = set(re.findall(r"\w+", said.group(1)))
    return (
        any(echoed & set(re.findall(r"\w+", norm(m.content))) - _FILLER for m in before[-SURPRISE_LINES:])
        if low.isascii()
        else any(_ja_echo(said.group(1), norm(m.content)) for m in before[-SURPRISE_LINES:])
    )


def _echoed_word(said: str, before: Sequence[Message]) -> bool:
    """A word of four letters or more taken up from one of the last lines."""
    words = {w for w in re.findall(r"[a-z]{4,}", said)} - _FILLER
    return any(words & set(re.findall(r"[a-z]{4,}", norm(m.content))) for m in before[-4:])


_FILLER = frozenset({"a", "an", "the", "on", "in", "at", "for", "of", "to", "it", "is", "that", "this", "u"})


def _ja_echo(said: str, line: str) -> bool:
    """A Japanese echo: two or more characters of the line just before taken up (「3時間並んだの！？」)."""
    return any(said[i : i + 2] in line for i in range(len(said) - 1) if not said[i : i + 2].isspace())


_ECHO = re.compile(r"^(.{1,24}?)[?？]{1,3}(?=\s|$|[^\x00-\x7f])")


def _echoes(text: str, before: str) -> bool:
    """An echo of the line before, asked back: "14h?? that's commitment" after "…14h in the fridge",
    「13万？安っ」 after 「13万ちょい」."""
    echo = _ECHO.match(norm(text))
    return echo is not None and len(echo.group(1).strip()) >= 2 and echo.group(1).strip() in norm(before)
