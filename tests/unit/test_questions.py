"""questions: which messages open a watch, and which later messages settle an open question."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kikimimi.domain.model import Message
from kikimimi.domain.questions import answer_of, is_open_question, participants_of, settles

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi",)


def msg(mid: str, author: str, content: str, t: float, *, reply_to: str | None = None, own: bool = False,
        mention: bool = False) -> Message:  # fmt: skip
    return Message(
        id=mid, guild_id="g", channel_id="c", thread_id=None, author_id=f"id_{author}", author_name=author,
        author_is_bot=own, content=content, created_at=T0 + timedelta(seconds=t), reply_to_id=reply_to,
        is_self=own, mentions_bot=mention,
    )  # fmt: skip


ROOM = [msg("a", "alice", "morning all", 0), msg("b", "bob", "hi", 5)]


@pytest.mark.parametrize(
    ("text", "extra", "opens"),
    [
        ("how do I change the log level?", {}, True),
        ("anyone know how to mount a usb drive?", {}, True),
        ("設定はどこで変えられますか", {}, True),  # Japanese asks without ？
        ("どこで買える", {}, True),
        # An English request without a question mark is an opener or a musing: the pause judgment's.
        ("anyone know how to mount a usb drive", {}, False),
        ("i need help too", {}, False),
        ("I wonder how ubuntu will deal with java", {}, False),
        ("bob: how do I change the log level?", {}, False),  # to a person
        ("bobさん、これどうやるの？", {}, False),
        ("kikimimi how do I change it?", {}, False),  # to the bot: answered at once
        ("the log level is in the config", {}, False),  # not a question
        ("how do I change the log level?", {"reply_to": "a"}, False),  # a reply to someone
        ("how do I change the log level?", {"mention": True}, False),
    ],
)
def test_open_questions(text: str, extra: dict, opens: bool) -> None:
    question = msg("q", "carol", text, 10, **extra)
    assert is_open_question(question, participants_of([*ROOM, question]), NAMES) is opens


def test_bot_messages_never_open_a_watch() -> None:
    assert not is_open_question(msg("q", "kikimimi", "anyone?", 10, own=True), {}, NAMES)


@pytest.mark.parametrize(
    "text",
    ["nvm", "never mind, found it", "solved it", "got it working, it works now", "thanks all",
     "自己解決しました", "わかりました！", "直りました"],
)  # fmt: skip
def test_the_asker_settles(text: str) -> None:
    assert settles(text)


@pytest.mark.parametrize("text", ["still broken", "it does not work", "any ideas?", "まだダメです"])
def test_the_asker_does_not_settle(text: str) -> None:
    assert not settles(text)


Q = msg("q", "carol", "how do I change the log level?", 10)


@pytest.mark.parametrize(
    ("later", "answered"),
    [
        ([], None),
        ([msg("x", "dave", "lunch anyone?", 20), msg("y", "erin", "sure", 25)], None),  # chatter
        ([msg("x", "bob", "carol: LOG_LEVEL in the env", 40)], "bob answered the asker"),
        ([msg("x", "bob", "@carol LOG_LEVEL", 40)], "bob answered the asker"),
        ([msg("x", "bob", "LOG_LEVEL in the env", 40, reply_to="q")], "bob replied to it"),
        ([msg("x", "carol", "nvm, found it", 60)], "the asker settled it"),
        ([msg("x", "carol", "still stuck", 60)], None),  # a follow-up that does not settle
        (
            [msg("x", "bob", "which version?", 30), msg("y", "carol", "bob: 22.04", 40)],
            "the asker is talking with bob",
        ),
        ([msg("x", "kikimimi", "set LOG_LEVEL", 160, own=True, reply_to="q")], "the bot answered it"),
        ([msg("x", "bob", "dave: LOG_LEVEL", 40)], None),  # addressed to someone else
        ([msg("x", "bob", "carol: here", 5)], None),  # before the question
    ],
)
def test_answer_of(later: list[Message], answered: str | None) -> None:
    assert answer_of(Q, later) == answered
