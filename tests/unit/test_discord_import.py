"""`kikimimi import`: a DiscordChatExporter JSON export as a replay transcript (issue 37, "try it on your own
history"): authors, the bot's own lines, replies, mentions, edits, threads, attachments, and bad files
refused in one line naming the file, its line and the field (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kikimimi_dev.tools.cli import main
from kikimimi_dev.tools.discord_import import Export, convert, read_export
from kikimimi_dev.tools.errors import UsageError
from kikimimi_dev.tools.transcript import EditLine, TranscriptLine, parse_transcript

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "discord_export_en.json"
THREAD = ROOT / "examples" / "discord_export_thread_en.json"
BOT_ID = "1100000000000000001"


def user(uid: str, name: str, nickname: str | None = None, bot: bool = False) -> dict[str, Any]:
    return {"id": uid, "name": name, "discriminator": "0000", "nickname": nickname, "isBot": bot}


ALICE, BOB, KIKI = user("11", "alice", "Alice"), user("12", "bob"), user("99", "kikimimi", "Kiki", bot=True)


def message(mid: str, who: dict[str, Any], content: str, second: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "id": mid,
        "type": "Default",
        "timestamp": f"2026-11-20T09:00:{second:02d}.000+00:00",
        "timestampEdited": None,
        "isPinned": False,
        "content": content,
        "author": who,
        "attachments": [],
        "embeds": [],
        "reactions": [],
        "mentions": [],
        **extra,
    }


def export(*messages: dict[str, Any], channel: dict[str, Any] | None = None) -> Export:
    return Export.model_validate(
        {
            "guild": {"id": "1", "name": "club"},
            "channel": channel
            or {"id": "500", "type": "GuildTextChat", "name": "general", "categoryId": "4"},
            "messages": list(messages),
        }
    )


def lines(*exports: Export, bot_id: str | None = None, bot_name: str = "kikimimi") -> list[dict[str, Any]]:
    return convert(exports, bot_name, bot_id).lines


def test_authors_are_named_as_the_server_shows_them_and_other_bots_are_marked() -> None:
    hook = user("77", "GitHub", bot=True)
    out = lines(
        export(message("1", ALICE, "hi"), message("2", BOB, "yo", 1), message("3", hook, "3 commits", 2))
    )
    assert [(line["author"], line.get("bot", False)) for line in out] == [
        ("Alice", False),
        ("bob", False),
        ("GitHub", True),
    ]
    assert [line["channel"] for line in out] == ["general"] * 3


def test_the_bots_own_messages_are_found_by_id_or_by_name_and_become_the_bot() -> None:
    body = export(message("1", ALICE, "hi"), message("2", KIKI, "hello Alice", 1))
    assert [line["author"] for line in lines(body, bot_id="99", bot_name="kiki")] == ["Alice", "kiki"]
    assert [line["author"] for line in lines(body, bot_name="Kiki")] == ["Alice", "Kiki"]  # its nickname
    assert "bot" not in lines(body, bot_id="99")[1]  # the transcript marks the bot by its name


def test_replies_keep_what_they_answer() -> None:
    reference = {"messageId": "1", "channelId": "500", "guildId": "1"}
    out = lines(
        export(message("1", ALICE, "tea?"), message("2", BOB, "yes", 1, type="Reply", reference=reference))
    )
    assert (out[1]["reply_to"], out[1]["type"]) == ("1", "reply")
    assert "reply_to" not in out[0]


def test_a_mention_of_the_bot_becomes_at_its_name_and_other_mentions_at_theirs() -> None:
    out = lines(
        export(
            # DiscordChatExporter writes a mention as "@" + the shown name; a raw <@id> is read too.
            message("1", ALICE, "@Kiki what do you think, @bob?", mentions=[KIKI, BOB]),
            message("2", BOB, "<@99> and <@!11>, look", 1, mentions=[KIKI, ALICE]),
        ),
        bot_id="99",
    )
    assert [line["content"] for line in out] == [
        "@kikimimi what do you think, @bob?",
        "@kikimimi and @Alice, look",
    ]


def test_an_edited_message_gets_an_edit_line_at_its_edit_time() -> None:
    edited = message("1", ALICE, "the deploy is at 3pm", timestampEdited="2026-11-20T09:05:00.000+00:00")
    out = lines(export(edited, message("2", BOB, "ok", 30)))
    assert [(line.get("event"), line["id"]) for line in out] == [(None, "1"), (None, "2"), ("edit", "1")]
    assert out[2] == {
        "event": "edit",
        "id": "1",
        "ts": "2026-11-20T09:05:00+00:00",
        "content": "the deploy is at 3pm",
    }


def test_a_threads_export_is_a_thread_of_its_parent_channel_and_merges_in_time() -> None:
    thread = {
        "id": "600",
        "type": "GuildPublicThread",
        "name": "setup help",
        "categoryId": "500",
        "category": "general",
    }
    out = lines(
        export(message("1", ALICE, "in the channel"), message("3", ALICE, "later", 20)),
        export(message("2", BOB, "in the thread", 10), channel=thread),
    )
    assert [(line["id"], line["channel"], line.get("thread")) for line in out] == [
        ("1", "general", None),
        ("2", "general", "600"),
        ("3", "general", None),
    ]


def test_attachments_and_stickers_are_placeholders_and_system_messages_keep_their_type() -> None:
    files = [{"id": "5", "url": "https://cdn/x.png", "fileName": "screenshot.png", "fileSizeBytes": 10}]
    out = lines(
        export(
            message("1", ALICE, "look", attachments=files),
            message("2", ALICE, "", 1, attachments=files),
            message("3", BOB, "", 2, stickers=[{"id": "8", "name": "wave"}]),
            message("4", BOB, "", 3, type="GuildMemberJoin"),
            message("5", BOB, "help thread", 4, type="ThreadCreated"),
        )
    )
    assert [line["content"] for line in out[:3]] == [
        "look [attachment: screenshot.png]",
        "[attachment: screenshot.png]",
        "[sticker: wave]",
    ]
    assert [line.get("type") for line in out] == [None, None, None, "new_member", "thread_created"]


def test_two_people_with_one_name_stay_two_people() -> None:
    other_alice = user("31", "alice2", "Alice")
    out = lines(export(message("1", ALICE, "hi"), message("2", other_alice, "hi too", 1)))
    assert [line["author"] for line in out] == ["Alice#11", "Alice#31"]


def test_the_sample_export_is_a_transcript_replay_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sample.jsonl"
    assert main(["import", str(SAMPLE), str(THREAD), "--bot-id", BOT_ID, "-o", str(out)]) == 0
    assert capsys.readouterr().err == (
        f"imported 27 messages (3 by kikimimi, 2 edited, 1 attachments) from 2 export(s) into {out}\n"
    )
    parsed = parse_transcript(out.read_text(encoding="utf-8").splitlines())
    messages = [line for line in parsed if isinstance(line, TranscriptLine)]
    assert len(messages) == 27 and sum(isinstance(line, EditLine) for line in parsed) == 2
    own = [m.content for m in messages if m.author == "kikimimi"]
    assert own[0] == "Welcome, Dave! Glad to have you here." and len(own) == 3
    assert {m.thread for m in messages} == {None, "1300000000000000090"}
    assert any("@kikimimi" in m.content for m in messages)


# -- bad files -------------------------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(UsageError) as raised:
        read_export(path)
    return str(raised.value)


def test_a_file_that_is_not_json_is_refused_with_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{\n  "guild": {"id": "1"},\n  "channel": oops\n}')
    assert refused(path) == f"{path} line 3: not JSON (Expecting value)"


def test_a_bad_message_is_refused_with_its_line_and_field(tmp_path: Path) -> None:
    body = {
        "guild": {"id": "1"},
        "channel": {"id": "500", "type": "GuildTextChat", "name": "general"},
        "messages": [
            message("1", ALICE, "fine"),
            {**message("2", ALICE, "no author", 1), "author": {"id": "11"}},
        ],
    }
    path = write(tmp_path, json.dumps(body, indent=2))
    line = path.read_text().splitlines().index("    {", 20) + 2  # the second message's "id" line
    assert refused(path) == f"{path} line {line}, messages[1].author.name: Field required"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"messages": []}, "messages: List should have at least 1 item after validation, not 0"),
        ({"channel": None}, "channel: Input should be a valid dictionary or instance of ExportChannel"),
        ({"guild": "club"}, "guild: Input should be a valid dictionary or instance of ExportGuild"),
    ],
)
def test_a_file_without_what_an_export_holds_names_the_field(
    tmp_path: Path, change: dict[str, Any], expected: str
) -> None:
    body = {"guild": {"id": "1"}, "channel": {"id": "5", "type": "GuildTextChat"}, "messages": [], **change}
    path = write(tmp_path, json.dumps(body))
    assert refused(path) == f"{path}, {expected}"


def test_a_timestamp_without_its_offset_is_refused(tmp_path: Path) -> None:
    body = {
        "guild": {"id": "1"},
        "channel": {"id": "5", "type": "GuildTextChat"},
        "messages": [{**message("1", ALICE, "hi"), "timestamp": "2026-11-20T09:00:00"}],
    }
    path = write(tmp_path, json.dumps(body))
    assert refused(path).endswith(
        "line 1, messages[0].timestamp: Value error, a timestamp without its UTC offset (DiscordChatExporter "
        "writes one)"
    )


def test_a_thread_export_without_its_channel_and_a_message_in_two_exports_are_refused() -> None:
    orphan = {"id": "600", "type": "GuildPrivateThread", "name": "secret"}
    with pytest.raises(
        UsageError, match=r"^channel.categoryId: the export of thread 600 does not name its channel$"
    ):
        convert([export(message("1", ALICE, "hi"), channel=orphan)], "kikimimi")
    with pytest.raises(UsageError, match="message 1 is in two exports"):
        convert([export(message("1", ALICE, "hi")), export(message("1", ALICE, "hi"))], "kikimimi")


def test_the_command_refuses_a_bad_file_in_one_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "[]")
    assert main(["import", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"kikimimi import: {path} line 1: not a DiscordChatExporter JSON export (expected an object)\n"
    )
    assert main(["import", str(tmp_path / "missing.json")]) == 2
    assert "cannot open" in capsys.readouterr().err
    assert main(["import", str(SAMPLE), "--bot-id", "kiki"]) == 2
    assert capsys.readouterr().err == (
        "kikimimi import: --bot-id 'kiki': a Discord user id is digits (Developer Mode → Copy ID)\n"
    )
