"""Keyword extraction: Japanese through the morphological analyser (no spaces to split on), and English."""

from __future__ import annotations

from kikimimi.domain.memory.keywords import extract_keywords, merge_keywords, normalize, terms


def test_the_real_tokenizer_is_installed() -> None:
    import fugashi  # noqa: F401  (fugashi + unidic-lite: the fallback must not be what these tests see)

    from kikimimi.domain.memory.keywords import tagger

    assert tagger() is not None


def test_japanese_nouns_and_compounds_without_whitespace() -> None:
    found = terms("機械学習の勉強会を東京駅の近くでやります！")
    assert found[:2] == ["機械学習", "機械"]
    assert {"勉強会", "東京駅", "東京"} <= set(found)
    assert not {"の", "を", "で", "やり", "ます", "近く", "会", "駅"} & set(found)


def test_time_words_pronouns_and_adjectival_nouns_are_not_topics() -> None:
    assert terms("ワイ、来月大阪に引っ越すんよ") == ["大阪"]
    assert "最高" not in terms("味噌ラーメン最高")
    assert terms("今日はこれでいいと思う") == []


def test_a_lone_kanji_noun_is_kept() -> None:
    assert terms("猫が好き") == ["猫"]


def test_english_words_are_separate_lower_case_and_stopwords_drop() -> None:
    assert terms("I love ramen in Sapporo and the new Kubernetes cluster") == [
        "ramen",
        "sapporo",
        "kubernetes",
        "cluster",
    ]
    assert terms("Pythonで書いたボットです") == ["python", "ボット"]


def test_urls_and_discord_mentions_are_not_keywords() -> None:
    assert terms("<@123456> https://example.com/ramen 札幌") == ["札幌"]


def test_extract_keywords_ranks_by_frequency_then_first_appearance() -> None:
    texts = ["札幌でラーメン食べたい", "味噌ラーメン最高", "札幌の冬は寒い", "ラーメン屋の行列"]
    assert extract_keywords(texts, 3) == ("ラーメン", "札幌", "味噌ラーメン")


def test_merge_keywords_normalizes_and_deduplicates() -> None:
    assert normalize(" Ｐｙｔｈｏｎ ") == "python"
    assert merge_keywords(["Python", "札幌"], ["python", "ラーメン", ""], limit=3) == (
        "python",
        "札幌",
        "ラーメン",
    )
