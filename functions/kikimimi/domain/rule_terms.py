"""Pure detectors the rule score is built from: addressing, questions, closings, thanks, who talks to whom.

Whether a name in a message calls its bearer or talks about them (the bot's name and aliases in
`calls_name`, the people present in `directed_to`) is read by domain/name_calls.py, with the same forms
for both: `@name`, vocatives (聞き耳、…, ききみみー！, 聞き耳さーん、いるー？, "hey kikimimi",
"…, kikimimi?"), a question or request put to the name opening its clause (キキミミはどう思う？,
ききみみ的にはどっち？, "kikimimi do you know …?"), asking it for something (聞き耳に聞いてみよう; the
bot only); never the name as an argument (kikimimiってなんの名前？, 昨日キキミミが…, "I asked kikimimi
about git") or an everyday word (聞き耳を立てる) in running text. A name is read in every form it is
written in (kana and kanji, honorifics, stretched, width and case): name_forms.variants.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from kikimimi.domain import japanese, name_calls, name_forms
from kikimimi.domain.model import Message
from kikimimi.domain.name_forms import has_word as has_word  # re-exported: the readers use it

CLOSING_PHRASES = (
    "了解",
    "りょうかい",
    "ありがとう",
    "ありがと",
    "以上です",
    "お疲れ",
    "おつかれ",
    "おやすみ",
    "またね",
    "じゃあね",
    "失礼します",
    "助かりました",
    "解決しました",
    "わかりました",
    "分かりました",
    "助かった",
    "助かります",
    "ではまた",
    "じゃあまた",
    "それではまた",
    "また明日",
    "またあした",
    "また今度",
    "またあとで",
    "また後で",
    "承知しました",
    "かしこまりました",
    "さようなら",
    "さよなら",
    "ばいばい",
    "バイバイ",
    "おつ",
    "乙",
    "okです",
    "おけです",
    "おっけー",
    "オッケー",
    "thanks",
    "thank you",
    "thx",
    "ty",
    "bye",
    "goodbye",
    "good night",
    "gn",
    "see you",
    "see ya",
    "cya",
    "later",
    "got it",
    "that worked",
    "it works",
    "works now",
    "solved",
    "cheers",
    "np",
    "no problem",
    "nvm",
    "never mind",
    "nevermind",
)
THANKS_PHRASES = (
    "ありがとう",
    "ありがと",
    "有難う",
    "有り難う",
    "あざす",
    "あざっす",
    "あざます",
    "感謝",
    "サンキュー",
    "さんきゅ",
    "助かりました",
    "助かった",
    "助かります",
    "恩に着ます",
    "恩に着る",
    "thanks",
    "thank you",
    "thankyou",
    "thx",
    "ty",
    "tyvm",
    "tysm",
    "many thanks",
    "much appreciated",
    "appreciate it",
    "cheers",
)
QUESTION_END = re.compile(r"[?？]\s*[\W_]{0,6}$")
# "I" in Japanese, as people write it in chat (a pattern's alternatives, for the readers' own patterns).
JA_I = r"俺|おれ|オレ|私|わたし|あたし|僕|ぼく|ボク|ワイ|わい|うち|ウチ|自分|わし"

# Questions written without a question mark: requests for help and questions to the room.
_EN_QUESTION = re.compile(
    r"^(?:how (?:do|can|could|should|would|does|did) (?:i|we|you|one)\b|how to\b)"
    r"|^(?:does|do|can|could|has|have|did|is|would|will) (?:any|some) ?(?:one|body)\b"
    r"|\bany ?(?:one|body) (?:know|knows|here|familiar|have|has|got|tried|ever|able|can|could|else)\b"
    r"|\bis there (?:a|an|any)\b|\bare there any\b|\bis it possible\b"
    r"|\bany (?:ideas?|clues?|suggestions?|tips)\b"
    r"|\b(?:i|we) (?:wonder|was wondering|am wondering)\b|\bwondering (?:if|whether|how|why)\b"
    # what to do, or which it is, asked without a mark: "not sure whether i should repot it or wait",
    # "not sure if i need port forwarding or something else", "not sure if it's the cable or the board"
    r"|\b(?:not sure|unsure|(?:i )?(?:don'?t|do not|dont) know|can'?t decide|cant decide) (?:whether|if)"
    r" (?:(?:i|we) (?:should|need|have to|must|ought to|am supposed to)"
    r"|(?:it'?s|its|this is|that'?s) (?:the|a|my))\b"
    r"|\bwhat(?:'s| is) the (?:best|right|proper|correct|easiest) way\b"
    r"|\b(?:can|could) (?:some|any) ?(?:one|body) help\b|\bneed (?:some )?help\b|^(?:please )?help me\b"
)
# Japanese: a question ending (か/ですか/ますか/かな/っけ …) or a request (教えて, 誰か…, どうすれば …).
_JA_QUESTION_END = re.compile(
    r"(?:ですか|ますか|でしょうか|ませんか|ましたか|でしたか|んですか|のですか|かな|かね|かしら|っけ"
    r"|だろうか|あるか|いるか|いいか|できるか|わかるか|分かるか|ないか)"
    r"[ねなぁあ]?[\s。．.!！…~〜ｗw笑]*$"
)
# … or one asked, then a word after it: 「何か設定が要るんでしょうか…ローカルだと普通に動いてます」.
_JA_QUESTION_THEN = re.compile(
    r"(?<!そう)(?<!そうな)(?<!そうなん)(?:でしょうか|ですか|ますか|ませんか|んですか|のですか)…+\s*[^？?]{2,60}$"
    # … or what or where, half remembered: 「リプレイ保存ってどこからやったっけ…前に見た気するんやけど」
    # (not 「何時からだっけ…あ、9時半だ。自己解決」: found out in the same breath)
    r"|(?:何|なに|どこ|いつ|誰|だれ|どれ|どの|どう|どっち)[^。？?]{0,20}っけ[…、,]+\s*"
    r"(?!あ[、,っ])(?![^？?]*(?:解決|思い出|わかった|分かった|見つけ|見つかっ|あった))[^？?]{2,60}$"
)
# … or asked politely in a sentence of its own, then more: 「どこを設定したらええんでしょうか。よろしく
# お願いします」.
_JA_ASKED_THEN = re.compile(
    r"(?<!そう)(?<!そうな)(?<!そうなん)(?:でしょうか|ですか|ますか|ませんか|んですか|のですか)[。．]\s*\S"
)
# Giving in, not asking: 「まあいいか」, 「しょうがないか」, 「高そうだけどまあいいか」.
_JA_RESIGNED = re.compile(
    r"(?:まあ|まぁ|ま、|しょうがない|しょうがねえ|仕方ない|仕方がない)(?:いい)?か[\s。…~〜ｗw笑]*$"
    # a conclusion drawn from what one heard: 「4Kいけるなら当面無料でいいか」
    r"|なら[^？?]{0,20}(?:で|も)?いいか[\s。…~〜ｗw笑]*$"
)
# Musing on what one will do: 「私もセールでそれ買おうかな」, 「そろそろ寝ようかな」; or whether one can:
# 「夕方走れるかな〜」, 「間に合うかな」 (with its mark, 「使えるかな？」 asks).
_JA_WONDERING = re.compile(
    r"(?:(?:[おこそとのもぼごろよ]う|しよう|しょう)|(?:[れけせめべげ]る|できる|間に合う|まにあう))"
    r"かな[ぁあー〜~]*[\s。…~〜ｗw笑]*$"
    # … said short, as people type it: 「ほな出してみよかな」, 「買ってみよっかな」, 「寝よっかな」
    r"|(?:[てで]みよ|しよ|やろ|行こ|いこ|買お|寝よ|帰ろ|出よ|見よ|食べよ)っ?かな[ぁあー〜~]*[\s。…~〜ｗw笑]*$"
)
# A guess at what a thing is or how much, hedged, no mark: 「赤は激レアじゃん、テールランプとかかな」,
# 「風のピークあと2時間くらいかな」 (not 「何がいいかな」, 「何時くらいかな」).
_JA_HEDGED_GUESS = re.compile(
    r"(?:とか|やつ|系|あたり|辺り|くらい|ぐらい|程度|頃|ごろ)かな[ぁあー〜~]*[\s。…~〜ｗw笑]*$"
)
# Advice hedged, no mark: 「早めに行ったほうがいいかな」, 「何が確定するか覚えるのが先かな」 (a question
# word inside a clause closed by か is what to learn, not what is asked; 「何時から始めるのがいいかな」 asks).
_JA_HEDGED_ADVICE = re.compile(
    r"(?:のが|ほうが|方が)(?:先|いい|良い|早い|楽|無難|確実)かな[ぁあー〜~]*[\s。…~〜ｗw笑]*$"
)
_JA_EMBEDDED_WH = re.compile(
    r"(?:何|なに|どこ|いつ|誰|だれ|どれ|どの|どう)[^、。？?]{0,20}?(?<=[るたいだのう])か(?!な)"
)
_JA_WH_WORD = re.compile(r"何|なに|どこ|いつ|誰|だれ|どれ|どの|どう|どっち")
# Wondering aloud where to go or what to do next, no mark: 「まじか、朝どこ行こ」, 「今日なに食べよ」.
_JA_MUSING = re.compile(
    r"(?:どこ|何|なに|どう|いつ|どれ)[^？?]{0,8}(?:行こ|いこ|しよ|やろ|食べよ|帰ろ|寝よ|見よ|買お|作ろ|着よ)う?"
    r"[ーぁ〜~]*[\s。…~〜ｗw笑]*$"
)
# Someone's time asked for on a day ahead, to be shown in person: 「今週末、畳み方教えてください…」 (the
# people's to give, not a question).
_JA_TIME_ASKED = re.compile(
    r"(?:今週末|週末|今度|来週|明日|あした|土曜|日曜|次の練習|次回)[、,]?[^。？?]{0,16}(?:教えて|おしえて)"
    r"(?:ください|下さい|くれ|ね|ほしい|欲しい|もらえ)"
)
_JA_QUESTION = re.compile(
    # (not 「後輩から返事来たら教えてな」, 「取れたら教えてね」: to be told later, when it happens; but
    # 「いいのあったら教えて」, 「詳しい方いたら教えてください」 ask now for whatever there is)
    r"(?:(?<=あったら)|(?<=いたら)|(?<=あったら、)|(?<=いたら、)|(?<!たら)(?<!たら、)(?<!だら))"
    # (nor 「結果また教えて〜」 to someone on their way to do it: to be told how it went, later)
    r"(?<!結果)(?<!結果また)(?<!感想)(?<!どうだったか)(?<!どうなったか)(?<!あとで)(?<!後で)(?<!また)"
    # (nor 「隣のおばあちゃんが肘でつついて教えてくれた」: told, in the past)
    r"(?:教えて|おしえて)(?!くれた|もらった|くれて|もらって|くれる人いた)"
    r"|(?:どうすれば|どうしたら|どうやって|どうやったら|どうすると)"
    # 「シャッタースピードってどれくらいにすればいいんでしょう」: a question word, then 〜んでしょう
    r"|(?:どれくらい|どのくらい|どう|何|なに|どこ|いつ|どれ|どの|なぜ|なんで)[^。？?]*(?:ん|の)でしょう[ねか]?[。…]*$"
    # … trailing off into a remark: 「何が違うんでしょう…自分だとどっちも同じことしてる気がしてて」
    r"|(?:どれくらい|どのくらい|どう|何|なに|どこ|いつ|どれ|どの)[^。？?]*(?:ん|の)でしょう[ねか]?…+\s*[^？?]{2,60}$"
    # (not 「隣の研究室まだ誰かいるっぽい」: someone seems to be there, told)
    r"|(?:誰か|だれか|どなたか)(?:知|わか|分か|助|教|詳|い(?![るた](?:っぽい|みたい|らしい|ような|気が)))|(?:わかる|分かる|知ってる|知っている|詳しい)(?:人|方)"
    # … not told that there are some: 「#パーツ相談 で聞いてみ、詳しい人おるで」
    r"(?![がはも]?(?:おる|いる|居る|います|おります)(?:で|よ|から|ので|し|けど|と思う))"
    # what to do, asked without a mark: 「水換えした方がいいのか、待った方がいいのか分からなくて…」
    r"|(?:方がいい|ほうがいい|べき|ばいい|たらいい|ていい|でいい|大丈夫|平気)な?のか[^。？?]{0,40}"
    r"(?:分から|わから|分かりません|わかりません|迷って|悩んで|知りたい)"
    # … which of two it is (「はんだがダメなのかケーブルのせいなのか分からなくて」), or what
    # (「原因が何なのか」)
    r"|のか[^。？?]{1,40}のか[^。？?]{0,10}(?:分から|わから|分かりません|わかりません|迷って|悩んで|知りたい)"
    r"|(?:何|なに|どこ|どれ|どの|どんな|どう|なぜ|なんで|いつ|誰)[^。？?]{0,20}のか[^。？?]{0,10}"
    r"(?:分から|わから|分かりません|わかりません|知りたい)"
)
_LEADING_NICK = re.compile(
    r"^@?(?!\[(?:image|img|photo|picture|pic|video|gif|file|attachment|screenshot|画像|写真|動画|スクショ|ファイル)\b)"
    r"([\w\-\[\]`^{}|.]{2,32}?)(?:さん|くん|君|ちゃん|様|氏)?\s*(?:[:,]\s|[：、，]\s*)",
    re.IGNORECASE,
)
_AT_NAME = re.compile(r"@([\w\-.]{2,32})")

# What may follow a closing or thanks phrase in the same clause (ありがとうございました, お疲れ様です …).
_PHRASE_TAIL = re.compile(
    r"(?:ござい(?:ます|ました)|いたします|いたしました|申し上げます|して(?:い)?ます|しました|します|した"
    r"|でした|です|でーす|っす|なさい|様|さま|さん|ね|よ|な|ぁ|ー|〜|~|っ|w|ｗ|笑)*"
    r"(?:$|(?=[^\w])|(?=[wｗ笑]))"
)
_NOT_THANKS = re.compile(r"\bno thanks\b|\bthanks to (?!you\b|u\b|y'?all\b|everyone\b|all\b)")


def norm(text: str) -> str:
    return text.casefold().strip()


def normalized(text: str) -> str:
    """The text as the rules read it: NFKC, casefolded, spaces collapsed."""
    return norm(unicodedata.normalize("NFKC", text))


def _occurrences(low_text: str, low_name: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(low_name), low_text)]


def calls_name(text: str, names: Sequence[str], present: Iterable[str] | None = None) -> bool:
    """Is the bot called by name or alias, in any form it is written in (domain/name_calls.py)? `present`:
    the room's people, where known (the name clipped, "kiki", is read only where nobody goes by it)."""
    return name_calls.called(text, names, is_question, present=present)


def is_addressed(message: Message, names: Sequence[str], present: Iterable[str] | None = None) -> str | None:
    """The addressing term for a message to the bot, or None; `present`: the room's people, where known."""
    if message.mentions_bot:
        return "mention"
    if message.reply_to_bot:
        return "reply_to_bot"
    if calls_name(message.content, names, present):
        return "name_call"
    return None


def _strip_leading_nick(text: str) -> str:
    match = _LEADING_NICK.match(text)
    return text[match.end() :] if match else text


def muses(text: str) -> bool:
    """Japanese wondering aloud what one will do or whether one can (「朝どこ行こ」, 「買おうかな」,
    「夕方走れるかな〜」): it asks nobody and answers nobody."""
    body = norm(text.strip())
    return bool(_JA_MUSING.search(body) or _JA_WONDERING.search(body))


@lru_cache(maxsize=4096)
def is_question(text: str) -> bool:
    """A question: a trailing `?`/`？`, a request for help without one, or a Japanese question form."""
    # Japanese: …ですか, …かな, 教えて, or a question word with a plain ending (どこで買える).
    stripped = text.strip()
    if _JA_TIME_ASKED.search(stripped) and not re.search(r"[?？]", stripped):
        return False
    if QUESTION_END.search(stripped):
        return True
    body = norm(_strip_leading_nick(stripped))
    if _JA_MUSING.search(body):
        return False
    if (_JA_HEDGED_ADVICE.search(body) or _JA_HEDGED_GUESS.search(body)) and not _JA_WH_WORD.search(
        _JA_EMBEDDED_WH.sub("", body)
    ):
        return False
    if _EN_QUESTION.search(body):
        return True
    if (
        (_JA_QUESTION_END.search(body) and not (_JA_RESIGNED.search(body) or _JA_WONDERING.search(body)))
        or _JA_QUESTION.search(body)
        or _JA_QUESTION_THEN.search(body)
        or _JA_ASKED_THEN.search(body)
    ):
        return True
    return not body.isascii() and japanese.plain_wh_question(body)


def _own_clause(low: str, phrase: str) -> bool:
    """Does the phrase stand as a clause of its own: a word, then only polite endings before a break?"""
    # ありがとうございました, 了解、…, お疲れ様です count; ありがとうって言われた, おやすみの日 do not.
    if phrase.isascii():
        return has_word(low, phrase)
    marks = japanese.boundaries(low)
    for start in _occurrences(low, phrase):
        if (start in marks or not low[start - 1].isalnum()) and _PHRASE_TAIL.match(low, start + len(phrase)):
            return True
    return False


def is_thanks(text: str) -> bool:
    """A short message thanking someone: a thanks phrase as a clause of its own, not a question."""
    low = norm(text)
    if not low or len(low) > 60 or is_question(low) or _NOT_THANKS.search(low):
        return False
    return any(_own_clause(low, phrase) for phrase in THANKS_PHRASES if phrase in low)


def is_closing(text: str) -> bool:
    """A short message made of a closing phrase (thanks, bye, 了解, おやすみなさい, また明日 …)."""
    low = norm(text)
    if not low or len(low) > 40 or is_question(low):
        return False
    if _NIGHT.match(low):
        return True
    return is_thanks(low) or any(_own_clause(low, phrase) for phrase in CLOSING_PHRASES if phrase in low)


# "night 👋", "night june!", "nite all": goodnight said first, with a name or an emoji at most ("movie night
# was fun" is not one).
_NIGHT = re.compile(r"^(?:night|nite|nighty night|night night|g'?night|goodnight)(?:\s+[\w'-]+)?[^\w]*$")


def directed_to(message: Message, participants: Mapping[str, str]) -> str | None:
    """The participant a message is aimed at: `nick:` prefix, `@nick`, `nickさん`, `ねえnick、` …"""
    # The forms of calls_name (domain/name_calls.py) without asking: a name in running text
    # (昨日nickが…, nickさんのはお父さん譲り, "bob is great") talks about them, it is not aimed at them.
    # ASCII nicks are often everyday words ("will", "max"): only the forms marked by punctuation, `@`
    # or an honorific count for them, and a short one ("jo", "so") needs `@` or an honorific.
    match = _LEADING_NICK.match(message.content)
    if match and norm(match.group(1)) in participants:
        return participants[norm(match.group(1))]
    for token in _AT_NAME.findall(message.content):
        if norm(token) in participants:
            return participants[norm(token)]
    low = name_forms.fold(message.content)
    for key, person in participants.items():
        folded = name_forms.fold(key).strip()
        if not folded:
            continue
        short = folded.isascii() and len(folded) < 3
        for variant in name_forms.variants(folded):
            if variant[:-1] not in low:
                continue
            everyday = japanese.is_everyday(variant)
            for at in name_forms.occurrences(low, variant):
                if short and not (at.honorific or low[: at.start].endswith("@")):
                    continue
                if name_calls.reads_as_call(
                    low, at, everyday=everyday, question=is_question, strict=folded.isascii(), asking=False
                ):
                    return person
    return None


# A question put to the room, not to the one person the asker is talking with.
TO_THE_ROOM = re.compile(
    r"\b(?:any ?(?:one|body)|some ?(?:one|body)|every ?(?:one|body)|you (?:all|guys)|y'?all|folks|people)\b"
    r"|誰か|だれか|どなたか|みんな|皆さん|みなさん"
    # … or those who do it: 「EC測ってる方って…？」, 「使ってる人いる？」
    r"|(?:る|た|だ)(?:方|人|ひと)(?:って|は|いる|いない|おる|おらん|います|いません|いたら|おったら)"
)
