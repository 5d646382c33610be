"""Local text twin for the memory tasks: extractive summaries and facts. Not a language model."""

# With `--llm none` (replay, tests, the local stack) it answers the summarize, reflect and guild prompts
# with schema-valid JSON built from the messages themselves: tokenizer keywords, the last lines as the
# flow, statements as facts. Everything it writes is marked as extractive.

from __future__ import annotations

import json
import re
from typing import Any

from kikimimi.domain.memory.keywords import extract_keywords
from kikimimi.domain.rules import is_closing, is_question
from kikimimi.ports import LLMError, LLMRequest, LLMResult

_LINE = re.compile(
    r"^\[(?P<id>[^\]]+)\] (?P<at>\S+ \S+) (?P<author>.+?) \(id:(?P<uid>[^)]+)\)(?P<who> \((?:you|bot)\))?: "
    r"(?P<text>.*)$"
)
_BLOCK = re.compile(
    r"<(?P<tag>messages|channels|previous_summary|previous_memory)>\n(?P<body>.*?)\n</(?P=tag)>", re.S
)
MARK = {"ja": "（抽出）", "en": "(extractive) "}


def _blocks(system: str) -> dict[str, str]:
    return {m["tag"]: m["body"] for m in _BLOCK.finditer(system)}


def _lines(body: str) -> list[dict[str, str]]:
    return [m.groupdict() for m in (_LINE.match(x) for x in body.splitlines()) if m]


def _japanese(system: str) -> bool:
    return "スキーマに合う JSON" in system


def _style(texts: list[str], lang: str) -> str:
    """How someone writes, from the length of their lines alone (no meaning read)."""
    average = sum(len(t) for t in texts) / max(1, len(texts))
    if lang == "ja":
        return MARK[lang] + ("短い文で話す" if average < 20 else "長めの文で話す")
    return MARK[lang] + ("writes short lines" if average < 40 else "writes long messages")


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ExtractiveMemoryWriter:
    """Stands in for the memory model when none is configured; deterministic for the same prompt."""

    name = "extractive"

    def generate(self, request: LLMRequest) -> LLMResult:
        blocks = _blocks(request.system)
        lang = "ja" if _japanese(request.system) else "en"
        if request.purpose == "summarize":
            answer: dict[str, Any] = self._summary(blocks, lang)
        elif request.purpose == "reflect":
            answer = self._facts(blocks, lang)
        elif request.purpose == "guild":
            answer = self._guild(blocks, lang)
        else:
            raise LLMError(
                f"the extractive twin only writes memory, not {request.purpose!r}", retryable=False
            )
        text = json.dumps(answer, ensure_ascii=False)
        return LLMResult(
            text=text, model=self.name, input_tokens=len(request.system) // 4, output_tokens=len(text) // 4
        )

    def _summary(self, blocks: dict[str, str], lang: str) -> dict[str, Any]:
        lines = [x for x in _lines(blocks.get("messages", "")) if not x["who"]]
        texts = [x["text"] for x in lines]
        flow = " / ".join(f"{x['author']}: {_short(x['text'], 60)}" for x in lines[-3:])
        if sum(is_question(t) for t in texts) * 3 >= max(1, len(texts)):
            mood = "質問が多い" if lang == "ja" else "lots of questions"
        elif sum(("!" in t or "！" in t or "笑" in t or "w" in t[-2:]) for t in texts) * 3 >= max(
            1, len(texts)
        ):
            mood = "にぎやか" if lang == "ja" else "lively"
        else:
            mood = "落ち着いている" if lang == "ja" else "calm"
        return {
            "summary": _short(MARK[lang] + flow, 1200),
            "mood": mood,
            "topic_keywords": list(extract_keywords(texts, 5)),
        }

    def _facts(self, blocks: dict[str, str], lang: str) -> dict[str, Any]:
        candidates = []
        for x in _lines(blocks.get("messages", "")):
            text = x["text"]
            if x["who"] or len(text) < 12 or is_question(text) or is_closing(text):
                continue
            keywords = extract_keywords([text], 5)
            if len(keywords) < 2:
                continue
            content = (
                f"{x['author']}「{_short(text, 200)}」"
                if lang == "ja"
                else f'{x["author"]}: "{_short(text, 200)}"'
            )
            candidates.append((len(keywords), len(text), content, keywords, x["uid"]))
        best = sorted(candidates, key=lambda c: (-c[0], -c[1]))[:5]
        facts = [
            {
                "content": content,
                "keywords": list(keywords),
                "source_user_ids": [uid],
                "confidence": 0.6,
                "shareable": n >= 3,
            }
            for n, _, content, keywords, uid in sorted(best, key=lambda c: candidates.index(c))
        ]
        return {"facts": facts, "people": self._people(blocks, lang)}

    def _people(self, blocks: dict[str, str], lang: str) -> list[dict[str, Any]]:
        """A note per person who spoke: their keywords as tags (and "asks questions" when they asked),
        a line from their own words (the first question they asked, else what they talked about), and a
        personality line from how they write (short or long lines)."""
        said: dict[str, list[str]] = {}
        for x in _lines(blocks.get("messages", "")):
            if not x["who"]:
                said.setdefault(x["uid"], []).append(x["text"])
        # A member's words that the conversation was about make better tags than their rarest words.
        topics = extract_keywords([t for texts in said.values() for t in texts], 12)
        people = []
        for uid, texts in list(said.items())[:8]:
            own = extract_keywords(texts, 8)
            keywords = ([k for k in own if k in topics] or list(own))[:3]
            questions = [t for t in texts if is_question(t)]
            tags = keywords + ([("質問" if lang == "ja" else "asks questions")] if questions else [])
            if questions and lang == "ja":
                line = f"「{_short(questions[0], 60)}」と質問"
            elif questions:
                line = f'asked "{_short(questions[0], 70)}"'
            elif keywords and lang == "ja":
                line = f"{'、'.join(keywords)}について話した"
            elif keywords:
                line = f"talked about {', '.join(keywords)}"
            else:
                line = f"「{_short(texts[-1], 60)}」" if lang == "ja" else f'said "{_short(texts[-1], 70)}"'
            line = _short(MARK[lang] + line, 160)
            people.append(
                {
                    "user_id": uid,
                    "tags": tags[:4],
                    "last_conversation": line,
                    "personality": [_style(texts, lang)],
                }
            )
        return people

    def _guild(self, blocks: dict[str, str], lang: str) -> dict[str, Any]:
        channels = [x for x in blocks.get("channels", "").splitlines() if x.strip()]
        previous = blocks.get("previous_memory", "").splitlines()
        long_term = previous[0].split(": ", 1)[-1] if previous else ""
        if long_term in ("（なし）", "(none)"):
            long_term = ""
        recent = " / ".join(_short(c.split(" / ")[0], 120) for c in channels[:6])
        return {
            "long_term": _short(long_term or (MARK[lang] + recent), 1500),
            "recent_events": _short(MARK[lang] + recent, 800),
        }
