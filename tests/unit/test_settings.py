"""settings: parsing every field type, the checks of every value (ranges, choices, rule terms), safe
defaults, overrides, names and redaction."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Mapping
from typing import Any

import pytest

from kikimimi.domain.rules import DEFAULT_WEIGHTS
from kikimimi.settings import ORDERED_PAIRS, Settings, SettingsError, accepts, type_of


@pytest.mark.parametrize(
    ("env", "field", "expected"),
    [
        pytest.param({"BOT_NAME": "mimi"}, "bot_name", "mimi", id="str"),
        pytest.param({"KIKIMIMI_MODE": "gcp"}, "mode", "gcp", id="mode"),
        pytest.param({"MIN_MESSAGES": "5"}, "min_messages", 5, id="int"),
        pytest.param({"MIN_MESSAGES": " 7 "}, "min_messages", 7, id="int-spaces"),
        pytest.param({"MIN_WAIT_SECONDS": "12.5"}, "min_wait_seconds", 12.5, id="float"),
        pytest.param({"MIN_WAIT_SECONDS": "60"}, "min_wait_seconds", 60.0, id="float-from-int"),
        pytest.param({"USE_VERTEX_AI": "true"}, "use_vertex_ai", True, id="bool-true"),
        pytest.param({"USE_VERTEX_AI": "YES"}, "use_vertex_ai", True, id="bool-yes"),
        pytest.param({"USE_VERTEX_AI": "1"}, "use_vertex_ai", True, id="bool-1"),
        pytest.param({"USE_VERTEX_AI": " on "}, "use_vertex_ai", True, id="bool-on"),
        pytest.param({"USE_VERTEX_AI": "false"}, "use_vertex_ai", False, id="bool-false"),
        pytest.param({"USE_VERTEX_AI": "0"}, "use_vertex_ai", False, id="bool-0"),
        pytest.param({"USE_VERTEX_AI": "Off"}, "use_vertex_ai", False, id="bool-off"),
        pytest.param({"USE_VERTEX_AI": "no"}, "use_vertex_ai", False, id="bool-no"),
        pytest.param({"ENABLED_CHANNELS": "1, 2,,3 "}, "enabled_channels", ("1", "2", "3"), id="tuple"),
        pytest.param({"BOT_ALIASES": "ミミ"}, "bot_aliases", ("ミミ",), id="tuple-one"),
        pytest.param({"BOT_ALIASES": " , "}, "bot_aliases", (), id="tuple-empty"),
        pytest.param(
            {"RULE_WEIGHTS": '{"question": 30, "closing": -5.5}'},
            "rule_weights",
            {"question": 30.0, "closing": -5.5},
            id="mapping",
        ),
        pytest.param(
            {"RULE_WEIGHTS": '{"question": "30"}'},
            "rule_weights",
            {"question": 30.0},
            id="mapping-string-number",
        ),
        pytest.param({"MIN_MESSAGES": ""}, "min_messages", 3, id="empty-means-default"),
        pytest.param({}, "bot_aliases", ("ききみみ", "キキミミ", "聞き耳"), id="default-tuple"),
        pytest.param({"BOT_LANGUAGE": "en"}, "language", "en", id="choice"),
        pytest.param({"JITTER_RATIO": "0"}, "jitter_ratio", 0.0, id="lowest"),
        pytest.param({"ENABLED_CHANNELS": "*"}, "enabled_channels", ("*",), id="all-channels"),
    ],
)
def test_from_env_parses_each_type(env: dict[str, str], field: str, expected: object) -> None:
    assert getattr(Settings.from_env(env), field) == expected


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"BOT_LANGUAGE": "fr"}, "BOT_LANGUAGE: 'fr' is not one of auto, ja, en"),
        ({"JITTER_RATIO": "5"}, "JITTER_RATIO: 5.0 is not a number from 0 to below 1"),
        ({"JITTER_RATIO": "1"}, "JITTER_RATIO: 1.0 is not a number from 0 to below 1"),
        ({"MIN_MESSAGES": "-3"}, "MIN_MESSAGES: -3 is not a whole number from 1 to 50"),
        ({"MIN_MESSAGES": "three"}, "MIN_MESSAGES: 'three' is not a whole number from 1 to 50"),
        ({"MIN_MESSAGES": "2.5"}, "MIN_MESSAGES: '2.5' is not a whole number from 1 to 50"),
        ({"MIN_WAIT_SECONDS": "soon"}, "MIN_WAIT_SECONDS: 'soon' is not a number from 0 to 3600"),
        ({"MIN_WAIT_SECONDS": "nan"}, "MIN_WAIT_SECONDS: nan is not a number from 0 to 3600"),
        ({"ADDRESSED_MAX_AGE_SECONDS": "inf"}, "ADDRESSED_MAX_AGE_SECONDS: inf is not a number, 0 or more"),
        ({"PACE_MULTIPLIER": "0"}, "PACE_MULTIPLIER: 0.0 is not a number above 0, up to 20"),
        ({"TOMBSTONE_DAYS": "7"}, "TOMBSTONE_DAYS: 7.0 is not a number above 7, up to 31"),
        ({"LLM_BACKEND": "bogus"}, "LLM_BACKEND: 'bogus' is not one of none, offline, gemini"),
        ({"KIKIMIMI_MODE": "prod"}, "KIKIMIMI_MODE: 'prod' is not one of local, gcp"),
        (
            {"USE_VERTEX_AI": "maybe"},
            "USE_VERTEX_AI: 'maybe' is not true or false (also 1/0, yes/no, on/off)",
        ),
        (
            {"RULE_WEIGHTS": "question=30"},
            "RULE_WEIGHTS: 'question=30' is not a JSON object {rule term: a number from -100 to 100}",
        ),
        ({"RULE_WEIGHTS": "[30]"}, "RULE_WEIGHTS: '[30]' is not a JSON object"),
        ({"RULE_WEIGHTS": '{"question": "high"}'}, 'RULE_WEIGHTS: \'{"question": "high"}\' is not a JSON'),
        ({"RULE_WEIGHTS": '{"question": null}'}, "RULE_WEIGHTS: '{\"question\": null}' is not a JSON"),
        (
            {"RULE_WEIGHTS": '{"question": 300}'},
            "RULE_WEIGHTS: 'question': 300.0 is not a number from -100 to 100",
        ),
        (
            {"RULE_WEIGHTS": '{"qestion": 30}'},
            "RULE_WEIGHTS: 'qestion' is not a rule term (did you mean "
            "'question'?); the terms are mention, reply_to_bot, name_call",
        ),
    ],
)
def test_a_wrong_value_names_the_setting_and_what_it_accepts(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env)
    assert str(info.value).startswith(message)


def test_a_misspelt_rule_weight_lists_every_known_term() -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({"RULE_WEIGHTS": '{"closing": -10, "two_peopel": -5}'})
    assert "'two_peopel' is not a rule term (did you mean 'two_people'?)" in str(info.value)
    assert all(term in str(info.value) for term in DEFAULT_WEIGHTS)
    # Every term the rules know is accepted, at the ends of the range too.
    weights = {term: (100.0 if i % 2 else -100.0) for i, term in enumerate(DEFAULT_WEIGHTS)}
    assert Settings.from_env({"RULE_WEIGHTS": json.dumps(weights)}).rule_weights == weights


@pytest.mark.parametrize(
    "changes",
    [
        {"language": "fr"},
        {"jitter_ratio": 5.0},
        {"min_messages": -3},
        {"rule_weights": {"qestion": 1.0}},
        {"llm_backend": "bogus"},
        {"reply_max_messages": 0},
    ],
)
def test_every_way_of_building_settings_checks_the_values(changes: dict[str, Any]) -> None:
    ((name, value),) = changes.items()
    env = next(f.metadata["env"] for f in dataclasses.fields(Settings) if f.name == name)
    with pytest.raises(SettingsError, match=f"^{env}: "):
        Settings(**changes)
    with pytest.raises(SettingsError, match=f"^{env}: "):
        Settings().replace(**changes)
    raw = json.dumps(value) if isinstance(value, dict) else str(value)
    with pytest.raises(SettingsError, match=f"^{env}: "):
        Settings().with_overrides({env: raw})


NUMBERS = [f for f in dataclasses.fields(Settings) if type_of(f) in (int, float)]
_ENV = {f.name: f.metadata["env"] for f in dataclasses.fields(Settings)}
PAIRED = {a: _ENV[b] for pair in ORDERED_PAIRS for a, b in (pair, pair[::-1])}


@pytest.mark.parametrize("f", NUMBERS, ids=[f.metadata["env"] for f in NUMBERS])
def test_each_number_takes_its_bounds_and_refuses_what_lies_beyond(f: dataclasses.Field[Any]) -> None:
    meta, step = f.metadata, 1 if type_of(f) is int else 0.001
    assert any(meta[k] is not None for k in ("ge", "gt", "le", "lt")), "every number has a range"
    env = meta["env"]
    for bound, inside, outside in (("ge", 0, -step), ("le", 0, step), ("gt", step, 0), ("lt", -step, 0)):
        if meta[bound] is None:
            continue
        edge = meta[bound]
        # The other end of an ordered pair (PACE_MIN_SECONDS ≤ PACE_MAX_SECONDS …) moves along with it.
        partner = {PAIRED[f.name]: str(edge + inside)} if f.name in PAIRED else {}
        assert getattr(Settings.from_env({env: str(edge + inside), **partner}), f.name) == edge + inside
        with pytest.raises(SettingsError, match=f"^{env}: .* is not {re.escape(accepts(f))}$"):
            Settings.from_env({env: str(edge + outside)})


def test_every_setting_explains_itself() -> None:
    Settings()  # every default fits its own range and choices (built settings are checked)
    for f in dataclasses.fields(Settings):
        meta, hint = f.metadata, type_of(f)
        doc = meta["doc"]
        assert doc and "\n" not in doc and len(doc) <= 100, f"{meta['env']}: one short line of description"
        assert meta["group"], f"{meta['env']} belongs to a group"
        assert accepts(f), f"{meta['env']} says what it accepts"
        assert hint in (bool, int, float, str) or typing.get_origin(hint) in (tuple, Mapping)
        if meta["choices"]:
            assert hint is str and f.default in meta["choices"], f"{meta['env']}: the default is a choice"


def test_defaults_are_safe() -> None:
    s = Settings()
    assert s.enabled_channels == () and not s.channel_enabled("123"), "no channel until an admin enables it"
    assert s.language == "auto", "the writer follows the conversation's language"
    assert Settings.from_env({"ENABLED_CHANNELS": "*"}).channel_enabled("123")


def test_defaults_stand_where_the_environment_has_no_value() -> None:
    tool = {"ENABLED_CHANNELS": "*", "MIN_MESSAGES": "4"}
    assert Settings.from_env({}, defaults=tool).enabled_channels == ("*",)
    assert Settings.from_env({"ENABLED_CHANNELS": ""}, defaults=tool).enabled_channels == ("*",)
    got = Settings.from_env({"ENABLED_CHANNELS": "42", "BOT_NAME": "mimi"}, defaults=tool)
    assert (got.enabled_channels, got.min_messages, got.bot_name) == (("42",), 4, "mimi")
    with pytest.raises(SettingsError, match=r"^MIN_MESSAGES: "):
        Settings.from_env({}, defaults={"MIN_MESSAGES": "0"})


def test_from_env_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_NAME", "from-os")
    monkeypatch.setenv("JUDGE_HIGH_THRESHOLD", "90")
    s = Settings.from_env()
    assert (s.bot_name, s.high_threshold) == ("from-os", 90.0)


def test_unknown_variables_are_ignored() -> None:
    assert Settings.from_env({"NOT_A_SETTING": "x", "PATH": "/bin"}) == Settings()


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().bot_name = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("pairs", "field", "expected"),
    [
        ({"MIN_MESSAGES": "9"}, "min_messages", 9),
        ({"min_messages": "9"}, "min_messages", 9),
        ({"Min_Messages": "9"}, "min_messages", 9),
        ({"JUDGE_HIGH_THRESHOLD": "70"}, "high_threshold", 70.0),  # env name differs from field name
        ({"high_threshold": "70"}, "high_threshold", 70.0),
        ({"bot_aliases": "a,b"}, "bot_aliases", ("a", "b")),
        ({"LLM_BACKEND": "gemini"}, "llm_backend", "gemini"),
        ({"rule_weights": '{"mention": 90}'}, "rule_weights", {"mention": 90.0}),
    ],
)
def test_with_overrides_by_env_name_and_field_name(
    pairs: dict[str, str], field: str, expected: object
) -> None:
    base = Settings(bot_name="keep")
    changed = base.with_overrides(pairs)
    assert getattr(changed, field) == expected
    assert changed.bot_name == "keep"  # the rest is untouched
    assert getattr(base, field) != expected  # a copy, not a mutation


def test_with_overrides_rejects_unknown_names_and_bad_values() -> None:
    with pytest.raises(SettingsError, match="unknown setting 'NOPE'"):
        Settings().with_overrides({"NOPE": "1"})
    with pytest.raises(SettingsError, match=r"unknown setting 'MIN_MESAGES' \(did you mean MIN_MESSAGES\?\)"):
        Settings().with_overrides({"MIN_MESAGES": "1"})
    with pytest.raises(SettingsError, match=r"^JUDGE_HIGH_THRESHOLD: 'high' is not a number from 0 to 100$"):
        Settings().with_overrides({"high_threshold": "high"})


def test_env_names_cover_every_field_once() -> None:
    names = Settings.env_names()
    fields = dataclasses.fields(Settings)
    assert len(names) == len(fields)  # no two fields share a variable
    assert {"DISCORD_TOKEN", "GEMINI_API_KEY", "KIKIMIMI_MODE", "ENABLED_CHANNELS", "RULE_WEIGHTS"} <= names
    assert Settings.from_env({name: "" for name in names}) == Settings()  # empty values mean defaults


def test_redacted_hides_secrets_only() -> None:
    s = Settings(discord_token="tok-123", gemini_api_key="key-456", bot_name="mimi")
    out = s.redacted()
    assert out["discord_token"] == "***"
    assert out["gemini_api_key"] == "***"
    assert out["bot_name"] == "mimi"
    assert "tok-123" not in repr(out) and "key-456" not in repr(out)
    assert set(out) == {f.name for f in dataclasses.fields(Settings)}
    # An unset secret shows as empty, so a missing token is visible in the logs.
    assert Settings().redacted()["discord_token"] == ""


@pytest.mark.parametrize(
    ("enabled", "channel", "expected"),
    [(("*",), "1", True), (("1", "2"), "2", True), (("1", "2"), "3", False), ((), "1", False)],
)
def test_channel_enabled(enabled: tuple[str, ...], channel: str, expected: bool) -> None:
    assert Settings(enabled_channels=enabled).channel_enabled(channel) is expected


def test_names_include_aliases() -> None:
    assert Settings(bot_name="mimi", bot_aliases=("ミミ",)).names == ("mimi", "ミミ")
