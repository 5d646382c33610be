"""Question watches end to end: an open question is answered once people had their chance, unless answered."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kikimimi.domain.model import TaskKind
from kikimimi.domain.policy import task_name
from kikimimi.domain.wire import MessageCreated
from kikimimi.settings import Settings
from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.replay import replay

from .conftest import BOT_ID, GENERAL, Scenario, three_people

Make = Callable[..., Scenario]
DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo_conversation.jsonl"
QUESTION = "how do I change the log level in the config file?"
WATCH = 150.0  # QUESTION_WATCH_SECONDS's default
ASKED = 30.0


def chatter(s: Scenario, t: float = 50) -> list[MessageCreated]:
    """Unrelated small talk after the question: nobody answers it."""
    return [
        s.msg("x1", "alice", "lunch is at noon today", t),
        s.msg("x2", "bob", "sounds good to me", t + 20),
        s.msg("x3", "carol", "I will bring some snacks", t + 40),
    ]


def asked(s: Scenario) -> list[MessageCreated]:
    return [*three_people(s), s.msg("q1", "dave", QUESTION, ASKED)]


def watch_events(s: Scenario, name: str) -> list[dict[str, Any]]:
    return [e for e in s.events(name) if e.get("trigger") == "q1"]


def test_unrelated_chatter_does_not_stop_the_watch(scenario: Make) -> None:
    s = scenario()
    s.run(*asked(s), *chatter(s))
    (scheduled,) = watch_events(s, "watch_scheduled")
    assert (scheduled["t"], scheduled["delay_seconds"]) == (ASKED, WATCH)
    assert scheduled["reason"].startswith("open question")
    assert s.cancelled("watch") == []  # chatter cancelled the pause judgments only
    assert {e["trigger"] for e in s.events("judgment_cancelled")} >= {"q1", "x1", "x2"}
    (watched,) = [e for e in s.events("judgment") if e["kind"] == "watch"]
    assert (watched["trigger"], watched["t"], watched["should_respond"]) == ("q1", ASKED + WATCH, True)
    (post,) = s.posts
    assert post.reply_to == "q1"
    (posted,) = s.events("posted")
    assert ASKED + WATCH <= posted["t"] <= ASKED + WATCH + 10  # the reply's short delay after the watch


def test_a_question_met_by_silence_is_looked_at_again_then_answered(scenario: Make) -> None:
    # Silence after it says people are away, not that they passed it over: the first watch schedules a
    # second look (`watch-…-s`) at QUESTION_SILENCE_SECONDS; that one answers it.
    s = scenario()
    s.run(*asked(s))  # nothing after the question: its pause judgment runs long before the watch
    pause, watch = (e for e in s.sim.events.named("judgment") if e["trigger"] == "q1")
    assert (pause["kind"], pause["should_respond"], pause["llm_band"]) == ("pause", False, False)
    assert (watch["kind"], watch["should_respond"], watch["llm_band"]) == ("watch", True, True)
    assert "question_waiting" in watch["terms"]
    seconds = [t.name for t in s.created() if t.name.startswith("watch-")]
    assert seconds == [
        task_name(TaskKind.JUDGE, GENERAL, "q1", watch=True),
        task_name(TaskKind.JUDGE, GENERAL, "q1", watch=True, silence=True),
    ]
    assert [p.reply_to for p in s.posts] == ["q1"]


def test_a_follow_up_question_to_the_bot_is_answered_at_the_pause(scenario: Make) -> None:
    # The pause judges an open question like any line: a follow-up from the person the bot is talking
    # with is answered then (no mention needed), and that answer ends its watch.
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("m1", "dave", "@kikimimi where are the staging logs?", 25, mention=True),
        s.msg("q1", "dave", QUESTION, ASKED + 10),
    )
    (judgment,) = [e for e in s.sim.events.named("judgment") if e["trigger"] == "q1"]
    assert (judgment["kind"], judgment["should_respond"]) == ("pause", True)
    assert {"exchange", "follow_up"} <= set(judgment["terms"])
    assert [p.reply_to for p in s.posts] == ["m1", "q1"]
    (skipped,) = watch_events(s, "judgment_skipped")
    assert (skipped["kind"], skipped["reason"]) == ("watch", "the bot answered it")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        pytest.param(
            lambda s: s.msg("a1", "erin", "set LOG_LEVEL=debug in .env", 80, reply_to="q1"),
            "erin replied to it",
            id="reply-to-it",
        ),
        pytest.param(
            lambda s: s.msg("a1", "erin", "dave: set LOG_LEVEL=debug in .env", 80),
            "erin answered the asker",
            id="nick-prefix",
        ),
        pytest.param(
            lambda s: s.msg("a1", "erin", "@dave it is LOG_LEVEL in the .env file", 80),
            "erin answered the asker",
            id="at-name",
        ),
        pytest.param(
            lambda s: s.msg("a1", "erin", "<@id_dave> LOG_LEVEL, in .env", 80),
            "erin answered the asker",
            id="discord-mention",
        ),
        pytest.param(
            lambda s: s.msg("a1", "dave", "nvm, found it in the docs", 80),
            "the asker settled it",
            id="asker-nvm",
        ),
        pytest.param(
            lambda s: s.msg("a1", "dave", "solved, thanks anyway", 80),
            "the asker settled it",
            id="asker-solved",
        ),
        pytest.param(
            lambda s: s.msg("a1", "dave", "自己解決しました", 80),
            "the asker settled it",
            id="asker-jikokaiketsu",
        ),
        pytest.param(
            lambda s: s.msg("a1", "dave", "わかりました", 80),
            "the asker settled it",
            id="asker-wakarimashita",
        ),
    ],
)
def test_an_answer_cancels_the_watch(
    scenario: Make, answer: Callable[[Scenario], MessageCreated], reason: str
) -> None:
    s = scenario()
    s.run(*asked(s), s.msg("x1", "alice", "lunch is at noon today", 50), answer(s))
    (cancelled,) = s.events("watch_cancelled")
    assert (cancelled["trigger"], cancelled["cancelled_by"], cancelled["reason"]) == ("q1", "a1", reason)
    assert cancelled["t"] == 80.0
    assert s.cancelled("watch") == ["watch-general-main-q1"]
    assert [e for e in s.events("judgment") if e["kind"] == "watch"] == []
    assert s.posts == []


def test_the_bot_answering_the_question_ends_its_watch(scenario: Make) -> None:
    """The bot's own answer (relayed by the gateway) settles the question; the next human message, which
    runs the settling, cancels the watch."""
    s = scenario()
    own = s.msg("b1", "kikimimi", "LOG_LEVEL in .env sets it", 60, bot=True, author_id=BOT_ID, reply_to="q1")
    s.run(*asked(s), own, s.msg("x1", "alice", "lunch is at noon today", 80))
    (cancelled,) = s.events("watch_cancelled")
    assert (cancelled["trigger"], cancelled["cancelled_by"]) == ("q1", "x1")
    assert cancelled["reason"] == "the bot answered it"
    assert [e for e in s.events("judgment") if e["kind"] == "watch"] == []
    assert s.posts == []  # the bot's own answer came through the gateway; nothing more is said


def test_a_watch_finding_the_bot_answered_skips(scenario: Make) -> None:
    """No human message after the bot's answer: the watch itself re-checks and stays silent."""
    s = scenario()
    own = s.msg("b1", "kikimimi", "LOG_LEVEL in .env sets it", 60, bot=True, author_id=BOT_ID, reply_to="q1")
    s.run(*asked(s), own)
    assert s.events("watch_cancelled") == []
    (skipped,) = [e for e in s.events("judgment_skipped") if e["kind"] == "watch"]
    assert (skipped["trigger"], skipped["decision"], skipped["reason"]) == (
        "q1",
        "answered",
        "the bot answered it",
    )
    assert skipped["t"] == ASKED + WATCH
    assert s.posts == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("bob, how do I change the log level?", id="name-comma"),
        pytest.param("bob: how do I change the log level?", id="nick-prefix"),
        pytest.param("@bob how do I change the log level?", id="at-name"),
        pytest.param("<@4242> how do I change the log level?", id="discord-mention"),
        pytest.param("frank: how do I change the log level?", id="absent-nick"),
    ],
)
def test_a_question_aimed_at_a_person_opens_no_watch(scenario: Make, text: str) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", text, ASKED), *chatter(s))
    assert s.sim.events.counts["watch_scheduled"] == 0
    assert not any(t.name.startswith("watch-") for t in s.sim.tasks.created)
    assert [e["kind"] for e in s.events("judgment")] == ["pause"]
    assert s.posts == []


def test_an_expired_question_is_not_answered(scenario: Make) -> None:
    s = scenario(question_max_age_minutes=1.0)  # shorter than the watch's 150 s
    s.run(*asked(s), *chatter(s))
    assert len(watch_events(s, "watch_scheduled")) == 1
    (skipped,) = [e for e in s.events("judgment_skipped") if e["kind"] == "watch"]
    assert (skipped["trigger"], skipped["decision"]) == ("q1", "expired")
    assert skipped["t"] == ASKED + WATCH
    assert s.posts == []


def test_the_demo_answers_daves_question_at_the_default_settings() -> None:
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    question = next(json.loads(raw) for raw in lines if json.loads(raw)["author"] == "dave")
    assert question["id"] == "m010" and question["content"].endswith("?")
    sim = replay(lines, Settings(enabled_channels=("*",)))  # no shortened waits: the watch waits its 150 s
    posts = {p.reply_to: p for p in sim.discord.messages}
    assert "m011" in posts  # erin's mention is answered at once
    assert "m010" in posts  # dave's question, by its watch
    (watched,) = [e for e in sim.events.named("judgment") if e["trigger"] == "m010"]
    assert watched["kind"] == "watch" and watched["should_respond"]
    (posted,) = [e for e in sim.timeline() if e["event"] == "posted" and e["reply_to"] == "m010"]
    assert posted["t"] >= 19 + WATCH  # dave asked 19 s into the demo


def test_the_json_timeline_names_each_task_kind_and_why(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)
    assert main(["replay", str(DEMO), "--json", "--llm", "none"]) == 0
    *rows, summary = [json.loads(row) for row in capsys.readouterr().out.splitlines()]
    pauses = [r for r in rows if r["event"] == "judgment_scheduled"]
    assert pauses and all(r["kind"] == "pause" and r["reason"].startswith("pace: ") for r in pauses)
    (m010,) = [r for r in pauses if r["trigger"] == "m010"]
    # The quick chat's pace, raised to PACE_MIN_SECONDS, then the seeded jitter to the actual delay.
    assert "raised to the floor (PACE_MIN_SECONDS) → 30s, jitter " in m010["reason"]
    assert m010["reason"].endswith(f"→ {m010['delay_seconds']:.0f}s")
    watches = {r["trigger"]: r for r in rows if r["event"] == "watch_scheduled"}
    assert "m010" in watches
    assert (watches["m010"]["kind"], watches["m010"]["delay_seconds"]) == ("watch", WATCH)
    assert watches["m010"]["reason"] == "open question: people get 150s to answer first"
    (judged,) = [r for r in rows if r["event"] == "judgment" and r["trigger"] == "m010"]
    assert judged["kind"] == "watch" and judged["reason"].startswith("rules respond")
    skipped = [r for r in rows if r["event"] == "judgment_skipped"]
    assert all(r["kind"] and r["decision"] and r["reason"] for r in skipped)
    assert summary["event"] == "summary"
    assert summary["watches"] == len(watches)
    assert summary["llm_band"] == sum(bool(r["llm_band"]) for r in rows if r["event"] == "judgment")


def test_a_busy_room_answers_on_the_next_line_and_the_bot_takes_the_question_it_passed_over(
    scenario: Make,
) -> None:
    """Seven people, several conversations, nobody using names: a question answered on the very next line
    ("20, since the upgrade", "yeah, same here") gets no post, an invitation is no question for the bot,
    and the question the room passed over (the next line laughs at someone's joke) gets the one post."""
    s = scenario()
    s.run(
        s.msg("c1", "ana", "morning all", 0),
        s.msg("c2", "ben", "morning! coffee first", 6),
        s.msg("q1", "fay", "which node version does the build use now?", 30),
        s.msg("a1", "gus", "20, since the upgrade", 38),
        s.msg("c3", "cy", "the new theme looks great on mobile", 48),
        s.msg("q2", "ana", "is the wiki down for anyone else?", 60),
        s.msg("a2", "dee", "yeah, same here", 66),
        s.msg("i1", "eli", "tea, anyone?", 80),
        s.msg("i2", "ben", "always", 86),
        s.msg("j1", "cy", "my cat just unplugged the router again", 95),
        s.msg("q3", "ben", "where did we put the staging credentials?", 100),
        s.msg("j2", "eli", "lol classic", 106),
        s.msg("c4", "dee", "standup moved to 10 tomorrow btw", 125),
        s.msg("c5", "gus", "noted", 140),
        s.msg("c6", "fay", "I'll update the calendar", 160),
    )
    watched = {e["trigger"] for e in s.events("watch_scheduled")}
    assert watched == {"q1", "q2", "q3"}  # not the invitation
    settled = {e["trigger"]: e["answered_by"] for e in s.events("judgment_skipped") if e["kind"] == "watch"}
    settled |= {e["trigger"]: e["answered_by"] for e in s.events("watch_cancelled")}
    assert settled == {"q1": "a1", "q2": "a2"}
    (post,) = s.posts
    assert post.reply_to == "q3"
    (posted,) = s.events("posted")
    assert posted["t"] >= 100 + WATCH  # after people had their chance


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("pizza friday?", id="invitation"),
        pytest.param("ご飯行く人いる？", id="invitation-ja"),
        pytest.param("the deploy went fine, right?", id="tag-question"),
        pytest.param("are you kidding me?!", id="exclamation"),
    ],
)
def test_an_invitation_or_a_rhetorical_question_gets_no_watch_and_no_post(scenario: Make, text: str) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", text, ASKED), *chatter(s))
    assert s.sim.events.counts["watch_scheduled"] == 0
    assert s.posts == []


@pytest.mark.parametrize(
    ("text", "words"),
    [
        pytest.param("where are the prod logs then?", True, id="a-follow-up-question"),
        pytest.param("the logs were there yesterday, right?", False, id="a-tag-question"),
        pytest.param("lunch anyone?", False, id="an-invitation"),
        pytest.param("and how was it for you, did you like it?", True, id="a-personal-question-is-the-bots"),
    ],
)
def test_a_follow_up_question_to_the_bot_gets_words_and_a_rhetorical_one_none(
    scenario: Make, text: str, words: bool
) -> None:
    # The person talking with the bot asks again without naming it: a real question is answered at the
    # pause; a tag question or an invitation asks nothing of the bot, whatever the score says.
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("m1", "dave", "@kikimimi where are the staging logs?", 25, mention=True),
        s.msg("q1", "dave", text, ASKED + 10),
    )
    (judgment,) = [e for e in s.sim.events.named("judgment") if e["trigger"] == "q1"]
    assert (judgment["kind"], judgment["should_respond"]) == ("pause", words)
    assert [p.reply_to for p in s.posts] == (["m1", "q1"] if words else ["m1"])


def test_the_model_pointing_at_an_invitation_gets_no_words(scenario: Make) -> None:
    # The judge model may pick another line to answer; an invitation is no line for the bot to answer.
    from .test_llm_judgment import BAND, STATEMENT, ScriptedLLM, answer

    s = scenario(judge_llm=ScriptedLLM(answer(reply_to_message_id="c2")), **BAND)
    s.run(
        s.msg("c1", "alice", "the deploy to staging finished", 0),
        s.msg("c2", "bob", "pizza friday?", 10),
        s.msg("c3", "carol", "I will keep an eye on the dashboard", 20),
        s.msg("q1", "dave", STATEMENT, 30),
    )
    (asked,) = [e for e in s.events("judgment") if e["llm_calls"]]
    assert asked["trigger"] == "q1" and asked["should_respond"] is False
    assert "for the people asked" in asked["reason"]
    assert s.posts == []


def test_a_bump_after_the_bots_answer_gets_no_second_answer(scenario: Make) -> None:
    # The asker calling again for people ("anyone? 😅") after the bot answered wants a person: the pause
    # judgment, which would take it as a follow-up to the bot, leaves it.
    s = scenario()
    s.run(*asked(s), *chatter(s), s.msg("b1", "dave", "anyone? 😅", ASKED + WATCH + 120))
    assert [p.reply_to for p in s.posts] == ["q1"]
    reasons = {e["reason"] for e in s.events("judgment_skipped") if e.get("trigger") == "b1"}
    assert "a bump of a question the bot already answered" in reasons


def test_a_bump_put_as_a_reply_to_a_question_taken_up_and_left_is_answered(scenario: Make) -> None:
    # Someone asked the asker for a picture and never came back; the asker bumps their question as a reply
    # to it: asked again, so watched again, and answered when nobody takes it.
    s = scenario()
    s.run(
        *asked(s),
        s.msg("h1", "alice", "can you post a pic of the error?", ASKED + 20, reply_to="q1"),
        s.msg("h2", "dave", "[image: the error dialog]", ASKED + 60, reply_to="h1"),
        *chatter(s, ASKED + 90),
        s.msg(
            "b1", "dave", "sorry to bump 🙏 anyone know what that error means?", ASKED + 400, reply_to="q1"
        ),
        s.msg("x9", "bob", "anyone seen the new office chairs", ASKED + 430),
    )
    watched = [e for e in s.events("judgment") if e["kind"] == "watch" and e["trigger"] == "b1"]
    assert [e["should_respond"] for e in watched] == [True]
    assert "b1" in [p.reply_to for p in s.posts]


def test_a_busy_room_passing_a_question_over_still_gets_it_answered(scenario: Make) -> None:
    # More lines come after the question than a watch's window holds (two other conversations at IRC
    # pace): the watch reads further instead of losing the question.
    s = scenario()
    said = [
        ("alice", "bob did you finish the raid last night"),
        ("bob", "alice yeah we cleared it at 2am lol"),
        ("carol", "erin the pasta place closed down btw"),
        ("erin", "carol noooo that was my favourite"),
    ]
    talk = [s.msg(f"b{i}", *said[i % 4], ASKED + 20 + 3 * i) for i in range(48)]
    s.run(*asked(s), *talk)
    (watched,) = [e for e in s.events("judgment") if e["kind"] == "watch"]
    assert (watched["trigger"], watched["should_respond"]) == ("q1", True)
    assert [p.reply_to for p in s.posts] == ["q1"]


@pytest.mark.parametrize(
    ("text", "posted"),
    [
        pytest.param("did you update the package list first?", False, id="what-they-did"),
        pytest.param("is your repository list up to date?", False, id="theirs"),
        pytest.param("do you need to update the package list first?", True, id="you-anyone"),
    ],
)
def test_a_question_about_what_someone_did_is_theirs_where_nobody_names_anyone(
    scenario: Make, text: str, posted: bool
) -> None:
    s = scenario()
    s.run(*three_people(s), s.msg("q1", "dave", text, ASKED), *chatter(s))
    assert len(watch_events(s, "watch_scheduled")) == 1  # an open question, watched
    skipped = [e for e in watch_events(s, "judgment_skipped") if e["kind"] == "watch"]
    assert bool(s.posts) is posted
    if not posted:
        assert (skipped[0]["decision"], skipped[0]["reason"]) == (
            "directed",
            "a question about what the one asked did or has: theirs",
        )


def repair_bench(s: Scenario) -> list[MessageCreated]:
    """A help room: gremlin has been helping lint through questions, no names, since before the watch's
    window; others talk and a newcomer asks meanwhile; then gremlin asks lint one more thing."""
    return [
        s.msg("h1", "lint", "ok cover's off. no sound and the dial lamps died at the same time", 0),
        s.msg("h2", "gremlin", "yep that's the usual layout. what are you using for a meter?", 45),
        s.msg("h3", "ohm", "got a dead technics amp at a garage sale for $10, wish me luck", 95),
        s.msg("h4", "lint", "some cheap yellow one from the hardware store", 125),
        s.msg("h5", "lint", "it does continuity and dc volts tho", 140),
        s.msg("h6", "kate", "which model", 165),
        s.msg("h7", "gremlin", "that's plenty. start with the fuses on the power supply board", 205),
        s.msg("h8", "ohm", "su-v6 i think. lights come on, no sound either side", 240),
        s.msg("h9", "lint", "fuses look ok visually. how do i know for sure", 300),
        s.msg("h10", "gremlin", "pull each one and put it across the meter on continuity. beep = fine", 335),
        s.msg("h11", "kate", "lights but no sound on those is almost always a dirty protection relay", 355),
        s.msg("h12", "kate", "relay cleaning guide is in the pins", 385),
        s.msg(
            "h13",
            "fern",
            "hi all, first time posting. my amp's left channel crackles after 10 minutes, relay?",
            425,
        ),
        s.msg("h14", "ohm", "oh nice, didn't think to check the pins", 450, reply_to="h12"),
        s.msg(
            "q1", "gremlin", "also how old is your iron? the cheap ones can't heat the big ground joints", 505
        ),
        s.msg("h16", "kate", "check the bias while you're in there too, those run hot", 565),
        s.msg("h17", "ohm", "is there a service manual floating around for it", 610),
        s.msg("h18", "kate", "https://www.hifiengine.com/manual_library/technics/su-v6.shtml", 640),
    ]


def test_a_helpers_question_to_the_one_helped_is_theirs_though_the_exchange_began_long_before(
    scenario: Make,
) -> None:
    # The watch reads its own few minutes; who has been answering whom is read further back, and the
    # reader reads a few lines before that too, so the exchange's first answers know what they answer.
    s = scenario()
    s.run(*repair_bench(s))
    (skipped,) = [e for e in watch_events(s, "judgment_skipped") if e["kind"] == "watch"]
    assert (skipped["decision"], skipped["reason"]) == (
        "directed",
        "asked on in an exchange with lint: theirs to answer",
    )
    assert "q1" not in {p.reply_to for p in s.posts}


def test_a_question_taken_up_by_a_question_back_waits_for_the_asker(scenario: Make) -> None:
    # A helper asks the asker about their setup at once; others talk; the asker is slow to come back. The
    # watch does not answer over the helper: it looks again after QUESTION_SILENCE_SECONDS, when the asker
    # has answered the helper, and stays quiet.
    s = scenario()
    s.run(
        *three_people(s),
        s.msg(
            "q1",
            "dave",
            "my foundation chain is so tight i can barely get the hook back in. is that normal?",
            30,
        ),
        s.msg("b1", "carol", "what hook and yarn are you using?", 60),
        s.msg("b2", "alice", "does anyone have the frog keychain pattern link? cant find it", 90),
        s.msg("b3", "bob", "pins", 110),
        s.msg("b4", "dave", "5mm, label says worsted / 4", 250),
        s.msg("b5", "carol", "chain with a 6mm, then switch back to the 5 for row 1", 290),
    )
    (again,) = [e for e in watch_events(s, "watch_scheduled") if "asked back" in e["reason"]]
    assert again["t"] == ASKED + WATCH
    assert "q1" not in {p.reply_to for p in s.posts}


@pytest.mark.parametrize(
    ("question", "back"),
    [
        ("does anyone know if the 0.4 nozzles are back in stock anywhere? brb walking the dog", "back, ty!"),
        ("週末の練習って体育館どっち？ちょっと洗濯物取り込んでくる", "ただいま〜 了解、ありがと"),
    ],
)
def test_a_question_whose_asker_steps_away_waits_for_them(scenario: Make, question: str, back: str) -> None:
    # The asker asks and steps away; someone answers a few lines later in words of their own; the asker,
    # back ten minutes on, thanks. Nobody reads an answer before they are back: the watch looks again then.
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("q1", "dave", question, ASKED),
        s.msg("b1", "alice", "how long do you all leave resin prints in the wash", 60),
        s.msg("b2", "bob", "3 min in ipa, then cure", 80),
        s.msg("b3", "carol", "lol my cat just knocked the wash station over", 120),
        s.msg("b4", "bob", "the shop on 5th had a few yesterday", 170),
        s.msg("b5", "alice", "rip the wash station", 200),
        s.msg("b6", "dave", back, 650),
    )
    (again,) = [e for e in watch_events(s, "watch_scheduled") if "stepped away" in e["reason"]]
    assert again["t"] == ASKED + WATCH
    assert "q1" not in {p.reply_to for p in s.posts}


def test_an_asker_away_who_never_returns_still_gets_an_answer(scenario: Make) -> None:
    # Nobody answers; the asker is not back when the longest watch is up: the answer waits for them there.
    s = scenario()
    s.run(
        *three_people(s),
        s.msg("q1", "dave", "where do the club dues go this term? brb, dinner", ASKED),
        s.msg("b1", "carol", "i am making tea", 1200),
    )
    (again,) = [e for e in watch_events(s, "watch_scheduled") if "stepped away" in e["reason"]]
    assert again["delay_seconds"] == 900 - WATCH  # QUESTION_WATCH_MAX_SECONDS's default
    assert [p.reply_to for p in s.posts].count("q1") == 1
    (posted,) = [e for e in s.events("posted") if e.get("reply_to") == "q1"]
    assert ASKED + 900 <= posted["t"] <= ASKED + 900 + 10
