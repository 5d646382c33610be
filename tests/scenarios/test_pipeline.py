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

from .conftest import BOT_ID, GENERAL, START, Scenario, talk_past, three_people

Make = Callable[..., Scenario]
QUESTION = "how do I change the log level in the config file?"
# A statement the rules answer in a pause judgment (no open question, so no watch): with these explicit
# weights the configured keyword alone reaches the high threshold, and nothing else in the room counts.
STATEMENT = "the rollback of the migration failed on staging"
SPEAKS: dict[str, object] = {
    "keywords": ("rollback",),
    "rule_weights": {"keyword": 80.0, "not_mentioned": 0.0},
}


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


def test_the_name_alone_waits_for_its_callers_question(scenario: Make) -> None:
    """Session 62: "kikimimi", then the question on the caller's next line: the question is answered at once
    as the call, and the call's own answer, waiting for it, is cancelled."""
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("n1", "dave", "kikimimi", 30),
        s.msg("q1", "dave", "any good stretch for wrists? mine are cooked", 41),
    )
    waited = next(e for e in s.events("reply_scheduled") if e["trigger"] == "n1")
    assert waited["delay_seconds"] == 30.0
    assert [e["trigger"] for e in s.events("reply_cancelled")] == ["n1"]
    (post,) = s.posts
    assert post.reply_to == "q1"
    assert s.events("posted")[0]["t"] == 41.0


def test_the_name_alone_and_nothing_after_gets_its_answer(scenario: Make) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("n1", "dave", "hey kikimimi", 30))
    (post,) = s.posts
    assert post.reply_to == "n1"
    assert s.events("posted")[0]["t"] == 60.0  # once its caller had time to put the question


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
    s = scenario(**SPEAKS)
    s.run(*three_people(s), s.msg("k1", "dave", STATEMENT, 30), drain=False)
    (judge_task,) = s.pending(TaskKind.JUDGE)
    assert judge_task.name == task_name(TaskKind.JUDGE, GENERAL, "k1")  # a pause judgment, no watch
    s.run_until(s.seconds(judge_task.eta))
    (judgment,) = s.events("judgment")
    assert (judgment["kind"], judgment["should_respond"]) == ("pause", True)
    (reply_task,) = s.pending(TaskKind.REPLY)
    assert reply_task.name == task_name(TaskKind.REPLY, GENERAL, "k1")
    before_reply = s.seconds(reply_task.eta) - 1
    s.run(s.msg("n1", "alice", "never mind, it went through on the second try", before_reply))
    assert [e["trigger"] for e in s.events("reply_cancelled")] == ["k1"]
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
    assert s.events("watch_cancelled") == []
    # Its pause judgment and its watch both run; another bot's line does not pass the question over.
    assert [(e["trigger"], e["kind"]) for e in s.events("judgment")] == [("q1", "pause"), ("q1", "watch")]
    assert s.sim.events.counts["judgment_skipped"] == 0
    assert "question_waiting" in s.sim.events.named("judgment")[-1]["terms"]


def test_a_redelivered_envelope_stores_once_and_schedules_once(scenario: Make) -> None:
    s = scenario()
    question = s.msg("q1", "dave", QUESTION, 30)
    s.run(*three_people(s), question, question, question, talk_past(s, 40))
    assert [m.id for m in s.sim.store.messages(GENERAL) if m.is_human] == ["c1", "c2", "c3", "q1", "p1"]
    created = [t.name for t in s.created()]
    assert created.count(task_name(TaskKind.JUDGE, GENERAL, "q1")) == 1
    assert created.count(task_name(TaskKind.JUDGE, GENERAL, "q1", watch=True)) == 1
    assert [e["kind"] for e in s.events("judgment")] == ["pause", "watch"]  # one of each, not three
    assert len(s.posts) == 1
    # Pub/Sub may also redeliver long after the work is done: still no second judgment or post.
    s.run(s.msg("q1", "dave", QUESTION, 30), drain=False)
    s.sim.clock.advance(600)
    s.sim.drain()
    assert len(s.events("judgment")) == 2 and len(s.posts) == 1


def test_a_redelivered_mention_is_answered_once(scenario: Make) -> None:
    s = scenario()
    mention = s.msg("q1", "dave", "@kikimimi hello", 30, mention=True)
    s.run(*three_people(s), mention, mention, mention)
    assert len(s.posts) == 1
    assert [t.name for t in s.created()].count(task_name(TaskKind.REPLY, GENERAL, "q1", addressed=True)) == 1


@pytest.mark.parametrize("trigger", ["q1", "1325000000000000001", "Zz9", "question_42"])
@pytest.mark.parametrize("thread", [None, "t1"])
def test_an_unanswered_question_gets_answered_with_default_settings(trigger: str, thread: str | None) -> None:
    # The system this replaced never answered here: chatter after the question cancelled its only
    # judgment. It must hold with the shipped defaults: the question's watch answers it once people had
    # their chance and talked past it.
    settings = Settings(enabled_channels=("*",))
    assert (settings.judge_timing, settings.jitter_ratio, settings.llm_backend) == ("pace", 0.3, "none")
    assert settings.question_watch_seconds > 0
    s = Scenario(settings)
    chat = [
        s.msg("c1", "alice", "the deploy to staging finished", 0, thread=thread),
        s.msg("c2", "bob", "nice, the logs look clean so far", 10, thread=thread),
        s.msg("c3", "carol", "I will keep an eye on the dashboard", 20, thread=thread),
        s.msg(trigger, "dave", QUESTION, 30, thread=thread),
        s.msg("c4", "alice", "I booked a table for lunch at noon", 40, thread=thread),
    ]
    s.run(*chat)
    cancelled = [e for e in s.events("judgment_cancelled") if e["trigger"] == trigger]
    assert [e["cancelled_by"] for e in cancelled] == ["c4"]  # the chatter cancels its pause judgment
    scheduled = [e for e in s.events("judgment_scheduled") if e["trigger"] == "c4"][-1]
    # A message every 10 s: the pause fits that pace (PACE_MULTIPLIER × 10 s within the bounds) ± jitter.
    pace = min(max(settings.pace_multiplier * 10, settings.pace_min_seconds), settings.pace_max_seconds)
    jitter = pace * settings.jitter_ratio
    assert pace - jitter <= scheduled["delay_seconds"] <= pace + jitter
    (watch,) = s.events("watch_scheduled")
    # A lively room gets the shortest watch: QUESTION_WATCH_SECONDS after the question, no jitter.
    assert (watch["trigger"], watch["t"], watch["delay_seconds"]) == (
        trigger,
        30.0,
        settings.question_watch_seconds,
    )
    pause, judgment = s.events("judgment")
    assert (pause["trigger"], pause["kind"], pause["should_respond"]) == ("c4", "pause", False)
    assert (judgment["trigger"], judgment["kind"], judgment["should_respond"]) == (trigger, "watch", True)
    assert judgment["t"] == pytest.approx(30 + watch["delay_seconds"], abs=1e-3)
    assert "unanswered_question" in judgment["reason"]
    assert judgment["response_type"] == "full_response"
    (post,) = s.posts
    assert post.reply_to == trigger
    assert post.channel_id == (thread or "general")
    assert s.events("posted")[0]["t"] == pytest.approx(judgment["t"] + settings.reply_delay_default_seconds)
    assert len(s.sim.store.interventions_of(ChannelKey("general", thread))) == 1


def test_a_question_met_by_silence_is_answered_after_people_had_a_fair_chance(scenario: Make) -> None:
    # Silence after a question says people are away, not that they passed it over: the watch looks
    # again after QUESTION_SILENCE_SECONDS, and then a member answers what nobody took (the rules too;
    # with an LLM, the watch's own budget pays for asking it).
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", QUESTION, 30))
    pause, watch = s.sim.events.named("judgment")
    assert (pause["trigger"], pause["kind"], pause["should_respond"]) == ("q1", "pause", False)
    assert (watch["trigger"], watch["kind"], watch["should_respond"]) == ("q1", "watch", True)
    assert "question_waiting" in watch["terms"] and "unanswered_question" not in watch["terms"]
    assert [p.reply_to for p in s.posts] == ["q1"]


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
        s.msg("e1", "alice", closing[0], 40, reply_to="q1"),  # the answer, as a Discord reply
        s.msg("e2", "bob", closing[1], 45),
        s.msg("e3", "carol", closing[2], 50),
    )
    # The answer settled the question: its watch is gone, and only the pause after the goodbyes is judged.
    (settled,) = s.events("watch_cancelled")
    assert (settled["trigger"], settled["cancelled_by"], settled["reason"]) == (
        "q1",
        "e1",
        "alice replied to it",
    )
    (judgment,) = s.events("judgment")
    assert judgment["trigger"] == "e3" and judgment["should_respond"] is False
    assert "closing" in judgment["reason"]
    assert s.posts == [] and s.reactions == []


def test_two_people_chatting_happily_get_no_intervention(scenario: Make) -> None:
    s = scenario()
    lines = [
        ("alice", "what was the final score in the match last night?"),
        ("bob", "3-2! what a goal in the last minute"),  # a Discord reply to the question (below)
        ("alice", "the keeper had absolutely no chance"),
        ("bob", "best game of the whole season so far"),
        ("alice", "we should watch the next one together"),
        ("bob", "definitely, I will bring the snacks"),
        ("alice", "perfect, I will book a table somewhere"),
        ("bob", "great, looking forward to it a lot"),
    ]
    s.run(
        *[
            s.msg(f"p{i}", who, text, i * 20, reply_to="p0" if i == 1 else None)
            for i, (who, text) in enumerate(lines)
        ]
    )
    assert [(e["trigger"], e["reason"]) for e in s.events("watch_cancelled")] == [("p0", "bob replied to it")]
    (judgment,) = s.events("judgment")
    assert (judgment["trigger"], judgment["kind"]) == ("p7", "pause")
    assert judgment["should_respond"] is False and "two_people" in judgment["reason"]
    assert s.posts == [] and s.reactions == []


@pytest.mark.parametrize(
    ("said_at", "answered"),
    [
        pytest.param(340, False, id="said-6s-after-the-bot-judged-306s-after"),
        pytest.param(500, True, id="said-166s-after-the-bot"),
    ],
)
def test_cooldown_after_the_bot_spoke(scenario: Make, said_at: float, answered: bool) -> None:
    # The two-minute cooldown runs from the bot's post to when the next person wrote, not to the judgment:
    # with the fixed 300 s pause, the first judgment runs after both the cooldown and the engagement window
    # would have ended at the judge's clock. Explicit weights: the keyword speaks, the cooldown silences it
    # (the turn-taking terms, read in lines, are set aside).
    weights = {
        "keyword": 80.0,
        "not_mentioned": 0.0,
        "engagement": 0.0,
        "cooldown": -50.0,
        "participation": 0.0,
        "just_answered": 0.0,
    }
    s = scenario(
        judge_timing="fixed",
        min_wait_seconds=300.0,
        jitter_ratio=0.0,
        keywords=("rollback",),
        rule_weights=weights,
    )
    s.run(
        *three_people(s),
        s.msg("k0", "dave", STATEMENT, 30),
        s.msg("k1", "erin", "the rollback is stuck for me as well", said_at),
    )
    first, second = s.events("judgment")
    assert first["trigger"] == "k0" and first["should_respond"] is True
    assert s.events("posted")[0]["t"] == 334.0  # the bot spoke (judged at 330, reply delay 4 s)
    assert second["trigger"] == "k1" and second["t"] == said_at + 300
    assert second["should_respond"] is answered
    assert ("cooldown -50" in second["reason"]) is not answered
    assert [p.reply_to for p in s.posts] == (["k0", "k1"] if answered else ["k0"])


def test_the_quiet_period_blocks_judged_replies_but_not_answers(scenario: Make) -> None:
    s = scenario()
    s.sim.store.places.save_channel_settings(
        GENERAL, ChannelSettings(quiet_until=START + timedelta(minutes=10))
    )
    s.run(
        *three_people(s),
        s.msg("q1", "dave", QUESTION, 30),
        s.msg("q2", "erin", "does anyone know where the runbook lives?", 40, thread="t1"),  # inherits
        s.msg("m1", "frank", "@kikimimi are you there?", 50, thread="t1", mention=True),
        drain=False,  # the later messages arrive when they were written, not after the memory tasks
    )
    s.run_until(60)
    assert s.events("judgment_scheduled") == [] and s.events("judgment") == []
    assert s.events("watch_scheduled") == []  # not even the questions are watched
    assert [p.reply_to for p in s.posts] == ["m1"]
    # After the quiet period the channel is judged again.
    s.run(
        s.msg("a1", "alice", "back from lunch, what did I miss", 700),
        s.msg("a2", "bob", "not much, the deploy went fine", 710),
        s.msg("q3", "carol", QUESTION, 720),
        talk_past(s, 730),
    )
    assert [(e["trigger"], e["kind"]) for e in s.events("judgment")] == [("p1", "pause"), ("q3", "watch")]
    watched = s.events("judgment")[-1]
    assert watched["should_respond"] is True and watched["t"] == 720 + s.settings.question_watch_seconds
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
    s.sim.store.places.save_channel_settings(GENERAL, ChannelSettings(enabled=stored))
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
    s.run(
        *three_people(s),
        s.msg("q1", "dave", "how do I change the log level in the config file?", 30),
        talk_past(s, 40),
    )
    last = s.sim.store.places.channel_settings(ChannelKey("general")).last_decision
    assert last is not None and (last.trigger_id, last.decision) == ("q1", "respond")
    assert "unanswered_question" in last.reason
