"""settings: parsing every field type from the environment, overrides, names and redaction."""

from __future__ import annotations

import dataclasses

import pytest

from kikimimi.settings import Settings, SettingsError


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
        pytest.param({"RULE_WEIGHTS": '{"question": 30, "closing": -5.5}'}, "rule_weights",
                     {"question": 30.0, "closing": -5.5}, id="mapping"),
        pytest.param({"RULE_WEIGHTS": '{"question": "30"}'}, "rule_weights", {"question": 30.0},
                     id="mapping-string-number"),
        pytest.param({"MIN_MESSAGES": ""}, "min_messages", 3, id="empty-means-default"),
        pytest.param({}, "bot_aliases", ("ききみみ", "聞き耳"), id="default-tuple"),
    ],
)  # fmt: skip
def test_from_env_parses_each_type(env: dict[str, str], field: str, expected: object) -> None:
    assert getattr(Settings.from_env(env), field) == expected


@pytest.mark.parametrize(
    ("env", "name"),
    [
        ({"MIN_MESSAGES": "three"}, "MIN_MESSAGES"),
        ({"MIN_MESSAGES": "2.5"}, "MIN_MESSAGES"),
        ({"MIN_WAIT_SECONDS": "soon"}, "MIN_WAIT_SECONDS"),
        ({"USE_VERTEX_AI": "maybe"}, "USE_VERTEX_AI"),
        ({"RULE_WEIGHTS": "question=30"}, "RULE_WEIGHTS"),
        ({"RULE_WEIGHTS": "[30]"}, "RULE_WEIGHTS"),
        ({"RULE_WEIGHTS": '{"question": "high"}'}, "RULE_WEIGHTS"),
        ({"RULE_WEIGHTS": '{"question": null}'}, "RULE_WEIGHTS"),
    ],
)
def test_bad_values_name_the_variable(env: dict[str, str], name: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env)
    assert str(info.value).startswith(f"{name}=")
    assert repr(env[name]) in str(info.value)


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
    with pytest.raises(SettingsError, match="JUDGE_HIGH_THRESHOLD="):
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
