"""Local text twin: composes a deterministic reply to the prompt's TARGET message. Not a language model."""

from __future__ import annotations

import re

from kikimimi.domain.question_kinds import for_the_bot
from kikimimi.ports import LLMRequest, LLMResult

# The TARGET line names the message by id; its words are only in the <conversation> block (chat text
# never stands outside the data block), where each line reads `[id] HH:MM author: text`.
_TARGET = re.compile(r"^TARGET: .*?\[(?P<id>[^\]]+)\]", re.MULTILINE)
_CONVERSATION = re.compile(r"<conversation>\n(?P<lines>.*?)</conversation>", re.DOTALL)
# How prompts/reply.ja.j2 begins: the prompt's language is the reply's (the use case chose it from the
# message answered), so the twin answers in it too; chat text quoted further down cannot change that.
_JAPANESE_PROMPT = "あなたは"
# The memory the judge chose to bring up (domain/memory/blocks.py proactive_block): the twin says it, so a
# replay shows what a model would be asked to mention.
_MEMORY = re.compile(
    r'^\[A memory you could bring up\] (?P<when>.+?) someone said: "(?P<fact>.*)"\. If it fits'
    r"|^【話題にできる記憶】 (?P<when_ja>.+?)に「(?P<fact_ja>.*)」という話がありました。",
    re.MULTILINE,
)


class TemplateLLM:
    """Stands in for the reply writer when no model is configured (`--llm none`): replay and tests."""

    name = "template"

    def generate(self, request: LLMRequest) -> LLMResult:
        match = _target(request.system)
        japanese = request.system.lstrip().startswith(_JAPANESE_PROMPT)
        memory = _MEMORY.search(request.system)
        if memory is not None and request.purpose != "short_ack":
            if memory.group("fact_ja") is not None:
                when, fact = memory.group("when_ja"), memory.group("fact_ja")
                text = f"そういえば前に（{when}）「{fact}」という話がありましたね。（テンプレート返信）"
            else:
                text = (
                    f"By the way, earlier ({memory.group('when')}): {memory.group('fact')} (template reply)"
                )
        elif match is None:
            text = "（テンプレート返信）" if japanese else "(template reply)"
        else:
            author, said = match
            snippet = said if len(said) <= 40 else said[:39] + "…"
            if request.purpose == "short_ack":
                text = f"{author}さん、なるほど！" if japanese else f"{author}: got it!"
            elif not for_the_bot(said):
                # An invitation or a rhetorical question is for the people asked: the judge never routes
                # one here, and should one come, the twin offers no help nobody asked for.
                text = (
                    f"{author}さん、「{snippet}」（テンプレート返信）"
                    if japanese
                    else f'{author}: "{snippet}" (template reply)'
                )
            elif japanese:
                text = f"{author}さん、「{snippet}」について一緒に考えますね。（テンプレート返信）"
            else:
                text = f'{author}, about "{snippet}" — let me help with that. (template reply)'
        return LLMResult(
            text=text, model=self.name, input_tokens=len(request.system) // 4, output_tokens=len(text) // 4
        )


def _target(prompt: str) -> tuple[str, str] | None:
    """(author, text) of the message the TARGET line names, read from the conversation block."""
    named, block = _TARGET.search(prompt), _CONVERSATION.search(prompt)
    if named is None or block is None:
        return None
    line = re.search(
        rf"^\[{re.escape(named.group('id'))}\] \S+ (?P<author>.+?)(?: \((?:you|bot)\))?: (?P<text>.*)$",
        block.group("lines"),
        re.MULTILINE,
    )
    return (line.group("author"), line.group("text")) if line else None
