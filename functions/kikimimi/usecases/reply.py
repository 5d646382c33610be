"""Use case: a reply task fires — write the message, deliver it, remember that the bot spoke."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from tenacity import RetryError, Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from kikimimi import prompts
from kikimimi.domain import policy
from kikimimi.domain.links import keep_known_links
from kikimimi.domain.model import ChannelKey, Intervention, Message, ResponseType
from kikimimi.domain.outgoing import ReplyDraft, part_nonce, reply_parts, shape_reply
from kikimimi.domain.prompt_context import build_context, last_lines, said_recently
from kikimimi.domain.wire import ReplyTask
from kikimimi.ports import DiscordError, LLMError, LLMRequest, LLMResult
from kikimimi.usecases import answered, limits
from kikimimi.usecases.deps import Deps, elapsed_ms
from kikimimi.usecases.judge import parent_messages
from kikimimi.usecases.memory import recall as memory_recall

log = logging.getLogger(__name__)
HISTORY = timedelta(hours=1)
# A written reply is kept for the task's retries: longer than the reply queue retries (900 s, tasks.tf).
DRAFT_TTL = timedelta(hours=1)


def reply(deps: Deps, task: ReplyTask) -> str | None:
    """Deliver one reply or reaction; returns the posted message id (None when nothing was posted).

    Retryable Discord failures propagate so Cloud Tasks retries; the nonce makes the retry safe, and the
    draft kept under it makes a retry post the rest of the same text.
    """
    started = time.perf_counter()
    key = task.key
    s = deps.settings
    base = {"function": "reply", "guild": task.guild_id, "trigger": task.trigger_id}
    now = deps.clock.now()
    window = _with_trigger(deps, task, _window(deps, key, task, now), now)
    question = next((m for m in window if m.id == task.question_id), None) if task.question_id else None
    if not deps.enabled(key):  # switched off since the task was scheduled
        deps.emit("reply_skipped", key, **base, decision="disabled", reason="channel not enabled")
        return None
    # An answer to an addressed message is owed even if the chat moved on; a judged reply may not be.
    if task.addressed:
        stale = _addressed_gone(deps, window, task, now)
    else:
        late = _late_reason(deps, task, now)
        if late is not None:
            deps.emit("reply_skipped", key, **base, decision="late", reason=late)
            return None
        stale = _stale_reason(deps, window, task, question)
    if stale is not None:
        deps.emit("reply_skipped", key, **base, decision="stale", reason=stale)
        return None
    target_id = task.reply_to_message_id or task.trigger_id
    interventions = deps.store.interventions_since(key, now - HISTORY)
    if task.response_type is ResponseType.REACT_ONLY and task.reaction:
        if not _discord(
            deps, key, base, lambda: deps.discord.add_reaction(key.target, target_id, task.reaction or "")
        ):
            return None
        _remember(deps, key, task, window, None, now)
        deps.emit("reaction", key, **base, decision="reaction", emoji=task.reaction, reply_to=target_id,
                  latency_ms=elapsed_ms(started))  # fmt: skip
        return None

    nonce = policy.nonce(key, task.trigger_id)
    # A retry after a failed part posts what the first attempt wrote: asking the writer again would
    # stitch the parts already posted to the rest of a different text.
    draft = deps.store.reply_draft(key, nonce)
    result: LLMResult | None = None
    if draft is None:
        written = _write_draft(deps, task, base, window, question, target_id, interventions, now)
        if written is None:
            return None
        result = written[1]
        draft = deps.store.keep_reply_draft(key, nonce, written[0], now + DRAFT_TTL)
    if _target_deleted(deps, key, base, target_id):  # deleted while the text was written
        return None
    posted = _post(deps, key, base, list(draft.parts), target_id, nonce)
    if not posted:
        return None
    message_id = posted[0]
    for index, (part, part_id) in enumerate(zip(draft.parts, posted, strict=False)):
        # Each part is a Discord message of its own (a delete or edit names it); a microsecond apart
        # so the buffer keeps their order.
        deps.store.add_message(
            Message(
                id=part_id, guild_id=task.guild_id, channel_id=key.channel_id, thread_id=key.thread_id,
                author_id=s.bot_user_id or "self", author_name=s.bot_name, author_is_bot=True, content=part,
                created_at=now + timedelta(microseconds=index), is_self=True,
                reply_to_id=target_id if index == 0 else None,
            ),
            expire_at=now + deps.ttl(),
        )  # fmt: skip
    _remember(deps, key, task, window, message_id, now)
    memory_recall.after_post(deps, key, task, now)
    # Ids and lengths, never the words: what people said and the bot wrote stays out of Cloud Logging
    # (the posted text is in Discord, and in the buffer for the buffer's TTL).
    deps.emit(
        "posted", key, **base, decision="posted", reply_to=target_id, message_id=message_id,
        parts=len(posted), message_ids=posted, length=len(draft.text),
        part_lengths=[len(part) for part in draft.parts[: len(posted)]],
        draft="written" if result is not None else "reused", response_type=task.response_type.value,
        model=draft.model, input_tokens=result.input_tokens if result else 0,
        output_tokens=result.output_tokens if result else 0, latency_ms=elapsed_ms(started),
    )  # fmt: skip
    return message_id


def _write_draft(
    deps: Deps, task: ReplyTask, base: dict, window: list[Message], question: Message | None, target_id: str,
    interventions: list[Intervention], now: datetime,
) -> tuple[ReplyDraft, LLMResult] | None:  # fmt: skip
    """Ask the writer and shape its text into the parts to post; None (the reason logged) when there is
    nothing to post: the budget is spent, the writer failed, or the room moved on while it wrote."""
    key, s = task.key, deps.settings
    spent = limits.llm_budget_note(deps, key, task.guild_id, "reply")
    if spent:  # past the guild's daily budget the bot writes nothing (reactions still go out)
        deps.emit("reply_skipped", key, **base, decision="budget", reason=spent)
        return None
    _discord(deps, key, base, lambda: deps.discord.trigger_typing(key.target))
    context = build_context(
        bot_name=s.bot_name, aliases=s.bot_aliases, persona=s.persona, language=s.language, now=now,
        messages=window, interventions=interventions, trigger_id=task.trigger_id, target_id=target_id,
        reason=task.reason, response_type=task.response_type.value, others=parent_messages(deps, key, now),
        state=task.state, addressed=task.addressed, question_id=task.question_id,
        said=said_recently(window, interventions, now),
    )  # fmt: skip
    context = memory_recall.for_reply(deps, context, task, window, now)
    purpose = "short_ack" if task.response_type is ResponseType.SHORT_ACK else "reply"
    cap, thinking = s.output_budget(purpose)
    request = LLMRequest(
        purpose=purpose, system=prompts.render("reply", context, deps.settings.prompts_dir),
        max_output_tokens=cap, temperature=0.7, thinking_budget=thinking,
    )  # fmt: skip
    limits.spend_llm_call(deps, task.guild_id)
    result = _write(deps, request, retry=task.addressed)
    if result is None:
        deps.emit("reply_failed", key, **base, decision="failed", reason="llm failure")
        return None
    deps.llm_call(key, "reply", result, guild=task.guild_id, trigger=task.trigger_id)
    text = _known_links_only(
        deps, key, base, shape_reply(result.text, single_line=purpose == "short_ack"), request
    )
    if not text:
        deps.emit("reply_failed", key, **base, decision="failed", reason="empty text from the model")
        return None
    if not task.addressed:
        # Generation takes seconds; a message that arrived meanwhile makes this reply stale too, read
        # from the same window as before writing (the same lines give the same reading).
        later = deps.clock.now()
        fresh = _with_trigger(deps, task, _window(deps, key, task, later), later)
        overtaken = _stale_reason(deps, fresh, task, question)
        if overtaken is not None:
            deps.emit("reply_skipped", key, **base, decision="stale", reason=f"while writing: {overtaken}")
            return None
    parts = tuple(reply_parts(text, s.reply_max_messages))
    return ReplyDraft(text=text, parts=parts, model=result.model), result


def _known_links_only(deps: Deps, key: ChannelKey, base: dict, text: str, request: LLMRequest) -> str:
    """The text without links the writer was not shown (the prompt: chat and memory) nor allowlisted."""
    checked = keep_known_links(text, (request.system, request.user), deps.settings.link_allowlist)
    for host in checked.removed:
        # The host only: the path of a phishing link may carry a token or a name.
        deps.emit("link_removed", key, **base, decision="removed", host=host,
                  reason="a link the conversation and memory do not contain")  # fmt: skip
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
    trigger = deps.store.buffered_message(task.key, task.trigger_id)
    if trigger is None or trigger.created_at < now - deps.ttl():  # expired: as gone as the window says
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
    window = deps.store.recent_messages(key, since=now - deps.ttl(), limit=limit)
    if task.question_id and not any(m.id == task.question_id for m in window):
        # A busy room since the question: read further back (reads cost one per document).
        window = deps.store.recent_messages(key, since=now - deps.ttl(), limit=limit * 2)
    return window


def _write(deps: Deps, request: LLMRequest, retry: bool) -> LLMResult | None:
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
    return None


def _discord(deps: Deps, key: ChannelKey, base: dict, call) -> bool:
    """Run a Discord call: permanent failures are logged and dropped, retryable ones propagate."""
    try:
        call()
        return True
    except DiscordError as exc:
        if exc.retryable:
            raise
        deps.emit("delivery_dropped", key, **base, decision="dropped", reason=f"discord {exc.status}: {exc}")
        return False


def _remember(deps: Deps, key: ChannelKey, task: ReplyTask, window: list[Message], message_id: str | None,
              now: datetime) -> None:  # fmt: skip
    """Record the intervention (id = trigger, so a retry overwrites rather than duplicates)."""
    deps.store.record_intervention(
        key,
        Intervention(
            at=now, trigger_id=task.trigger_id, response_type=task.response_type, message_id=message_id,
            context=last_lines(window, 5), source_ids=tuple(m.id for m in window[-5:]),
            source_authors=tuple(m.author_id for m in window[-5:]),
        ),
    )  # fmt: skip


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
    if target_id in deps.store.buffered(key, [target_id]):
        return False
    deps.emit("reply_skipped", key, **base, decision="stale", reason="the message to answer was deleted")
    return True
