"""Local text twin: composes a deterministic reply from the prompt's TARGET line. Not a language model."""

from __future__ import annotations

import re

from kikimimi.ports import LLMRequest, LLMResult

_TARGET = re.compile(r"^TARGET: \[(?P<id>[^\]]+)\] (?P<author>[^:]+): (?P<text>.*)$", re.MULTILINE)


class TemplateLLM:
    """Stands in for the reply writer when no model is configured (`--llm none`): replay and tests."""

    name = "template"

    def generate(self, request: LLMRequest) -> LLMResult:
        match = _TARGET.search(request.system)
        japanese = "返信してください" in request.system
        if match is None:
            text = "（テンプレート返信）" if japanese else "(template reply)"
        else:
            author, said = match.group("author"), match.group("text")
            snippet = said if len(said) <= 40 else said[:39] + "…"
            if request.purpose == "short_ack":
                text = f"{author}さん、なるほど！" if japanese else f"{author}: got it!"
            elif japanese:
                text = f"{author}さん、「{snippet}」について一緒に考えますね。（テンプレート返信）"
            else:
                text = f'{author}, about "{snippet}" — let me help with that. (template reply)'
        return LLMResult(
            text=text, model=self.name, input_tokens=len(request.system) // 4, output_tokens=len(text) // 4
        )
