"""Secrets never appear in a repr or str: every secret-like setting (token, key, secret, password…) is
marked secret, and Settings, Deps and the adapters that hold a secret (Discord REST, Gemini) print none."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from kikimimi import bootstrap
from kikimimi.adapters.discord_rest import DiscordRest
from kikimimi.adapters.gemini import GeminiLLM, make_client
from kikimimi.adapters.gemini_embed import GeminiEmbedder
from kikimimi.settings import Settings
from kikimimi_dev.twins.deps import twin_deps
from kikimimi_dev.twins.sim import SimClock

# Name parts that mean "this value lets someone act as the bot or spend its money".
SECRET_PART = re.compile(r"^(token|key|apikey|secret|secrets|password|passwd|credential|credentials)$")
# Fields whose name has such a part but hold no secret (say why when adding one); LLM "tokens" are counts.
NOT_SECRET: dict[str, str] = {}


def secret_like(name: str) -> bool:
    return any(SECRET_PART.match(part) for part in name.lower().split("_"))


SECRET_FIELDS = [f for f in dataclasses.fields(Settings) if secret_like(f.name) and f.name not in NOT_SECRET]


def test_there_are_secret_fields_to_check() -> None:
    # The discovery below must find the two we know of, or it checks nothing.
    assert {"discord_token", "gemini_api_key"} <= {f.name for f in SECRET_FIELDS}


@pytest.mark.parametrize("field", SECRET_FIELDS, ids=lambda f: f.name)
def test_every_secret_like_setting_is_marked_secret(field: dataclasses.Field[Any]) -> None:
    assert field.metadata.get("secret") is True, f"{field.name} ({field.metadata['env']}) must be secret"


@pytest.mark.parametrize(
    "name", ["discord_token", "gemini_api_key", "db_password", "client_secret", "apikey"]
)
def test_the_secret_rule_recognises_names(name: str) -> None:
    assert secret_like(name)


@pytest.mark.parametrize("name", ["bot_keywords", "reply_max_tokens", "monkey_business", "tokenizer_dir"])
def test_the_secret_rule_ignores_lookalikes(name: str) -> None:
    assert not secret_like(name)


def sentinels() -> dict[str, str]:
    return {
        f.name: f"SENTINEL-{f.name.upper()}-x9q"
        for f in dataclasses.fields(Settings)
        if f.metadata.get("secret")
    }


def settings_with_secrets(**extra: Any) -> Settings:
    return Settings(**sentinels(), **extra)


def assert_clean(*texts: str) -> None:
    for text in texts:
        for value in sentinels().values():
            assert value not in text, f"a secret in: {text[:200]}"
            assert value[len("SENTINEL-") :] not in text


def test_settings_repr_str_and_redacted_hide_every_secret() -> None:
    s = settings_with_secrets()
    assert_clean(repr(s), str(s), repr(s.redacted()), f"{s}", f"{s!r}", repr([s]), repr({"s": s}))
    assert all(s.redacted()[name] == "***" for name in sentinels())


def test_settings_derived_by_replace_and_overrides_still_hide_them() -> None:
    s = settings_with_secrets().replace(bot_name="kiki").with_overrides({"BOT_LANGUAGE": "en"})
    assert_clean(repr(s), str(s))


def test_deps_built_for_gcp_with_their_adapters_print_no_secret() -> None:
    s = settings_with_secrets(llm_backend="gemini", memory_enabled=False)
    deps = bootstrap.build_deps(s, SimClock())
    discord, writer = (
        deps.discord,
        deps.writer,
    )  # built: the REST adapter and the Gemini client hold the secrets
    assert isinstance(discord, DiscordRest) and isinstance(writer, GeminiLLM)
    assert_clean(
        repr(deps), str(deps), repr(vars(deps)), repr(discord), str(discord), repr(writer), str(writer)
    )


def test_twin_deps_print_no_secret() -> None:
    deps = twin_deps(settings_with_secrets(), SimClock())
    assert_clean(repr(deps), str(deps), repr(vars(deps)), repr(deps.discord), repr(deps.writer))


def test_the_discord_rest_adapter_prints_no_token() -> None:
    token = sentinels()["discord_token"]
    rest = DiscordRest(token=token)
    try:
        assert_clean(repr(rest), str(rest), repr(vars(rest).get("_api_base")))
    finally:
        rest.close()


def test_the_gemini_adapters_print_no_api_key() -> None:
    client = make_client(
        api_key=sentinels()["gemini_api_key"],
        vertex=False,
        project="p",
        location="l",
        base_url=None,
        timeout_s=5.0,
    )
    llm, embedder = GeminiLLM(client, "gemini-x"), GeminiEmbedder(client, "embed-x")
    assert_clean(repr(llm), str(llm), repr(embedder), str(embedder))
