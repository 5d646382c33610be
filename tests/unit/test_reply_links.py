"""The reply reader: certain links, the learned model's choices, answered questions, the weights file."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kikimimi.adapters.link_weights import (
    PACKAGED,
    UNADDRESSED,
    LinkWeightsError,
    load_link_weights,
    load_reader,
)
from kikimimi.domain.model import Message
from kikimimi.domain.question_answers import Answer, answers
from kikimimi.domain.reading import Link, LinkWeights, LinkWeightsInvalid, ReplyReader
from kikimimi.domain.reading.features import FEATURE_SET, NAMED_SET

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi", "聞き耳")


def msg(
    mid: str,
    author: str,
    content: str,
    t: float,
    *,
    reply_to: str | None = None,
    own: bool = False,
    mention: bool = False,
    author_id: str | None = None,
) -> Message:
    return Message(
        id=mid,
        guild_id="g",
        channel_id="c",
        thread_id=None,
        author_id=author_id or f"id_{author}",
        author_name=author,
        author_is_bot=own,
        content=content,
        created_at=T0 + timedelta(seconds=t),
        reply_to_id=reply_to,
        is_self=own,
        mentions_bot=mention,
    )


@pytest.fixture(scope="module")
def reader() -> ReplyReader:
    return load_reader()  # the packaged tables, as the functions read rooms


def _room(*lines: tuple[str, str]) -> list[Message]:
    """Lines by (author, text), 20 s apart, with ids m1, m2, …"""
    return [msg(f"m{i}", author, text, 20 * i) for i, (author, text) in enumerate(lines, start=1)]


# The last line's certain link: Discord, or the text, says whom it answers.
CERTAIN = [
    (
        "a Discord reply",
        [
            msg("m1", "alice", "the build is red", 0),
            msg("m2", "carol", "lunch?", 10),
            msg("m3", "bob", "looking at it", 20, reply_to="m1"),
        ],
        "m1",
    ),
    (
        "an @mention by id",
        [
            msg("m1", "alice", "the build is red", 0, author_id="111"),
            msg("m2", "carol", "lunch?", 10),
            msg("m3", "bob", "<@111> looking at it", 20),
        ],
        "m1",
    ),
    (
        "a nick: prefix",
        _room(
            ("alice", "the build is red"),
            ("carol", "lunch anyone?"),
            ("dave", "sure"),
            ("bob", "alice: which job failed?"),
        ),
        "m1",
    ),
    (
        "an IRC nick shortened",
        _room(("sinope[away]", "my disk is full"), ("carol", "lunch anyone?"), ("bob", "sinope: try ncdu")),
        "m1",
    ),
    (
        "a 〜さん address",
        _room(
            ("たろう", "ビルドが落ちてる"),
            ("はなこ", "お昼どうする？"),
            ("じろう", "たろうさん、どのジョブですか"),
        ),
        "m1",
    ),
    (
        "an address to the bot",
        [
            msg("m1", "kikimimi", "the release is at five", 0, own=True),
            msg("m2", "carol", "lunch?", 10),
            msg("m3", "bob", "kikimimi, which release?", 20),
        ],
        "m1",
    ),
    (
        "a mention of the bot",
        [
            msg("m1", "kikimimi", "hello!", 0, own=True),
            msg("m2", "carol", "hi", 10),
            msg("m3", "bob", "@kikimimi what's up", 20, mention=True),
        ],
        "m1",
    ),
]


@pytest.mark.parametrize(("case", "room", "parent"), CERTAIN, ids=[c[0] for c in CERTAIN])
def test_a_said_link_is_certain(reader: ReplyReader, case: str, room: list[Message], parent: str) -> None:
    link = reader.links(room, NAMES)[-1]
    assert link == Link(room[-1].id, parent, 1.0, True)


# Nobody is named: the weights find the line it goes on with (an own follow-up); the next turn that
# answers a question by what it says is read by the answered-question rule (below), not the weights alone.
LEARNED = [
    (
        "an own follow-up line",
        [
            ("alice", "my wifi drops every few minutes"),
            ("bob", "hi all"),
            ("alice", "and then it reconnects after a minute"),
        ],
        "m1",
    ),
]
SMALL_ROOM = [
    (
        "English",
        [
            ("alice", "anyone tried the new build yet?"),
            ("carol", "i pushed the docs fix"),
            ("bob", "yes, works fine for me"),
        ],
        "m1",
        "m3",
    ),
    (
        "Japanese, a short answer",
        [
            ("はなこ", "今日のリリース、だれか試した？"),
            ("じろう", "お昼は駅前にしよう"),
            ("たろう", "まだです"),
        ],
        "m1",
        "m3",
    ),
    (
        "Japanese, a question back",
        [("はなこ", "お昼は駅前にしよう"), ("じろう", "駅前の？"), ("はなこ", "そうそう")],
        "m2",
        "m3",
    ),
]


@pytest.mark.parametrize(("case", "lines", "question", "answer"), SMALL_ROOM, ids=[c[0] for c in SMALL_ROOM])
def test_an_unaddressed_answer_in_a_small_room_is_read_as_one(
    reader: ReplyReader, case: str, lines: list[tuple[str, str]], question: str, answer: str
) -> None:
    room = _room(*lines)
    found = answers(room, reader.links(room, NAMES))
    assert found[question].answer_id == answer


@pytest.fixture(scope="module")
def named_reader() -> ReplyReader:
    """The weights for rooms whose people name each other, alone. The weights for rooms where nobody does
    misread the two brand-new rooms below (an own "and then …" after "hi all" goes to "hi all"; a greeting
    four hours on answers the line before): docs/quality.md, what it still gets wrong."""
    return ReplyReader(load_link_weights())


@pytest.mark.parametrize(("case", "lines", "parent"), LEARNED, ids=[c[0] for c in LEARNED])
def test_the_model_links_an_unaddressed_line(
    named_reader: ReplyReader, case: str, lines: list[tuple[str, str]], parent: str
) -> None:
    reader = named_reader
    room = _room(*lines)
    link = reader.links(room, NAMES)[-1]
    assert (link.reply_to, link.certain) == (parent, False)
    assert 0.0 < link.confidence < 1.0
    ranked = reader.candidates(room[-1], room[:-1], NAMES)
    assert ranked[0] == (parent, pytest.approx(link.confidence))


def test_a_first_line_or_a_greeting_after_a_long_gap_opens_a_conversation(named_reader: ReplyReader) -> None:
    room = [msg("m1", "alice", "anyone around?", 0), msg("m2", "bob", "hello everyone!", 4 * 3600)]
    first, later = named_reader.links(room, NAMES)
    assert first == Link("m1", None, 1.0, False)  # nothing before it: opening is the only option
    assert later.reply_to is None and not later.certain


NEAREST = LinkWeights(0.0, {"d:1": 5.0}, feature_set=NAMED_SET)  # the line before
TWO_BACK = LinkWeights(0.0, {"d:2": 5.0})  # two lines back


def test_each_room_is_read_by_the_weights_for_its_kind() -> None:
    """Where people name each other, the named table reads; where nobody does, the unaddressed one."""
    reader = ReplyReader(NEAREST, unaddressed=TWO_BACK)
    plain = _room(("alice", "is the wiki down"), ("bob", "brb"), ("carol", "lunch"), ("dave", "works for me"))
    last = reader.links(plain, NAMES)[-1]
    assert (last.reply_to, last.names_people, last.certain) == ("m2", False, False)
    named = _room(("alice", "is the wiki down"), ("bob", "alice: brb"), ("carol", "lunch"), ("dave", "ok"))
    last = reader.links(named, NAMES)[-1]
    assert (last.reply_to, last.names_people, last.certain) == ("m3", True, False)
    # A leading `word,` or `https:` that names nobody present is no address.
    leads = _room(
        ("alice", "perfect, thanks"), ("bob", "https://example.org/a"), ("carol", "ok"), ("dave", "hm")
    )
    last = reader.links(leads, NAMES)[-1]
    assert (last.reply_to, last.names_people) == ("m2", False)
    # One table alone reads every room (and never takes the dialogue turn).
    assert [link.reply_to for link in ReplyReader(NEAREST).links(plain, NAMES)] == [None, "m1", "m2", "m3"]


def test_calling_the_bot_is_no_sign_that_people_name_each_other() -> None:
    """A room whose only address is a call to the bot ("kikimimi, does the ferry…?") is still read by the
    unaddressed table: people there answer each other without names."""
    reader = ReplyReader(NEAREST, unaddressed=TWO_BACK)
    called = _room(
        ("alice", "kikimimi, does the oban ferry sail daily?"),
        ("bob", "campervan or b&bs in the end?"),
        ("carol", "b&bs on barra"),
        ("dave", "love it"),
    )
    assert [link.names_people for link in reader.links(called, NAMES)[1:]] == [False, False, False]


def test_a_dialogue_takes_turns_where_nobody_names_anyone(reader: ReplyReader) -> None:
    """Two people going back and forth without names: each line answers the other's line before it."""
    room = _room(
        ("ann", "how do i install java on ubuntu"),
        ("ben", "sudo apt install default-jdk"),
        ("ann", "which version does that give me"),
        ("ben", "openjdk 17 on jammy"),
        ("ann", "and on focal?"),
        ("ben", "11 there"),
    )
    links = reader.links(room, NAMES)
    assert [link.reply_to for link in links] == [None, "m1", "m2", "m3", "m4", "m5"]
    assert not any(link.names_people for link in links[1:])


def test_candidates_are_probabilities_best_first(reader: ReplyReader) -> None:
    room = _room(
        ("alice", "anyone tried the new build yet?"),
        ("carol", "i pushed the docs fix"),
        ("bob", "yes, works fine for me"),
    )
    ranked = reader.candidates(room[-1], room[:-1], NAMES)
    assert {option for option, _ in ranked} == {None, "m1", "m2"}
    assert math.isclose(sum(p for _, p in ranked), 1.0)
    assert [p for _, p in ranked] == sorted((p for _, p in ranked), reverse=True)


def test_links_keep_every_message_and_read_only_the_window() -> None:
    weights = LinkWeights(0.0, {"d:1": 5.0})  # the nearest line always wins
    room = _room(*[("alice" if i % 2 else "bob", f"line {i}") for i in range(6)])
    join = Message(**{**vars(msg("j", "eve", "", 130)), "message_type": "join"})
    links = ReplyReader(weights, window=2).links([*room, join], NAMES)
    assert [link.id for link in links] == [*(m.id for m in room), "j"]
    assert links[-1] == Link("j", None, 1.0, True)  # a system message replies to nothing
    assert [link.reply_to for link in links[1:-1]] == ["m1", "m2", "m3", "m4", "m5"]
    assert len(ReplyReader(weights, window=2).candidates(room[-1], room[:-1])) == 3  # 2 lines + opening


def test_explain_reads_as_links_do_and_shows_each_choice() -> None:
    """What `kikimimi train-links` learns from: each link with the options it chose among."""
    weights = LinkWeights(0.0, {"d:2": 3.0, "S&first": 4.0})  # two lines back, unless the author is new
    room = _room(("alice", "a"), ("bob", "b"), ("alice", "c"), ("carol", "d"), ("bob", "e"))
    reader = ReplyReader(weights)
    explained = list(reader.explain(room, NAMES))
    assert [link for link, _ in explained] == reader.links(room, NAMES)
    for link, opts in explained:
        scores = [weights.score(features) for _, features in opts]
        assert opts[0][0] is None and link.reply_to == opts[scores.index(max(scores))][0]
    assert [link.reply_to for link, _ in explained] == [None, None, "m1", None, "m3"]


Q, A = "q", "a"


NAMING = msg("n", "erin", "dave: morning", -30)  # a room whose people name whom they answer


def _links(*pairs: tuple[str, str | None, float], names_people: bool = True) -> list[Link]:
    """Learned links, read where people name each other (names_people=False: where nobody does)."""
    return [Link(mid, to, p, False, names_people) for mid, to, p in pairs]


def _slow_room(greeting: str, back: str) -> list[Message]:
    """Two greetings ten and five minutes before a question, and an answer four minutes after it."""
    return [
        msg("p", "carol", greeting, -600),
        msg("r", "dave", back, -300),
        msg("q", "alice", "has anyone tried the new API yet?", 0),
        msg("a", "bob", "yes, works fine for me", 240),
    ]


ANSWERED: list[tuple[str, list[Message], list[Link], dict[str, Answer]]] = [
    (
        "another person's answer, where people name whom they answer",
        [NAMING, msg("q", "alice", "anyone tried the new build?", 0), msg("a", "bob", "yes, works fine", 20)],
        _links(("n", None, 0.9), ("q", None, 0.9), ("a", "q", 0.8)),
        {"q": Answer("q", "a", 0.8, "bob answered it (0.80)")},
    ),
    (
        "an unsure link, but the next turn of a small room answers",
        [msg("q", "alice", "anyone tried the new build?", 0), msg("a", "bob", "yes, works fine", 20)],
        _links(("q", None, 0.9), ("a", "q", 0.3)),
        {"q": Answer("q", "a", 0.3, "bob answered it (the next turn)")},
    ),
    (
        "a bare yes after a line to someone else, unsure, does not answer (it may be for them)",
        [
            msg("q", "alice", "anyone tried the new build?", 0),
            msg("n", "carol", "dan: hi", 5),
            msg("a", "bob", "yes, works fine", 20),
        ],
        _links(("q", None, 0.9), ("n", None, 1.0), ("a", "q", 0.3)),
        {},
    ),
    (
        "a question back does not answer; the asker answering it is being helped",
        [
            NAMING,
            msg("q", "alice", "where is the config?", 0),
            msg("b", "bob", "which one?", 10),
            msg("c", "alice", "the nginx one", 20),
            msg("d", "bob", "in /etc/nginx", 30),
        ],
        _links(("n", None, 0.9), ("q", None, 0.9), ("b", "q", 0.9), ("c", "b", 0.9), ("d", "q", 0.7)),
        {
            "q": Answer("q", "c", 0.9, "the asker is talking with bob"),
            "b": Answer("b", "c", 0.9, "alice answered it (0.90)"),
        },
    ),
    (
        "an answer to the asker's follow-up line",
        [
            NAMING,
            msg("q", "alice", "anyone know how to mount a usb drive?", 0),
            msg("f", "alice", "it's ext4", 10),
            msg("a", "bob", "sudo mount /dev/sdb1 /mnt", 20),
        ],
        _links(("n", None, 0.9), ("q", None, 0.9), ("f", "q", 0.9), ("a", "f", 0.6)),
        {"q": Answer("q", "a", 0.6, "bob answered it (0.60)")},
    ),
    (
        "a line opening with another person's name is for them, whatever the link says",
        [
            msg("b", "bob", "it's your change", 0),
            msg("q", "dave", "how do i rotate the key?", 10),
            msg("a", "alice", "bob, no, the deploy script broke it", 20),
        ],
        _links(("b", None, 0.9), ("q", None, 0.9), ("a", "q", 0.8)),
        {},
    ),
    (
        "a line that changes the subject is not the next turn's answer",
        [
            msg("q", "はると", "ギルドの申請ってどこからやる？", 0),
            msg("s", "そうた", "そういえば明日メンテあるらしい", 20),
        ],
        _links(("q", None, 0.9), ("s", None, 0.6)),
        {},
    ),
    (
        "a guess offered after a question answers it",
        [msg("q", "さき", "何時にする？", 0), msg("a", "けん", "10時くらいかな", 10)],
        _links(("q", None, 0.9), ("a", None, 0.6)),
        {"q": Answer("q", "a", 1.0, "けん answered it (the next turn)")},
    ),
    (
        "an answer to the asker's line just before the follow-up answers the follow-up",
        [
            msg("p", "alice", "where do I get a power cable for europe?", 0),
            msg("q", "alice", "does newegg sell it?", 5),
            msg("a", "bob", "alice: try an online store", 30),
        ],
        _links(("p", None, 0.9), ("q", "p", 0.7), ("a", "p", 1.0)),
        {
            "p": Answer("p", "a", 1.0, "bob answered the asker"),
            "q": Answer("q", "a", 1.0, "bob answered the asker"),
        },
    ),
    (
        "the asker settles it",
        [msg("q", "alice", "how do i fix the dns?", 0), msg("s", "alice", "nvm, solved it", 30)],
        _links(("q", None, 0.9), ("s", "q", 0.9)),
        {"q": Answer("q", "s", 0.9, "the asker settled it")},
    ),
    (
        "自己解決",
        [msg("q", "はなこ", "このエラーどうすればいい？", 0), msg("s", "はなこ", "自己解決しました", 30)],
        _links(("q", None, 0.9), ("s", "q", 0.9)),
        {"q": Answer("q", "s", 0.9, "the asker settled it")},
    ),
    (
        "the bot replies",
        [
            msg("q", "alice", "what time is the standup?", 0),
            msg("b", "kikimimi", "at ten", 5, reply_to="q", own=True),
        ],
        [Link("q", None, 0.9, False), Link("b", "q", 1.0, True)],
        {"q": Answer("q", "b", 1.0, "the bot answered it")},
    ),
    (
        "the first line on its words answers it",
        [
            msg("q", "alice", "is the wiki down?", 0),
            msg("x", "carol", "the wiki is slow", 5),
            msg("a", "bob", "yes", 10),
            msg("b", "dave", "yes it is", 20),
        ],
        _links(("q", None, 0.9), ("x", None, 0.9), ("a", "q", 0.9), ("b", "q", 0.95)),
        {"q": Answer("q", "x", 1.0, "carol answered it (the next turn)")},
    ),
    (
        "a line linked to another question answers that one",
        [
            NAMING,
            msg("q", "alice", "is the wiki down?", 0),
            msg("r", "carol", "lunch at noon?", 5),
            msg("a", "bob", "sure", 10),
        ],
        _links(("n", None, 0.9), ("q", None, 0.9), ("r", None, 0.9), ("a", "r", 0.9)),
        {"r": Answer("r", "a", 0.9, "bob answered it (0.90)")},
    ),
    (
        "in a slow room where nobody names anyone, the next line minutes later is the next turn",
        _slow_room("morning all", "morning"),
        _links(("p", None, 0.9), ("r", "p", 0.9), ("q", None, 0.9), ("a", "q", 0.3), names_people=False),
        {"q": Answer("q", "a", 0.3, "bob answered it (the next turn)")},
    ),
    (
        "… but not where people name each other (a late answer names its asker)",
        _slow_room("dave: morning", "carol: morning"),
        _links(("p", None, 0.9), ("r", "p", 0.9), ("q", None, 0.9), ("a", "q", 0.3)),
        {},
    ),
    (
        "where nobody names anyone, a learned link alone closes nothing (what the line says must)",
        [
            msg("q", "alice", "is the wiki down?", 0),
            msg("r", "carol", "i pushed the docs fix", 5),
            msg("a", "bob", "my cat just knocked the plant over again", 10),
        ],
        _links(("q", None, 0.9), ("r", None, 0.9), ("a", "q", 0.9), names_people=False),
        {},
    ),
    (
        "… and a yes the reader puts after the question, past a remark, answers it",
        [
            msg("q", "alice", "anyone tried the new build?", 0),
            msg("n", "carol", "i pushed the docs fix", 5),
            msg("a", "bob", "yes, works fine", 20),
        ],
        _links(("q", None, 1.0), ("n", None, 0.9), ("a", "q", 0.9), names_people=False),
        {"q": Answer("q", "a", 0.9, "bob answered it (the next turn)")},
    ),
]


@pytest.mark.parametrize(("case", "room", "links", "expected"), ANSWERED, ids=[c[0] for c in ANSWERED])
def test_answered_questions(
    case: str, room: list[Message], links: list[Link], expected: dict[str, Answer]
) -> None:
    assert answers(room, links) == expected


def test_answers_from_the_reader_itself(reader: ReplyReader) -> None:
    room = _room(
        ("alice", "anyone tried the new build yet?"),
        ("carol", "i pushed the docs fix"),
        ("bob", "yes, works fine for me"),
    )
    found = answers(room, reader.links(room, NAMES), threshold=0.3)
    assert list(found) == ["m1"] and found["m1"].answer_id == "m3"
    assert found["m1"].reason.startswith("bob answered it")


def _valid() -> dict[str, Any]:
    return {
        "version": 1,
        "feature_set": FEATURE_SET,
        "window": 40,
        "bias": 0.0,
        "weights": {"d:1": 1.5},
        "trained": {"command": "test"},
    }


BROKEN = [
    ("not an object", [1, 2], "expected a JSON object"),
    ("another version", {**_valid(), "version": 2}, "version: expected 1"),
    ("another feature set", {**_valid(), "feature_set": "reply-links/0"}, "feature_set: trained for"),
    ("no weights", {**_valid(), "weights": {}}, "weights: expected a non-empty object"),
    ("a text weight", {**_valid(), "weights": {"d:1": "1.5"}}, "weights.d:1: expected a finite number"),
    ("a NaN weight", {**_valid(), "weights": {"d:1": float("nan")}}, "weights.d:1: expected a finite number"),
    ("a boolean bias", {**_valid(), "bias": True}, "bias: expected a finite number"),
    ("no bias", {k: v for k, v in _valid().items() if k != "bias"}, "bias: expected a finite number"),
    ("a zero window", {**_valid(), "window": 0}, "window: expected a positive whole number"),
    ("trained is a list", {**_valid(), "trained": []}, "trained: expected an object"),
]


@pytest.mark.parametrize(("case", "data", "problem"), BROKEN, ids=[c[0] for c in BROKEN])
def test_invalid_weights_are_refused(case: str, data: Any, problem: str) -> None:
    with pytest.raises(LinkWeightsInvalid, match="^" + problem.replace(".", r"\.")):
        LinkWeights.from_dict(data)


def test_weights_round_trip_through_their_dict() -> None:
    weights = LinkWeights.from_dict(_valid())
    assert weights.weights == {"d:1": 1.5} and weights.window == 40
    assert LinkWeights.from_dict(weights.to_dict()) == weights


@pytest.mark.parametrize(
    ("path", "feature_set", "table"),
    [(PACKAGED, NAMED_SET, "named"), (UNADDRESSED, FEATURE_SET, "unaddressed")],
)
def test_the_packaged_weights_are_small_and_say_how_they_were_trained(
    path: Path, feature_set: str, table: str
) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert path.stat().st_size < 150_000
    assert data["feature_set"] == feature_set
    assert data["trained"]["command"] == f"kikimimi train-links --table {table} --holdout 30"
    assert 0.6 < data["trained"]["holdout"]["accuracy"] < 1.0
    if table == "unaddressed":  # the same held-out logs without `nick:`
        assert 0.4 < data["trained"]["holdout"]["stripped"]["accuracy"] < 1.0


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"version": 1}', "invalid reply-link weights: feature_set"),
    ],
)
def test_a_bad_weights_file_is_an_error_naming_it(tmp_path: Path, content: str | None, problem: str) -> None:
    path = tmp_path / "weights.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(LinkWeightsError, match=problem) as error:
        load_link_weights(path)
    assert str(path) in str(error.value)
