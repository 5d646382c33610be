"""The prompt recorder: an LLM port that logs every request's full prompt as an `llm_request` event."""

from __future__ import annotations

from collections.abc import Callable

from kikimimi.bootstrap import Overrides
from kikimimi.ports import LLM, Events, LLMRequest, LLMResult
from kikimimi.usecases.deps import Deps

# (channel, thread, trigger) of the task that is running: an LLMRequest does not say where it is from.
Place = tuple[str | None, str | None, str | None]


class PromptRecorder:
    """Wraps an LLM: emits `llm_request` (kind = the request's purpose, the prompt) and then asks it."""

    def __init__(self, inner: LLM, events: Events, place: Callable[[], Place]) -> None:
        self.inner = inner
        self.name = inner.name
        self._events = events
        self._place = place

    def generate(self, request: LLMRequest) -> LLMResult:
        channel, thread, trigger = self._place()
        prompt = f"{request.system}\n\n{request.user}" if request.user else request.system
        self._events.emit(
            "llm_request",
            {
                "channel": channel,
                "thread": thread,
                "trigger": trigger,
                "kind": request.purpose,
                "prompt": prompt,
            },
        )
        return self.inner.generate(request)


def recorded_llms(deps: Deps, events: Events, place: Callable[[], Place]) -> Overrides:
    """Overrides that put a recorder in front of each LLM port `deps` has (the judge may be None)."""
    out: Overrides = {"writer": PromptRecorder(deps.writer, events, place)}
    if deps.judge_llm is not None:
        out["judge_llm"] = PromptRecorder(deps.judge_llm, events, place)
    if deps.memory_llm is not None:
        out["memory_llm"] = PromptRecorder(deps.memory_llm, events, place)
    return out
