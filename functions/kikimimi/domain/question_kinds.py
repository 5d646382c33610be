"""What kind of question a line asks (pure): a real one, an invitation, a rhetorical one or a proposal to
the group; and which replies agree to a proposal or answer by their shape (a yes, a version, a pointer)."""

from __future__ import annotations

import re
import unicodedata

from kikimimi.domain.rule_terms import norm

__all__ = [
    "agrees",
    "answer_shaped",
    "bumps",
    "calls_only",
    "for_the_bot",
    "for_the_people",
    "grateful",
    "guesses",
    "invites",
    "kind_of",
    "laughs",
    "personal",
    "points",
    "proposes",
    "rhetorical",
    "shrugs",
]

# Things people do together: "tea, anyone?", "pizza friday?", "movie night, who's in?".
_OUTINGS = (
    r"tea|coffee|lunch|dinner|breakfast|brunch|supper|drinks?|beers?|pints?|pizza|sushi|ramen|tacos?|burgers?"
    r"|bbq|snacks?|ice ?cream|food|movies?|movie night|film|cinema|games?|game night|board ?games?|karaoke"
    r"|walk|run|gym|hike|swim|party|bowling|pub|bar|trivia|quiz night|cards|poker|football|soccer|basketball"
)
_WHEN = (
    r"today|tonight|tomorrow|soon|later|now|this (?:week(?:end)?|evening|afternoon|morning)|next week"
    r"|after(?: work)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?|at \d{1,2}(?::\d\d)?(?: ?[ap]m)?|\d{1,2} ?[ap]m"
)
_ANYONE = r"any ?(?:one|body)|some ?(?:one|body)|y'?all|guys|folks|people|peeps|team|everyone"
# A day people make plans for (not "now" or "after": "anyone seeing this error after the update?" asks).
_PLANNED = (
    r"tonight|today|tomorrow|this (?:week(?:end)?|evening|afternoon)|next week"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|sat|sun"
)
_EN_INVITATION = re.compile(
    # "tea, anyone?", "lunch anyone?", "drinks tonight, anyone?"
    rf"^(?:(?:the|a|some|more|quick|late|early|team)\s+)?(?:{_OUTINGS})(?:\s+(?:break|run|night|time|session|trip))?"
    rf"(?:\s+(?:{_WHEN}))?,?\s*(?:{_ANYONE})?\s*[?？]+\W*$"
    # "movie night, who's in?", "who's coming?", "who wants to grab lunch?"
    r"|\bwho(?:'s| is| else is)? (?:in|coming|joining|down|up for|game)\b"
    r"|\bwho (?:else )?(?:wants|wanna|is up for|is down for|is keen|fancies)\b"
    # "anyone up for pizza tonight?", "anyone want to join?", "anyone wanna grab food?"
    rf"|\b(?:{_ANYONE}) (?:up|down|keen|game) for\b"
    # "anyone going to the meetup on thursday?" (but not "anyone going to fix the build?")
    rf"|\b(?:{_ANYONE}|who(?:'s| is)?(?: else)?) (?:going|coming|heading|attending|joining)"
    r"(?: to (?:the|a|an|this|that|my|our)\b| tonight| today| tomorrow| later|\s*[?？])"
    # "anyone watching the match tomorrow?", "who's playing ranked tonight?": whose plans, not a question
    rf"|\b(?:{_ANYONE}|who(?:'s| is)?(?: else)?) (?:watching|playing|streaming|doing|hosting)\b"
    rf"[^?？.!]*\b(?:{_PLANNED})\b"
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna|fancy|fancies|feel like) (?:to )?"
    r"(?:come|join|grab|get|go|play|watch|hang|eat|have|meet|hop|do a|hit|try)\b"
    r"|\b(?:wanna|want to|care to|fancy|you in for|join (?:us|me)) (?:come|join|grab|get|go|play|watch|hang)"
    rf"|^(?:you )?(?:up|down|in) for (?:a |some )?(?:{_OUTINGS})\b"
)
# 「誰か行く人ー」「ご飯行く人いる？」「カラオケ行かない？」「一緒にやらない？」
_JA_ACTIVITY = r"行く|いく|来る|くる|やる|する|参加する|食べる|飲む|見る|遊ぶ|来れる|行ける|参加できる"
# A day or hour people make plans for: 「今夜」「明日の配信」「22時の卓」.
_JA_PLANNED = r"今夜|今晩|今日|明日|あした|あす|明後日|週末|今度|来週|土曜|日曜|今週|朝練|夜|\d{1,2}時"
# Plans asked of people: 「明日の配信だれか見る？」「今夜だれか段位戦いく？」「22時の卓、誰か入れる？」.
_JA_PLANS = (
    r"行く|いく|来る|くる|やる|する|見る|みる|参加する|遊ぶ|走る|出る|入る|入れる|来れる|行ける|打つ|回る"
)
_JA_INVITATION = re.compile(
    rf"(?:{_JA_ACTIVITY})人(?:いる|いない|おる|[ー〜~！!？?]|$)"
    rf"|(?:{_JA_PLANNED}).{{0,24}}(?:誰か|だれか|みんな)[^？?。]{{0,24}}(?:{_JA_PLANS})[？?ー〜~]"
    rf"|(?:誰か|だれか|みんな)[^？?。]{{0,24}}(?:{_JA_PLANNED})[^？?。]{{0,24}}(?:{_JA_PLANS})[？?ー〜~]"
    r"|(?:行か|いか|来|こ|やら|遊ば|食べ|飲ま|見|参加し|集まら)ない[？?ー〜~]|一緒に.*(?:ない|ません|よう)[かか]?[？?]"
    r"|(?:ご飯|ごはん|飯|ランチ|昼|夕飯|飲み|カラオケ|映画|ゲーム|お茶)(?:でも|とか)?(?:行く|どう|いかが|しない)"
)
_TAG_ASKER = re.compile(
    r"^(?:\S+[:,]\s*)?(?:is|are|am|was|were|do|does|did|can|could|will|would|should|has|have|what|how|where|which|who|why|when)\b"
)
# A tag on a statement: "…, right?", "…, no?", "…, isn't it?", "…, don't you think?" ("is that right?" asks).
_EN_TAG = re.compile(
    r",\s*(?:right|innit|eh|huh|no|yeah|ok|okay|yes)[\s.…]*[?？]+\W*$|\s(?:right|innit|ok|okay)[\s.…]*[?？]+\W*$"
    r"|\b(?:is|are|was|were|do|does|did|can|could|will|would|has|have|should)n'?t"
    r" (?:it|he|she|they|you|we|i|that|this|there)\s*[?？]+\W*$"
    r"|\bdon'?t you (?:think|agree|love|hate)\b.*[?？]\W*$"
)
_EN_RHETORICAL = re.compile(
    # A short exclamation asked of nobody: "are you kidding me?!", "seriously!?".
    r"^(?!how|where|which|what)(?:\S+\s+){0,4}\S*(?:[?？]\s*[!！]|[!！]\s*[?？])\W*$"
    r"|^(?:who|what kind of (?:person|monster|idiot))(?: \w+)?"
    r" (?:does|would do|even does|says|cares|knew|asked)"
    r"(?: (?:that|this|it|such a thing))?\s*[?？]+\W*$"
    # Whole lines that ask nothing: "who cares?", "guess what?", "really?".
    r"|\bwho (?:came up with|thought of|approved|signed off on|decided on) (?:that|this)\b"
    # "who moves a couch at 1am??" (but "who knows the password??" asks)
    r"|^who (?:even )?(?!knows|has|wants|remembers|needs|uses|gets)\w+s\b[^?？]*[?？]{2,}\W*$"
    r"|^(?:what the (?:hell|heck|fuck|actual)|wtf|who cares|who knew|why not|guess what|you know what"
    r"|am i right"
    r"|how hard can it be|what could (?:possibly )?go wrong|are you (?:kidding|serious|joking)(?: me)?"
    r"|seriously|really|srsly|rly|for real|is this a joke|why me)\s*[?？!！.]+\W*$"
)
_JA_RHETORICAL = re.compile(
    # 「〜よね？」「〜でしょ？」「多くない？w」
    r"(?:よね|よな|でしょ|だろ|じゃん|やん|じゃね|くない)[ぇえ〜~ー]*[？?]+[\Wｗw笑]*$"
    r"|^(?:まじ|マジ|本当|ほんと|ホント|うそ|嘘|え|えっ|は)(?:で|に)?[？?!！]+\W*$"  # 「マジで？」「嘘？！」
    r"|[？?][!！]|[!！][？?]"
    r"|(?:なんで|何で)(?:やねん|だよ)|誰が(?:得|やる|するん)"
)
# A proposal to the group: "should we …?", "how about …?", 「〜のはどう？」「〜しない？」.
_EN_PROPOSAL = re.compile(
    r"^(?:so |ok |okay |then |well )?(?:should we|shall we|how about|what about we|what if we|why don'?t we"
    r"|can we just|could we (?:just )?|let'?s|do we want to|wanna)\b.*[?？]"
)
_JA_PROPOSAL = re.compile(
    # the group's own plan asked: 「宿はどのへんにする？」「何月に行く？」「何時集合にする？」
    r"(?:どこ|どの\S{0,2}|何時|何月|何日|何曜|いつ|どれ|何|なに)(?:に|で|から|まで|へ|集合に)?"
    r"(?:する|しよ|行く|いく|集合|集まる|出る|出発する|泊まる)[？?]"
    # 「7月の三連休どう？」
    r"|(?:月|日|曜|時|週末|連休|今度|明日|来週)(?:の\S{0,6})?(?:とか|は|で|に)?(?:どう|いかが)[？?]"
    r"|\d{1,2}時\S{0,4}(?:とか|で(?:いい|どう))[？?]"  # 「9時集合とか？」
    r"|(?:る|う|く|す|つ|ぬ|む|ぶ|ぐ|た)のは(?:どう|いかが)|(?:を|に|で|一緒に|みんなで)しない[？?]|しませんか"
    r"|(?:みんなで|皆で|一緒に)[^？?]{0,10}(?:しない|やらない|行かない)[？?]"  # 「来週末みんなで鍋しない？」
    r"|(?:しよ|しましょ|やろ|行こ|いこ)うか?[？?]|ことにしない"
)
# Agreeing to a proposal: 「それでいこう」「いいね」「賛成」 "works for me", "sounds good", "+1".
_EN_AGREEMENT = re.compile(
    r"^(?:\+1|👍|yes|yeah|yep|yup|sure|ok|okay|k|alright|agreed|agree|deal|done|fine by me|fine|totally"
    r"|absolutely|definitely|of course|sounds (?:good|great|fine|like a plan)|works for me|that works"
    r"|good idea|great idea|let'?s do (?:it|that)|let'?s go|i'?m in|count me in|me too|same|why not"
    r"|perfect|great|cool|nice|i'?m down|down|in|bet|say less|lets do this)\b"
)
_JA_AGREEMENT = re.compile(
    r"^(?:それで(?:いこう|いい|行こう|OK|ok|オッケー|大丈夫)|いいね|いいよ|いいです|いいと思|賛成|了解|りょ|おけ|オッケー"
    r"|OK|ok|おっけー|うん|はい|ええ|そうしよう|そうしましょう|そうだね|それ(?:な|だ)|大丈夫|もちろん|ぜひ|是非|行く|いく"
    r"|参加|乗った|のった|異議なし|問題ない|決まり|決定)"
)
# Laughter opens a line about a joke, not an answer ("lol classic", "haha she loves the warm laptop").
_LAUGH = re.compile(r"^(?:lo+l|lmao|rofl|ha(?:ha)+h?|he(?:he)+|heh|xd|😂|🤣|草|笑|ｗｗ|ww)(?:\W|$)")
_EN_YES_NO = re.compile(
    r"^(?:yes|yeah|yep|yup|yea|ya|no|nope|nah|sure|correct|right|exactly|indeed|maybe|probably|possibly"
    r"|not (?:yet|really|anymore)"
    r"|it (?:is|was|does|did|should|shouldn'?t|doesn'?t|isn'?t|can|can'?t|will|won'?t|works?|worked)"
    r"|it'?s (?:not|fine|down|up|back|working)"
    r"|works (?:for me|fine|here)|not for me"
    r"|i (?:think|believe|guess|doubt|don'?t think|don'?t know|haven'?t)"
    r"|you (?:can|can'?t|need|should|have to|must)"
    r"|only|just|always|never|sometimes|depends)\b"
)
_JA_YES_NO = re.compile(
    r"^(?:うん|ううん|はい|いいえ|いえ|いや(?!ー|あ)|まだ|そう(?!いえば|言えば|いう|いや)|ええ|もちろん|たぶん|多分"
    r"|あります|ありません|ある|ない|違う|ちがう|違います|できる|できない|大丈夫|無理"
    r"|こっちも|私も|僕も|俺も|うちも|同じく|同じ)"
)
# Pointing to where the answer is: "check the pinned message", "pinned 📌", "see the wiki", 「ピン留め見て」.
_POINTER = re.compile(
    r"\b(?:check|see|read|look (?:at|in)|search|google|rtfm|it'?s in)\b.{0,30}\b(?:pin(?:ned)?|faq|wiki|docs?"
    r"|documentation|readme|manual|man ?page|channel topic|topic|changelog|release notes|above|thread|link)\b"
    r"|\bpinned\b|📌|https?://|www\."
    r"|ピン(?:留め|止め|どめ)|固定(?:メッセージ|された)|(?:wiki|ドキュメント|マニュアル|説明書|公式|上の).{0,6}(?:見て|参照|読んで|に書いて|にある)"
)
_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|noon|midnight)\b|[一二三四五六七八九十]"
)
# Questions that a number, a version or a time answers ("which node version…?", "how many…?", 「何時？」).
_ASKS_NUMBER = re.compile(
    r"\b(?:which|what|what'?s|what is) (?:the )?(?:\w+ ){0,2}(?:version|release|number|time|day|date|port"
    r"|size|year|build|kernel|count|amount|price|cost|limit|rate|score|total|temperature|temp|speed|budget|deadline)\b"
    r"|\bhow (?:many|much|long|old|big|often|far|soon)\b|\bwhat time\b"
    r"|(?:^|[.?!,]\s*)(?:\S+[:,]\s*)?(?:so |and |but |ok )?"
    r"when (?:is|are|was|were|do|does|did|will|can|should)\b"
    r"|何時|何日|何人|何回|何個|何分|何歳|何度|何泊|何年|何週|何キロ|何センチ|何ミリ|いくら|いくつ|幾つ|いつ|何曜"
    r"|どのくらい|どれくらい|何円|何枚|何本|何台|バージョン"
)


def _text(text: str) -> str:
    return norm(unicodedata.normalize("NFKC", text))


# An interjection before the answer ("oh, no I didn't", "well yes"): the answer is what follows.
_INTERJECTION = re.compile(
    r"^(?:oh|ah|uh|um+|hmm+|hm|well|ok|okay|so|yo|lol|haha|え|あ|えっと|うーん|んー)[,!.、。…\s]+"
)


def _answer_part(low: str) -> str:
    return _INTERJECTION.sub("", low, count=1)


def invites(text: str) -> bool:
    """An invitation to do something together ("tea, anyone?", 「ご飯行く人いる？」): for the people asked."""
    low = _text(text)
    return bool(_EN_INVITATION.search(low) or (not low.isascii() and _JA_INVITATION.search(low)))


def rhetorical(text: str) -> bool:
    """A question that asks nothing: a tag ("…, right?", 「〜よね？」), an exclamation ("seriously?!")."""
    low = _text(text)
    tag = bool(_EN_TAG.search(low)) and not _TAG_ASKER.match(low)
    return tag or bool(_EN_RHETORICAL.search(low) or (not low.isascii() and _JA_RHETORICAL.search(low)))


def proposes(text: str) -> bool:
    """A proposal to the group ("should we …?", "how about …?", 「〜のはどう？」「〜しない？」)."""
    low = _text(text)
    return bool(_EN_PROPOSAL.search(low) or (not low.isascii() and _JA_PROPOSAL.search(low)))


# A guess offered with a question mark of doubt: "probably around 9 i think?", "maybe 0.2mm?",
# 「22時じゃない？たぶん」, 「マシになるんじゃない？」. It answers someone; it asks nobody.
_EN_GUESS = re.compile(
    # a figure guessed: "probably 0.2mm?", "maybe 8ish?", "around 9 i think?"
    r"^(?:(?:oh|um+|hmm+|well|idk|not sure)[,.\s]+)?"
    r"(?:probably|prob|prolly|maybe|perhaps|i think|i guess|pretty sure|iirc|should be|might be|around)"
    r"\s+(?:(?:like|around|about|at|by|on|the|a)\s+)*\d[^?？]{0,16}[?？]"
    # … or a hedge tacked on after it: "sunday i think?", "the blue one maybe?"
    r"|\b(?:i think|i guess|i believe|maybe|probably|prob|iirc)\s*[?？]+"
    # … or a few words opened by one: "maybe a little?", "prob close to done then?"
    r"|^(?:prob|probably|prolly|maybe|i think|i guess|pretty sure)\b(?:\s+[^\s?？]+){0,4}\s*[?？]"
)
_JA_GUESS = re.compile(
    r"(?:じゃない|じゃなかった|じゃね|じゃないかな|んじゃない|んじゃね|と思う|と思うけど)[？?]+"
    r"\s*(?:たぶん|多分|知らんけど|知らないけど|わからんけど|しらんけど|[^？?]{0,24}(?:かも|かな|けど|気がする))?"
    r"[ｗw笑。…〜~]*$"
    r"|^[^？?]*(?:かな|かなぁ|かなあ|かも)[ｗw笑。…〜~]*$"  # 「いまんとこ6人かな」: no mark at all
    # 「たしか全部ついてたはず…自信ない」: said unsure, no mark
    r"|^(?:たしか|確か)[^？?]*(?:はず|と思う|気がする)|^[^？?]*はず[^？?]{0,4}(?:自信ない|知らんけど|たぶん)"
)


def guesses(text: str) -> bool:
    """A guess put with a question mark of doubt ("probably around 9 i think?", 「22時じゃない？たぶん」):
    after someone's question, an answer; not a question back nor one for the bot."""
    low = _text(text)
    asked = re.split(r"[?？]", low, maxsplit=1)[0]
    if (
        _WH.search(asked)
        or _TAG_ASKER.match(asked)
        or re.search(r"\b(?:what|which|where|who|why|how)\b", asked)
    ):
        return False
    return bool(_EN_GUESS.search(low) if low.isascii() else _JA_GUESS.search(low))


# Agreeing to a plan and asking a detail of it: "im down, 8ish?", "yeah im in, 7?", 「行く行く！何時？」.
_ACCEPTS_DETAIL = re.compile(r"^[\W_]*(?:\S+[\W_]+){0,3}\S*[?？]+\W*$")


_EN_ACCEPT = re.compile(
    r"^(?:yes|yeah|yep|yup|ya|sure|bet|i'?m (?:down|in|game)|down|in|count me in|sounds good|works for me"
    r"|deal|me(?: too)?)\b"
)
_JA_ACCEPT = re.compile(r"^(?:行く|いく|いいね|いいよ|参加|乗った|のった|やる)")


def _accepts(low: str) -> bool:
    agreement = _EN_ACCEPT.match(low) if low.isascii() else _JA_ACCEPT.match(low)
    if agreement is None or ("?" not in low and "？" not in low):
        return False
    rest = re.sub(r"^(?:[\s,!.、。！]*(?:i'?m in|i'?m down|down|in|行く|いく))+", "", low[agreement.end() :])
    return bool(_ACCEPTS_DETAIL.match(rest)) and len(rest.split()) <= 4


# About the one asked: their experience, their things, their doings ("which one did u end up getting",
# "how's it feel", "did you get it?", 「どうだった？」「いくらした？」). Only they can say.
_EN_PERSONAL = re.compile(
    r"\bhow(?:'s|s| is| was| does| did|'d| do)? (?:it|that|they|the new \w+|your \w+|ur \w+)"
    r" (?:feel|feels|feeling|going|go|went|treating|holding up|sound|sounds|look|looks|taste|tastes)\b"
    r"|\bhow (?:was|were) (?:it|that|they|the|your|ur)\b"
    # "did u get it in the end?", "did you like it?": what they did or got
    r"|(?:^|[,.!?？]\s*|\b(?:so|and|but|wait|ooh|oh|ok|lol|also)\s+)did (?:you|u|ya)"
    r" (?:end up|finally|actually|ever)?\s*(?:get|buy|go|like|love|enjoy|finish|pass|win|make it|pick)\b"
    r"|\b(?:what|which|where|when|how much)\b[^?？]*\bdid (?:you|u|ya)\b"  # "what did you fill it with?"
    r"|\b(?:your|ur) (?:new|old|own)\b"
)
_JA_PERSONAL = re.compile(
    r"どうだった|どうでした|どんな感じ|使い心地|住み心地|乗り心地|いくらした|いくらだった|いくらで買"
    r"|どこで買った|どこの(?:やつ|？|\?)|何にした|なににした|どれにした|どれ買った"
    # what they did: 「どこ行ったんだっけ」「何買ったの？」「誰と行ったの」
    r"|(?:どこ|何|なに|誰と|だれと)(?:に|へ|を|で|の)?(?:行った|いった|行ってた|食べた|買った|観た|見た|頼んだ)"
    r"(?:の|ん|っけ|[？?])"
    # what they will do with it: 「製麺機で何作るの？」
    r"|(?:何|なに)(?:を)?(?:作る|つくる|する|買う|食べる|頼む|着る|撮る)の[？?]"
)


def personal(text: str) -> bool:
    """A question about the one asked ("which one did u end up getting", "how's it feel", 「どうだった？」):
    theirs to answer; a member who was not there cannot."""
    low = _text(text)
    return bool(_EN_PERSONAL.search(low) if low.isascii() else _JA_PERSONAL.search(low))


# A suggestion put as a question, to someone with a problem: "maybe try clearing the cache?", "try a
# different cable?" — theirs to take or leave. ("have you tried…?" asks what they did: it stays a question.)
_EN_SUGGESTION = re.compile(r"^(?:maybe|perhaps|or|just|you could|could)?\s*(?:just )?try \w+[^?？]*[?？]")


# A goodbye that asks something on the way out (「おやすみ！結果出たら教えてね」, "gn! still on for sat?"):
# for the people who stay, not a question for the bot.
_SIGNS_OFF = re.compile(
    r"^(?:おやすみ|お休み|おやすー|寝るね|寝ます|落ちます|またね|じゃあね|gn\b|good ?night\b"
    r"|(?:night|nite|bye|cya|see (?:ya|you))(?: all| everyone| guys| y'?all)?(?=\s*[!.,~👋🌙]|\s*$))"
)


def kind_of(text: str) -> str:
    """What the line asks, as a kind: "invitation", "rhetorical", "proposal", "farewell", "personal" or
    "question"."""
    if _SIGNS_OFF.match(_text(text)):
        return "farewell"
    if invites(text):
        return "invitation"
    if rhetorical(text):
        return "rhetorical"
    if proposes(text) or _accepts(_text(text)) or _EN_SUGGESTION.match(_text(text)):
        return "proposal"
    if personal(text):
        return "personal"
    return "question"


def for_the_bot(text: str) -> bool:
    """A question a member could take up for the asker: not an invitation, rhetorical, a group's plan or
    one about the person asked."""
    return kind_of(text) == "question"


def for_the_people(text: str) -> bool:
    """An invitation, a rhetorical question or a group's plan: nobody's to answer but the people asked,
    even in the bot's own exchange (a personal question or a goodbye's question put to the bot is the
    bot's)."""
    return kind_of(text) in ("invitation", "rhetorical", "proposal")


# "No idea, sorry", 「わからない」: the question is taken up, not answered; someone who knows still may.
_SHRUG = re.compile(
    r"^(?:sorry[,.]?\s*)?(?:not sure|no idea|no clue|dunno|idk|i don'?t know|i have no idea|can'?t help"
    r"|not that i know|beats me|no clue)\b"
    r"|^(?:ごめん[、,]?\s*)?(?:わからない|分からない|わかんない|分かんない|知らない|しらない|知らん|不明)"
)


def shrugs(text: str) -> bool:
    """Someone says they do not know ("not sure, sorry", 「わからない」): the question is still open."""
    low = _answer_part(_text(text))
    return bool(_SHRUG.match(low)) and len(low.split()) <= 8


def agrees(text: str) -> bool:
    """Agreement (「それでいこう」「いいね」「賛成」 "works for me", "sounds good", "+1")."""
    low = _text(text)
    return bool(_EN_AGREEMENT.match(low) or _JA_AGREEMENT.match(low))


# Someone stepping away ("brb, coffee", "back in ten", 「ちょっと離席」): a line about themselves, no answer.
_AWAY = re.compile(
    r"^(?:(?:same|me too|ok|okay|k)[,!. ]+)?(?:brb|afk|gtg|g2g|bbl|bbiab|got(?:ta)? (?:go|run)|be right back"
    r"|back in (?:a |an |\d+|one|two|five|ten|fifteen|twenty|thirty|half)|stepping (?:out|away)"
    r"|(?:ちょっと)?(?:離席|抜け|離れ|外し)|落ちます|風呂(?:入って|行って)くる)"
)


def steps_away(text: str) -> bool:
    """Someone says they are stepping away ("brb, coffee", "same, back in ten", 「離席します」)."""
    return bool(_AWAY.match(_text(text)))


# Gratitude or praise for help given ("thanks!", "you've been more helpful than google", 「助かった！」): said
# even to the asker (who helped someone else), it answers none of their questions.
_GRATEFUL = re.compile(
    r"\b(?:thanks|thank (?:you|u)|thx|tysm|cheers|appreciated?|life ?saver|you rock"
    r"|you(?:'ve| have| were| are|'re)? (?:been )?(?:so |very |really |super |more |most |the most )?helpful"
    r"|saved my (?:life|day|bacon|butt)|you(?:'re| are) (?:the best|awesome|a star|a legend|a hero))\b"
    r"|ありがと|有難う|助かった|助かりました|助かる|感謝"
)


def grateful(text: str) -> bool:
    """Thanks or praise for help ("thx!", "you've been so helpful", 「助かった」), not a question."""
    low = _text(text)
    return bool(_GRATEFUL.search(low)) and "?" not in low and "？" not in low


# What may stand beside a name in a bare call for someone's attention: "hey bob", "bob?", 「ゆうさーん」.
_CALL_WORDS = frozenset(
    {"hey", "hi", "hello", "yo", "oi", "ping", "psst", "さん", "くん", "ちゃん", "ねえ", "ねぇ", "おーい"}
)


def calls_only(text: str, name: str) -> bool:
    """Is the line only a call for someone's attention: their name or mention, with at most "hey" (said
    before what one has to say, it says nothing yet)?"""
    bare = re.sub(r"[\W_]+", "", _text(name))
    low = re.sub(r"<@!?\d+>", " ", _text(text)).replace("ー", "").replace("〜", "")
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
    r"|(?:さっき|先ほど|先程|上)の.{0,12}(?:質問|件|やつ)"
)


def bumps(text: str) -> bool:
    """A short call for anyone to answer what was asked before, saying nothing new (or only naming it:
    "sorry to bump, anyone know about the cookie thing?", 「さっきの件わかる方いますか…？」)."""
    low = _text(text)
    said = len(low) <= 200 and bool(re.search(r"\bbump(?:ing)?\b", low))  # "sorry to bump, …" said outright
    return said or (len(low) <= 80 and bool(_BUMP.search(low)))


def laughs(text: str) -> bool:
    """A line that opens with laughter ("lol classic", 「草」): about a joke, not an answer ("lol yes" is)."""
    low = _text(text)
    laugh = _LAUGH.match(low)
    if laugh is None:
        return False
    rest = low[laugh.end() :].lstrip(" ,.!、。")
    return not (_EN_YES_NO.match(rest) or (not rest.isascii() and _JA_YES_NO.match(rest)))


def points(text: str) -> bool:
    """Points to where the answer is: a link, "check the pinned message", "pinned 📌", 「ピン留め見て」."""
    return bool(_POINTER.search(_text(text)))


def answer_shaped(question: str, line: str, bare: bool = True) -> bool:
    """Does the line's shape answer this question by itself: a pointer, a number or version to "which
    version"/"how many", and — if `bare` (right after the question, where a bare word can only mean it) —
    a yes/no or "same here" to a yes/no question, or agreement to a proposal."""
    q, low = _text(question), _text(line)
    if laughs(line):
        return False
    if points(line) or (_ASKS_NUMBER.search(q) and _numeric(low) and _counts_alike(q, low)):
        return True
    if not bare:
        return False
    if kind_of(question) in ("proposal", "invitation") and agrees(line):
        return True
    said = _answer_part(low)
    first = re.split(r"[?？]", q, maxsplit=1)[
        0
    ]  # 「見た？？9回のあれ何ｗｗ」: the echo answers its first question
    ja = not said.isascii() and (_JA_YES_NO.match(said) or _echoes(first, said) or _JA_OPINION.search(said))
    yes_no = _EN_YES_NO.match(said) or ja or (_EN_SAME.match(said) and _ASKS_OTHERS.search(q))
    return bool(yes_no) and _yes_no(q)


# "Same here", "me too": an answer to a question about others' experience ("is the wiki down for anyone
# else?", "just me?"), not to "can you plant garlic in spring?" (there it agrees with someone's line).
_EN_SAME = re.compile(r"^(?:same(?: here| for me| issue| problem)?|me too|here too)\b")
_ASKS_OTHERS = re.compile(
    r"\b(?:any ?(?:one|body)|just me|only me|for you|you too|others?|y'?all|you guys)\b"
)


# A view or advice that answers "should I…?", "is it…?": 「シャープナーで十分だと思う」, 「買わなくていいよ」.
_JA_OPINION = re.compile(
    r"(?:と思う|と思います|とおもう|でいい|で十分|で大丈夫|ほうがいい|方がいい|なくていい|なくて大丈夫|いらない|要らない)"
    r"(?:よ|かな|けど|です|ね)*\W*$"
)
_JA_NOT = re.compile(r"(?:ない|なかった|ません|てない|らない)")


def _echoes(question: str, said: str) -> bool:
    """A Japanese yes or no said by echoing the question's verb: 「見た？」「見た見た」,
    「行く？」「行く行く！」, 「知ってる？」「知らない」."""
    tail = re.sub(r"(?:の|か|かな|よね|ね)?[?？!！\s]*$", "", question)[-6:]
    head = re.split(r"[、,!！。\s]", said, maxsplit=1)[0]
    if len(head) < 2 or len(head) > 12:
        return False
    negated = "\u4e00" <= head[0] <= "\u9fff" and head[0] in tail and bool(_JA_NOT.search(head))
    return head[:2] in tail or negated


# A Japanese question names what it counts (何度, 何時間, 何人): the number that answers it counts the same
# (「60度で2時間」, not 「週5って言ったら…」 said of something else).
_JA_COUNTER = re.compile(
    r"何(度|時間|時|日|人|回|個|分|歳|円|枚|本|台|曜|泊|年|月|週|キロ|km|センチ|cm|ミリ|mm)"
)


_UNITS = {
    "度": "度|℃|°",
    "円": "円|万|千|¥|k",
    "キロ": "キロ|kg|km",
    "センチ": "センチ|cm",
    "ミリ": "ミリ|mm",
}


def _counts_alike(question: str, low: str) -> bool:
    counters = set(_JA_COUNTER.findall(question))
    if not counters:
        return True
    units = "|".join(_UNITS.get(c, re.escape(c)) for c in counters | {c[0] for c in counters})
    return bool(re.search(rf"\d\s*(?:{units})", low))


def _numeric(low: str) -> bool:
    """A number said as the answer: it opens the line ("20, since the upgrade") or the line is short."""
    words = low.split()
    return bool(words) and (bool(_NUMBER.match(words[0])) or (len(words) <= 6 and bool(_NUMBER.search(low))))


_WH = re.compile(
    r"^(?:\S+[:,]\s*)?(?:what|what's|whats|how|where|which|who|why|when|whose)\b"
    r"|(?:何|なに|どこ|どう|いつ|誰|だれ|どれ|どの|なぜ|なんで)(?!か|も|でも)"
)


def _yes_no(question: str) -> bool:
    """A question a yes or a no answers (not "which…?", 「どこ？」); "does anyone know how…?" is one too, and
    so is one that asks yes or no first (「昨日の試合見た？？9回のあれ何ｗｗ」)."""
    first = re.split(r"[?？]", question, maxsplit=1)[0]
    yes_no_first = first != question and not _WH.search(first)
    return (
        not _WH.search(question)
        or yes_no_first
        or bool(re.match(r"^(?:does|do|did|is|has|can) (?:any|some)", question))
    )
