"""Use case: a reply task fires — write the message, deliver it, remember that the bot spoke."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tenacity import RetryError, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from kikimimi import prompts
from kikimimi.domain import policy
from kikimimi.domain.links import keep_known_links
from kikimimi.domain.model import ChannelKey, Intervention, Message, ResponseType
from kikimimi.domain.outgoing import ReplyDraft, complete_sentences, part_nonce, reply_parts, shape_reply
from kikimimi.domain.prompt_context import PromptContext, build_context, last_lines, said_recently
from kikimimi.domain.wire import ReplyTask
from kikimimi.ports import DiscordError, LLMError, LLMRequest, LLMResult
from kikimimi.usecases import answered, channel, grounding, limits, reception, withheld
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.memory import recall as memory_recall

log = logging.getLogger(__name__)
HISTORY = timedelta(hours=1)
READER = "reply"  # this function's copy of a place's lines (place_lines)
# A written reply is kept for the task's retries: longer than the reply queue retries (900 s, tasks.tf).
DRAFT_TTL = timedelta(hours=1)


@dataclass(frozen=True)
class _Turn:
    """The reply being delivered: its task, the lines it reads, the line it answers, when, the log fields."""

    task: ReplyTask
    window: list[Message]
    question: Message | None  # the open question a watch's reply answers
    target_id: str  # the message the reply points at
    now: datetime
    base: dict[str, Any]

    @property
    def key(self) -> ChannelKey:
        return self.task.key


def reply(deps: Deps, task: ReplyTask) -> str | None:
    """Deliver one reply or reaction; returns the posted message id (None when nothing was posted).

    Retryable Discord failures propagate so Cloud Tasks retries; the nonce makes the retry safe, and the
    draft kept under it makes a retry post the rest of the same text.
    """
    started = time.perf_counter()
    base = {"function": "reply", "guild": task.guild_id, "trigger": task.trigger_id}
    now = deps.clock.now()
    window = _with_trigger(deps, task, _window(deps, task.key, task, now), now)
    question = next((m for m in window if m.id == task.question_id), None) if task.question_id else None
    if _skipped(deps, task, window, question, now, base):
        return None
    turn = _Turn(task, window, question, task.reply_to_message_id or task.trigger_id, now, base)
    if task.response_type is ResponseType.REACT_ONLY and task.reaction:
        _react(deps, turn, task.reaction, started)
        return None
    interventions = channel.interventions(deps, task.key, now, now - HISTORY, by=READER)  # for the prompt
    nonce = policy.nonce(task.key, task.trigger_id)
    # A retry after a failed part posts what the first attempt wrote: asking the writer again would
    # stitch the parts already posted to the rest of a different text.
    draft = deps.stores.drafts.reply_draft(task.key, nonce)
    result: LLMResult | None = None
    if draft is None:
        written = _write_draft(deps, turn, interventions)
        if written is None:
            return None
        draft = deps.stores.drafts.keep_reply_draft(task.key, nonce, written[0], now + DRAFT_TTL)
        result = written[1]
    return _deliver(deps, turn, draft, result, nonce, started)


def _skipped(
    deps: Deps, task: ReplyTask, window: list[Message], question: Message | None, now: datetime, base: dict
) -> bool:
    """The reply is no longer wanted (logged): the place was switched off, or the room moved on."""
    key = task.key
    if not channel.enabled(deps, key):  # switched off since the task was scheduled
        deps.emit("reply_skipped", key, **base, decision="disabled", reason="channel not enabled")
        return True
    # An answer to an addressed message is owed even if the chat moved on; a judged reply may not be.
    if task.addressed:
        stale = _addressed_gone(deps, window, task, now)
    else:
        late = _late_reason(deps, task, now)
        if late is not None:
            deps.emit("reply_skipped", key, **base, decision="late", reason=late)
            return True
        stale = _stale_reason(deps, window, task, question)
    if stale is not None:
        deps.emit("reply_skipped", key, **base, decision="stale", reason=stale)
        return True
    return False


def _react(deps: Deps, turn: _Turn, emoji: str, started: float) -> None:
    """A reaction on the target instead of words."""
    key = turn.key
    if withheld.reply_blocked(deps, turn.task, turn.window, "", turn.target_id, turn.base):
        return
    if not _discord(
        deps, key, turn.base, lambda: deps.discord.add_reaction(key.target, turn.target_id, emoji)
    ):
        return
    _remember(deps, key, turn.task, turn.window, None, turn.now)
    deps.emit(
        "reaction",
        key,
        **turn.base,
        decision="reaction",
        emoji=emoji,
        reply_to=turn.target_id,
        latency_ms=elapsed_ms(started),
    )


def _deliver(
    deps: Deps, turn: _Turn, draft: ReplyDraft, result: LLMResult | None, nonce: str, started: float
) -> str | None:
    """Post the draft's parts, keep them in the buffer, remember that the bot spoke; the first part's id."""
    key, task = turn.key, turn.task
    if _target_deleted(deps, key, turn.base, turn.target_id):  # deleted while the text was written
        return None
    if withheld.reply_blocked(deps, task, turn.window, draft.text, turn.target_id, turn.base):
        return None  # a member who opted out or ran forget me meanwhile: not answered, not quoted
    posted = _post(deps, key, turn.base, list(draft.parts), turn.target_id, nonce)
    if not posted:
        return None
    _buffer_parts(deps, turn, draft.parts, posted)
    _remember(deps, key, task, turn.window, posted[0], turn.now)
    memory_recall.after_post(deps, key, task, turn.now)
    reception.watch_post(deps, task, posted[0], turn.now)  # how people receive it, settled in a few minutes
    # Ids and lengths, never the words: what people said and the bot wrote stays out of Cloud Logging
    # (the posted text is in Discord, and in the buffer for the buffer's TTL).
    deps.emit(
        "posted",
        key,
        **turn.base,
        decision="posted",
        reply_to=turn.target_id,
        message_id=posted[0],
        parts=len(posted),
        message_ids=posted,
        length=len(draft.text),
        part_lengths=[len(part) for part in draft.parts[: len(posted)]],
        draft="written" if result is not None else "reused",
        response_type=task.response_type.value,
        model=draft.model,
        input_tokens=result.input_tokens if result else 0,
        output_tokens=result.output_tokens if result else 0,
        latency_ms=elapsed_ms(started),
    )
    return posted[0]


def _buffer_parts(deps: Deps, turn: _Turn, parts: Sequence[str], posted: list[str]) -> None:
    """Each posted part is a Discord message of its own (a delete or edit names it); a microsecond apart
    so the buffer keeps their order."""
    s, key, now = deps.settings, turn.key, turn.now
    for index, (part, part_id) in enumerate(zip(parts, posted, strict=False)):
        message = Message(
            id=part_id,
            guild_id=turn.task.guild_id,
            channel_id=key.channel_id,
            thread_id=key.thread_id,
            author_id=s.bot_user_id or "self",
            author_name=s.bot_name,
            author_is_bot=True,
            content=part,
            created_at=now + timedelta(microseconds=index),
            is_self=True,
            reply_to_id=turn.target_id if index == 0 else None,
        )
        deps.stores.buffer.add_message(message, expire_at=now + channel.ttl(deps))


def _write_draft(
    deps: Deps, turn: _Turn, interventions: list[Intervention]
) -> tuple[ReplyDraft, LLMResult] | None:
    """Ask the writer and shape its text into the parts to post; None (the reason logged) when there is
    nothing to post: the budget is spent, the writer failed, or the room moved on while it wrote."""
    key, task, s, base = turn.key, turn.task, deps.settings, turn.base
    spent = limits.llm_budget_note(deps, key, task.guild_id, "reply")
    if spent:  # past the guild's daily budget the bot writes nothing (reactions still go out)
        deps.emit("reply_skipped", key, **base, decision="budget", reason=spent)
        return None
    _discord(deps, key, base, lambda: deps.discord.trigger_typing(key.target))
    context = memory_recall.for_reply(
        deps, _reply_context(deps, turn, interventions), task, turn.window, turn.now, by=READER
    )
    purpose = "short_ack" if task.response_type is ResponseType.SHORT_ACK else "reply"
    cap, thinking = s.output_budget(purpose)
    tools = grounding.tools_for(deps, task, turn.window, purpose)  # web search and links: GROUNDING
    request = LLMRequest(
        purpose=purpose,
        system=prompts.render("reply", grounding.with_tools(context, tools), s.prompts_dir),
        max_output_tokens=cap,
        temperature=0.7,
        thinking_budget=thinking,
        tools=tools,
    )
    limits.spend_llm_call(deps, task.guild_id)
    result = _write(deps, key, request, retry=task.addressed)
    if result is None:
        deps.emit("reply_failed", key, **base, decision="failed", reason="llm failure")
        return None
    cut = context.place.cut.counts() if context.place else {}
    deps.llm_call(key, "reply", result, guild=task.guild_id, trigger=task.trigger_id, context_cut=cut)
    # A reply cut off at the output cap ends where its last sentence does, never mid-word.
    written = complete_sentences(result.text) if result.cut_off else result.text
    shaped = shape_reply(written, single_line=purpose == "short_ack")
    shaped = grounding.cited(deps, key, base, shaped, result)  # the sites a grounded answer drew on
    text = _known_links_only(deps, key, base, shaped, request, result)
    if not text:
        deps.emit("reply_failed", key, **base, decision="failed", reason="empty text from the model")
        return None
    if not task.addressed and _overtaken(deps, turn):
        return None
    parts = tuple(reply_parts(text, s.reply_max_messages))
    return ReplyDraft(text=text, parts=parts, model=result.model), result


def _reply_context(deps: Deps, turn: _Turn, interventions: list[Intervention]) -> PromptContext:
    """The writer's prompt context (before memory): the lines, what to answer and why, the bot's turns."""
    s, task, now = deps.settings, turn.task, turn.now
    return build_context(
        bot_name=s.bot_name,
        aliases=s.bot_aliases,
        persona=s.persona,
        language=s.language,
        now=now,
        messages=turn.window,
        interventions=interventions,
        trigger_id=task.trigger_id,
        target_id=turn.target_id,
        reason=task.reason,
        response_type=task.response_type.value,
        state=task.state,
        addressed=task.addressed,
        question_id=task.question_id,
        said=said_recently(turn.window, interventions, now),
        # The channel's voice (`/kikimimi persona`) adds to BOT_PERSONA; the reply speaks the language of
        # the message it answers.
        channel_persona=channel.settings_of(deps, turn.key).persona or "",
        follow_answered=True,
    )


def _overtaken(deps: Deps, turn: _Turn) -> bool:
    """Generation takes seconds; a message that arrived meanwhile makes a judged reply stale too, read
    from the same window as before writing (the same lines give the same reading)."""
    later = deps.clock.now()
    # One read first: when the newest line is still the newest read before writing, nothing was said
    # since, and the same lines give the same reading.
    newest = channel.recent(deps, turn.key, later, 1, by=READER)
    if newest and turn.window and newest[-1].id == turn.window[-1].id:
        return False
    fresh = _with_trigger(deps, turn.task, _window(deps, turn.key, turn.task, later), later)
    overtaken = _stale_reason(deps, fresh, turn.task, turn.question)
    if overtaken is None:
        return False
    deps.emit("reply_skipped", turn.key, **turn.base, decision="stale", reason=f"while writing: {overtaken}")
    return True


def _known_links_only(
    deps: Deps, key: ChannelKey, base: dict, text: str, request: LLMRequest, result: LLMResult | None = None
) -> str:
    """The text without links the writer was not shown (the prompt: chat and memory; the pages a grounded
    answer drew on, and their sites) nor allowlisted."""
    links, sites = grounding.source_links(result)
    allowed = (*deps.settings.link_allowlist, *sites)
    checked = keep_known_links(text, (request.system, request.user, *links), allowed)
    for host in checked.removed:
        # The host only: the path of a phishing link may carry a token or a name.
        deps.emit(
            "link_removed",
            key,
            **base,
            decision="removed",
            host=host,
            reason="a link the conversation and memory do not contain",
        )
    return checked.text


def _post(deps: Deps, key: ChannelKey, base: dict, parts: list[str], target_id: str, nonce: str) -> list[str]:
    """Post the parts in order, the first as the reply to the target; the ids posted (a permanent failure
    stops the rest). Each part has its own nonce, so a retried task re-posts none of them."""
    posted: list[str] = []
    for index, part in enumerate(parts):
        reply_to, part_id = (target_id if index == 0 else None), part_nonce(nonce, index)

        def send(part: str = part, reply_to: str | None = reply_to, part_id: str = part_id) -> None:
            posted.append(deps.discord.send_message(key.target, part, reply_to, part_id))

        if not _discord(deps, key, base, send):
            break
    return posted


def _stale_reason(deps: Deps, window: list[Message], task: ReplyTask, question: Message | None) -> str | None:
    """Why a judged reply is no longer wanted, or None."""
    # The answer to an open question is owed whatever was said since, unless someone answered it;
    # a plain reply is stale once a newer human message exists or its trigger was deleted or expired.
    if question is not None:
        settled = answered.settled(deps, question, window)
        return f"the question was answered meanwhile: {settled.reason} ({settled.by})" if settled else None
    if not any(m.id == task.trigger_id for m in window):
        return "the trigger is gone from the buffer"
    return "a newer message exists" if policy.is_stale(window, task.trigger_id) else None


def _with_trigger(deps: Deps, task: ReplyTask, window: list[Message], now: datetime) -> list[Message]:
    """The window with the trigger in it: in a busy place newer lines may have pushed it out of the newest
    few, so it is read by id (one read) rather than taken for gone."""
    if any(m.id == task.trigger_id for m in window):
        return window
    trigger = channel.held_line(deps, task.key, task.trigger_id, now, by=READER)
    trigger = trigger or deps.stores.buffer.buffered_message(task.key, task.trigger_id)
    if trigger is None or trigger.created_at < now - channel.ttl(deps):  # expired: as gone as the window says
        return window
    # Older than every line read (those are the newest), so it goes first.
    return [trigger, *window]


def _late_reason(deps: Deps, task: ReplyTask, now: datetime) -> str | None:
    """Why a judged reply comes too late (a backlog, retries), or None; measured from the latest time its
    judgment planned it for, so a long watch or a chosen delay is never late."""
    limit = deps.settings.reply_max_late_seconds
    if task.due_at is None or not policy.overdue(task.due_at, now, limit):
        return None
    late = (now - task.due_at).total_seconds()
    return f"{late:.0f}s past the time its judgment planned it for (REPLY_MAX_LATE_SECONDS {limit:g})"


def _window(deps: Deps, key: ChannelKey, task: ReplyTask, now: datetime) -> list[Message]:
    """The recent lines the reply reads; for an open question, reaching back to it."""
    limit = deps.settings.context_messages
    window = channel.recent(deps, key, now, limit, by=READER)
    at = next((i for i, m in enumerate(window) if m.id == task.question_id), None)
    if task.question_id and (at is None or at < LINES_BEFORE_THE_QUESTION):
        # A busy room since the question: read further back (reads cost one per document), to the lines
        # before it too, as its watch read them: who names whom there, which conversations were going on.
        window = channel.recent(deps, key, now, limit * 2, by=READER)
    return window


LINES_BEFORE_THE_QUESTION = 6  # what the room said just before a question, read with what came after it


def _write(deps: Deps, key: ChannelKey, request: LLMRequest, retry: bool) -> LLMResult | None:
    """Generate the text; addressed messages retry retryable failures with back-off, then give up."""
    attempts = 3 if retry else 1
    try:
        for attempt in Retrying(
            stop=stop_after_attempt(attempts),
            wait=wait_exponential(multiplier=0.5, max=4),
            retry=retry_if_exception(lambda e: isinstance(e, LLMError) and e.retryable),
            sleep=deps.sleep,
            reraise=True,
        ):
            with attempt:
                return deps.writer.generate(request)
    except (LLMError, RetryError) as exc:
        log.warning("reply LLM failed, staying silent: %s", exc)
        # A bad key or an exhausted quota would otherwise look like a bot that chose to stay silent.
        deps.stores.places.record_trouble(ChannelKey(key.channel_id), "llm", deps.clock.now(), _failure(exc))
    return None


def _failure(exc: BaseException) -> str:
    """What failed, in one line: the last attempt's error when retries gave up."""
    if isinstance(exc, RetryError) and exc.last_attempt.exception() is not None:
        exc = exc.last_attempt.exception() or exc
    return f"{type(exc).__name__}: {exc}"


def _discord(deps: Deps, key: ChannelKey, base: dict, call) -> bool:
    """Run a Discord call: permanent failures are logged and dropped, retryable ones propagate."""
    try:
        call()
        return True
    except DiscordError as exc:
        if exc.retryable:
            raise
        reason = f"discord {exc.status}: {exc}"
        deps.emit("delivery_dropped", key, **base, decision="dropped", reason=reason)
        # A missing Send Messages or Add Reactions shows in /kikimimi status, not only in the logs.
        deps.stores.places.record_trouble(ChannelKey(key.channel_id), "delivery", deps.clock.now(), reason)
        return False


def _remember(
    deps: Deps, key: ChannelKey, task: ReplyTask, window: list[Message], message_id: str | None, now: datetime
) -> None:
    """Record the intervention (id = trigger, so a retry overwrites rather than duplicates)."""
    deps.stores.interventions.record_intervention(
        key,
        Intervention(
            at=now,
            trigger_id=task.trigger_id,
            response_type=task.response_type,
            message_id=message_id,
            context=last_lines(window, 5),
            source_ids=tuple(m.id for m in window[-5:]),
            source_authors=tuple(m.author_id for m in window[-5:]),
        ),
    )


def _addressed_gone(deps: Deps, window: list[Message], task: ReplyTask, now: datetime) -> str | None:
    """Why an addressed message is owed no answer any more: deleted (or expired), or too old."""
    asked = next((m for m in window if m.id == task.trigger_id), None)
    if asked is None:
        return "the addressed message is gone from the buffer"
    if policy.too_old(asked, now, deps.settings.addressed_max_age_seconds):
        return "the addressed message is too old to answer now"
    return None


def _target_deleted(deps: Deps, key: ChannelKey, base: dict, target_id: str) -> bool:
    """One read just before speaking: a reply to a deleted message would point at nothing."""
    if target_id in deps.stores.buffer.buffered(key, [target_id]):
        return False
    deps.emit("reply_skipped", key, **base, decision="stale", reason="the message to answer was deleted")
    return True
