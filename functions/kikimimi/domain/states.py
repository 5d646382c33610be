"""Conversation states: the names, what the judge model is told of each, and what each allows.

The one place a state is defined. The rules read the room (`domain/tension.py` names what its words and
turns show, `room_terms` what the trigger is in); the model names the state from the conversation itself
and its answer type is built from `STATE_NAMES`; `ALLOWS` says who may post into each. Adding a state is a
member here, its guide lines in both languages, and its row in `ALLOWS` (a test checks all three agree).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class ConversationState(StrEnum):
    """The room's state as a person in it would name it."""

    ACTIVE = "ACTIVE"
    ENDING = "ENDING"
    MISUNDERSTANDING = "MISUNDERSTANDING"
    CONFLICT = "CONFLICT"


STATE_NAMES: tuple[str, ...] = tuple(state.value for state in ConversationState)


@dataclass(frozen=True)
class Allows:
    """Who may post into a state, and in which form."""

    rules_post: bool  # the rules alone (no model read the room) may post an unaddressed line
    model_post: bool  # the judge model may decide to post
    full_reply: bool  # a post must be a real reply: a reaction or a one-liner does not untangle it


ALLOWS = MappingProxyType(
    {
        ConversationState.ACTIVE: Allows(rules_post=True, model_post=True, full_reply=False),
        # People are leaving: nobody posts into a goodbye, whoever reads it.
        ConversationState.ENDING: Allows(rules_post=False, model_post=False, full_reply=False),
        # Template words in a fight or a mix-up help nobody: only a model that read it may speak.
        ConversationState.MISUNDERSTANDING: Allows(rules_post=False, model_post=True, full_reply=True),
        ConversationState.CONFLICT: Allows(rules_post=False, model_post=True, full_reply=True),
    }
)

TENSE = frozenset(state for state, allows in ALLOWS.items() if allows.model_post and not allows.rules_post)

# What the judge model is told of each state, in the order it should try them (the first that applies).
GUIDE: MappingProxyType[str, tuple[tuple[ConversationState, str], ...]] = MappingProxyType(
    {
        "en": (
            (
                ConversationState.ENDING,
                "people are saying goodbye or wrapping up. A change of topic is not ENDING. Never speak "
                "into it.",
            ),
            (
                ConversationState.MISUNDERSTANDING,
                "the two read the same words differently: one assumes what the other meant and it is not "
                "what they meant (two places, two documents, two days), and the turns go back and forth "
                "without meeting. A good member names the two readings plainly and asks which was meant.",
            ),
            (
                ConversationState.CONFLICT,
                "a disagreement that turns personal or escalates: blame, one person's habits held against "
                "them, curt or sarcastic turns, a question thrown back, a denial met with another claim. "
                "A constructive debate that converges, or banter with laughter, is not CONFLICT. A good "
                "member lowers the temperature with a shared fact or a way forward, never taking sides, "
                "never lecturing.",
            ),
            (ConversationState.ACTIVE, "anything else, including two people happily talking."),
        ),
        "ja": (
            (
                ConversationState.ENDING,
                "あいさつをして会話を終えようとしている。話題が変わっただけなら ENDING ではない。"
                "ここでは発言しない。",
            ),
            (
                ConversationState.MISUNDERSTANDING,
                "二人が同じ言葉を別の意味で受け取っている（別の場所、別の資料、別の日）。思い込みのまま"
                "やりとりが噛み合わずに往復している。よいメンバーは二つの受け取り方をはっきり示し、どちらの意味かを尋ねる。",
            ),
            (
                ConversationState.CONFLICT,
                "意見の食い違いが個人的になる・エスカレートしている（責める、相手の習慣を持ち出す、そっけない返事や"
                "皮肉、問い返し、否定に否定で返す）。歩み寄っていく建設的な議論や、笑いのある軽口は"
                " CONFLICT ではない。"
                "よいメンバーは共通の事実や次の一歩で場の温度を下げ、どちらの味方もせず、説教しない。",
            ),
            (ConversationState.ACTIVE, "それ以外（二人が楽しく話しているときも）。"),
        ),
    }
)


def guide(language: str) -> tuple[tuple[str, str], ...]:
    """(state name, what it means) for the judge prompt, in `language` (English when there is none)."""
    return tuple((state.value, text) for state, text in GUIDE.get(language, GUIDE["en"]))
