"""Grounded answers (pure): which questions the writer may look up on the web, and how it cites what it used.

A lookup costs a billed search and seconds of latency, and chat is mostly not about facts: only a factual
question (when, where, how much, which version …) gets the tools, never opinions, feelings or small talk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kikimimi.domain.links import find_links, host_of
from kikimimi.domain.rule_terms import is_question

# The tools a writer may use, named by what they do (the LLM port's words): each adapter maps them onto its
# vendor's (Gemini: Google Search grounding, URL context).
WEB_SEARCH = "web_search"  # look the question up on the web
READ_LINKS = "read_links"  # read the pages the prompt links to
TOOLS = (WEB_SEARCH, READ_LINKS)
MAX_CITED = 2  # sources named at the end of a grounded reply: a chat line, not a bibliography

# What a factual question asks for. English by word; Japanese by substring (no spaces between words).
_EN_FACT = re.compile(
    r"\b(?:when|where|which|who|whom|whose|how (?:many|much|long|old|far|often|big|do|does|did|can|to)"
    r"|what (?:time|day|date|year|version|is|are|was|were|does|did)|what's|whats"
    r"|versions?|release[sd]?|launch(?:ed|es)?|price[sd]?|costs?|fees?|deadline|schedule[sd]?|latest"
    r"|changelog|support(?:s|ed)?|compatible|population|capital|score|results?|weather|open(?:s)? on)\b",
    re.IGNORECASE,
)
_JA_FACT = re.compile(
    r"いつ|どこ|何時|何日|何曜|何年|何月|何人|何個|何円|何回|何歳|何番|何が|何を|何の|なにが|なにを|なんの|何て|なんて"
    r"|いくら|いくつ|どれくらい|どのくらい|どれぐらい|どのぐらい|誰が|だれが|どうやって|やり方|方法|手順"
    r"|バージョン|リリース|発売|公開日|配信日|最新|値段|価格|料金|金額|費用|締め?切り|日程|開催|営業時間"
    r"|対応して|サポート|互換|仕様|人口|首都|天気|結果|スコア"
)
# Opinions, feelings and small talk: nothing to look up even when phrased as a question.
_EN_CHAT = re.compile(
    r"\b(?:you think|do you (?:like|love|want|prefer|feel|remember)|are you|how are|how's it going"
    r"|how is it going|how have you|what's up|whats up|wyd|feel(?:ing|s)?|favou?rite|prefer|opinion"
    r"|should i|would you|wanna|do you guys|fun|love|hate|mood|tired|bored)\b",
    re.IGNORECASE,
)
_JA_CHAT = re.compile(
    r"思う|思います|思いますか|好き|嫌い|気分|元気|調子|感じ|楽しい|楽しかった|つらい|疲れ|眠い|暇|おすすめ|オススメ|どう(?:だった|かな|です|思)"
)
# A place for the writer to look: a Discord mention or the bot's name before the question is no cue.
_MENTION = re.compile(r"<[@#][!&]?\d+>")


@dataclass(frozen=True)
class WebSource:
    """A web page a grounded answer drew on: its link (often a search redirect), title and site."""

    uri: str
    title: str = ""
    domain: str = ""

    @property
    def host(self) -> str:
        """The site to name in a citation: the reported domain, a title that is a domain (Google Search
        grounding titles its chunks by site), else the link's host."""
        for candidate in (self.domain, self.title):
            name = candidate.strip().lower().removeprefix("www.")
            if _is_domain(name):
                return name
        return host_of(self.uri).removeprefix("www.")


def _is_domain(name: str) -> bool:
    return bool(re.fullmatch(r"(?:[a-z0-9-]+\.)+[a-z]{2,}", name))


def needs_lookup(text: str) -> bool:
    """A factual question (when, where, how many, which version, a price …), not an opinion, a feeling or
    small talk: the only kind of question a web search can answer better than the chat."""
    body = _MENTION.sub(" ", text).strip()
    if not body or not is_question(body):
        return False
    if _EN_CHAT.search(body) or _JA_CHAT.search(body):
        return False
    return bool(_EN_FACT.search(body) or _JA_FACT.search(body))


def lookup_tools(
    text: str, *, addressed: bool, read_links: bool, shared: Sequence[str] = ()
) -> tuple[str, ...]:
    """The tools a reply to `text` may use: search for a factual question; links read too when
    `read_links` (a public place): those `text` carries when the bot was asked about them (addressed, or
    a factual question), and those of the lines just before it (`shared`) for a factual question."""
    factual = needs_lookup(text)
    tools: list[str] = [WEB_SEARCH] if factual else []
    own = (factual or addressed) and bool(find_links(text))
    if read_links and (own or (factual and any(find_links(line) for line in shared))):
        tools.append(READ_LINKS)
    return tuple(tools)


def source_hosts(sources: Sequence[WebSource]) -> tuple[str, ...]:
    """The sites of the sources, in order, each once."""
    return tuple(dict.fromkeys(h for s in sources if (h := s.host)))


def cite(text: str, sources: Sequence[WebSource], limit: int = MAX_CITED) -> str:
    """The reply with its sources named briefly at the end — `(source: a.com, b.org)`, or `（出典: …）`
    after Japanese — unless the writer already named one of them."""
    hosts = source_hosts(sources)
    if not hosts or not text.strip():
        return text
    low = text.lower()
    if any(host in low or _site(host) in low for host in hosts):
        return text
    named = ", ".join(hosts[:limit])
    if _japanese(text):
        return f"{text.rstrip()}（出典: {named}）"
    return f"{text.rstrip()} (source: {named})"


def _site(host: str) -> str:
    """The registrable-looking end of a host (docs.python.org → python.org), as a writer tends to name it."""
    labels = host.split(".")
    keep = 3 if len(labels) > 2 and len(labels[-1]) == 2 and len(labels[-2]) <= 3 else 2  # bbc.co.uk
    return ".".join(labels[-keep:])


def _japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)
