"""Profile notes end to end on the twins: a reflection writes tags and a last-conversation line (no extra
LLM call), the writer is given them, and a delete, an edit, forget me or a forgotten place takes them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from kikimimi.domain.memory.model import UserProfile
from kikimimi.domain.wire import (
    ChannelVisibility,
    ForgetRequested,
    MessageCreated,
    MessageDeleted,
    MessageEdited,
    OptOutChanged,
)
from kikimimi.usecases.ingest import ingest
from kikimimi.usecases.memory.export import export_member
from kikimimi.usecases.memory.export_answer import export_text
from kikimimi_dev.twins.recall import InMemoryRecall

from .conftest import Scenario
from .test_channel_boundaries import RecordingWriter

Make = Callable[..., Scenario]
HELP = [  # (id, author, text): a question, answered, settled; then a lull
    ("p01", "jun", "hi all, new here. how do I mount a USB drive without sudo on Fedora?"),
    ("p02", "priya", "welcome! udisksctl mount -b /dev/sdb1 works as a normal user"),
    ("p03", "jun", "where does the USB drive show up after udisksctl mounts it?"),
    ("p04", "priya", "under /run/media with your user name, udisksctl prints the path"),
    ("p05", "oskar", "lsblk first shows which device the USB drive is"),
    ("p06", "jun", "lsblk says sdb1, udisksctl mounted the USB drive, it works now"),
    ("p07", "oskar", "nice. unmount with udisksctl unmount before you unplug it"),
    ("p08", "priya", "I keep a Fedora cheat sheet of udisksctl and lsblk commands"),
    ("p09", "jun", "thanks priya and oskar, the Fedora cheat sheet would help a lot"),
    ("p10", "oskar", "I run Arch on my laptop but udisksctl is the same there"),
    ("p11", "priya", "see you later, dinner time"),
]
LATER = 3 * 3600  # well after the lull's reflection


def conversation(s: Scenario, *, private: bool = False, channel: str = "general") -> None:
    shown = ChannelVisibility(guild_id="g1", channel_id=channel, private=private, at=s.at(0))
    sent = [s.msg(mid, who, text, 10 + 40 * i, channel=channel) for i, (mid, who, text) in enumerate(HELP)]
    s.sim.run([shown, *sent], arrival=[shown.at, *(m.created_at for m in sent)])


def profile(s: Scenario, user: str) -> UserProfile | None:
    recall = s.sim.recall
    assert isinstance(recall, InMemoryRecall)
    return recall.profiles.profile("g1", f"id_{user}")


def later(
    s: Scenario, *envelopes: MessageDeleted | MessageEdited | ForgetRequested | MessageCreated | OptOutChanged
) -> None:
    when = s.at(LATER)
    s.sim.clock.set(when)
    for envelope in envelopes:
        ingest(s.sim.deps, envelope)
    s.sim.drain()


def test_a_reflection_writes_tags_and_a_last_conversation_in_its_own_call(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    jun = profile(s, "jun")
    assert jun is not None and jun.last_conversation is not None
    assert "usb" in [t.text for t in jun.tags]
    assert jun.last_conversation.text.startswith("(extractive) asked")
    assert jun.last_conversation.place == "general"
    assert set(jun.last_conversation.source_ids) >= {"p01", "p03", "p06", "p09"}
    assert all(profile(s, who) and profile(s, who).tags for who in ("priya", "oskar"))  # type: ignore[union-attr]
    # Written by the reflection's own call: no extra memory call per message or per person.
    calls = Counter(r.fields["function"] for r in s.sim.events.records if r.event == "llm_call")
    reflections = [r.fields for r in s.sim.events.records if r.event == "reflection"]
    assert calls["reflect"] == len(reflections) == 1 and set(calls) == {"summarize", "reflect"}
    assert reflections[0]["profiles_noted"] == 3


def test_a_private_channel_writes_no_notes(scenario: Make) -> None:
    s = scenario()
    conversation(s, private=True)
    jun = profile(s, "jun")
    assert jun is not None and jun.tags == () and jun.last_conversation is None


def test_the_reply_writer_is_given_the_speakers_tags_and_last_conversation(scenario: Make) -> None:
    writer = RecordingWriter()
    s = scenario(writer=writer)
    conversation(s)
    ask = s.msg("p12", "jun", "@kikimimi do you remember what I asked earlier?", LATER, mention=True)
    s.run(ask)
    prompt = next(p for p in writer.prompts if "[Who you are talking to]" in p)
    speaker = prompt.split("[Who you are talking to]")[1].splitlines()[0]
    assert "Tags: usb" in speaker and 'Last conversation: "(extractive) asked' in speaker


def test_deleting_the_source_message_drops_the_summary_and_the_tags_it_fed(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    before = profile(s, "jun")
    assert before is not None and before.last_conversation is not None
    later(s, MessageDeleted(guild_id="g1", channel_id="general", message_id="p01"))
    after = profile(s, "jun")
    assert after is not None and after.last_conversation is None
    assert all("p01" not in t.source_ids for t in after.tags)
    assert [t for t in before.tags if "p01" not in t.source_ids] == list(after.tags)
    assert "p01" not in after.note_ids
    priya = profile(s, "priya")
    assert priya is not None and all("p01" not in t.source_ids for t in priya.tags)


def test_an_edit_drops_the_notes_drawn_from_the_old_words(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    later(s, MessageEdited(guild_id="g1", channel_id="general", message_id="p06", content="never mind"))
    jun = profile(s, "jun")
    assert jun is not None and jun.last_conversation is None and "p06" not in jun.note_ids


def test_forget_me_removes_the_members_notes_and_others_notes_drawn_from_them(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    jun_said = {mid for mid, who, _ in HELP if who == "jun"}
    assert any(jun_said & set(p.note_ids) for p in (profile(s, "priya"), profile(s, "oskar")) if p)
    request = ForgetRequested(
        guild_id="g1",
        channel_id="general",
        scope="user",
        user_id="id_jun",
        requested_by="id_jun",
        at=s.at(LATER),
    )
    later(s, request)
    assert profile(s, "jun") is None
    for who in ("priya", "oskar"):
        other = profile(s, who)
        assert other is not None and not jun_said & set(other.note_ids)
        texts = [t.text for t in other.tags] + [
            other.last_conversation.text if other.last_conversation else ""
        ]
        assert all("jun" not in text for text in texts)
    export = export_member(s.sim.deps.stores, s.sim.deps.memory, "g1", "id_jun", s.sim.clock.now())
    assert export.profile is None


def test_what_do_you_know_shows_the_tags_and_the_last_conversation(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    shown = export_member(s.sim.deps.stores, s.sim.deps.memory, "g1", "id_jun", s.sim.clock.now()).profile
    assert shown is not None and "usb" in shown.tags and all(isinstance(t, str) for t in shown.tags)
    assert shown.last_conversation.startswith("(extractive) asked")


def test_forgetting_the_channel_takes_its_notes(scenario: Make) -> None:
    s = scenario()
    conversation(s)
    later(
        s,
        ForgetRequested(
            guild_id="g1", channel_id="general", scope="channel", requested_by="id_mod", at=s.at(LATER)
        ),
    )
    for who in ("jun", "priya", "oskar"):
        p = profile(s, who)
        assert p is None or (p.tags == () and p.last_conversation is None)


def test_personality_notes(scenario: Make) -> None:
    """The reflection's own call writes a few inert personality lines per member, each charged to the
    messages it came from; the writer gets them in the speaker block, what-do-you-know shows them, a
    delete of a source drops them, and opting out forgets them."""
    writer = RecordingWriter()
    s = scenario(writer=writer)
    conversation(s)
    jun = profile(s, "jun")
    assert jun is not None and [t.text for t in jun.personality] == ["(extractive) writes long messages"]
    (trait,) = jun.personality
    assert trait.place == "general" and {"p01", "p03", "p06", "p09"} <= set(trait.source_ids)
    calls = Counter(r.fields["function"] for r in s.sim.events.records if r.event == "llm_call")
    assert calls["reflect"] == 1  # no extra call: the same reflection answer
    # The writer is given them, quoted, in the speaker block.
    s.run(s.msg("p12", "jun", "@kikimimi do you remember me?", LATER, mention=True))
    prompt = next(p for p in writer.prompts if "[Who you are talking to]" in p)
    speaker = prompt.split("[Who you are talking to]")[1].splitlines()[0]
    assert 'What they are like: "(extractive) writes long messages".' in speaker
    # The writer's and the summarizer's calls, like the judge's, count what their context's bounds cut.
    calls_cut = [e for e in s.sim.events.named("llm_call") if e["function"] in ("reply", "summarize")]
    assert {e["function"] for e in calls_cut} == {"reply", "summarize"}
    assert all(set(e["context_cut"]) >= {"places", "parent_lines", "threads"} for e in calls_cut)
    # `/kikimimi-me what-do-you-know` (and the export) show them.
    shown = export_member(s.sim.deps.stores, s.sim.deps.memory, "g1", "id_jun", s.sim.clock.now())
    assert shown.profile is not None and shown.profile.personality == ("(extractive) writes long messages",)
    assert "what you seem like to me: (extractive) writes long messages" in export_text(shown, "en", 30)
    # A delete of one of its messages drops the note (the next reflection derives it again).
    later(s, MessageDeleted(guild_id="g1", channel_id="general", message_id="p03"))
    after = profile(s, "jun")
    assert after is not None and after.personality == () and "p03" not in after.note_ids
    priya = profile(s, "priya")
    assert priya is not None and priya.personality
    # Opting out forgets the member, notes and all.
    later(s, OptOutChanged(guild_id="g1", channel_id="general", user_id="id_priya", out=True, at=s.at(LATER)))
    assert profile(s, "priya") is None
