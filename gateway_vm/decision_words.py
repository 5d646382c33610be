"""The judge's last reason in words, for `/kikimimi status` (presentation: the judge stores rule terms).

The judge writes `rules silent at 0: other_exchange -10, closing -30; <note>` when the rules decide, and
the model's own sentence (sometimes prefixed: `conversation ending: …`, `low confidence 0.40: …`) when
the LLM does. Each rule term has a phrase per language; a term or note this table does not know is
shown as it is, never dropped.
"""

from __future__ import annotations

import re
from datetime import datetime

from kikimimi.domain.model import LastDecision
from kikimimi.domain.rule_config import JUDGMENT_TERMS

# The words of each term; the names are the domain's (rule_config.JUDGMENT_TERMS), and
# tests/unit/test_gateway_words.py checks every one of them has words here in both languages.
WORDING: dict[str, dict[str, str]] = {
    "mention": {"en": "someone mentioned me", "ja": "メンションされた"},
    "reply_to_bot": {"en": "someone replied to me", "ja": "私への返信だった"},
    "name_call": {"en": "someone called me by name", "ja": "名前を呼ばれた"},
    "engagement": {"en": "I was part of the conversation", "ja": "少し前から会話に加わっていた"},
    "question": {"en": "the message was a question", "ja": "質問だった"},
    "unanswered_question": {"en": "nobody had answered the question", "ja": "質問に誰も答えていなかった"},
    "keyword": {"en": "it mentioned one of my keywords", "ja": "キーワードが含まれていた"},
    "knowledge_topic": {"en": "it was about a topic I know", "ja": "詳しい話題だった"},
    "after_silence": {"en": "it broke a long silence", "ja": "長い沈黙のあとの発言だった"},
    "cooldown": {"en": "I had spoken only moments before", "ja": "直前に話したばかりだった"},
    "two_people": {"en": "two people were talking with each other", "ja": "二人で話していた"},
    "not_mentioned": {"en": "nobody had called me lately", "ja": "最近だれにも呼ばれていなかった"},
    "high_frequency": {"en": "the channel was very busy", "ja": "会話のペースが速かった"},
    "decay_mild": {"en": "replies were getting shorter", "ja": "返事が短くなってきていた"},
    "decay_strong": {"en": "replies had become much shorter", "ja": "返事がかなり短くなっていた"},
    "directed_elsewhere": {
        "en": "the message was meant for someone else",
        "ja": "ほかの人に向けた発言だった",
    },
    "closing": {"en": "the conversation was closing", "ja": "会話が締めくくられていた"},
    "recent_turn": {"en": "I had just taken a turn", "ja": "直前に自分も発言していた"},
    "exchange": {"en": "they were talking with me", "ja": "私と話している最中だった"},
    "follow_up": {"en": "they asked me a follow-up question", "ja": "私への続きの質問だった"},
    "unanswered_address": {
        "en": "someone had spoken to me and was still waiting",
        "ja": "呼びかけにまだ答えていなかった",
    },
    "other_exchange": {"en": "they were talking with someone else", "ja": "ほかの人と話していた"},
    "crowded": {"en": "many people were talking", "ja": "大勢が話していた"},
    "question_waiting": {
        "en": "the question was still waiting in a quiet room",
        "ja": "静かな中で質問が答えを待っていた",
    },
    "participation": {"en": "I had been taking part lately", "ja": "最近の会話に加わっていた"},
    "just_answered": {"en": "they were answering what I had just said", "ja": "私の直前の発言への返事だった"},
    "unfinished": {"en": "they had not finished their sentence", "ja": "発言が途中で続きそうだった"},
    "tension": {"en": "people seemed to talk past each other or argue", "ja": "すれ違いや言い争いがあった"},
    "maybe_answered": {"en": "someone may have answered it already", "ja": "誰かが答えたかもしれなかった"},
    "proactive_memory": {"en": "I remembered something worth sharing", "ja": "伝えたいことを覚えていた"},
    "reception": {
        "en": "my unprompted posts here were often ignored lately",
        "ja": "最近ここでは自分からの発言がよく素通りされていた",
    },
}
# Every term a judgment can carry, in the domain's order, with its words (a term without them shows
# as its name).
TERMS: dict[str, dict[str, str]] = {term: WORDING.get(term, {}) for term in JUDGMENT_TERMS}

# Notes the judge appends after "; " (usecases/judge.py, usecases/limits.py).
NOTES: list[tuple[re.Pattern[str], dict[str, str]]] = [
    (
        re.compile(r"LLM budget reached \((?P<used>\d+)/(?P<limit>\d+) this hour\)"),
        {
            "en": "the rules decided alone: the model was asked {used} of {limit} times this hour",
            "ja": "この 1 時間のモデルの判断回数（{used}/{limit}）を使い切ったので、ルールだけで決めた",
        },
    ),
    (
        re.compile(r"daily LLM budget reached \((?P<used>\d+)/(?P<limit>\d+) today\)"),
        {
            "en": "the rules decided alone: the server used its {limit} model calls for today",
            "ja": "今日のモデル呼び出し（{limit} 回）を使い切ったので、ルールだけで決めた",
        },
    ),
]

WORDS = {
    "en": {
        "none": "I have not judged anything here yet.",
        "respond": "Last time ({when}) I spoke",
        "silent": "Last time ({when}) I stayed silent",
        "rules": " (score {score}): ",
        "no_rule": "no rule applied",
        "model": ". The model's reason: “{reason}”",
        "ending": ". The model saw the conversation ending: “{reason}”",
        "unsure": ". The model was not sure enough ({confidence}): “{reason}”",
        "failed": ". The model could not be asked ({error}), so I stayed silent",
        "thread": " in a thread of this channel; why is shown only by /kikimimi status in that thread.",
        "join": ", ",
        "end": ".",
    },
    "ja": {
        "none": "このチャンネルではまだ何も判断していません。",
        "respond": "前回（{when}）は話しました",
        "silent": "前回（{when}）は黙っていました",
        "rules": "（スコア {score}）。理由: ",
        "no_rule": "当てはまるルールなし",
        "model": "。モデルの判断: 「{reason}」",
        "ending": "。モデルの判断では会話が終わるところでした: 「{reason}」",
        "unsure": "。モデルの確信が足りませんでした（{confidence}）: 「{reason}」",
        "failed": "。モデルに聞けなかった（{error}）ので黙っていました",
        "thread": "（このチャンネルのスレッドで）。理由はそのスレッドの /kikimimi status でだけ表示します。",
        "join": "、",
        "end": "。",
    },
}

_RULES = re.compile(r"^rules (?:respond|silent) at (?P<score>-?[\d.]+): (?P<terms>.*)$", re.S)
_TERM = re.compile(r"^(?P<name>\w+) (?P<value>[+-][\d.]+)$")
_MEMORY = re.compile(r"^\[memory:[^\]]*\] ")
_ENDING = re.compile(r"^conversation ending: (?P<reason>.*)$", re.S)
_UNSURE = re.compile(r"^low confidence (?P<confidence>[\d.]+): (?P<reason>.*)$", re.S)
_FAILED = re.compile(r"^llm failure: (?P<error>[^:]+)", re.S)
LIMIT = 1200  # the status reply also carries the settings; Discord allows 2,000 characters


def term_words(term: str, value: str, lang: str) -> str:
    """`closing`, `-30` → "the conversation was closing (−30)"; an unknown term keeps its name."""
    phrase = TERMS.get(term, {}).get(lang, term)
    signed = value.replace("-", "−")
    return f"{phrase}（{signed}）" if lang == "ja" else f"{phrase} ({signed})"


def note_words(note: str, lang: str) -> str:
    for pattern, words in NOTES:
        found = pattern.fullmatch(note.strip())
        if found:
            return words[lang].format(**found.groupdict())
    return note.strip()


def explain(last: LastDecision | None, lang: str) -> str:
    """Why the bot spoke or stayed silent last time, in `lang`'s words."""
    w = WORDS["ja" if lang == "ja" else "en"]
    if last is None:
        return w["none"]
    head = w["respond" if last.decision == "respond" else "silent"].format(when=_relative(last.at))
    if last.thread_id is not None and not last.reason:  # a thread's judgment whose reason stays there
        return head + w["thread"]
    reason = _MEMORY.sub("", last.reason.strip())
    rules = _RULES.match(reason)
    if rules is None:
        return _clip(head + _model(reason, w) + w["end"])
    first, *notes = rules["terms"].split("; ")
    terms = [_TERM.match(part.strip()) for part in first.split(", ")] if first != "no rule fired" else []
    words = [
        term_words(t["name"], t["value"], lang) if t else part.strip()
        for t, part in zip(terms, first.split(", "), strict=False)
    ]
    said = w["join"].join(words) or w["no_rule"]
    extra = "".join(w["join"] + note_words(n, lang) for n in notes if n.strip())
    return _clip(head + w["rules"].format(score=rules["score"]) + said + extra + w["end"])


def _model(reason: str, w: dict[str, str]) -> str:
    for pattern, key in ((_ENDING, "ending"), (_UNSURE, "unsure"), (_FAILED, "failed")):
        found = pattern.match(reason)
        if found:
            return w[key].format(**{k: v.strip() for k, v in found.groupdict().items()})
    return w["model"].format(reason=reason)


def _relative(at: datetime) -> str:
    return f"<t:{int(at.timestamp())}:R>"  # Discord renders it in the reader's language and time zone


def _clip(text: str) -> str:
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
