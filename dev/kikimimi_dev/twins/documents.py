"""Every document the in-memory twins hold, as Firestore would hold it: collection path → id → document."""

# `kikimimi replay --state` writes this, so anyone can see what the bot keeps after a transcript. The
# documents go through the Firestore adapters' own codecs; a twin table this module does not know yet is
# still written (under `twin/…`, field by field), so nothing the twins hold is left out of the picture.
# The twins keep no TTL, so `expire_at` is left out where they do not know it.

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import Enum
from typing import Any

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore import memory_codec as mc
from kikimimi.adapters.firestore.windows import WINDOW, cleared_doc, window_to_doc
from kikimimi.domain.model import ChannelKey, ChannelSettings
from kikimimi_dev.twins.recall import InMemoryRecall
from kikimimi_dev.twins.store import InMemoryStore

Documents = dict[str, dict[str, dict[str, Any]]]
# Tables read below, and what is not a table (the lock, the buffer's time index, counters).
STORE_TABLES = {
    "_messages",
    "_marks",
    "_interventions",
    "_settings",
    "_judgments",
    "_caps",
    "_llm_calls",
    "_place_guilds",
    "_drafts",
    "_gateway_marks",
    "_opt_outs",
    "_guild_settings",
    "_markers",
    "_windows",
    "_receptions",
}
RECALL_TABLES = {"_channels", "_chunks", "_facts", "_profiles", "_guilds"}
# `_changed` is a field of the buffer's documents (changed_at), not documents of its own.
NOT_TABLES = {
    "_lock",
    "_order",
    "_store",
    "reads",
    "writes",
    "_changed",
    "_edits",  # the buffer's documents' edited_at, and an early edit's guild and author
    "_ticks",
    "_window_versions",
    "_interventions_changed",  # the interventions' changed_at
}


def twin_documents(store: InMemoryStore, recall: InMemoryRecall | None = None) -> Documents:
    """The store twin's and (when given) the recall twin's documents, paths and ids sorted."""
    docs: Documents = {}

    def put(collection: str, doc_id: str, doc: dict[str, Any]) -> None:
        docs.setdefault(collection, {})[doc_id] = doc

    _store(store, put)
    _unknown("store", store, STORE_TABLES, put)
    if recall is not None:
        _recall(recall, put)
        _unknown("recall", recall, RECALL_TABLES, put)
    return {path: dict(sorted(found.items())) for path, found in sorted(docs.items())}


def _store(store: InMemoryStore, put: Any) -> None:
    """Every document the store twin holds, as Firestore would lay it out."""
    # Over 60 lines: one flat list of the twin's collections, each two lines, under one lock.
    with store._lock:

        def changed(place: str, doc_id: str) -> dict[str, Any]:
            at = store._changed.get(place, {}).get(doc_id)
            return {} if at is None else {codec.CHANGED_AT: at}

        def edit(place: str, mid: str) -> tuple[datetime | None, str | None, str | None]:
            return store._edits.get(place, {}).get(mid, (None, None, None))

        for place, bucket in store._messages.items():
            for mid, (message, expire_at) in bucket.items():
                doc = codec.message_to_doc(message, expire_at) | changed(place, mid)
                if (at := edit(place, mid)[0]) is not None:
                    doc[codec.EDITED_AT] = at
                put(f"channels/{place}/messages", mid, doc)
        for place, marks in store._marks.items():
            for mid, (mark, content, expire_at) in marks.items():
                at, guild, author = edit(place, mid)
                of = codec.PendingEditOf(ChannelKey.parse(place), guild, author, at)
                doc = (
                    codec.tombstone_doc(mid, expire_at)
                    if mark == codec.TOMBSTONE
                    else codec.pending_edit_doc(mid, content, expire_at, of)
                )
                put(f"channels/{place}/messages", mid, doc | changed(place, mid))
        for place, markers in store._markers.items():
            for state, at in markers.items():
                doc = codec.marker_doc(state, at) | {codec.CHANGED_AT: at}
                doc.pop("expire_at")
                put(f"channels/{place}/messages", state, doc)
        for place, interventions in store._interventions.items():
            for doc_id, intervention in interventions.items():
                doc = codec.intervention_to_doc(intervention, intervention.at)
                doc.pop("expire_at")
                changed_at = store._interventions_changed.get(place, {}).get(doc_id)
                put(
                    f"channels/{place}/interventions",
                    doc_id,
                    doc | ({} if changed_at is None else {codec.CHANGED_AT: changed_at}),
                )
        for place in {*store._settings, *store._place_guilds, *store.trouble}:
            settings = store._settings.get(place) or ChannelSettings()
            moderated = (settings.enabled, settings.quiet_until, settings.visibility) != (None, None, None)
            # A place only the gateway or the judge wrote has no moderator fields in Firestore.
            doc = codec.settings_to_doc(settings) if moderated else {}
            if settings.last_decision is not None:
                doc["last_decision"] = codec.last_decision_to_doc(settings.last_decision)
            if settings.private is not None:
                doc |= {"private": settings.private, "private_at": settings.private_at}
            if place in store._place_guilds:
                doc["guild_id"] = store._place_guilds[place]
            if store.trouble.get(place):
                doc["troubles"] = {k: {"at": at, "error": e} for k, (at, e) in store.trouble[place].items()}
            put("channels", place, doc)
        for place, judgments in store._judgments.items():
            for pooled, (decision, at) in judgments.items():
                pool, _, digest = pooled.partition("/")
                put(
                    f"channels/{place}/{pool + '_' if pool else ''}judgments",
                    digest,
                    codec.decision_to_doc(decision, at),
                )
        for place, caps in store._caps.items():
            for name, cap in caps.items():
                doc = codec.cap_state_to_doc(cap, datetime.min)
                doc.pop("expire_at")
                if name.startswith("user-"):
                    doc["user"] = name.removeprefix("user-")
                put(f"channels/{place}/caps", name, doc)
        for place, (window, _, expire_at) in store._windows.items():
            doc = cleared_doc(expire_at) if window is None else window_to_doc(window, expire_at)
            doc.pop("expire_at")
            put(f"channels/{place}/windows", WINDOW, doc)
        for (place, nonce), (draft, expire_at) in store._drafts.items():
            put(f"channels/{place}/reply_drafts", nonce, codec.reply_draft_to_doc(draft, expire_at))
        for place, (key, message_id, expire_at) in store._gateway_marks.items():
            put(
                "gateway_marks",
                place,
                {
                    "channel_id": key.channel_id,
                    "thread_id": key.thread_id,
                    "message_id": message_id,
                    "expire_at": expire_at,
                },
            )
        for guild, doc in store._opt_outs.items():
            put("opt_outs", guild, doc)
        for place, days in store._receptions.items():
            for day, doc in days.items():
                put(f"channels/{place}/receptions", day, doc)
        for guild, doc in store._guild_settings.items():
            put("guild_settings", guild, doc)
        for (guild, day), calls in store._llm_calls.items():
            put(
                "llm_budget", codec.budget_doc_id(guild, day), {"guild_id": guild, "day": day, "calls": calls}
            )


def _recall(recall: InMemoryRecall, put: Any) -> None:
    with recall._lock:
        for place, memory in recall._channels.items():
            put("memory_channels", place, mc.memory_to_doc(memory))
        for place, chunks in recall._chunks.items():
            for seq, chunk in chunks.items():
                doc = mc.chunk_to_doc(chunk, chunk.created_at)
                doc.pop("expire_at")
                put(f"memory_channels/{place}/chunks", f"{seq:08d}", doc)
        for place, facts in recall._facts.items():
            for fact_id, fact in facts.items():
                put(
                    f"memory_channels/{place}/facts",
                    fact_id,
                    mc.fact_to_doc(ChannelKey.parse(place), fact, list(fact.embedding)),
                )
        for guild, guild_memory in recall._guilds.items():
            put("memory_guilds", guild, mc.guild_to_doc(guild_memory))
        for (guild, user), profile in recall._profiles.items():
            put(f"memory_guilds/{guild}/profiles", user, mc.profile_to_doc(profile))


def _unknown(name: str, twin: object, known: set[str], put: Any) -> None:
    """A table added to a twin after this module: its entries as plain data, under `twin/{name}/…`."""
    for attr, table in sorted(vars(twin).items()):
        if attr in known or attr in NOT_TABLES or not isinstance(table, dict) or not table:
            continue
        for doc_id, value in table.items():
            put(f"twin/{name}/{attr.lstrip('_')}", _plain_id(doc_id), {"value": _plain(value)})


def _plain_id(key: Any) -> str:
    return "/".join(str(k) for k in key) if isinstance(key, tuple) else str(key)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    return value


def json_ready(value: Any) -> Any:
    """The documents with times as ISO-8601 strings (JSON has no time type)."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value
