"""Facts on Firestore: memory_channels/{key}/facts/{id}, with the embedding as a Vector field (the vector
index serves find_nearest) and a keywords array (array-contains-any), written by reflections, shared,
expired and forgotten."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from google.cloud import firestore
from google.cloud.firestore_v1.base_query import FieldFilter
from google.cloud.firestore_v1.base_vector_query import DistanceMeasure
from google.cloud.firestore_v1.vector import Vector

from kikimimi.adapters.firestore import codec
from kikimimi.adapters.firestore import memory_codec as mc
from kikimimi.adapters.firestore.counting import bills, one_read, query
from kikimimi.adapters.firestore.forgetting import match_filter
from kikimimi.adapters.firestore.memory_erasure import FactsErasure
from kikimimi.adapters.firestore.registry import Parts, adapts
from kikimimi.domain.memory.keywords import query_values
from kikimimi.domain.memory.model import Fact, Reflection, SourceMatch
from kikimimi.domain.memory.profile_notes import with_notes
from kikimimi.domain.model import ChannelKey
from kikimimi.ports import memory as memory_ports


@adapts(memory_ports.Facts)
class Facts(FactsErasure):
    """A place's facts, and the reflection watermark on its memory document they are committed with."""

    def __init__(self, parts: Parts) -> None:
        self._paths = parts.paths
        self._client = parts.paths.client
        self._count = parts.memory_counter.add

    # Each profile note reads its profile in the transaction and (at most) writes it.
    @bills(
        lambda a, r: (
            (1 + len(a["r"].notes), 1 + len(a["r"].save) + len(a["r"].notes), len(a["r"].delete))
            if r
            else (1 + len(a["r"].notes), 0, 0)
        )
    )
    def commit_reflection(
        self, key: ChannelKey, expected_reflect_seq: int, r: Reflection, *, expected_epoch: int | None = None
    ) -> bool:
        ref = self._paths.memory(key)
        facts = self._paths.facts(key)
        noted = [0]  # profiles the notes were written on (known once the transaction ran)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            current = mc.memory_from_doc(key, snap.to_dict() if snap.exists else None)
            if current.reflect_seq != expected_reflect_seq:
                return False
            if expected_epoch is not None and current.epoch != expected_epoch:
                return False  # a forget came since the chunks were read
            # Merged in the transaction (reads before writes): a forget that rewrote a profile since the
            # reflection read is never undone, and a profile forgotten meanwhile is not created again.
            guild = current.guild_id or "none"
            profiles = []
            for note in r.notes:
                profile_ref = self._paths.profiles(guild).document(note.user_id)
                snap = profile_ref.get(transaction=tx)
                if snap.exists:
                    profile = mc.profile_from_doc(guild, note.user_id, snap.to_dict() or {})
                    profiles.append((profile_ref, with_notes(profile, note)))
            for profile_ref, profile in profiles:
                tx.update(profile_ref, mc.notes_to_doc(profile))
            noted[0] = len(profiles)
            for fact_id in r.delete:
                tx.delete(facts.document(fact_id))
            for fact in r.save:
                tx.set(facts.document(fact.id), mc.fact_to_doc(key, fact, Vector(list(fact.embedding))))
            tx.set(
                ref,
                {
                    "channel_id": key.channel_id,
                    "thread_id": key.thread_id,
                    "reflect_seq": current.reflect_seq + 1,
                    "reflected_seq": r.reflected_seq,
                    "reflected_total": r.reflected_total,
                    "reflected_at": codec.utc(r.at),
                    "fact_count": max(0, current.fact_count + r.fact_delta),
                },
                merge=True,
            )
            return True

        self._count(reads=1 + len(r.notes))
        done = bool(run(self._client.transaction()))
        if done:
            self._count(writes=1 + len(r.save) + len(r.delete) + noted[0])
        return done

    @bills(query)
    def nearest_facts(self, key: ChannelKey, vector: Sequence[float], limit: int) -> list[Fact]:
        query = self._paths.facts(key).find_nearest(
            vector_field="embedding",
            query_vector=Vector(list(vector)),
            limit=limit,
            distance_measure=DistanceMeasure.COSINE,
        )
        found = [mc.fact_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return found

    @bills(query)
    def keyword_facts(self, key: ChannelKey, keywords: Sequence[str], limit: int) -> list[Fact]:
        values = query_values(keywords)
        if not values:
            return []
        # A single-field array-contains-any query: the automatic index on `keywords` serves it.
        query = (
            self._paths.facts(key)
            .where(filter=FieldFilter("keywords", "array_contains_any", values))
            .limit(limit)
        )
        found = [mc.fact_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda f: f.id)

    @bills(one_read)
    def fact(self, key: ChannelKey, fact_id: str) -> Fact | None:
        self._count(reads=1)
        snap = self._paths.facts(key).document(fact_id).get()
        return mc.fact_from_doc(snap.to_dict() or {}) if snap.exists else None

    @bills(query)
    def facts(self, key: ChannelKey, limit: int) -> list[Fact]:
        query = (
            self._paths.facts(key).order_by("updated_at", direction=firestore.Query.DESCENDING).limit(limit)
        )
        found = [mc.fact_from_doc(s.to_dict() or {}) for s in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda f: (f.updated_at, f.id), reverse=True)

    @bills(lambda a, r: (1, int(bool(r)), 0))
    def mark_shared(self, key: ChannelKey, fact_id: str, at: datetime) -> bool:
        ref = self._paths.facts(key).document(fact_id)

        @firestore.transactional
        def run(tx: firestore.Transaction) -> bool:
            snap = ref.get(transaction=tx)
            if not snap.exists or (snap.to_dict() or {}).get("shared_at") is not None:
                return False
            tx.update(ref, {"shared_at": codec.utc(at)})
            return True

        self._count(reads=1)
        done = bool(run(self._client.transaction()))
        self._count(writes=int(done))
        return done

    @bills(query)
    def expired_facts(self, now: datetime, limit: int) -> list[tuple[ChannelKey, str]]:
        query = (
            self._client.collection_group(self._paths.facts_group)
            .where(filter=FieldFilter("expires_at", "<", codec.utc(now)))
            .limit(limit)
        )
        found = [(ChannelKey.parse(str(d.get("channel_key"))), str(d.get("id"))) for d in query.stream()]
        self._count(reads=max(1, len(found)))
        return sorted(found, key=lambda p: (p[0].id, p[1]))

    @bills(lambda a, r: (max(1, len(a["fact_ids"])), int(r > 0), int(r)))
    def delete_facts(self, key: ChannelKey, fact_ids: Sequence[str]) -> int:
        refs = [self._paths.facts(key).document(fid) for fid in fact_ids]
        existing = [s.reference for s in self._client.get_all(refs) if s.exists] if refs else []
        batch = self._client.batch()
        for ref in existing:
            batch.delete(ref)
        if existing:
            batch.set(
                self._paths.memory(key), {"fact_count": firestore.Increment(-len(existing))}, merge=True
            )
            batch.commit()
        self._count(reads=max(1, len(refs)), writes=len(existing) + int(bool(existing)))
        return len(existing)

    @bills(query)
    def facts_citing(self, key: ChannelKey, match: SourceMatch) -> list[Fact]:
        facts = self._paths.facts(key)
        queries = [facts.where(filter=match_filter(match, "source_ids", "source_authors"))]
        if match.author_id is not None:  # facts the model said came from them (older facts have no authors)
            queries.append(
                facts.where(filter=FieldFilter("source_user_ids", "array_contains", match.author_id))
            )
        found = {s.id: mc.fact_from_doc(s.to_dict() or {}) for q in queries for s in q.stream()}
        self._count(reads=max(1, len(found)) * len(queries))
        return sorted(found.values(), key=lambda f: f.id)
