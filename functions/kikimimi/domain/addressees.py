"""Whom a line is for (pure): a question, where the words do not say (a room whose people name each other,
a brief question said back to someone's line where nobody does, a bump the bot already answered); a line
after a question, aimed at someone other than its asker (a reply, a mention, a name)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kikimimi.domain.memory.keywords import EN_STOP
from kikimimi.domain.model import Message
from kikimimi.domain.name_forms import JA_HONORIFICS
from kikimimi.domain.open_questions import NICK_PREFIX, NOT_NICKS, USER_MENTION, participants_of
from kikimimi.domain.reading import Link
from kikimimi.domain.reading.lexicon import EN_EXTRA_STOP
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import bumps, shifts
from kikimimi.domain.rule_terms import TO_THE_ROOM, directed_to, has_word, is_question, norm

# A room where people address each other by name (IRC's `nick:`) says who answers whom: there an unaddressed
# next line must answer by its shape or its words, as after a line about something else.
ADDRESSING_SHARE = 0.0


def addressing(around: Sequence[Message]) -> bool:
    """Do people around the question address each other by name (`nick: …`, a mention)?"""
    humans = [x for x in around if x.is_human]
    named = sum(1 for x in humans if NICK_PREFIX.match(x.content.strip()) or USER_MENTION.search(x.content))
    return named > ADDRESSING_SHARE * len(humans)


def _bare_name(name: str) -> str:
    return re.sub(r"[\W_]+", "", norm(name))


def _leads_with_a_name(m: Message, present: Mapping[str, str]) -> bool:
    """Does the line open with (or call) the name of someone else present: `bob, …`, `bob …`, `@bob`?"""
    others = {k: v for k, v in present.items() if v != m.author_name}
    first = norm(m.content).split(maxsplit=1)
    lead = _bare_name(first[0]) if first else ""
    return bool(lead and lead in {_bare_name(k) for k in others}) or directed_to(m, others) is not None


BRIEF = 60  # characters of a question said back in passing (half as many in Japanese)


def replies_to(
    question: Message, earlier: Sequence[Message], links: Mapping[str, Link], sure: float
) -> str | None:
    """Whom the question answers back, where nobody names anyone: the reader links it, sure, to another
    person's line ("40%?? where do ur numbers even go" after pell's new keyboard, 「え、どれ買ったの？」
    after 「新しいキーキャップ届いた！」). Such a question is theirs to answer, not the room's; None if not.
    Where people put names to whom they answer (`nick:`, mentions), an unnamed question is the room's."""
    link = links.get(question.id)
    if link is None or link.reply_to is None or link.confidence < sure:
        return None
    at = next((i for i, m in enumerate(earlier) if m.id == question.id), len(earlier))
    if names_as_a_habit(earlier, at):
        return None
    text = question.content
    if TO_THE_ROOM.search(norm(text)) or len(text) > (BRIEF if text.isascii() else BRIEF // 2):
        return None  # a question of substance (a newcomer's long one) is for the room, whatever it follows
    if shifts(text):
        return None  # 「てかトリルって何ターン続くんだっけ？」: a subject of its own, put to the room
    parent = next((m for m in earlier if m.id == link.reply_to), None)
    if parent is None or not parent.is_human or parent.author_id == question.author_id:
        return None
    # Someone's first line (a newcomer's question) answers no one back unless it says so ("wait, you…"); a
    # question on the words of another's question asks the same of the room, unless it turns to them.
    spoke = any(m.author_id == question.author_id for m in earlier[:at]) and not is_question(parent.content)
    return parent.author_name if _reacts_to(text, parent.content, words=spoke) else None


def in_an_exchange(
    question: Message, earlier: Sequence[Message], links: Mapping[str, Link], sure: float
) -> str | None:
    """Whom a brief question goes on talking with, where people seldom name whom they talk to: the one
    person its asker has been answering and been answered by in the room's last `EXCHANGE_LINES` lines, as
    the reader links them, sure (a regular helping another through questions: 「近くにエアコンあります？」,
    "also how long has it been sealed?"), when the reader puts it on that person's line or it goes on from
    the asker's own ("also …", 「あと、…」). Not a fact recalled (「…持ち込んでいいんだっけ？」), a how-to, or
    a question of substance: those are the room's, whoever the asker was talking with. None if not theirs."""
    if not asks_on(question.content):
        return None
    at = next((i for i, m in enumerate(earlier) if m.id == question.id), len(earlier))
    if names_as_a_habit(earlier, at):
        return None
    recent = {m.id: m for m in earlier[max(0, at - EXCHANGE_LINES) : at] if m.is_human}
    pairs = set()
    for m in recent.values():
        answered = links.get(m.id)
        target = recent.get(answered.reply_to or "") if answered is not None else None
        if target is not None and answered is not None and answered.confidence >= sure:
            pairs.add((m.author_id, target.author_id))
    me = question.author_id
    partners = {b for a, b in pairs if a == me and b != me and (b, me) in pairs}
    link = links.get(question.id)
    parent = next((m for m in earlier[:at] if link is not None and m.id == link.reply_to), None)
    low = norm(question.content)
    if parent is not None and parent.author_id in partners:
        partner = parent.author_id  # on the line of one of those it talks with, however many
    elif len(partners) == 1 and (
        _GOES_ON_OWN.match(low)
        or _CHECKS_IN.search(low)
        # the reader unsure where it goes, and it points back at what they were talking of ("how many hours
        # a day are they on?", to the one whose lights they were)
        or (
            (link is None or link.confidence < sure)
            and _POINTS_AT_THEIRS.search(low) is not None
            and _ASKERS_OWN.search(low) is None  # "can't I change it?": what the asker may do, anyone's
        )
    ):
        (partner,) = partners
    else:
        return None
    return next(m.author_name for m in recent.values() if m.author_id == partner)


def asks_on(text: str) -> bool:
    """Could the question go on from an exchange by its words alone: brief, not put to the room, not a new
    subject, a fact recalled, a how-to? (`in_an_exchange` reads the room only for such a one.)"""
    low = norm(text)
    head = _asked_sentence(text)
    brief = BRIEF if head.isascii() else BRIEF // 2
    if _GOES_ON_OWN.match(low):
        brief *= 2  # going on from one's own line (「あと、置き場所って…変えられそう？」) may say more
    return not (len(head) > brief or _ROOMS_TO_ANSWER.search(low) or TO_THE_ROOM.search(low) or shifts(text))


def _asked_sentence(text: str) -> str:
    """The sentence that puts the first question, without what was said before it (「電気は使用時間で考える
    人も多いです。日中ずっとその部屋で作業してます？」 asks 「日中ずっとその部屋で作業してます？」)."""
    head = re.split(r"(?<=[?？])", text, maxsplit=1)[0]
    return re.split(r"(?<=[。！!])\s*|(?<=[.])\s+", head)[-1] or head


# What a room answers, whoever asks it: a fact recalled (「…使えるんだっけ？」, "was it 9 again?"), a how-to.
_ROOMS_TO_ANSWER = re.compile(
    r"っけ|\bagain\?|どうやる|どうすれば|どうしたら|やり方"
    r"|\bhow to\b|\bhow (?:do|does|can|should) (?:i|you|we|u|one)\b"
)
# Going on from one's own line: "also …", "and …", 「あと、…」, 「それと…」, 「ついでに…」.
_GOES_ON_OWN = re.compile(
    r"^(?:also|and|plus|oh and|btw also)\b|^(?:あと|それと|あとさ|ついでに|それから|ちなみに)"
    r"|^[^?？]{8,}\b(?:btw|by the way)\W*[,?？]"  # "how are the saw cuts looking btw, ends flush…?"
)


# A word that points back at the thing two people were talking of, or at the one asked: "are they on all
# day?", "is it the 4ft one?", "your tray or the dome?".
_POINTS_AT_THEIRS = re.compile(r"\b(?:they|them|it|its|that|those|these|you|your|u|ur)\b")
_ASKERS_OWN = re.compile(r"\b(?:i|i'?m|im|i'?ve|my|me|mine|we|our)\b")


# How it went, asked of the one who went off to try: "any luck?", "how's it looking, steady steam yet?",
# 「いまどのへんまで進みました？」, 「いけた？」.
_CHECKS_IN = re.compile(
    r"^(?:so |ok |and )?(?:how'?s it (?:going|looking|coming along)"
    r"|how (?:is|did) it (?:go|going|look|looking)|how'?d it go|any luck|did (?:it|that) work|is it working"
    r"|any better)\b"
    r"|^(?:で、?|それで、?)?(?:いま|今)?(?:どうなった|どうでした|どうだった|いけた|できた|うまくいった|進んだ|直った)[？?]"
    r"|(?:どこ|どの(?:へん|辺))まで(?:進|いけ|でき)"
)


EXCHANGE_LINES = 12  # how far back a question's asker and another are read answering each other
# … and how many lines before those the reader reads first, so that the exchange's first lines are linked
# knowing what they answer (cut off there, "some cheap yellow one" loses the "what meter?" it answers).
LEAD_LINES = 8


def about_them(text: str) -> bool:
    """A question about what the one asked did, has or is ("did you update the package list?", "is your
    ubuntu brown or blue?", "you logged in with ssh?", "can you paste your lilo.conf?"), not the room's."""
    low = norm(text)
    if TO_THE_ROOM.search(low):
        return False
    if not low.isascii():
        asked = _asked_sentence(text)
        clause = re.split(r"(?<=[しど]、)", asked)[-1]  # 「…オフやろうし、いまWi-Fiつながってる？」: its ask
        return (
            len(clause) <= BRIEF // 2
            and _JA_ABOUT_THEM.search(norm(asked)) is not None
            and not _JA_WHEN.search(asked)
        )
    return _ABOUT_THEM.search(low) is not None


def asks_about_them(question: Message, earlier: Sequence[Message], links: Mapping[str, Link]) -> bool:
    """`about_them`, in a room where people seldom name whom they talk to (the room's last `ROOM_LINES`
    lines before it, `earlier`): a helper's question to the one helped, or theirs to the helper, whoever
    the reader links it to. Where people name whom they talk to as a habit, one put to a person names
    them ("have you done a media check on the install cd Nichola?"); a name now and then ("stevenj its
    the latest version") is no such habit."""
    if links.get(question.id) is None or not about_them(question.content):
        return False
    at = next((i for i, m in enumerate(earlier) if m.id == question.id), len(earlier))
    return not names_as_a_habit(earlier, at)


def names_as_a_habit(earlier: Sequence[Message], at: int) -> bool:
    """Do the people of the room's last `ROOM_LINES` lines before earlier[at] name whom they talk to as a
    habit (`nick: …`, a mention, a present name first), more than one line in ten?"""
    room = [m for m in earlier[max(0, at - ROOM_LINES) : at] if m.is_human]
    present = participants_of(earlier)
    named = sum(
        1
        for m in room
        if NICK_PREFIX.match(m.content.strip())
        or USER_MENTION.search(m.content)
        or _leads_with_a_name(m, present)
    )
    return named > NAMING_SHARE * len(room)


ROOM_LINES = 40  # how far back a room is read for whether its people name whom they talk to
NAMING_SHARE = 0.1  # at most one line in ten naming someone: a room that does not name whom it talks to


# What the one asked did, has or is, put to them. Not "do you need a swap partition?" or "can you run steam
# on arm?" (you, anyone), nor "did it work for you?"
_ABOUT_THEM = re.compile(
    r"(?:^|[.!?:;]\s+|\b(?:so|and|but|ok|okay|also|wait|then|hmm|um|oh|well|strange|ah)\b,?\s+)"
    r"(?:(?:are|were|did|have|had)\s+(?:you|u|ya)|(?:is|are|was|were|does|did|has|have)\s+(?:your|ur)"
    # what they still have or do: "do you still have the transit bolts?", "do you have the receipt?"
    # (not what anyone still needs: "do you still need a timed entry reservation for rmnp…?", a rule)
    r"|do\s+(?:you|u|ya)\s+(?:still|already|currently)\s+(?!need\b|have to\b|gotta\b|require\b)\w+"
    r"|do\s+(?:you|u|ya)\s+have\s+(?:the|your|ur|those|these|that|it|them)\b)\b"
    r"|^(?:you|u)\s+(?!can\b|could\b|should\b|would\b|might\b|need\b|have to\b|gotta\b|just\b)"
    r"[a-z']+[^?？]*[?？]"
    # a request to show or try something of theirs ("can you paste your lilo.conf?"), not a general "you"
    # ("can u trade when it's not ur turn?")
    r"|\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+)?(?:paste|pastebin|post|show|send|share"
    r"|check|try|run|tell|give|upload|open|look|type|copy|describe|explain)\b[^?？]*\b(?:your|ur)\b"
    # asked with a wh-word: what they are doing or did ("what version are you using?", "how did you remove
    # them?", "which version you using"), what their own thing says ("what does iwconfig say about your
    # wifi?"); not how anyone does it ("how do you change the resolution?")
    r"|\b(?:what|which|how|where|why)\b[^?？.!]*?\b(?:(?:are|were)\s+(?:you|u)\s+(?:\w+ing|on)"
    r"|(?:did|have|had)\s+(?:you|u)\s+\w+|(?:you|u)\s+using)\b"
    r"|\b(?:what|which)\b[^?？.!]*?\b(?:say|says|show|shows|output|print|report)\b[^?？.!]*?\b(?:your|ur)\b"
)


# … in Japanese, what they have fitted, use or did to their own setup, briefly: 「開閉センサーも付けてる？」,
# 「アプリ更新した？」, 「アダプターどれ使ってる？」 (not 「サーバー落ちてる？」, how a thing is, nor
# 「焼き会って何時からやった？」, a time recalled).
_JA_ABOUT_THEM = re.compile(
    r"(?:付け|つけ|使っ|つかっ|入れ|いれ|持っ|もっ|買っ|試し|やっ|挿し|刺し|設定し|更新し|変え|替え|設置し|繋い|つない"
    r"|接続し|登録し|組ん|取り付け|外し|巻い|貼っ|たりし|直し|つながっ|繋がっ"
    r"|のせ|乗せ|載せ|置い|敷い|塗っ|焼い|測っ|計っ|量っ|漬け|干し|混ぜ|寝かせ)"
    r"(?:てる|ている|てます|た|てた|ました|とる|とった)(?:ん|の|んです|のです)?(?:か)?[？?]+\W*$"
    # … said politely: 「何グラム使いました？」
    r"|(?:使い|入れ|付け|つけ|試し|買い|変え|替え|設定し|更新し|接続し|登録し|外し|直し"
    r"|のせ|乗せ|載せ|置き|敷き|塗り|焼き|測り|計り|漬け|干し|混ぜ|寝かせ)(?:て)?ました(?:か)?[？?]+\W*$"
    # … or how their own setting is: 「「制限なし」になっとる？」
    r"|[」』]\s*(?:に|って)なっ(?:てる|とる|てます)(?:ん|の)?[？?]"
)


_JA_WHEN = re.compile(r"何時|いつ|何日|何曜|何月|っけ")


# What shows a question reacting to the line before: surprise (え、, "wait"), "you", or that line's words.
_REACTION = re.compile(
    r"^(?:え|えっ|えー|まじ|マジ|ほんと|本当|wait|oh|ooh|huh|whoa|wow|damn|lol|really|no way)\b"
)
_YOU = re.compile(r"\b(?:you|your|yours|u|ur|ya|yourself)\b|あなた|君の|お前")


def _reacts_to(text: str, parent: str, *, words: bool = True) -> bool:
    """Does the question take up that line: surprise at it, asks "you", or (`words`) repeats its words?"""
    low = norm(text)
    if _REACTION.match(low) or _YOU.search(low) or _GUESS_THEN_WHY.match(low):
        return True
    return words and bool(profile(text).words & profile(parent).words)


# A guess at the cause or the fix, then why ("dusty bisque? crawling is almost always dust…", "vent it? arm's
# probably trapping air…"): put to the one whose trouble it is, whatever else it says.
_GUESS_THEN_WHY = re.compile(
    r"^(?!.*\b(?:what|who|where|when|why|how|which|any ?(?:one|body)|every ?(?:one|body)|y'?all)\b[^?]*\?)"
    r"(?:\S+ ){0,3}\S+\?+\s+[^?]{8,}$"
)


def bot_answered_the_bump(question: Message, earlier: Sequence[Message]) -> bool:
    """Is the question a bump ("anyone? 😅") by someone whose earlier question the bot answered since they
    asked it? Its answer is already there: a second one would only say it again."""
    if not bumps(question.content):
        return False
    at = next((i for i, m in enumerate(earlier) if m.id == question.id), len(earlier))
    own = {m.id for m in earlier[:at] if m.author_id == question.author_id}
    return any(m.is_self and m.reply_to_id in own for m in earlier[:at])


def for_another(m: Message, question: Message, room: Sequence[Message]) -> bool:
    """Does the line open with the name of someone in the room other than the asker (`bob, no …`)?"""
    lead = profile(m.content).lead
    names = {norm(p.author_name) for p in room if p.author_id not in (m.author_id, question.author_id)}
    return lead is not None and lead in names


def elsewhere(m: Message, question: Message, around: Sequence[Message], *, anywhere: bool = True) -> bool:
    """Aimed at someone other than the asker: a reply, a mention, the bot, or another person's name
    (`anywhere=False`: only a name it opens with; "ya the one rhea put up" is of rhea)."""
    if m.reply_to_id or m.mentions_bot or USER_MENTION.search(m.content):
        return True
    nick = NICK_PREFIX.match(m.content.strip())  # `nick: …` to someone, present or not, but the asker
    if nick and norm(nick.group(1)) not in (*NOT_NICKS, norm(question.author_name)):
        return True
    low = norm(m.content)
    if _ASKS_WHO.search(norm(question.content)):
        return False  # "who set it up?" — "pretty sure it was ravi": the name is the answer
    others = {
        x.author_name for x in around if x.is_human and x.author_id not in (m.author_id, question.author_id)
    }
    # "lol leo your cat…": said to leo; "it's ravi's turn", 「ラヴィの番」, 「つばめさんのまとめ」: of them.
    said = _POSSESSIVE.sub(" ", low)
    if not anywhere:
        if for_another(m, question, around):
            return True
    elif any(_named_in(said, name) for name in others) and not has_word(said, norm(question.author_name)):
        return True  # … unless it names the asker too: 「1番りな、2番はると、3番わたし」 lists them
    # "kev if you do dockge…": a part of kev_r's name first, then "you": said to him
    first = re.match(r"([a-z]{3,})\b", low)
    if first is None or not _TO_YOU.match(low, first.end()):
        return False
    return any(first.group(1) in re.split(r"[_.\-\d]+", norm(name)) for name in others)


def _named_in(low: str, name: str) -> bool:
    """Does the line name the person, but as the one who did something: their whole name, or a part of a
    Latin-letter one as `names` reads it ("wait jojo is sat doubles…" for jojo_k)?"""
    who = norm(name)
    rest = _of_them(low, who)
    if not who.isascii():
        return has_word(rest, who)
    for part in re.split(r"[_.\-\d]+", who):  # "pretty sure tatsu said $5 entry": of tatsu_b, not to him
        rest = _of_them(rest, part) if len(part) >= 3 else rest
    return has_word(rest, who) or names(rest, name)


def asks_who(text: str) -> bool:
    """Does the question ask who did something ("who even set that up", 「だれが付けたんだっけ」)?"""
    return bool(_ASKS_WHO.search(norm(text)))


_TO_YOU = re.compile(r",?\s+(?:\S+\s+){0,2}(?:you|u|ur|your|you're|youre)\b")
_ASKS_WHO = re.compile(
    r"\bwho(?:'s| is| was| did| added| made| set)?\b"
    # … or whether anyone did it: "did someone take my sieve home last time??"
    r"|\bdid (?:some|any) ?(?:one|body) (?!(?:know|see|watch|hear|try|get)\b)[a-z]+"
    r"|(?:誰|だれ)か[^？?。]{0,24}?(?:た|てない|てへん|てった)(?:の|ん)?[？?]"  # 「誰か…忘れてない？」
    r"|誰が|だれが|(?:誰|だれ)(?:だっけ|だった|でしたっけ)|誰の|だれの"
    # … or who it is: 「今週の鍵当番って誰？」
    r"|(?:って|は)(?:誰|だれ)(?:なん|なの|やっけ|ですか)?[？?]"
)


def _of_them(low: str, name: str) -> str:
    """The line without the name said of them, honorific or not (「つばめさんのまとめ」,
    「まきえさんがまとめた」), or as the one who did something ("h2oh did a whole writeup", "ravi posted
    it"; not "ravi did you…")."""
    low = re.sub(re.escape(name) + JA_HONORIFICS + "?(?:の|が)", " ", low)
    return re.sub(re.escape(name) + _DID_IT, " ", low) if low.isascii() else low


# the name as the one who did it: "h2oh did a whole writeup", "ravi posted it" (not "ravi did you…")
_DID_IT = (
    r"\s+(?:did|made|wrote|posted|said|has|had|was|does|covered|explained|mentioned|shared|linked"
    r"|pinned|recorded|tested|built|found)\b(?!\s+(?:you|u|ya|y'?all)\b)"
)


_POSSESSIVE = re.compile(r"\S+(?:'s|’s|s'|の)(?=\s|$|\W)")  # a name said of someone: ravi's, ラヴィの


def names(text: str, name: str) -> bool:
    """Does the text name the person: their name, the first five letters or more of a long one ("salty"
    for saltyfries), or a part of it ("rob" for crimpy_rob), as a word; an everyday word for a name
    ("will", "max") does not count."""
    low, who = norm(text), norm(name).strip("_-. ")
    if not who.isascii():
        return (
            len(who) >= 2
            and who in low
            and (len(who) > 2 or not _KANA.fullmatch(who) or _said_as_a_name(low, who))
        ) or any(
            _called_by_part(low, part)
            for part in [*re.split(r"[の・_.\-\s]+", who)[1:], *_leading_parts(who)]
            if part
        )
    words = set(re.findall(r"[a-z0-9_]+", low)) - EN_STOP - EN_EXTRA_STOP
    parts = {p for p in re.split(r"[_.\-]+", who) if len(p) >= 3} - EN_STOP - EN_EXTRA_STOP
    short = {p for p in re.split(r"[_.\-]+", who) if len(p) == 2} - EN_STOP - EN_EXTRA_STOP
    # A part of a name in a long message is as likely a word of its own ("dev was 3:30 at 102°F" in a
    # newcomer's paragraph, with dev_dan in the room): parts count in a line of a few words.
    brief = len(low.split()) <= PART_NAME_WORDS
    return (
        (len(who) >= 3 and who in words)
        # not "panel" in a paragraph, nor "whistle" of whistlepig in "a cheap whistle clogging up"
        or (brief and any(len(w) >= 5 and who.startswith(w) and not _said_as_a_thing(low, w) for w in words))
        or (
            brief and any(_AS_A_NAME.search(re.sub(rf"\b{re.escape(p)}\b", "\0", low)) for p in parts & words)
        )
        or any(re.match(rf"{re.escape(p)}\s+{_ASKING}", low) for p in short)  # "mo what ups was it?"
        # … or a part of it first, asking, in a line of any length ("tern did you get any fish sounds or…")
        or any(re.match(rf"{re.escape(p)},?\s+{_ASKS_THEM}", low) for p in parts)
    )


_KANA = re.compile(r"[\u3041-\u30ffー]+")
# A name said in Japanese: at the start of a line or a clause, after `@`, with an honorific or a particle.
_JA_BEFORE = " 、。,.!！?？…「『(（@"
_JA_HONORIFIC = re.compile(r"(?:さ[ー〜]*ん|ちゃ[ー〜]*ん|くん|君|氏|様|さま|先輩|っち|[のはがも](?![ー〜]))")


def _called_by_part(low: str, part: str) -> bool:
    """Is a later part of a name called with a person's honorific (「鬼さん」 for 平泳ぎの鬼), where it begins
    a line or a clause?"""
    return any(
        _CLAUSE_OPENS.search(low[: hit.start()]) and _PERSON_HONORIFIC.match(low, hit.end())
        for hit in re.finditer(re.escape(part), low)
    )


def _leading_parts(who: str) -> list[str]:
    """The first letters of a Japanese name that people shorten it to before an honorific (「ねむいさん」 for
    ねむいドリッパー, 「浅煎りさん」 for 浅煎り党): two letters or more, the whole name left out."""
    return [who[:k] for k in range(2, len(who))]


_PERSON_HONORIFIC = re.compile(r"さ[ー〜]*ん|ちゃ[ー〜]*ん|くん|君|氏|様|さま|先輩")
_CLAUSE_OPENS = re.compile(r"(?:^|[ 、。,.!！?？…「『(（@]|そういえば|ところで|てか|ねえ|ねぇ|あと)$")


def _said_as_a_name(low: str, who: str) -> bool:
    """Is a short kana name said as a name, not as a piece of a word (かな in 「もんなんかな」): at the start
    of a line or a clause, with an honorific, or as the subject or owner (「けんの犬」, 「けんは？」)?"""
    return any(
        hit.start() == 0 or low[hit.start() - 1] in _JA_BEFORE or _JA_HONORIFIC.match(low, hit.end())
        for hit in re.finditer(re.escape(who), low)
    )


# A word said as a thing, not a name: after a determiner, an adjective between ("a cheap whistle", "my old
# salty bag").
_DETERMINER = re.compile(
    r"\b(?:a|an|the|my|your|ur|his|her|our|their|this|that|these|those|some|any|each|every|one|no)"
    r"\s+(?:[a-z'-]+\s+)?$"
)


def _said_as_a_thing(low: str, word: str) -> bool:
    """Is every use of the word in the line after a determiner (a thing named, not a person)?"""
    hits = list(re.finditer(rf"\b{re.escape(word)}\b", low))
    return bool(hits) and all(_DETERMINER.search(low[: hit.start()]) for hit in hits)


PART_NAME_WORDS = 25  # how long a line may be for a part of a name in it to name the person


# What a short part of a name ("mo" of mo_dev) opening a line is followed by when it calls them.
_ASKING = r"(?:what|where|which|who|why|how|when|did|do|does|is|are|was|were|can|could|u|you|ur)\b"
# asked of them: "tern did you …", "kai you coming" (not "wind did a number on the tent")
_ASKS_THEM = r"(?:(?:did|do|does|can|could|will|would|have) )?(?:you|u|ya)\b"


# A part of a name ("rob" of crimpy_rob) said as someone's, marked \0: asked after ("is \0 …", "ask \0")
# or doing something ("\0 is/still/bringing …"); not "the max speed" nor "good night".
_AS_A_NAME = re.compile(
    r"\b(?:is|was|does|did|has|can|will|ask|tell|where'?s|hows|how'?s)\s+\0(?!\w)"
    r"|\b(?:thanks|thank you|thx|ty|tysm|cheers)[,!\s]+\0(?!\w)"  # "got it, thx vic"
    r"|\0\s+(?:is|was|still|gonna|going|bringing|coming|doing|has|had)\b"
    # … or put first in a second sentence, asked: "11 works. dax you bringing the mini ramp pieces?"
    r"|[.!?;]\s+\0\s+(?:you|u|ur|did|do|are|can|could|will|would)\b"
    # … or said last, to the one asked: "can you bounce me the dialogue stem teo?", "you coming, dax?"
    r"|\b(?:you|u|ya|your|ur)\b[^?？.!]{0,60}?[\s,]"
    r"(?<!the )(?<!\ba )(?<!an )(?<!my )(?<!our )(?<!ur )(?<!your )(?<!this )(?<!that )(?<!his )(?<!her )"
    r"\0\s*[?？]"
)
