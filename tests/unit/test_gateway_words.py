"""The slash commands' words: both catalogues complete, every rule term in words, reasons explained."""

from __future__ import annotations

import string
from datetime import UTC, datetime
from types import SimpleNamespace

import discord
import pytest

from gateway_vm import command_texts, decision_words
from gateway_vm.command_texts import EN, JA, language
from gateway_vm.decision_words import TERMS, WORDING, explain
from kikimimi.domain.model import LastDecision
from kikimimi.domain.rule_config import JUDGMENT_TERMS, PROACTIVE_TERM, RECEPTION_TERM, RULE_TERMS
from kikimimi.domain.rules import DEFAULT_WEIGHTS
from kikimimi_dev.local.fake_discord.commands import name_problem

AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
WHEN = f"<t:{int(AT.timestamp())}:R>"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_rule_term_has_words_in_both_languages() -> None:
    # The names come from the domain: every weighed rule term, the memory's term and the reception's.
    assert (*DEFAULT_WEIGHTS, PROACTIVE_TERM, RECEPTION_TERM) == JUDGMENT_TERMS
    assert tuple(DEFAULT_WEIGHTS) == RULE_TERMS
    assert tuple(TERMS) == JUDGMENT_TERMS
    for term in JUDGMENT_TERMS:
        assert set(TERMS[term]) == {"en", "ja"}, f"{term} needs words in en and ja (decision_words.WORDING)"
        assert all(TERMS[term][lang].strip() for lang in ("en", "ja"))
    assert set(WORDING) <= set(JUDGMENT_TERMS), (
        f"words for terms the rules no longer have: {set(WORDING) - set(JUDGMENT_TERMS)}"
    )


def test_both_catalogues_have_every_text_with_the_same_placeholders() -> None:
    assert set(EN) == set(JA)
    for key in EN:
        assert _fields(EN[key]) == _fields(JA[key]), key
    for words in (decision_words.WORDS["en"], decision_words.WORDS["ja"]):
        assert set(words) == set(decision_words.WORDS["en"])


@pytest.mark.parametrize("catalogue", [EN, JA], ids=["en", "ja"])
def test_command_names_and_descriptions_are_what_discord_accepts(catalogue: dict[str, str]) -> None:
    for key, text in catalogue.items():
        if key.endswith(".name"):
            assert name_problem(text) is None, f"{key}: {text!r}"
        if key.endswith(".desc") or key.startswith("choice."):
            assert 1 <= len(text) <= 100, key


EN_SPOKE, EN_SILENT = f"Last time ({WHEN}) I spoke", f"Last time ({WHEN}) I stayed silent"
JA_SPOKE, JA_SILENT = f"前回（{WHEN}）は話しました", f"前回（{WHEN}）は黙っていました"
REASONS = [
    (
        "rules respond at 80: mention +100, not_mentioned -20",
        "en",
        f"{EN_SPOKE} (score 80): someone mentioned me (+100), nobody had called me lately (−20).",
    ),
    (
        "rules silent at 0: two_people -5, closing -30",
        "ja",
        f"{JA_SILENT}（スコア 0）。理由: 二人で話していた（−5）、会話が締めくくられていた（−30）。",
    ),
    (
        "[memory:f1] rules respond at 55: question +20, proactive_memory +35",
        "en",
        f"{EN_SPOKE} (score 55): the message was a question (+20), "
        "I remembered something worth sharing (+35).",
    ),
    (
        "rules silent at 40: no rule fired; LLM budget reached (6/6 this hour)",
        "en",
        f"{EN_SILENT} (score 40): no rule applied, the rules decided alone: the model was asked 6 of 6 times "
        "this hour.",
    ),
    (
        "rules silent at 30: question +20, brand_new_term +10; daily LLM budget reached (9/9 today)",
        "ja",
        f"{JA_SILENT}（スコア 30）。理由: 質問だった（+20）、brand_new_term（+10）、"
        "今日のモデル呼び出し（9 回）を使い切ったので、ルールだけで決めた。",
    ),
    (
        "they are greeting each other",
        "en",
        f"{EN_SPOKE}. The model's reason: “they are greeting each other”.",
    ),
    (
        "conversation ending: they said goodbye",
        "ja",
        f"{JA_SPOKE}。モデルの判断では会話が終わるところでした: 「they said goodbye」。",
    ),
    (
        "low confidence 0.40: maybe a question",
        "en",
        f"{EN_SPOKE}. The model was not sure enough (0.40): “maybe a question”.",
    ),
    (
        "llm failure: LLMError: 503 from the backend",
        "en",
        f"{EN_SPOKE}. The model could not be asked (LLMError), so I stayed silent.",
    ),
]


@pytest.mark.parametrize(("reason", "lang", "expected"), REASONS)
def test_a_reason_in_words(reason: str, lang: str, expected: str) -> None:
    decision = "silent" if "rules silent" in reason else "respond"
    assert explain(LastDecision(AT, "m1", decision, reason), lang) == expected


def test_silence_and_no_decision_and_a_long_reason() -> None:
    silent = explain(LastDecision(AT, "m1", "silent", "rules silent at 0: crowded -10"), "en")
    assert silent == f"Last time ({WHEN}) I stayed silent (score 0): many people were talking (−10)."
    assert explain(None, "ja") == "このチャンネルではまだ何も判断していません。"
    long = explain(LastDecision(AT, "m1", "silent", "x" * 5000), "en")
    assert len(long) == decision_words.LIMIT and long.endswith("…")


@pytest.mark.parametrize(
    ("locale", "guild_locale", "default", "expected"),
    [
        (discord.Locale.japanese, None, "en", "ja"),  # no server locale: the caller's
        (discord.Locale.american_english, discord.Locale.japanese, "en", "ja"),  # the server's first
        (discord.Locale.japanese, discord.Locale.british_english, "ja", "en"),
        (discord.Locale.british_english, None, "ja", "en"),
        (discord.Locale.japanese, discord.Locale.german, "en", "ja"),  # the server's not spoken
        (discord.Locale.french, discord.Locale.german, "ja", "ja"),
        (discord.Locale.french, None, "en", "en"),
    ],
)
def test_the_reply_language(
    locale: discord.Locale, guild_locale: discord.Locale | None, default: str, expected: str
) -> None:
    interaction = SimpleNamespace(locale=locale, guild_locale=guild_locale)
    assert language(interaction, default) == expected  # type: ignore[arg-type]


def test_the_translator_gives_japanese_to_japanese_clients_only() -> None:
    import asyncio

    translator = command_texts.Translator()
    name = command_texts.ls("status.name")
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )

    async def both() -> tuple[str | None, str | None]:
        ja = await translator.translate(name, discord.Locale.japanese, context)
        return ja, await translator.translate(name, discord.Locale.american_english, context)

    assert asyncio.run(both()) == ("状態", None)
