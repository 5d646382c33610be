"""Memory in the judgment and reply prompts: the place around (place_view), speaker, related facts,
proactivity."""

# Retrieval runs only after a decision to respond (the reply), or in a judgment when the channel just
# woke up after a silence and the bot is out of cooldown (a memory worth bringing up): never per message.

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from kikimimi.domain.context_builder import PlaceContext
from kikimimi.domain.memory import blocks
from kikimimi.domain.memory import policy as mp
from kikimimi.domain.memory import ranking as fr
from kikimimi.domain.memory.keywords import MAX_QUERY_KEYWORDS, extract_keywords
from kikimimi.domain.memory.model import ChannelMemory, Fact
from kikimimi.domain.model import ChannelKey, Decision, Intervention, Message, ResponseType
from kikimimi.domain.prompt_context import PromptContext
from kikimimi.domain.rule_config import PROACTIVE_TERM
from kikimimi.domain.rules import Score
from kikimimi.domain.wire import ReplyTask
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory import place_view
from kikimimi.usecases.memory.fact_weights import weights

log = logging.getLogger(__name__)
_MARKER = re.compile(r"^\[memory:(?P<id>f[0-9a-f]{19})\]\s*")
# A keyword query returns its matches in id order, not by overlap: twenty leave the ranking a choice
# (a place keeps at most FACTS_MAX_PER_CHANNEL facts, 100 by default) at twenty reads at most.
KEYWORD_CANDIDATES = 20
RANK_KEYWORDS = 8  # the Jaccard term compares the lines' most frequent keywords


@dataclass(frozen=True)
class RecallContext(PromptContext):
    """A prompt context with the blocks only the memory layers fill (speaker, related facts, proactive)."""

    recall_memory: str = ""


def with_memory(
    context: PromptContext, *, place: PlaceContext | None = None, recall: str = "", reason: str | None = None
) -> PromptContext:
    """The context with what the context builder gave around the place, and the recall blocks."""
    values = {
        f.name: getattr(context, f.name) for f in dataclasses.fields(context) if f.name != "recall_memory"
    }
    values["place"] = place or context.place
    if reason is not None:
        values["reason"] = reason
    return RecallContext(**values, recall_memory=recall)


def marked_fact(reason: str) -> tuple[str | None, str]:
    """(fact id, reason without the marker) of a reply task's reason."""
    match = _MARKER.match(reason)
    return (match["id"], reason[match.end() :]) if match else (None, reason)


def retrieve(
    deps: Deps,
    key: ChannelKey,
    texts: Sequence[str],
    speaker_id: str | None,
    now: datetime,
    top: int,
    floor: float,
) -> list[tuple[Fact, float]]:
    """Hybrid ranking over two searches: the facts sharing the lines' keywords, then the vector neighbours."""
    assert deps.memory is not None and deps.embedder is not None
    query = " ".join(t for t in texts if t.strip())[-1000:]
    if not query:
        return []
    vector = deps.embedder.embed([query], "query")[0]
    # Keywords first (array-contains-any, a read each): a fact that shares the lines' words is a
    # candidate however far its wording lies in embedding space; the vector search adds the facts said
    # in other words. Its cosine comes from the stored embedding, so one score orders both.
    keywords = extract_keywords(texts[::-1], MAX_QUERY_KEYWORDS)  # ties: the newest line's words first
    by_words = deps.memory.facts.keyword_facts(key, keywords, KEYWORD_CANDIDATES) if keywords else []
    candidates = fr.merge_candidates(by_words, deps.memory.facts.nearest_facts(key, vector, top))
    ranked = keywords[:RANK_KEYWORDS]
    return fr.rank(candidates, ranked, vector, now, weights(deps), speaker_id, top, floor)


@dataclass(frozen=True)
class JudgeMemory:
    """What a judgment knows from memory: its place's memory and, maybe, a fact to bring up."""

    memory: ChannelMemory | None = None
    proactive: Fact | None = None

    def score(self, score: Score, weight: float) -> Score:
        """The rules' score with a proactive term: every other rule still applies to the total."""
        if self.proactive is None:
            return score
        terms = (*score.terms, (PROACTIVE_TERM, weight))
        total = max(0.0, min(100.0, sum(value for _, value in terms)))
        return dataclasses.replace(score, total=total, terms=terms)

    def context(self, context: PromptContext, place: PlaceContext, now: datetime) -> PromptContext:
        """The judge's prompt context: what the context builder gave, and the fact to bring up."""
        lang = context.language
        recall = blocks.proactive_block(self.proactive, now, lang, judge=True) if self.proactive else ""
        return with_memory(context, place=place, recall=recall)

    def decide(self, decision: Decision) -> Decision:
        """Carry the fact to the reply in the reason; a memory takes a sentence, not an ack."""
        if self.proactive is None or not decision.should_respond:
            return decision
        if decision.response_type is ResponseType.REACT_ONLY:
            return decision
        kind = ResponseType.FULL_RESPONSE if decision.source == "rules" else decision.response_type
        return dataclasses.replace(
            decision, reason=f"[memory:{self.proactive.id}] {decision.reason}", response_type=kind
        )


def for_judge(
    deps: Deps,
    key: ChannelKey,
    window: Sequence[Message],
    interventions: Sequence[Intervention],
    now: datetime,
    cooldown_seconds: float,
) -> JudgeMemory:
    """Memory for one judgment (the rules read it too); trouble with memory never blocks the judgment.
    What an LLM judgment reads around the place is gathered only when it asks (place_view)."""
    if deps.memory is None:
        return JudgeMemory()
    try:
        memory = deps.memory.summaries.channel_memory(key)
        return JudgeMemory(
            memory, _proactive(deps, key, memory, window, interventions, now, cooldown_seconds)
        )
    except Exception as exc:
        log.exception("memory for the judgment failed")
        deps.emit("memory_error", key, function="judge", error=f"{exc!r}"[:300])
        return JudgeMemory()


def _proactive(
    deps: Deps,
    key: ChannelKey,
    memory: ChannelMemory,
    window: Sequence[Message],
    interventions: Sequence[Intervention],
    now: datetime,
    cooldown_seconds: float,
) -> Fact | None:
    """A shareable, never-shared fact related to what is said, when the channel woke up after a silence."""
    s = deps.settings
    if not s.proactive_enabled or memory.fact_count == 0 or deps.embedder is None:
        return None
    silence = timedelta(minutes=s.proactive_silence_minutes)
    start = mp.burst_start(memory.watermark_at, [m.created_at for m in window], silence)
    if start is None:
        return None
    spoke = [i.at for i in interventions] + [m.created_at for m in window if m.is_self]
    if spoke and (now - max(spoke)).total_seconds() < cooldown_seconds:
        return None
    texts = [m.content for m in window if m.is_human and m.created_at >= start]
    ranked = retrieve(deps, key, texts, None, now, top=5, floor=s.proactive_min_score)
    # Unasked talk needs the room's own words: a fact sharing none of them stays unsaid, whatever the
    # embedder's baseline similarity of unrelated text.
    people = sorted({m.author_name for m in window if m.author_name})
    words = fr.topic_keywords(texts, s.names, people, MAX_QUERY_KEYWORDS)
    return fr.shareable_candidate(ranked, s.proactive_min_score, words)


def for_reply(
    deps: Deps, context: PromptContext, task: ReplyTask, window: Sequence[Message], now: datetime, *, by: str
) -> PromptContext:
    """The reply prompt with what the context builder gives around the place (`by`: whose copies of
    places' lines read the lines around it), and the speaker, related-memories and proactive blocks."""
    fact_id, reason = marked_fact(context.reason)
    if deps.memory is None:
        return with_memory(context, reason=reason)
    key, lang = task.key, context.language
    try:
        memory = deps.memory.summaries.channel_memory(key)
        place = place_view.gather(deps, key, task.guild_id, now, memory, by=by)
        target_id = task.reply_to_message_id or task.trigger_id
        target = next((m for m in window if m.id == target_id), None)
        speaker = _speaker(deps, task, target, lang)
        proactive = deps.memory.facts.fact(key, fact_id) if fact_id else None
        related = _related(deps, task, memory, window, target, proactive, now, lang)
        bring_up = (
            blocks.proactive_block(proactive, now, lang) if proactive and proactive.shared_at is None else ""
        )
        return with_memory(
            context,
            place=place,
            recall="\n\n".join(p for p in (speaker, related, bring_up) if p),
            reason=reason,
        )
    except Exception as exc:
        log.exception("memory for the reply failed")
        deps.emit("memory_error", key, function="reply", error=f"{exc!r}"[:300])
        return with_memory(context, reason=reason)


def _speaker(deps: Deps, task: ReplyTask, target: Message | None, lang: str) -> str:
    """What the bot knows of the person it answers, and how familiar they are; "" for a bot's line."""
    assert deps.memory is not None
    if target is None or not target.is_human:
        return ""
    s = deps.settings
    profile = deps.memory.profiles.profile(task.guild_id or "none", target.author_id)
    level = mp.familiarity(
        profile.interaction_count if profile else 0,
        s.familiarity_acquaintance,
        s.familiarity_regular,
        s.familiarity_close,
    )
    return blocks.speaker_block(profile, level, target.author_name, lang)


def _related(
    deps: Deps,
    task: ReplyTask,
    memory: ChannelMemory,
    window: Sequence[Message],
    target: Message | None,
    proactive: Fact | None,
    now: datetime,
    lang: str,
) -> str:
    """The facts related to the last lines up to the target (the proactive one aside); a one-line
    acknowledgement cites no memory: retrieval is for real replies."""
    if memory.fact_count == 0 or deps.embedder is None or task.response_type.value != "full_response":
        return ""
    s = deps.settings
    humans = [m for m in window if m.is_human and (target is None or m.created_at <= target.created_at)]
    speaker_id = target.author_id if target else None
    texts = [m.content for m in humans[-3:]]
    ranked = retrieve(deps, task.key, texts, speaker_id, now, s.related_facts + 1, s.related_min_score)
    related = [(f, v) for f, v in ranked if proactive is None or f.id != proactive.id][: s.related_facts]
    names = {m.author_id: m.author_name for m in window}
    return blocks.related_block(related, names, now, lang)


def after_post(deps: Deps, key: ChannelKey, task: ReplyTask, now: datetime) -> None:
    """The fact the reply brought up is shared now: it is never brought up again."""
    fact_id, _ = marked_fact(task.reason)
    if fact_id is None or deps.memory is None:
        return
    try:
        if deps.memory.facts.mark_shared(key, fact_id, now):
            deps.emit(
                "fact", key, function="reply", trigger=task.trigger_id, fact_id=fact_id, action="shared"
            )
    except Exception as exc:
        log.exception("marking a fact shared failed")
        deps.emit("memory_error", key, function="reply", error=f"{exc!r}"[:300])
