"""The Store's per-guild switches (`/kikimimi grounding`): the twin and Firestore on the emulator agree."""

from __future__ import annotations

import pytest

from kikimimi.domain.model import GuildSettings
from tests.fixtures.stored import (
    CountedStore,
    firestore_store,
    twin_store,
)


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> CountedStore:
    if request.param == "memory":
        return twin_store()
    return firestore_store(request.getfixturevalue("firestore_client"), prefix="contract_")


def test_grounding_switch_is_empty_until_an_admin_sets_it(store: CountedStore) -> None:
    assert store.switches.guild_settings("g1") == GuildSettings()
    store.switches.save_guild_settings("g1", GuildSettings(grounding=True))
    assert store.switches.guild_settings("g1") == GuildSettings(grounding=True)
    assert store.switches.guild_settings("g2") == GuildSettings()  # per guild


def test_grounding_switch_turns_off_and_an_unset_field_keeps_the_stored_one(
    store: CountedStore,
) -> None:
    store.switches.save_guild_settings("g1", GuildSettings(grounding=True))
    store.switches.save_guild_settings("g1", GuildSettings())  # nothing set: a merge that changes nothing
    assert store.switches.guild_settings("g1").grounding is True
    store.switches.save_guild_settings("g1", GuildSettings(grounding=False))
    assert store.switches.guild_settings("g1").grounding is False


def test_grounding_switch_goes_with_the_guild(store: CountedStore) -> None:
    store.switches.save_guild_settings("g1", GuildSettings(grounding=True))
    store.switches.save_guild_settings("g2", GuildSettings(grounding=True))
    store.caps.count_llm_call("g1", "2026-03-04")
    assert (
        store.caps.forget_guild("g1") + store.switches.forget_guild("g1")
    ) == 2  # the budget counter and the switches
    assert (store.caps.forget_guild("g1") + store.switches.forget_guild("g1")) == 0
    assert store.switches.guild_settings("g1") == GuildSettings()
    assert store.switches.guild_settings("g2").grounding is True
