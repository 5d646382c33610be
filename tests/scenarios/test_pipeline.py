"""The pipeline end to end on twins with a simulated clock: when the bot speaks, and when it must not."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from kikimimi.domain.model import ChannelKey, ChannelSettings, TaskKind
from kikimimi.domain.policy import task_name
from kikimimi.domain.wire import MessageDeleted
from kikimimi.settings import Settings
from kikimimi.usecases.ingest import ingest

from .conftest import BOT_ID, GENERAL, START, Scenario, three_people

Make = Callable[..., Scenario]
QUESTION = "how do I change the log level in the config file?"


@pytest.mark.parametrize(
    ("content", "flags"),
    [
        pytest.param("@kikimimi how do I rotate the keys?", {"mention": True}, id="mention"),
        pytest.param("kikimimi, how do I rotate the keys", {}, id="name"),
        pytest.param("ききみみ、鍵のローテーションってどうやるの", {}, id="japanese-alias"),
        pytest.param("and how do I rotate the keys", {"reply_to": "c2", "reply_to_bot": True}, id="reply"),
    ],
)
def test_an_addressed_message_gets_an_answer_without_judgment(
    scenario: Make, content: str, flags: dict[str, object]
) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", content, 30, **flags))  # type: ignore[arg-type]
    assert s.events("judgment") == []
    (scheduled,) = s.events("reply_scheduled")
    assert (scheduled["trigger"], scheduled["addressed"], scheduled["delay_seconds"]) == ("q1", True, 0.0)
    (post,) = s.posts
    assert post.reply_to == "q1" and post.channel_id == "general" and post.content
    assert s.events("posted")[0]["t"] == 30.0  # answered at once, not after the debounce
    # The addressed message superseded the judgment pending for the previous one.
    assert [e["trigger"] for e in s.events("judgment_cancelled")] == ["c3"]


def test_a_burst_yields_exactly_one_judgment(scenario: Make) -> None:
    s = scenario()
    authors = ["alice", "bob", "carol"]
    burst = [s.msg(f"b{i}", authors[i % 3], f"message number {i} of the burst", i) for i in range(10)]
    s.run(*burst)
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == "b9"
    scheduled = [e["trigger"] for e in s.events("judgment_scheduled")]
    cancelled = [e["trigger"] for e in s.events("judgment_cancelled")]
    assert scheduled == [f"b{i}" for i in range(2, 10)]  # from MIN_MESSAGES on
    assert cancelled == scheduled[:-1]
    assert s.cancelled("judge") == [task_name(TaskKind.JUDGE, GENERAL, t) for t in cancelled]
    assert s.pending(TaskKind.JUDGE) == [] and s.pending(TaskKind.REPLY) == []


def test_a_message_after_the_reply_was_scheduled_cancels_it(scenario: Make) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", QUESTION, 30), drain=False)
    (judge_task,) = s.pending(TaskKind.JUDGE)
    s.run_until(s.seconds(judge_task.eta))
    (judgment,) = s.events("judgment")
    assert judgment["should_respond"] is True
    (reply_task,) = s.pending(TaskKind.REPLY)
    before_reply = s.seconds(reply_task.eta) - 1
    s.run(s.msg("n1", "alice", "never mind, it is LOG_LEVEL in the env", before_reply))
    assert [e["trigger"] for e in s.events("reply_cancelled")] == ["q1"]
    assert reply_task.name in s.sim.tasks.cancelled
    assert s.posts == []
    assert s.events("posted") == []


def test_the_bots_own_and_other_bots_messages_never_trigger_judgment(scenario: Make) -> None:
    s = scenario()
    own = {"author_id": BOT_ID, "bot": True}
    bots = [
        s.msg("s1", "kikimimi", "anyone need help with the deploy?", 0, **own),  # type: ignore[arg-type]
        s.msg("o1", "mee6", "@kikimimi are you there?", 5, bot=True, mention=True),
        s.msg("o2", "mee6", "kikimimi, what is the weather?", 10, bot=True),
        s.msg("o3", "helper", "why is the build red?", 15, bot=True, reply_to="s1", reply_to_bot=True),
        s.msg("s2", "kikimimi", "is anyone around?", 20, **own),  # type: ignore[arg-type]
        *[s.msg(f"o{i}", "mee6", f"level up number {i}?", 20 + i, bot=True) for i in range(4, 10)],
    ]
    s.run(*bots)
    assert s.core() == []
    assert s.created() == []
    assert s.posts == [] and s.reactions == []
    stored = s.sim.store.messages(GENERAL)
    assert [m.id for m in stored] == [b.message_id for b in bots]
    assert [m.is_self for m in stored][:5] == [True, False, False, False, True]


def test_a_bot_message_after_a_question_neither_cancels_nor_stales_its_judgment(scenario: Make) -> None:
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("q1", "dave", QUESTION, 30),
        s.msg("o1", "mee6", "dave reached level 2!", 40, bot=True),
    )
    assert [e["trigger"] for e in s.events("judgment_cancelled")] == ["c3"]
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == "q1"
    assert s.sim.events.counts["judgment_skipped"] == 0


def test_a_redelivered_envelope_stores_once_and_schedules_once(scenario: Make) -> None:
    s = scenario()
    question = s.msg("q1", "dave", QUESTION, 30)
    s.run(*three_people(s), question, question, question)
    assert [m.id for m in s.sim.store.messages(GENERAL) if m.is_human] == ["c1", "c2", "c3", "q1"]
    judge_name = task_name(TaskKind.JUDGE, GENERAL, "q1")
    assert [t.name for t in s.created()].count(judge_name) == 1
    assert len(s.events("judgment")) == 1
    assert len(s.posts) == 1
    # Pub/Sub may also redeliver long after the work is done: still no second judgment or post.
    s.run(s.msg("q1", "dave", QUESTION, 30), drain=False)
    s.sim.clock.advance(600)
    s.sim.drain()
    assert len(s.events("judgment")) == 1 and len(s.posts) == 1


def test_a_redelivered_mention_is_answered_once(scenario: Make) -> None:
    s = scenario()
    mention = s.msg("q1", "dave", "@kikimimi hello", 30, mention=True)
    s.run(*three_people(s), mention, mention, mention)
    assert len(s.posts) == 1
    assert [t.name for t in s.created()].count(task_name(TaskKind.REPLY, GENERAL, "q1", addressed=True)) == 1


@pytest.mark.parametrize("trigger", ["q1", "1325000000000000001", "Zz9", "question_42"])
@pytest.mark.parametrize("thread", [None, "t1"])
def test_an_unanswered_question_gets_answered_with_default_settings(trigger: str, thread: str | None) -> None:
    # The system this replaced never answered here: it must hold with the shipped defaults.
    settings = Settings()
    assert (settings.min_wait_seconds, settings.jitter_ratio, settings.llm_backend) == (300.0, 0.3, "none")
    s = Scenario(settings)
    chat = [
        s.msg("c1", "alice", "the deploy to staging finished", 0, thread=thread),
        s.msg("c2", "bob", "nice, the logs look clean so far", 10, thread=thread),
        s.msg("c3", "carol", "I will keep an eye on the dashboard", 20, thread=thread),
        s.msg(trigger, "dave", QUESTION, 30, thread=thread),
    ]
    s.run(*chat)
    scheduled = s.events("judgment_scheduled")[-1]
    assert scheduled["trigger"] == trigger
    assert 210.0 <= scheduled["delay_seconds"] <= 390.0
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == trigger and judgment["should_respond"] is True
    assert judgment["t"] == pytest.approx(30 + scheduled["delay_seconds"], abs=1e-3)
    assert judgment["response_type"] == "full_response"
    (post,) = s.posts
    assert post.reply_to == trigger
    assert post.channel_id == (thread or "general")
    assert s.events("posted")[0]["t"] == pytest.approx(judgment["t"] + settings.reply_delay_default_seconds)
    assert len(s.sim.store.interventions(ChannelKey("general", thread))) == 1


@pytest.mark.parametrize(
    "closing",
    [
        pytest.param(["yes it works now, thanks everyone!", "bye!", "see you"], id="en"),
        pytest.param(["動きました、ありがとう！", "おつかれさまでした", "またね"], id="ja"),
    ],
)
def test_an_ending_conversation_gets_no_intervention(scenario: Make, closing: list[str]) -> None:
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("q1", "dave", "does the deploy work for everyone now?", 30),
        s.msg("e1", "alice", closing[0], 40),
        s.msg("e2", "bob", closing[1], 45),
        s.msg("e3", "carol", closing[2], 50),
    )
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == "e3" and judgment["should_respond"] is False
    assert "closing" in judgment["reason"]
    assert s.posts == [] and s.reactions == []


def test_two_people_chatting_happily_get_no_intervention(scenario: Make) -> None:
    s = scenario()
    lines = [
        ("alice", "did you watch the match last night?"),
        ("bob", "yes! what a goal in the last minute"),
        ("alice", "the keeper had absolutely no chance"),
        ("bob", "best game of the whole season so far"),
        ("alice", "we should watch the next one together"),
        ("bob", "definitely, I will bring the snacks"),
        ("alice", "perfect, I will book a table somewhere"),
        ("bob", "great, looking forward to it a lot"),
    ]
    s.run(*[s.msg(f"p{i}", who, text, i * 20) for i, (who, text) in enumerate(lines)])
    (judgment,) = s.events("judgment")
    assert judgment["should_respond"] is False and "two_people" in judgment["reason"]
    assert s.posts == [] and s.reactions == []


@pytest.mark.parametrize(
    ("question_at", "answered"),
    [
        pytest.param(140, False, id="spoke-106s-before-judgment"),
        pytest.param(300, True, id="spoke-266s-before"),
    ],
)
def test_cooldown_after_the_bot_spoke(scenario: Make, question_at: float, answered: bool) -> None:
    # A shorter, exact debounce so that a judgment can fall inside the two-minute cooldown.
    s = scenario(min_wait_seconds=100.0, jitter_ratio=0.0)
    s.run(*three_people(s), s.msg("q0", "dave", QUESTION, 30), s.msg("q1", "erin", QUESTION, question_at))
    first, second = s.events("judgment")
    assert first["trigger"] == "q0" and first["should_respond"] is True
    assert s.events("posted")[0]["t"] == 134.0  # the bot spoke (judged at 130, reply delay 4 s)
    assert second["trigger"] == "q1" and second["t"] == question_at + 100
    assert second["should_respond"] is answered
    assert ("cooldown" in second["reason"]) is not answered
    assert [p.reply_to for p in s.posts] == (["q0", "q1"] if answered else ["q0"])


def test_the_quiet_period_blocks_judged_replies_but_not_answers(scenario: Make) -> None:
    s = scenario()
    s.sim.store.save_channel_settings(GENERAL, ChannelSettings(quiet_until=START + timedelta(minutes=10)))
    s.run(
        *three_people(s),
        s.msg("q1", "dave", QUESTION, 30),
        s.msg("q2", "erin", "does anyone know where the runbook lives?", 40, thread="t1"),  # inherits
        s.msg("m1", "frank", "@kikimimi are you there?", 50, thread="t1", mention=True),
    )
    assert s.events("judgment_scheduled") == [] and s.events("judgment") == []
    assert [p.reply_to for p in s.posts] == ["m1"]
    # After the quiet period the channel is judged again.
    s.run(
        s.msg("a1", "alice", "back from lunch, what did I miss", 700),
        s.msg("a2", "bob", "not much, the deploy went fine", 710),
        s.msg("q3", "carol", QUESTION, 720),
    )
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == "q3" and judgment["should_respond"] is True
    assert [p.reply_to for p in s.posts] == ["m1", "q3"]


def test_a_disabled_channel_stores_nothing(scenario: Make) -> None:
    s = scenario(enabled_channels=("other",))
    s.run(
        *three_people(s),
        s.msg("q1", "dave", QUESTION, 30),
        s.msg("m1", "erin", "@kikimimi hello?", 40, mention=True),
        s.msg("m2", "erin", "@kikimimi hello?", 50, mention=True, thread="t1"),
    )
    assert s.sim.store.messages(GENERAL) == [] and s.sim.store.messages(ChannelKey("general", "t1")) == []
    assert s.sim.tasks.created == [] and s.posts == [] and s.sim.timeline() == []
    # The enabled channel, and its threads, work as usual.
    s.run(
        s.msg("x1", "erin", "@kikimimi hello?", 60, channel="other", mention=True),
        s.msg("x2", "erin", "@kikimimi and here?", 70, channel="other", thread="t2", mention=True),
    )
    assert [(p.channel_id, p.reply_to) for p in s.posts] == [("other", "x1"), ("t2", "x2")]


@pytest.mark.parametrize(("env", "stored", "answered"), [(("*",), False, False), (("none",), True, True)])
def test_moderator_settings_override_the_env(
    scenario: Make, env: tuple[str, ...], stored: bool, answered: bool
) -> None:
    s = scenario(enabled_channels=env)
    s.sim.store.save_channel_settings(GENERAL, ChannelSettings(enabled=stored))
    s.run(s.msg("m1", "erin", "@kikimimi hello?", 0, mention=True))
    assert bool(s.sim.store.messages(GENERAL)) is stored
    assert bool(s.posts) is answered


def test_a_question_deleted_before_judgment_is_not_answered(scenario: Make) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", QUESTION, 30), drain=False)
    s.sim.clock.set(s.at(60))
    assert ingest(s.sim.deps, MessageDeleted(channel_id="general", message_id="q1")) == "deleted"
    s.sim.drain()
    assert s.events("judgment") == [] and s.posts == []


def test_message_ids_do_not_change_the_judgment(scenario: Make) -> None:
    # Regression: an addressed message is answered at the same simulated instant, and the window orders
    # that tie by id; a mention answered at once must not count as still owed whatever its id.
    def judged(mention_id: str) -> tuple[float, str]:
        s = scenario()
        s.run(
            *three_people(s),
            s.msg(mention_id, "dave", "@kikimimi is staging up?", 30, mention=True),
            s.msg("c4", "alice", "lunch anyone", 40),
        )
        (judgment,) = s.events("judgment")
        return judgment["score"], judgment["reason"]

    score, reason = judged("m1")
    assert (score, reason) == judged("1325000000000000001")
    assert "unanswered_address" not in reason  # the mention was answered at t=30: nothing is owed


def test_every_judgment_is_remembered_for_the_status_command(scenario: Make) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", "how do I change the log level in the config file?", 30))
    last = s.sim.store.channel_settings(ChannelKey("general")).last_decision
    assert last is not None and (last.trigger_id, last.decision) == ("q1", "respond")
    assert "unanswered_question" in last.reason
