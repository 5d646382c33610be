"""The gateway's edit envelope carries Discord's edit time, so ingest can keep the newer of two edits
delivered out of order; an update without one (a pin, an embed) changed no text and is not sent."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from gateway_vm import envelopes


def update(**data: Any) -> Any:
    """A raw MESSAGE_UPDATE as `envelopes.edited` reads it."""
    return SimpleNamespace(data=data, guild_id=1, channel_id=2, message_id=3)


def test_edits_out_of_order_the_envelope_carries_discords_edit_time() -> None:
    edit = envelopes.edited(
        update(content="fixed", edited_timestamp="2026-11-28T10:00:01.250000+00:00", author={"id": "7"}), None
    )
    assert edit is not None
    assert edit.edited_at == datetime(2026, 11, 28, 10, 0, 1, 250000, tzinfo=UTC)
    assert (edit.message_id, edit.author_id, edit.content) == ("3", "7", "fixed")


def test_edits_out_of_order_an_update_without_an_edit_time_is_no_edit() -> None:
    assert (
        envelopes.edited(update(content="pinned, unchanged", edited_timestamp=None, pinned=True), None)
        is None
    )
    assert envelopes.edited(update(embeds=[]), None) is None
