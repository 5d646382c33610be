"""Forgetting on Firestore: records found by their sources, rewritten one by one or deleted in batches."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter

from kikimimi.domain.memory.model import SourceMatch

BATCH = 400  # Firestore commits at most 500 writes


def match_filter(match: SourceMatch, ids_field: str, authors_field: str) -> FieldFilter:
    """`array_contains` on the record's source ids (or authors): the automatic single-field index."""
    if match.message_id is not None:
        return FieldFilter(ids_field, "array_contains", match.message_id)
    return FieldFilter(authors_field, "array_contains", match.author_id)


def rewrite_each(
    client: Any,
    query: Any,
    decode: Callable[[dict[str, Any]], Any],
    change: Callable[[Any], Any],
    encode: Callable[[Any], dict[str, Any]],
) -> list[Any]:
    """Read-modify-write each document the query finds, each in its own transaction (concurrent forgets
    of two lines of the same record both land)."""
    changed = []
    for snap in query.stream():
        ref = snap.reference

        @firestore.transactional
        def run(tx: firestore.Transaction, ref: Any = ref) -> Any:
            fresh = ref.get(transaction=tx)
            if not fresh.exists:
                return None
            after = change(decode(fresh.to_dict() or {}))
            tx.set(ref, encode(after))
            return after

        result = run(client.transaction())
        if result is not None:
            changed.append(result)
    return changed


def delete_all(client: Any, refs: Iterable[Any]) -> int:
    """Delete the documents in batches as they are listed (a retry finds only what is left)."""
    gone = 0
    batch, pending = client.batch(), 0
    for ref in refs:
        batch.delete(ref)
        pending += 1
        if pending == BATCH:
            batch.commit()
            gone += pending
            batch, pending = client.batch(), 0
    if pending:
        batch.commit()
        gone += pending
    return gone
