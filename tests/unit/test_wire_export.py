"""Wire: a member's `what-do-you-know` / `export` request (the gateway defers, the functions answer on the
interaction's webhook): it parses, round-trips whole, says which field is wrong, and never shows its token."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.domain.memory.export_words import EN, JA
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.wire import ExportRequested, WireError, dump, envelope_json_schema, parse_envelope

TOKEN = "aW50ZXJhY3Rpb246MTMwMDAwMDAwMDAwMDAwMDA5.secret-token_x"
ASK = {
    "kind": "export_request",
    "guild_id": "1300000000000000001",
    "channel_id": "1300000000000000002",
    "thread_id": "1300000000000000003",
    "user_id": "1200000000000000007",
    "ask": "export",
    "language": "ja",
    "application_id": "1100000000000000001",
    "token": TOKEN,
    "at": "2026-05-09T10:03:00Z",
}


def test_an_export_request_is_an_envelope_and_loses_nothing_on_the_wire() -> None:
    request = parse_envelope(json.dumps(ASK))
    assert isinstance(request, ExportRequested)
    assert (request.ask, request.language, request.token) == ("export", "ja", TOKEN)
    assert request.key == ChannelKey("1300000000000000002", "1300000000000000003")
    assert parse_envelope(json.dumps(dump(request))) == request
    assert dump(request)["token"] == TOKEN  # the functions need it to answer
    assert "export_request" in json.dumps(envelope_json_schema())


def test_a_direct_messages_request_has_no_guild() -> None:
    request = parse_envelope({**ASK, "guild_id": None, "thread_id": None, "ask": "know", "language": "en"})
    assert isinstance(request, ExportRequested) and request.guild_id is None


def test_the_token_never_shows_in_a_repr_or_an_error() -> None:
    request = parse_envelope(ASK)
    assert TOKEN not in repr(request) and TOKEN not in str(request)
    with pytest.raises(WireError) as caught:
        parse_envelope({**ASK, "token": TOKEN + " <script>"})
    assert "token" in str(caught.value) and TOKEN not in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        pytest.param({"ask": "everything"}, "ask", id="unknown-ask"),
        pytest.param({"language": "fr"}, "language", id="a-language-not-spoken"),
        pytest.param({"token": ""}, "token", id="no-token"),
        pytest.param({"token": "a/b"}, "token", id="a-token-unsafe-in-a-path"),
        pytest.param({"application_id": "1 1"}, "application_id", id="unsafe-id"),
        pytest.param({"user_id": None}, "user_id", id="no-member"),
        pytest.param({"at": "yesterday"}, "at", id="not-a-time"),
        pytest.param({"extra": 1}, "extra", id="an-unknown-field"),
    ],
)
def test_a_bad_export_request_names_the_field(changes: dict[str, Any], problem: str) -> None:
    with pytest.raises(WireError, match=f"bad envelope: export_request.{problem}"):
        parse_envelope({**ASK, **changes})


def test_the_answers_words_exist_in_both_languages() -> None:
    assert set(EN) == set(JA)
    for key in EN:
        fields = sorted(part.split("}")[0] for part in EN[key].split("{")[1:])
        assert fields == sorted(part.split("}")[0] for part in JA[key].split("{")[1:]), key
