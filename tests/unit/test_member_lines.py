"""The bot's own lines about a forgotten member: which sentences name, address or quote them, and what is
left (English and Japanese names, `<@id>` mentions, quotes of the member's words)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kikimimi.domain.memory.member_lines import (
    Member,
    chunk_without_member,
    intervention_without_member,
    refers_to,
    sentences,
    without_member,
)
from kikimimi.domain.memory.model import Chunk, ChunkLine
from kikimimi.domain.model import Intervention, ResponseType

ALICE = Member("1001", ("alice",), ("my password is hunter2 for the staging database server",))
TANAKA = Member("2002", ("田中 太郎", "たなか"), ("来週は札幌のラーメン屋に行く予定です",))
LIN = Member("3003", ("林",), ())
SMITH = Member("4004", ("Alice Smith", "The Doctor"), ())

# (member, the bot's line, what is left: the same line when nothing refers, None when nothing is left)
CASES = [
    # names, word-bounded in Latin script, in any case; a word containing the name is not the name
    (ALICE, "alice: got it!", None),
    (ALICE, "Thanks Alice. The deploy looks fine.", "The deploy looks fine."),
    (ALICE, "Alice and Bob, good job. The graphs look fine.", "The graphs look fine."),
    (ALICE, "malice is a word. Policies matter.", "malice is a word. Policies matter."),
    (ALICE, "@alice see the runbook.", None),
    (ALICE, "Nice work everyone.", "Nice work everyone."),
    # a Latin name before a Japanese honorific, and the template writer's shapes
    (ALICE, "aliceさん、了解です。明日やります。", "明日やります。"),
    (
        ALICE,
        'alice, about "my password is hunter2 for the staging dat…" — let me help with that. (template)',
        "(template)",
    ),
    # a mention by id (with or without the nickname "!"), and the bare id
    (ALICE, "The deploy finished. <@1001> thanks!", "The deploy finished."),
    (ALICE, "<@!1001> welcome back", None),
    (ALICE, "user 1001 asked for this. Done.", "Done."),
    (ALICE, "ticket 10012 is closed.", "ticket 10012 is closed."),
    # quotes of the member's words: in quotation marks, or a run of four of their words
    (ALICE, 'You wrote "hunter2 for the staging". Please rotate it.', "Please rotate it."),
    (ALICE, "your password is hunter2 for the staging box, change it", None),
    (ALICE, 'Someone said "the staging database" is slow. Checking.', "Checking."),
    (ALICE, "The staging database is fine. Restarting.", "The staging database is fine. Restarting."),
    # Japanese names: no word boundaries; the parts of a spaced name; honorifics
    (TANAKA, "田中さん、ありがとう。明日も晴れです。", "明日も晴れです。"),
    (TANAKA, "たなかさんの言う通り。", None),
    (TANAKA, "太郎くん、おつかれさま！また明日。", "また明日。"),
    (TANAKA, "「札幌のラーメン屋」いいですね！みんなで行こう。", "みんなで行こう。"),
    (TANAKA, "来週は札幌のラーメン屋に行くんですね。楽しんで。", "楽しんで。"),
    (TANAKA, "札幌は寒いです。", "札幌は寒いです。"),
    # a one-kanji name only with an honorific (林 is also "woods")
    (LIN, "林さん、了解です。林の中を散歩しました。", "林の中を散歩しました。"),
    # a name's parts, but not a common word that is part of one
    (SMITH, "Smith, the build is green. The tests pass.", "The tests pass."),
    (SMITH, "Doctor who? The tests pass.", "The tests pass."),
]


@pytest.mark.parametrize(("member", "line", "left"), CASES)
def test_the_bots_line_without_the_member(member: Member, line: str, left: str | None) -> None:
    assert without_member(line, member) == left
    assert refers_to(line, member) is (left != line)


def test_sentences_end_outside_quotation_marks_and_keep_their_spacing() -> None:
    assert sentences('He said "done. next." Then left. OK') == ['He said "done. next." Then left. ', "OK"]
    assert sentences("了解。「はい。いいえ。」と言った！\nまた") == [
        "了解。",
        "「はい。いいえ。」と言った！\n",
        "また",
    ]
    assert "".join(sentences("a. b! c? d")) == "a. b! c? d"


def test_a_member_learns_names_and_words_without_repeats() -> None:
    member = Member("1").seen(["alice", "", "alice"], ["hi there", " "]).seen(["Alice W"], ["hi there"])
    assert member.names == ("alice", "Alice W") and member.said == ("hi there",)


T = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_chunk_loses_the_members_lines_and_the_bot_lines_about_them() -> None:
    chunk = Chunk(
        3,
        (
            ChunkLine("m1", T, "1001", "alice", "my password is hunter2 for the staging database server"),
            ChunkLine(
                "m2", T, "2", "bob", "alice is right about the database"
            ),  # another member's words stay
            ChunkLine("m3", T, "999", "kiki", "alice: got it!", is_self=True),
            ChunkLine("m4", T, "999", "kiki", "Thanks alice. Backups run at noon.", is_self=True),
            ChunkLine("m5", T, "7", "otherbot", "alice joined", is_bot=True),  # not this bot's line
        ),
        T,
    )
    after = chunk_without_member(chunk, ALICE, "999")
    assert [(x.message_id, x.text) for x in after.lines] == [
        ("m2", "alice is right about the database"),
        ("m4", "Backups run at noon."),
        ("m5", "alice joined"),
    ]


def test_a_snippet_loses_the_members_lines_and_the_bot_lines_about_them() -> None:
    intervention = Intervention(
        T,
        "m9",
        ResponseType.FULL_RESPONSE,
        "b9",
        context=("alice: my secret plan", "kiki: alice, sure. Lunch at noon.", "bob: ok", "kiki: <@1001>"),
        source_ids=("m1", "m2", "m3", "m4"),
        source_authors=("1001", "999", "2", "999"),
    )
    after = intervention_without_member(intervention, ALICE, "999")
    assert after.context == ("kiki: Lunch at noon.", "bob: ok")
    assert after.source_ids == ("m2", "m3") and after.source_authors == ("999", "2")


BOB = Member("5005", ("bob@away",), ())
YUI = Member("6006", ("✨yui✨",), ())
YUI_JA = Member("7007", ("ユイ＠休み中",), ())


@pytest.mark.parametrize(
    ("member", "line", "left"),
    [
        (BOB, "bob, the build is green. Lunch at noon.", "Lunch at noon."),
        (BOB, "Thanks Bob! Lunch at noon.", "Lunch at noon."),
        (YUI, "yui: good point. The tests pass.", "The tests pass."),
        (YUI, "Welcome back ✨yui✨! Lunch at noon.", "Lunch at noon."),
        (YUI_JA, "ユイさん、了解です。明日は晴れ。", "明日は晴れ。"),
        (YUI_JA, "ユイ＠休み中さん、おかえり。", None),
        (YUI, "The tests pass.", "The tests pass."),
    ],
)
def test_forget_decorated_names(member: Member, line: str, left: str | None) -> None:
    assert without_member(line, member) == left
