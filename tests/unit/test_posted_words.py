"""Where the tools find a post's words now that the `posted` log line carries ids and lengths only."""

from __future__ import annotations

from kikimimi_dev.adapters.recording_discord import RecordingDiscord
from kikimimi_dev.tools.demo import PostedWords
from kikimimi_dev.tools.replay import describe
from kikimimi_dev.tools.timeline_events import parse_timeline


def test_the_demo_reads_the_words_from_the_recording_discords_lines() -> None:
    words = PostedWords()
    discord = RecordingDiscord(echo=words.read)
    first = discord.send_message("c1", "part one, with 'quotes'\nand a newline", "m1", "n1")
    second = discord.send_message("c1", "part two ← arrow", None, "n2")
    discord.add_reaction("c1", "m1", "👍")  # other lines are ignored
    event = {
        "event": "posted",
        "channel": "c1",
        "reply_to": "m1",
        "message_id": first,
        "message_ids": [first, second],
        "length": 40,
    }
    shown = words.of(event)
    assert shown["text"] == "part one, with 'quotes'\nand a newline\npart two ← arrow"
    line = describe({**shown, "t": 3.0}, {"m1": ("dave", "how?")}.get)
    assert "🤖 replied to dave: “part one, with 'quotes'\n" in line and "part two ← arrow”" in line
    assert words.of({"event": "judgment"}) == {"event": "judgment"}


def test_without_the_words_a_post_shows_its_length() -> None:
    line = describe({"event": "posted", "t": 1.0, "channel": "c1", "reply_to": "m1", "length": 42})
    assert line.endswith("🤖 posted (42 characters)")
    exported = (
        '{"timestamp": "2026-01-01T12:00:00Z", "jsonPayload": {"event": "posted", "channel": "c1", '
        '"trigger": "m1", "reply_to": "m1", "message_id": "9", "length": 42}}\n'
    )
    (post,) = [e for e in parse_timeline(exported).events if e.event == "posted"]
    assert post.text == "(42 characters)"
