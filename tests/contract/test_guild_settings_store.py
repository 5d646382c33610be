"""The Store's per-guild switches (`/kikimimi grounding`): the twin and Firestore on the emulator agree."""

from __future__ import annotations

import pytest

from kikimimi.adapters.firestore import FirestoreStore
from kikimimi.domain.model import GuildSettings
from kikimimi_dev.twins.store import InMemoryStore


@pytest.fixture(params=["memory", pytest.param("firestore", marks=pytest.mark.emulator)])
def store(request: pytest.FixtureRequest) -> InMemoryStore | FirestoreStore:
    if request.param == "memory":
        return InMemoryStore()
    return FirestoreStore(request.getfixturevalue("firestore_client"), prefix="contract_")


def test_grounding_switch_is_empty_until_an_admin_sets_it(store: InMemoryStore | FirestoreStore) -> None:
    assert store.guild_settings("g1") == GuildSettings()
    store.save_guild_settings("g1", GuildSettings(grounding=True))
    assert store.guild_settings("g1") == GuildSettings(grounding=True)
    assert store.guild_settings("g2") == GuildSettings()  # per guild


def test_grounding_switch_turns_off_and_an_unset_field_keeps_the_stored_one(
    store: InMemoryStore | FirestoreStore,
) -> None:
    store.save_guild_settings("g1", GuildSettings(grounding=True))
    store.save_guild_settings("g1", GuildSettings())  # nothing set: a merge that changes nothing
    assert store.guild_settings("g1").grounding is True
    store.save_guild_settings("g1", GuildSettings(grounding=False))
    assert store.guild_settings("g1").grounding is False


def test_grounding_switch_goes_with_the_guild(store: InMemoryStore | FirestoreStore) -> None:
    store.save_guild_settings("g1", GuildSettings(grounding=True))
    store.save_guild_settings("g2", GuildSettings(grounding=True))
    store.count_llm_call("g1", "2026-03-04")
    assert store.forget_guild("g1") == 2  # the budget counter and the switches
    assert store.forget_guild("g1") == 0
    assert store.guild_settings("g1") == GuildSettings()
    assert store.guild_settings("g2").grounding is True
