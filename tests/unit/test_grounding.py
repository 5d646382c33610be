"""Grounded answers' pure rules: which lines are factual questions, which tools a reply gets, how it cites."""

from __future__ import annotations

import pytest

from kikimimi.domain.grounding import (
    READ_LINKS,
    WEB_SEARCH,
    WebSource,
    cite,
    lookup_tools,
    needs_lookup,
    source_hosts,
)
from kikimimi.ports import LLMRequest

REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC"


@pytest.mark.parametrize(
    ("text", "factual"),
    [
        ("when is python 3.14 released?", True),
        ("what version of node does vite need?", True),
        ("how much does the pro plan cost?", True),
        ("where is the meetup this year?", True),
        ("how many players can join a server?", True),
        ("<@999> which release fixed the login bug?", True),
        ("how do I change the log level in the config file?", True),
        ("does discord.py support python 3.13?", True),
        ("Python 3.14 はいつリリースされますか？", True),
        ("このプランの料金はいくらですか", True),
        ("最新バージョンって何？", True),
        ("会場はどこ？", True),
        # opinions, feelings and small talk
        ("what do you think about rust?", False),
        ("how are you today?", False),
        ("what's up everyone?", False),
        ("what's your favorite game?", False),
        ("should i learn go or rust?", False),
        ("rust のことどう思う？", False),
        ("元気？", False),
        ("このゲーム好き？", False),
        # not a question
        ("the release is on friday", False),
        ("リリースは金曜日です", False),
        ("", False),
    ],
)
def test_grounding_needs_lookup_only_for_factual_questions(text: str, factual: bool) -> None:
    assert needs_lookup(text) is factual


@pytest.mark.parametrize(
    ("text", "addressed", "read_links", "tools"),
    [
        ("when is python 3.14 released?", False, True, (WEB_SEARCH,)),
        ("when does https://example.com/events start?", False, True, (WEB_SEARCH, READ_LINKS)),
        ("when does https://example.com/events start?", False, False, (WEB_SEARCH,)),  # a private place
        ("kikimimi, summarize https://example.com/post", True, True, (READ_LINKS,)),  # asked about a link
        ("kikimimi, summarize https://example.com/post", True, False, ()),
        ("look at https://example.com/cat.png lol", False, True, ()),  # a link nobody asked about
        ("how are you?", True, True, ()),
    ],
)
def test_grounding_lookup_tools(text: str, addressed: bool, read_links: bool, tools: tuple[str, ...]) -> None:
    assert lookup_tools(text, addressed=addressed, read_links=read_links) == tools


@pytest.mark.parametrize(
    ("text", "tools"),
    [
        ("when does it start?", (WEB_SEARCH, READ_LINKS)),  # a factual question about the link above
        ("lol nice", ()),
    ],
)
def test_grounding_reads_a_link_shared_just_before_a_factual_question(
    text: str, tools: tuple[str, ...]
) -> None:
    shared = ["the schedule is up: https://example.com/events", "ok"]
    assert lookup_tools(text, addressed=False, read_links=True, shared=shared) == tools
    assert lookup_tools(text, addressed=False, read_links=False, shared=shared) == tools[:1]


def test_grounding_source_host_prefers_the_site_over_the_redirect_link() -> None:
    assert WebSource(REDIRECT, "python.org").host == "python.org"
    assert WebSource(REDIRECT, "Python Release Schedule", "docs.python.org").host == "docs.python.org"
    assert WebSource("https://www.example.com/a", "Some page title").host == "example.com"
    sources = [WebSource(REDIRECT + "1", "python.org"), WebSource(REDIRECT + "2", "python.org")]
    assert source_hosts(sources) == ("python.org",)


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("It came out in October 2024.", "It came out in October 2024. (source: python.org, wikipedia.org)"),
        (
            "It came out in October 2024 (source: python.org).",
            "It came out in October 2024 (source: python.org).",
        ),
        ("Per docs.python.org it came out in October.", "Per docs.python.org it came out in October."),
        ("2024年10月に出ました。", "2024年10月に出ました。（出典: python.org, wikipedia.org）"),
    ],
)
def test_grounding_cites_at_most_two_sites_unless_the_writer_did(text: str, cited: str) -> None:
    sources = [
        WebSource(REDIRECT + "1", "python.org"),
        WebSource(REDIRECT + "2", "wikipedia.org"),
        WebSource(REDIRECT + "3", "realpython.com"),
    ]
    assert cite(text, sources) == cited


def test_grounding_cites_nothing_without_sources() -> None:
    assert cite("Friday.", []) == "Friday."


def test_grounding_tools_are_named_by_what_they_do() -> None:
    assert LLMRequest(purpose="reply", system="s", tools=(WEB_SEARCH, READ_LINKS)).tools
    with pytest.raises(ValueError, match="unknown LLM tools"):
        LLMRequest(purpose="reply", system="s", tools=("code_execution",))
