"""Use case: a member's `what-do-you-know` (the counts) or `export` (the JSON file), asked through the
gateway: the export read through the ports, worded, and the gateway's deferred reply edited through the
interaction's webhook. Editing it again leaves the same answer, so a redelivered envelope is harmless."""

from __future__ import annotations

from kikimimi.domain.memory.export_words import say
from kikimimi.domain.memory.policy import CHUNK_TTL
from kikimimi.domain.model import ChannelKey
from kikimimi.domain.outgoing import Attachment
from kikimimi.domain.wire import ExportRequested
from kikimimi.ports import DiscordError
from kikimimi.usecases.deps import Deps
from kikimimi.usecases.memory.export import MemberExport, export_json, export_member


def answer(deps: Deps, request: ExportRequested) -> str:
    """Build and send the answer; a refused edit (the token expired: Discord keeps it 15 minutes) is
    logged and dropped, a failure that may pass is logged and raised for the redelivery."""
    text, file = _answer_of(deps, request)
    base = {"function": "ingest", "guild": request.guild_id, "user": request.user_id, "ask": request.ask}
    try:
        deps.discord.answer_interaction(request.application_id, request.token, text, file)
    except DiscordError as exc:
        decision = "retried" if exc.retryable else "dropped"
        deps.emit(
            "member_answer_failed", request.key, **base, decision=decision, reason=f"discord {exc.status}"
        )
        if exc.retryable:
            raise
        return "undelivered"
    deps.emit("member_answer", request.key, **base, decision="answered", file=file is not None)
    return "answered"


def _answer_of(deps: Deps, request: ExportRequested) -> tuple[str, Attachment | None]:
    """The words (and for `export` the file) of the answer. In a direct message `what-do-you-know` is about
    a server, so it knows nothing; `export` there is what is kept from the conversation."""
    lang, guild_id, user_id = request.language, request.guild_id, request.user_id
    if request.ask == "know" and guild_id is None:
        return say(lang, "nothing"), None
    places = () if guild_id else (ChannelKey(request.channel_id),)
    export = export_member(deps.stores, deps.memory, guild_id, user_id, deps.clock.now(), places)
    if request.ask == "know":
        return export_text(export, lang, deps.settings.buffer_ttl_minutes), None
    name = f"kikimimi-{guild_id or 'direct-messages'}-{user_id}.json"
    key = "nothing" if guild_id and export.empty else "exported"
    return say(lang, key), Attachment(name, export_json(export).encode())


def export_text(export: MemberExport, lang: str, buffer_minutes: float) -> str:
    """The `what-do-you-know` answer, at most one Discord message (`export` sends all of it)."""
    profile, facts, lines = export.profile, export.facts, export.summary_lines
    if export.empty:
        return say(lang, "nothing")
    out = [say(lang, "head")]
    if profile:
        topic = ", ".join(profile.last_topic) or "-"
        out.append(say(lang, "profile", exchanges=profile.exchanges, topic=topic))
        if profile.tags:
            out.append(say(lang, "tags", tags=", ".join(profile.tags)[:200]))
        if profile.last_conversation:
            out.append(say(lang, "last_conversation", text=profile.last_conversation[:200]))
        if profile.personality:
            out.append(say(lang, "personality", text=" / ".join(profile.personality)[:120]))
    out.append(say(lang, "buffered", minutes=int(buffer_minutes), n=len(export.buffered)))
    out.append(say(lang, "facts", n=len(facts)))
    # 8 × 152 + 2 × 200 characters: the footer fits; a personality line (≤ 140) takes one fact's room.
    shown = 7 if profile and profile.personality else 8
    out += [f"- {f.fact[:150]}" for f in facts[:shown]]
    out.append(say(lang, "lines", days=CHUNK_TTL.days, n=len(lines)))
    out.append(say(lang, "hint"))
    return "\n".join(out)
