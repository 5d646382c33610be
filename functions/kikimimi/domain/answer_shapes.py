"""Whether a line's shape alone answers a question (pure): a yes or a no to a yes/no question, a figure
counted as asked, one of two things asked between, a time to "when", a place to "where", a pick to "any
recs?", a view to 「…かな」. What a reply says by its shape is reply_shapes.py."""

from __future__ import annotations

import re

from kikimimi.domain.memory.keywords import EN_STOP
from kikimimi.domain.open_questions import asks
from kikimimi.domain.question_kinds import asks_a_number, asks_yes_no, kind_of
from kikimimi.domain.remarks import adopts, agrees
from kikimimi.domain.reply_shapes import (
    ASKS_OTHERS,
    EN_SAME,
    EN_YES_NO,
    JA_YES_NO,
    answer_part,
    laughs,
    points,
    verdict_first,
    wonders_a_view,
)
from kikimimi.domain.rule_terms import normalized
from kikimimi.domain.whereabouts import (
    asks_after_a_thing,
    asks_if_there,
    says_where_it_is,
    says_where_it_is_en,
)

__all__ = ["answer_shaped", "counts_as_asked", "counts_otherwise", "tells_when"]
_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|noon|midnight)\b|[一二三四五六七八九十]"
    # … or an amount in words ("couple weeks of playing", "a few days", "half an hour")
    r"|\b(?:couple|few|several|half|dozen)\b"
)


# Whether something heard is true ("is it true that…", 「…って噂ほんと？」), and what someone said or wrote
# of it ("they said on stream…", 「ブログで…って言ってたよ」): an answer by its source.
_ASKS_TRUE = re.compile(
    r"\b(?:is it true|true that|is that true|is this true|any truth)\b|噂|(?:ほんと|本当|マジ|まじ)[？?]"
)
_HEARSAY = re.compile(
    r"\b(?:they|he|she|it) (?:said|says|posted|tweeted|announced|confirmed|mentioned)\b|\bsaid (?:on|in) \w+"
    r"|って(?:言って|いって|書いて|かいて|ツイートして|発表して|話して)(?:た|る|ました)"
    r"|(?:公式|ブログ|ツイート)(?:で|に)[^。]{0,30}(?:言って|書いて|発表)"
)


# When to do something, asked in Japanese and told by a moment, not a figure: 「…届いたくらいで」.
_ASKS_WHEN_JA = re.compile(r"どのタイミング|いつ(?:やる|する|頃|ごろ|くらい|ぐらい)|何時ごろ|何時頃")
_SAYS_WHEN_JA = re.compile(
    r"(?:くらい|ぐらい|頃|ごろ|たら|とき|時|前|後|まで)(?:で|に|かな|よ|やで|だよ|ね|がいい|がええ)?[。!！〜ー]*$"
)


# Who did something, asked ("the score carried so hard. who did it?") and told by describing someone ("same
# guy who did that whale documentary", "some studio from montreal").
_ASKS_WHO = re.compile(r"\bwho(?:'?s| is| was| did| made| wrote| composed| directed| drew| sang| voiced)\b")
_SAYS_WHO = re.compile(
    r"^(?:it'?s |it was |that'?s |that was |prob |probably |i think )?(?:the |some |same |that |this )+"
    r"(?:guy|dude|person|lady|woman|man|girl|composer|band|studio|artist|team|people|folks|director|author)s?"
    r"\s+(?:who|that|from|behind|as|named|called)\b"
)


# Whether a thing is any good, asked ("does freeze dried watermelon actually taste good or is it a tiktok
# thing", "is the pro version worth it?") …
_ASKS_A_JUDGEMENT = re.compile(
    r"\b(?:(?:actually|really|even) )?(?:taste|tastes|sound|sounds|look|looks|work|works)"
    r" (?:good|any good|ok|okay)\b|\b(?:any good|worth it|worth the (?:money|hype|price)|overrated|overhyped"
    r"|just hype|a (?:tiktok|hype) thing)\b"
)
# … judged first: "genuinely the best thing…", "honestly amazing", "so good", "not worth it", "mid"
_JUDGES = re.compile(
    r"^(?:(?:genuinely|honestly|tbh|ngl|absolutely|totally|100%|def(?:initely)?|so|very|really|super|kinda"
    r"|pretty|yeah|yes|yep|nah|no|oh)[,!\s]+)*"
    r"(?:the best\b|amazing|incredible|so good|really good|great|awesome|delicious|fantastic|worth it"
    r"|not worth|overrated|overhyped|meh\b|mid\b|awful|terrible|gross|underwhelming"
    r"|it'?s (?:great|good|fine|ok))"
)


# Leave asked ("does the garden let you bring tripods?", "are dogs allowed…?", 「三脚使っていいの？」) …
_ASKS_IF_ALLOWED = re.compile(
    r"\b(?:lets? (?:you|u|us|people|ppl|anyone)|allow(?:s|ed)?|(?:ok|okay|fine) to"
    r"|can (?:we|you|u|i|people|ppl) (?:bring|take|use|park|eat|drink|film|shoot|sit|enter|go in))\b"
    r"[^?？]*[?？]"
    r"|(?:て|で)も?(?:いい|OK|ok|オッケー|大丈夫)(?:の|ん)?(?:かな|ですか|でしょうか)?[？?]"
    r"|(?:OK|ok|オッケー|可)(?:なの|なん)?(?:かな|ですか)?[？?]"
)
# … and given with a limit said first: "handheld only unless…", "only if they're crated", "not unless…",
# 「小さい子用のだけOK」, 「許可証あればOK」 (not "my dog only eats…", 「三脚だけで3キロ」).
_ALLOWS_WITH_A_LIMIT = re.compile(
    r"^(?:[\w'-]+ ){1,3}only(?=$|[,.;!)]| (?:unless|if|with|though|tho|but|on|after|before|during)\b)"
    r"|^only (?:if|with|when|on|for|after|before|in|members|staff|the)\b"
    r"|^(?:(?:nope|no|nah)[,.]? )?not (?:unless|without|after|before)\b"
    r"|^[^？?。]{1,14}(?:だけ|のみ|限定)(?:なら)?(?:OK|ok|オッケー|いい|大丈夫|可|やで|だよ|だって|らしい|です|ね|よ|[！!。、〜ー]|$)"
    r"|^[^？?。]{1,14}(?:あれば|なら)(?:OK|ok|オッケー|いい|大丈夫|可)"
)
# An option offered for a yes (「いつものガストでいい？」, 「駅前の居酒屋でいいかな？」) …
_OFFERS_ONE_JA = re.compile(r"(\S{2,}?)で(?:いい|OK|ok|オッケー|大丈夫)(?:よね|かな|の|ん)?[？?]")
# … taken by saying it back with its particle (「いつもので〜」, 「駅前でおけ」; not 「コンビニで肉まん…」)
_SAYS_ONE_BACK_JA = re.compile(r"^([^\s、。！!？?]{2,8}?)で(?:[〜ー!！、。\s]|いい|OK|ok|おけ|よき|$)")


# How an event went, asked ("how did the preview go on friday??", 「発表会どうだった？」) and told ("it went
# really well", "went ok", 「めっちゃよかった」).
_ASKS_HOW_IT_WENT = re.compile(r"\bhow (?:did|was|were)\b[^?？]*(?:\bgo\b|[?？])|どうだった")
_TELLS_HOW_IT_WENT = re.compile(
    r"^(?:[^.!?]{0,20}[,.]\s*)?(?:it |that |the \w+ )?went (?:really |so |super |pretty |very |quite )?"
    r"(?:well|great|fine|ok|okay|badly|amazing|awesome|good|terribly|smooth(?:ly)?)\b"
    r"|^(?:[^。！!？?]{0,12}[、,]\s*)?(?:めっちゃ|すごく|かなり|普通に|まあまあ)?"
    r"(?:よかった|良かった|楽しかった|最高だった|微妙だった|大成功)"
)
# Picks asked for ("any recs for narrow feet?", 「おすすめある？」) and one named first ("skwamas. …",
# 「BG66一択」, 「私はナノジー98派〜」): a short name set off by a full stop, or said as the one to take.
_ASKS_FOR_PICKS = re.compile(r"\b(?:any )?(?:recs|recommendations?|suggestions?)\b|おすすめ|オススメ")
_NAMES_A_PICK = re.compile(
    r"^[a-z0-9][\w'-]*(?: [\w'-]+){0,2}\.\s"
    r"|^(?:私は|僕は|俺は|うちは)?[^\s、。！!？?]{2,20}?(?:一択|派|がおすすめ|がいい|いいよ|最強)"
)


# A thing asked for by its kind: "anyone know of a CLI AIM client…?", "can someone recommend a good markdown
# editor?", "any decent free alternatives to photoshop?" (not "know of a way to…", answered by how).
_ASKS_FOR_A_THING = re.compile(
    r"\bknows? (?:of )?(?:a|an|any)\b(?! (?:way|fix|workaround)\b)"
    r"|\b(?:recommend|suggest) (?:a|an|any|some)\b"
    r"|\bany (?:good |decent |free )*(?:[\w+-]+ ){0,2}(?:alternatives?|apps?|programs?|clients?|tools?"
    r"|editors?|players?|mods?|plugins?|packages?)\b"
    r"|\bwhat(?:'s| is) a (?:good|decent) \w+"
)
# Words a list of names is joined by: "centericq, pork", "obsidian / logseq", "vlc or mpv".
_NAME_JOINS = re.compile(r"[,/&\s]+|\b(?:or|and)\b")
# … and words no name is: a pronoun, a reaction, a word of any sentence (EN_STOP).
_NOT_NAMES = EN_STOP | frozenset(
    re.findall(
        r"\S+",
        "i im i'm ive i've you u ur we they he she it its it's that thats this there lol lmao omg wait so idk"
        " dunno no nope yes yeah yep nah ok okay hmm same me my nice cool ty thx np brb gtg afk ikr tbh imo"
        " btw rip oof ugh ah oh hi hey hello welcome gg wp haha hehe",
    )
)


def _names_only(line: str) -> bool:
    """Is the line one to four names and nothing else ("centericq, pork", "obsidian"): no word of a
    sentence, no question, no reaction?"""
    words = [w for w in _NAME_JOINS.split(line.strip(" .!")) if w]
    return (
        line.isascii()
        and 0 < len(words) <= 4
        and all(re.fullmatch(r"[a-z][\w.+-]*", w) and w not in _NOT_NAMES for w in words)
    )


# Whether there are any of a thing, asked: "any hand tools", "any left?" (not "any ideas?", "anyone").
_ASKS_IF_ANY = re.compile(
    r"\bany (?!(?:one|body|thing|ideas?|tips?|advice|help|chance|way|luck|news|update|good|decent)\b)[a-z]+"
    r"[^?？.!]{0,20}(?:[?？]|$)"
)
# A line that opens on how many there are: "couple of block planes…", "a few", "none left", "2 i think".
_COUNTS_FIRST = re.compile(
    r"^(?:(?:a|just|only|maybe) )?(?:couple|few|handful|bunch|some|lots|loads|tons|plenty|several|none"
    r"|nothing|one|two|three|four|five|\d+)\b(?! (?:of (?:you|us|them)|people|ppl)\b)"
)


def _offered_said_back(question: str, line: str) -> bool:
    """Does the line take the option the question offered by saying a word of it back with で?"""
    offered, said = _OFFERS_ONE_JA.search(question), _SAYS_ONE_BACK_JA.match(line)
    return offered is not None and said is not None and said.group(1) in offered.group(1)


def tells_where(question: str, line: str) -> bool:
    """Does the line tell the place a where-question asks for, by its name (「高円寺だよ」, "pullouts on the
    road before the lot"), where it is ("it's in the container under…") or a pointer to it (a map link)?"""
    q, low = normalized(question), normalized(line)
    if asks(line) or laughs(line):
        return False
    if _ASKS_WHERE_JA.search(q):
        return bool(_SAYS_THE_PLACE_JA.match(low) or points(line))
    if low.isascii() and _ASKS_WHERE_EN.search(q):
        return bool(_SAYS_A_PLACE_EN.match(low) or says_where_it_is_en(low) or points(line))
    return asks_if_there(q) and says_where_it_is(low)


def answer_shaped(question: str, line: str, bare: bool = True) -> bool:
    """Does the line's shape answer this question by itself: a pointer, a number or version to "which
    version"/"how many", and — if `bare` (right after the question, where a bare word can only mean it) —
    a yes/no or "same here" to a yes/no question, or agreement to a proposal."""
    q, low = normalized(question), normalized(line)
    if laughs(line):
        return False
    if points(line) or (asks_a_number(q) and _numeric(low) and _counts_alike(q, low)) or _picks(q, low):
        return True
    if _ASKS_WHEN_JA.search(q) and _SAYS_WHEN_JA.search(low) and not asks(line):
        return True  # 「トマトなら支柱のてっぺんに届いたくらいで」 to 「摘心ってどのタイミングで…？」
    if _ASKS_WHO.search(q) and _SAYS_WHO.match(low) and not asks(line):
        return True  # "same guy who did that whale documentary" to "who did the score?": someone, described
    if _ASKS_TRUE.search(q) and _HEARSAY.search(low):
        return True  # 「…って噂ほんと？」 — 「ブログで「夏っぽいもの撮った」って言ってたよね」: what was said
    if ASKS_OTHERS.search(q) and _NOT_JUST_YOU.search(low):
        return True  # "mine sounds like a jet around 3, it's not just you" to "is it just me or…"
    if _JA_ASKS_VIEW.search(q) and _JA_OPINION.search(low) and not asks(line):
        return True  # 「新品なら一回ショップでやってもらうのがいいよ」 to 「簡易のスプレーのやつでいいかな」
    if _ASKS_WHICH_JA.search(q) and _NAMES_ONE_JA.match(low) and not asks(line):
        return True  # 「オレンジや。白にならへん」 to 「ランプ何色になっとる？」: the one, named first
    if verdict_first(line):
        return True  # "those are perfect. what's the gap?" to "with what, feeler gauges?"
    if low.isascii() and _ASKS_A_JUDGEMENT.search(q) and _JUDGES.match(low) and not asks(line):
        return True  # "genuinely the best thing i've put in this machine" to "does it actually taste good…?"
    if low.isascii() and _EN_ASKS_WHAT_TO_DO.search(q) and _EN_INSTRUCTS.match(low) and not asks(line):
        return True  # "sign out…, then sync" to "do i have to return it or…": what to do, told
    if asks_if_there(q) and says_where_it_is(low) and not asks(line):
        return True  # 「グローブボックスに入ってた」 to 「充電カードって車に積んであるの？」: where it is
    if _ASKS_EVERYONES_WAY.search(q) and _TELLS_OWN_WAY.match(low) and not asks(line):
        return True  # 「…緑で書いてる」 to 「名詞の性ってみんなどうやって覚えてる？」: one's own way, told
    if asks_after_a_thing(q) and says_where_it_is_en(low) and not asks(line):
        return True  # "it's in the container under the hi-vis bag" to "did anyone find the spare token box?"
    if _ASKS_WHAT_IT_IS_JA.search(q) and _NAMES_IT_JA.match(low) and not asks(line):
        return True  # 「ブンブクだねそれ、…」 to 「[画像] これ。ウニ？」: what it is, named
    if low.isascii() and _ASKS_WHERE_EN.search(q) and _SAYS_A_PLACE_EN.match(low) and not asks(line):
        return True  # "pullouts on the road before the lot" to "where do you all park…?"
    if _ASKS_ARRANGED.search(q) and _AS_BEFORE.match(low) and not asks(line):
        return True  # "same as yesterday, gravel strip…" to "where we parking…?": as arranged
    if low.isascii() and _ASKS_WHO_SELLS_EN.search(q) and _SAYS_WHO_SELLS_EN.match(low) and not asks(line):
        return True  # "mudhole had 100yd spools last week" to "…back in stock anywhere…?"
    if (_ASKS_IF_ALLOWED.search(q) and _ALLOWS_WITH_A_LIMIT.search(low)) and not asks(line):
        return True  # "handheld only unless you buy the permit" to "…lets you bring tripods?": leave, limited
    if _offered_said_back(q, low) and not asks(line):
        return True  # 「いつもので〜」 to 「いつものガストでいい？」: the option offered, taken
    if _ASKS_HOW_IT_WENT.search(q) and _TELLS_HOW_IT_WENT.search(low) and not asks(line):
        return True  # "i was there, it went really well" to "how did the preview go on friday??"
    if _ASKS_FOR_PICKS.search(q) and _NAMES_A_PICK.match(low) and not asks(line):
        return True  # "skwamas. narrowest heel cup…", 「BG66一択」 to "any recs…?", 「おすすめある？」
    if (_ASKS_FOR_PICKS.search(q) or _ASKS_FOR_A_THING.search(q)) and _names_only(low):
        return True  # "centericq, pork" to "anyone know of a CLI AIM client…?": things named, nothing else
    if _ASKS_IF_ANY.search(q) and _COUNTS_FIRST.match(low) and not asks(line):
        return True  # "couple of block planes and a stanley no 4" to "… any hand tools": how many, told
    if _ASKS_WHERE_JA.search(q) and _SAYS_THE_PLACE_JA.match(low) and not asks(line):
        return True  # 「高円寺だよ、駅から5分くらい」 to 「店長の新しい店ってどこにできたんだっけ？」
    if not bare:
        return False
    if (
        low.isascii()
        and _ASKS_WHICH_EN.search(q)
        and _NAMES_ONE_EN.match(answer_part(low))
        and not asks(line)
    ):
        return True  # "B133HAN04.9, the ips one" right after "thats clean. which panel?": the one, named
    if _ASKS_ENOUGH.search(q) and _numeric(low) and not asks(line):
        return True  # 「…あと2ダース」 right after 「シャトル足りる？」: how many are left, counted
    if _ASKS_WHERE_JA.search(q) and _NAMES_PLACE_JA.match(low) and not asks(line):
        return True  # 「ジモティーで探したら…」 right after 「…どこで買うのが安い？」: a place, named
    if _JA_ASKS_RECALLED.search(q) and _JA_HEARD.search(low) and not asks(line):
        return True  # 「午後からって言ってた」 right after 「明日雨なんだっけ」: what was heard, passed on
    if kind_of(question) in ("proposal", "invitation") and agrees(line):
        return True
    if adopts(line):
        return (
            True  # 「いいね、それでいこ」 right after 「…に繋げない？」: a plan adopted, however it was put
        )
    said = answer_part(low)
    if not said.isascii() and _JA_ADVICE.search(said):
        return True  # 「…カメラマッチングにしてみ」 to 「…どうすれば」: advice is an answer
    # 「見た？？9回のあれ何ｗｗ」: the echo answers its first question
    first = re.split(r"[?？]", q, maxsplit=1)[0]
    # (a view wondered at, 「…伸ばしたほうがいいかな」, is one's own question, not a yes or a no)
    opinion = _JA_OPINION.search(said) and not wonders_a_view(said)
    ja = not said.isascii() and (JA_YES_NO.match(said) or _echoes(first, said) or opinion)
    yes_no = EN_YES_NO.match(said) or ja or (EN_SAME.match(said) and ASKS_OTHERS.search(q))
    if bool(yes_no) and asks_yes_no(q):
        return True
    # 「日曜どうする？ 上流のほう行く？」 — 「行く行く！」: the echo answers the yes/no asked second
    asked = re.findall(r"[^?？]+[?？]", q)[1:]
    return not said.isascii() and any(asks_yes_no(a) and _echoes(a.strip(), said) for a in asked)


# One of two things asked between ("was that on the new pc or the old laptop" — "new pc!!", "is the relay on
# racetime or just in vc" — "racetime, …"): the words on either side of "or", taken up first thing.
# (a word may hold "&": "campervan or b&bs")
_EITHER = re.compile(r"((?:[\w'&.-]+\s+)?[\w'&.-]+)\s+or\s+((?:[\w'&.-]+\s*){1,3})")
_NOT_A_CHOICE = frozenset(
    {
        "the",
        "a",
        "an",
        "on",
        "in",
        "at",
        "to",
        "of",
        "for",
        "just",
        "is",
        "it",
        "that",
        "this",
        "be",
        "should",
        "would",
        "will",
        "can",
        "could",
        "do",
        "does",
        "did",
        "i",
        "we",
        "you",
        "u",
        "my",
        "your",
        "not",
        "no",
        "yes",
        "so",
        "like",
        "maybe",
        "what",
        "which",
        "any",
        "anything",
        "something",
        "else",
        "whatever",
    }
)


def _picks(question: str, line: str) -> bool:
    """Does the line open by choosing one side of the question's "A or B" (or both, or neither)?"""
    either = _EITHER.search(question) if question.isascii() else None
    offered = either is not None or (not question.isascii() and bool(_WHICH_OF_TWO_JA.search(question)))
    if offered and _BOTH_OR_NEITHER.match(line.strip().lower()):
        return True  # 「両日やってる、14と15」 to 「土日どっちだっけ」, "both, the sat one's bigger"
    if either is None:
        return False
    sides = set(re.findall(r"[\w'&.-]+", either.group(1) + " " + either.group(2))) - _NOT_A_CHOICE
    # "woodward. dryline bulge…": the word chosen, its full stop left off
    said = [w.rstrip(".,") for w in re.findall(r"[\w'&.,-]+", line)[:3]]
    first = {form for w in said for form in (w, _OWNED.get(w, w))}
    if any(re.search(r"\d", w) for w in sides) and said and re.match(r"~?\d", said[0]):
        return True  # "2.8 on mine" to "… actually 3mm this batch or 2.7 again": a figure, measured
    if {w for w in sides if len(w) >= 2} & first:
        return True
    # "magnets. 3x1mm fit…" to "…magnetizing the doors or just gluing them": a side's verb, said first as
    # its thing, from the few words before the "or" (not "the relay starts at 8": its subject, said again)
    wider = sides | set(re.findall(r"[\w'.-]+", question[: either.start(1)])[-3:])
    head = said[0] if said else ""
    # "bookable, did it…" to "…takes bookings or is it just turn up", "shipped!" to "did it ship yet or…":
    # a side's word, or its verb, in another form
    if len(_word_stem(head)) >= 4 and _word_stem(head) in {_word_stem(w) for w in wider - _NOT_A_CHOICE}:
        return True
    return len(head) >= 5 and any(
        len(w) >= 5 and w != head and w[:5] == head[:5] for w in wider - _NOT_A_CHOICE
    )


_WHICH_OF_TWO_JA = re.compile(r"どっち|どちら")
_BOTH_OR_NEITHER = re.compile(
    r"(?:both|either|neither)\b|(?:両方|両日|どっちも|どちらも|両方とも|どっちでも|どちらでも|どっちもない|どちらもない)"
)


_SUFFIX = re.compile(r"(?:ings?|able|ible|ed|s)$")


def _word_stem(word: str) -> str:
    """The word without an ending of its form ("bookings", "bookable" → "book"; "shipped" → "ship")."""
    word = word.strip(".,'!")
    stem = _SUFFIX.sub("", word)
    return re.sub(r"([bdgmnprt])\1$", r"\1", stem) if stem != word else stem


# "theirs" picks "their server" from "is it on their server or ours"
_OWNED = {"theirs": "their", "ours": "our", "mine": "my", "yours": "your", "hers": "her"}


# How everyone does it, asked (「名詞の性ってみんなどうやって覚えてる？」, "how do you all store your
# flour?") …
_ASKS_EVERYONES_WAY = re.compile(
    r"(?:みんな|皆|皆さん|みなさん)[^？?。]{0,12}(?:どうやって|どうして|どう)[^？?。]{0,10}(?:てる|てます|ている|でる)[？?]"
    # … no one named: 「発泡スチロールの避難どうしてる？」 (not 「けんさん、…どうしてる？」: `elsewhere`)
    r"|(?:どうしてる|どうしてます|どうやってる|どうやってます|どうしとる|どうしてん)[？?]"
    r"|\bhow (?:do|does) (?:you all|y'?all|everyone|everybody|you guys|people here|folks)\b"
)
# … told as one's own, first: 「男性が青、…緑で書いてる」, "i keep it in the freezer", "we just…"
_TELLS_OWN_WAY = re.compile(
    r"^[^？?。]{2,40}?(?:て|で)(?:る|ます|います|いる)(?:よ|な|ね|わ|かな)?(?:[。、!！〜ー~]|$)"
    # 「うちは玄関に全部入れる。…」: one's own, said as such
    r"|^(?:うち|俺|おれ|私|わたし|僕|ぼく|自分)(?:は|も|では|なんか)[^？?]{2,40}"
    r"|^(?:i|we|me)(?:'m|'ve| am| have)? (?:just |usually |always |mostly |basically |still |normally )?"
    r"(?!think\b|dunno\b|don'?t know\b|have no\b|wonder\b|was\b|also\b)[a-z]+"
)
# "Same here", "me too": an answer to a question about others' experience ("is the wiki down for anyone
# else?", "just me?"), not to "can you plant garlic in spring?" (there it agrees with someone's line).
_NOT_JUST_YOU = re.compile(
    r"\bnot (?:just|only) (?:you|u)\b|\byou'?re not (?:alone|the only one)\b"
    # … or how it is for them: "hammering here too", "mine's fine, it's probably still generating"
    r"|\b(?:here|for me|on mine|at mine) too\b|\bsame (?:here|for me|on mine)\b"
    r"|\bmine(?:'s| is)? (?:fine|ok|okay|good|working|the same|too|as well|does it)\b"
)
# A view or advice that answers "should I…?", "is it…?": 「シャープナーで十分だと思う」, 「買わなくていいよ」,
# 「なんでもいい、キッチンペーパーで薄くね」, 「30秒くらいがいい、やりすぎると固くなる」.
_JA_OPINION = re.compile(
    r"(?:と思う|と思います|とおもう|でいい|で十分|で大丈夫|がいい|がええ|(?:なんでも|何でも|どれでも|どっちでも|どちらでも)(?:いい|ええ|大丈夫)|ほうがいい|方がいい|のがいい|なくていい|なくて大丈夫|いらない|要らない|いらん|要らん"
    r"|(?<![\d時分半日曜])(?:でok|でおk|でおけ))"  # not 「10時半でおk」: agreeing to a time proposed
    # … said first, the reason after it: 「放置でOK、食べてカルシウム補給するから」
    r"(?:よ|かな|けど|です|ね|でしょ|っしょ|だろ)*(?:\W*$|[、。,！!]\s*\S)"
    # … or what it does for you, said last: 「あると誤作動かなり減るよ」, 「入れとくと楽やで」
    r"|(?:と|ば|たら)[^？?、。]{0,14}(?:減る|減ります|増える|楽になる|楽|便利|安心|違う|変わる|助かる|マシ)"
    r"(?:よ|で|ね|な|です|だよ|やで)*[。！!〜ｗw笑]*$"
)
# Whether something will do, asked: 「簡易のスプレーのやつでいいかな」, 「先に洗ったほうがいい？」.
_JA_ASKS_VIEW = re.compile(
    r"(?:でいい|で大丈夫|でok|で足りる|ほうがいい|方がいい|べき)(?:の|ん)?(?:かな|か|でしょうか|ですか)?[？?ぁあ〜ー…]*$"
)
# Advice, said last: 「カメラマッチングにしてみ」, 「230まで下げてみて」, 「再起動すればいいよ」, and a bare
# "if you (had) done it" (「読み込みのとき「埋め込みとサイドカー」選んどけば」, 「入れとけば」)
_JA_ADVICE = re.compile(
    r"(?:てみ|てみて|てみな|てみたら|すればいい|したらいい|するといい|しとけ|しとくといい|がおすすめ|がオススメ"
    r"|[とど]けば|[てで]おけば)"
    r"(?:よ|ね|な|かも)*[。！!〜~ｗw笑]*$"
)
# Which colour, model or size, asked (「ランプ何色になっとる？」), and one named first (「オレンジや。…」).
# (or which of those had: 「今日の1位どれ？」)
_ASKS_WHICH_JA = re.compile(
    r"(?:何|なに|なん)(?:色|型|番|系|味|号|サイズ|モデル|バージョン|ver)|どれ(?:だった|やった)?[？?]"
)
_NAMES_ONE_JA = re.compile(
    r"^[\u30a0-\u30ff\u4e00-\u9fffa-z0-9ー・]{1,10}(?:や|だ|です|っす|よ|やで|だよ|かな[あぁー〜]?)?(?:[。、,.!！〜ー]|$)"
)

# Which one, asked in English ("which panel?", "what model is it?"), and one named first: a model's code
# ("B133HAN04.9, the ips one"), or "the blue one".
_ASKS_WHICH_EN = re.compile(r"\bwhich\b|\bwhat (?:model|version|brand|size|kind|type|panel|board|chip)\b")
_NAMES_ONE_EN = re.compile(
    r"^(?:the |a |an )?(?:[a-z]*\d[\w.-]*|(?:[\w-]+ ){1,2}one)(?:[,.!]|\s*$|\s+(?:from|on|at|i)\b)"
)


# Whether there are enough, asked: 「シャトル足りる？」, "do we have enough chairs?", "any left?".
_ASKS_ENOUGH = re.compile(r"足り(?:る|てる|ない|へん|ん)|残って(?:る|ない)|\benough\b|\b(?:any|some) left\b")


# What a thing shown is, asked by a guess (「[画像] これ。ウニ？」, 「それってカワセミ？」), and named
# (「ブンブクだねそれ」, 「ヒヨドリっぽい」).
_ASKS_WHAT_IT_IS_JA = re.compile(r"(?:これ|それ|あれ)(?:って|は)?[。、\s]?[^？?。、]{1,10}[？?]+\W*$")
_NAMES_IT_JA = re.compile(
    r"^[^、。？?\s]{1,12}(?:だね|だよ|やね|やな|やで|ですね|ですよ|っぽい|かも)(?:それ|これ)?(?:[、。!！\s]|$)"
)
# Where to get or find it, asked (「プレートってどこで買うのが安い？」), and a place named first
# (「ジモティーで探したら…」, 「駅前のカインズなら…」).
_ASKS_WHERE_JA = re.compile(r"どこ(?:で|に|の|が|から|なら)")
# Where, asked in English ("where do you all park for…?", "where's the best spot to…"), and a place told in
# the line's first words ("pullouts on the road before the lot", "the lay-by past the bridge")
_ASKS_WHERE_EN = re.compile(
    r"(?:^|[.!,]\s+)where(?:'s| is| are| do| does| did| can| should| would| to"
    r"| (?:we|you|u|ya|y'?all|they|people|ppl|everyone)(?= \w+ing\b))\b"
)
_SAYS_A_PLACE_EN = re.compile(
    r"^(?!(?:i|idk|dunno|no|not|never|nah|nope|lol|why|what|who|how)\b)[^?.,]{0,30}?\b(?:on|at|in|by|near"
    r"|behind|next to|off|along|outside|inside|across from|past|opposite|beside) (?:the|a|an|that|those)\b"
)
# Where or when a thing that recurs happens, asked, and the arrangement pointed back to ("same as
# yesterday, gravel strip…", "usual spot", 「いつものとこ」, 「前回と同じで」)
_ASKS_ARRANGED = re.compile(r"\b(?:where|when|what time)\b|どこ|いつ(?!も)|何時|なんじ")
_AS_BEFORE = re.compile(
    r"^(?:(?:prob(?:ably)?|prolly|i think|think|yeah|yep|ya|same place|same time)[ ,]+)?"
    r"(?:same(?: place| time| spot)? as (?:yesterday|last (?:time|week|month|year|round|session)"
    r"|before|always|usual|ever)|(?:the )?usual (?:spot|place|time)|like last time)\b"
    r"|^(?:たぶん|多分)?(?:いつもの(?:とこ|所|場所|ところ|時間|店|公園)"
    r"|(?:昨日|前|この前|先週|前回|去年|いつも)と(?:同じ|一緒|おなじ))"
)
# Who has it in stock, asked ("is the gunmetal prowrap back in stock anywhere…?", "anyone selling…?") …
_ASKS_WHO_SELLS_EN = re.compile(
    r"\b(?:back )?in stock\b[^?]{0,20}\b(?:anywhere|somewhere|yet)\b|\bwho (?:has|sells|stocks|had)\b"
    r"|\bwhere (?:can|do|did|could|should) (?:i|you|u|ya|y'?all|we|people) (?:get|buy|find|order|grab)\b"
    r"|\b(?:any ?one|any ?body) (?:selling|stock(?:ing)?|got|have) (?:the|a|an|any)\b"
)
# … told by the seller named first: "mudhole had 100yd spools", "rei still has them"
_SAYS_WHO_SELLS_EN = re.compile(
    r"^(?!(?:i|it|that|this|he|she|they|we|you|mine|nobody|no ?one|everyone|every|nothing)\b)"
    r"[a-z0-9][\w.&'-]*(?: [a-z0-9][\w.&'-]*){0,2} (?:still )?"
    r"(?:has|had|have|stocks|stocked|sells|restocked|got)\b"
)
# … or said to be the place: 「高円寺だよ」, 「駅前のビルやで」 (kanji or katakana, so not 「それだよ」)
_SAYS_THE_PLACE_JA = re.compile(
    r"^[\u30a0-\u30ff\u4e00-\u9fffー・の]{2,12}?(?:だよ|やで|です|だって)"
    r"(?:[、。!！\s〜ー]|$)"
)
_NAMES_PLACE_JA = re.compile(
    r"^[\u30a0-\u30ff\u4e00-\u9fffa-z0-9ー・の]{2,14}?(?:で|なら|に)(?![^、。]*[？?])"
)


# A fact recalled, asked (「明日雨なんだっけ」, 「土曜って雨予報ちゃうかった？」), and what was heard of it,
# passed on (「午後からって言ってた」, 「夜は降水確率30%やって」, 「昼過ぎかららしい」).
_JA_ASKS_RECALLED = re.compile(r"っけ|(?:ちゃう|じゃな|では?な)かった[？?]|だったよね[？?]")
_JA_HEARD = re.compile(
    r"(?:って言ってた|っていってた|って言うてた|言うとった|らしい|みたい|やって|だって|って話|って聞いた)"
    r"(?:よ|で|な|ね|わ|気がする|けど)*[。！!〜ーw笑]*$"
)


# What the asker must or should do, asked ("do i have to return it…", "how do i…", "should i…") and told
# by an instruction first thing ("sign out of overdrive…, then sync", "just hold both buttons").
_EN_ASKS_WHAT_TO_DO = re.compile(
    r"\b(?:do|should|would|can) i (?:have to|need to|just|still)\b|\bhow (?:do|can|should) i\b"
    r"|\bwhat (?:do|should) i (?:do|try)\b|\bdo i need\b|\bshould i\b"
)
_EN_INSTRUCTS = re.compile(
    r"^(?:(?:just|then|first|ok|yeah|yep|nah|no|nope)[,.!\s]+)*(?:sign|log|go|open|close|turn|set|try|use|hold"
    r"|press|click|tap|restart|reboot|reset|unplug|plug|remove|delete|install|reinstall|update|check|put|run"
    r"|add|drop|leave|keep|swap|replace|switch|change|clear|disable|enable|flash|tighten|loosen|back off"
    r"|re-?sync|sync|redo|return|borrow|don'?t)\b"
)
_JA_NOT = re.compile(r"(?:ない|なかった|ません|てない|らない)")


def _echoes(question: str, said: str) -> bool:
    """A Japanese yes or no said by echoing the question's verb: 「見た？」「見た見た」,
    「行く？」「行く行く！」, 「知ってる？」「知らない」, 「三脚あかんかったっけ？」「あかんで」."""
    tail = re.sub(r"(?:っけ|の|か|かな|よね|ね)?[?？!！\s]*$", "", question)[-6:]
    head = re.split(r"[、,!！。\s]", said, maxsplit=1)[0]
    if len(head) < 2 or len(head) > 12:
        return False
    negated = "\u4e00" <= head[0] <= "\u9fff" and head[0] in tail and bool(_JA_NOT.search(head))
    return head[:2] in tail or negated


# A Japanese question names what it counts (何度, 何時間, 何人): the number that answers it counts the same
# (「60度で2時間」, not 「週5って言ったら…」 said of something else).
_COUNTERS = (
    r"度|時間|時|日|人|回|個|分|歳|円|枚|本|台|曜|泊|年|月|週|割|キロ|km|センチ|cm|ミリ|mm|匹|杯|冊|件|着"
    r"|羽|頭|粒|段|階|周|局|玉|缶|袋|箱|株|鉢|試合|戦|グラム|kg|gbps|mbps|gb|mb|tb|mah|fps|hz|g(?![a-z])|リットル|ml|cc"
    r"|ポンド|lbs?|インチ|ドル|ページ|ボルト|ヘルツ|パーセント|ヶ月|か月|カ月|ms|ミリ秒|秒"
)
_JA_COUNTER = re.compile(rf"何({_COUNTERS})")


_UNITS = {
    "度": "度|℃|°",
    "円": "円|万|千|¥|k",
    "キロ": "キロ|kg|km",
    "センチ": "センチ|cm",
    "ミリ": "ミリ|mm",
    "割": "割|%|％|パーセント",
    # a length of time, told in the unit that fits it: 「1週間ちょっと」 to 「何日くらい？」
    "日": "日|週|ヶ月|か月|カ月|ヵ月",
    "分": "分|時間|秒",
    "時間": "時間|分|日",
    "グラム": "グラム|g(?![a-z])|kg|キロ",
    "リットル": "リットル|l(?![a-z])|ℓ|ml|cc",
    "ml": "ml|cc|リットル|l(?![a-z])",
}


def counts_otherwise(question: str, line: str) -> bool:
    """Does every figure of the line count something the question does not (「俺22時ちょい過ぎるかも」 to
    「ダメージって何割くらい下がる？」; a bare 「3」 may count anything)?"""
    low = normalized(line)
    if not _JA_COUNTER.search(question) or _counts_alike(question, low) or tells_when(question, line):
        return False  # 「11月の半ばの日曜」 to 「何日だっけ」: a date, not a count of days
    counted = re.findall(rf"\d+\s*({_COUNTERS})?", low)
    return bool(counted) and all(counted)


# When, asked ("when are you free?", 「いつ空いてる？」) and told ("next week, either day",
# 「来週なら土日どっちでも」).
# "when" that asks (at a clause's head, or before its verb), not a clause of time ("…or does it drop to 48
# when you use all of them?")
_ASKS_WHEN = re.compile(
    r"(?:^|[,.!?;:]\s*)(?:\S+\s+){0,2}?when\b"
    r"|\bwhen (?:is|are|was|were|do|does|did|will|would|can|could|should|shall|'?s|r|u)\b"
    # (not how long: 「何時間」, 「何日かかる」)
    r"|\bwhat time\b|\bwhich day\b|\bwhat day\b|いつ(?!も)|何時(?!間)|何日(?!間|も)(?![^、。？?]{0,6}かか)"
    r"|何曜|どの日"
    # … or a date, asked for by name: 「日程って出た？」, "did they set a date for…"
    r"|日程|日取り|日にち|開催日|\b(?:a|the) date (?:for|of)\b|\bgot a date\b"
)
_SAYS_WHEN = re.compile(
    r"^(?:\S+\s+){0,3}?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight"
    r"|next (?:week|weekend|month)|this (?:week|weekend|evening|afternoon)|(?:the )?weekend"
    r"|\d{1,2}(?::\d\d)?\s*(?:am|pm|ish)"
    r"|noon|after (?:work|lunch|dinner)"
    # … or by the month: "mid november", "end of march", "early jan" (not "may", a verb too)
    r"|(?:(?:early|mid|late|end of|start of|beginning of|in|around)[- ](?:the )?)?"
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
    r"|(?:early|mid|late|end of|start of|beginning of|in|around)[- ]may"
    r"|(?:end|start|middle) of (?:the|this|next) (?:month|year)"
    # … the day shortened or by its date: "next thurs", "sat 3pm", "the 21st"
    r"|(?:next )?(?:mon|tues?|wed|thu|thurs?|fri|sat|sun)"
    r"|the \d{1,2}(?:st|nd|rd|th))\b"
    # … a day put as the plan, too: 「じゃあ土曜にしない？」 to 「いつ？平日は無理」
    r"|^(?:(?:じゃあ|じゃ|なら|ほな|ほんなら|それなら)[、,\s]*)?"
    r"(?:来週|今週|再来週|明日|あした|明後日|あさって|今日|今夜|今晩|週末|土日|平日|[月火水木金土日]曜|夜|朝|昼"
    r"|午前|午後|\d{1,2}(?:時(?!間)|日(?!間)|/)|第\d[月火水木金土日]"
    # … or by the month: 「11月の半ばの日曜」, 「来月頭」, 「年明けすぐ」
    r"|\d{1,2}月|来月|今月|再来月|先月|月末|月初|年末|年明け|年始)"
)


def tells_when(question: str, line: str) -> bool:
    """Does the line open on when, told to a question that asks when ("saturday works" to "when are you
    free?", 「来週なら土日どっちでも」 to 「いつ空いてる？」)?"""
    return bool(_ASKS_WHEN.search(normalized(question))) and bool(_SAYS_WHEN.search(normalized(line)))


_ASKS_PRICE = re.compile(r"いくら|値段|料金|\bhow much\b|\bprice\b|\bcost\b")
_SAYS_PRICE = re.compile(r"\d[\d,]*\s*(?:円|yen|dollars?|bucks|ドル)|[$¥￥€£]\s*\d")
PRICE_AT = 16  # how far into the line the price may come (after 「あ、入場料は2時間」)


def counts_as_asked(question: str, line: str) -> bool:
    """Does the line open on a figure counted as the Japanese question counts (「7本！細いのを組んでる」 to
    「流木何本使ってる？」, 「とりあえず4個」 to 「何個作ったん？」)? Said so, it answers that question even
    lines later."""
    counters = set(_JA_COUNTER.findall(normalized(question)))
    low = normalized(line)
    if _ASKS_THE_TIME.search(normalized(question)):
        # "8:30" to "what time is reclear thursday, same as always?", past another pair's lines
        return _TELLS_THE_TIME.match(low) is not None and not asks(line)
    if _ASKS_THE_DAY.search(normalized(question)):
        # 「金曜まで！サイズ表はノートにある」 to 「新ユニの注文っていつまでだっけ」
        return _TELLS_THE_DAY.match(low) is not None and not asks(line)
    if not counters and _ASKS_PRICE.search(normalized(question)):
        # 「あ、入場料は2時間400円ね」 to 「…入場料っていくらだっけ」: the price, in money, said early
        price = _SAYS_PRICE.search(low)
        return price is not None and price.start() <= PRICE_AT and not asks(line)
    first = re.search(rf"\d+\s*({_COUNTERS})?", low)
    if not counters or first is None or first.start() > 8 or not first.group(1) or asks(line):
        return False
    return _counts_alike(question, first.group(0))


# What time of day, asked (not how long: 何時間), and a clock time said first, little else after it.
_ASKS_THE_TIME = re.compile(r"\bwhat time\b|(?:何|なん)時(?!間)|なんじ")
_TELLS_THE_TIME = re.compile(
    r"^(?:\S+\s+)?\d{1,2}(?:[:：]\d{2}|\s*(?:am|pm)\b|時(?:半|\d{1,2}分)?)(?:\s*(?:am|pm)\b)?[^?？\d]{0,24}$"
)


# Until or from what day, asked, and a day said first: 「金曜まで」, "friday", "the 28th".
_ASKS_THE_DAY = re.compile(
    r"いつ(?:まで|から)|\b(?:until|till|by) when\b|\bwhat day\b|\bwhen(?:'s| is) the deadline\b"
)
_TELLS_THE_DAY = re.compile(
    r"^(?:[月火水木金土日]曜(?:日)?|\d{1,2}(?:月\d{1,2})?日|明日|あした|今日|今週|来週|月末)"
    r"(?:まで|から|中)?[!！。、,\s〜ー]*"
    r"|^(?:(?:this|next) )?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|^(?:the )?\d{1,2}(?:st|nd|rd|th)\b"
    r"|^(?:tomorrow|tonight|today)\b"
)


def _counts_alike(question: str, low: str) -> bool:
    counters = set(_JA_COUNTER.findall(normalized(question)))
    if not counters:
        # 「いくらしたの？」: not 「まだ2月だよ」, a date is not a price (but 「40分くらい」 is how long)
        price = _ASKS_PRICE.search(question)
        dates = re.search(r"\d", low) and not re.search(r"\d(?![\d.,]*\s*(?:月|日|時|分|年|曜))", low)
        return not (price and dates)
    # (not 時 for 何時間: 「21時までは…」 tells a time of day, not how long)
    heads = {c[0] for c in counters if c != "時間" and not c.isascii()}
    units = "|".join(_UNITS.get(c, re.escape(c)) for c in counters | heads)
    # … or a bare figure, its counter left to the question (「俺24」 to 「みんな何ポンドで張ってる？」)
    return bool(re.search(rf"\d\s*(?:{units})", low) or _BARE_FIGURE.search(low))


_BARE_FIGURE = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?=[、,。!！\s]|$)")


# Words that hedge a figure said first ("like 5 days to the uk for mine", "about 20 mins").
_HEDGES = frozenset(
    {
        "like",
        "about",
        "around",
        "roughly",
        "maybe",
        "prob",
        "probably",
        "approx",
        "almost",
        "nearly",
        "just",
        "~",
        "a",
        "an",
    }
)


# A kanji numeral that counts nothing: 一応, 一緒, 統一, and 「一回ショップで…」 ("for now", not "once").
_JA_NOT_A_COUNT = re.compile(
    r"(?:統|唯|万)一|一(?:応|緒|番|旦|気|瞬|生|般|部|方|体|斉|層|致|同|員)"
    r"|一(?:回|度)(?!(?:だけ|くらい|ぐらい|きり|目)?[\W_ｗ笑]*$)"
)


def _numeric(low: str) -> bool:
    """A number said as the answer: it opens the line ("20, since the upgrade", "like 5 days to the uk for
    mine") or the line is short."""
    low = _JA_NOT_A_COUNT.sub("", low)
    words = low.split()
    while len(words) > 1 and words[0] in _HEDGES:
        words = words[1:]
    if not words:
        return False
    if _JAPANESE.search(low):
        # Japanese leaves no spaces between words: a figure in the first sentence (「使うたびに火入れして
        # れば2週間はいける。…」), or in a short line; not 「ユニフォーム追加注文、締め切り金曜です！140と
        # 150で…」, a notice to the room that goes on to count something else
        text = "".join(words)
        first = re.split(r"[。．！!？?]", text, maxsplit=1)[0]
        return bool(_NUMBER.search(first)) or (len(text) <= _JA_SHORT_LINE and bool(_NUMBER.search(text)))
    return bool(_NUMBER.match(words[0])) or (len(words) <= 6 and bool(_NUMBER.search(low)))


_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
_JA_SHORT_LINE = 24  # characters
