"""The words two lines share: what ties a line to a question."""

from __future__ import annotations

import pytest

from kikimimi.domain.topic_words import shared_words


@pytest.mark.parametrize(
    ("a", "b", "shared"),
    [
        ("親指キーが反応しない", "キーが反応しないなら配線かも", {"キー", "反応"}),
        ("ケーブル替えた？", "ケーブルは替えたよ", {"ケーブル", "変える"}),
        # a katakana word the later line says only to qualify a longer one ties nothing (キーキャップ)…
        ("右手側だけ親指キー以外が反応しません", "キーキャップ沼にまたハマりそう", set()),
        # … the one a compound ends on still does (a ジムワイパー is a ワイパー)
        (
            "ジムワイパー使ってるんだけどギア何つけたらいい",
            "ワイパーならイカ速多めでいい",
            {"ワイパー"},
        ),
        # … but the later line may clip a long one (ゴア for ゴアテックス)
        ("ゴアテックスじゃないとダメかな", "ゴアじゃなくても全然いけるよ", {"ゴア"}),
        # … a lemma spelt otherwise than the line (ユーザ, ユーザー) still ties them
        ("ユーザ設定どこ", "ユーザー設定はここ", {"ユーザー", "設定"}),
        ("the grub menu is gone", "reinstall grub from a live usb", {"grub"}),
        # a plural takes up its noun
        ("do i need a separate license to use the repeater", "tech is plenty for repeaters", {"repeater"}),
        # … a short one too (session 48), not a word that only ends in "s"
        ("do talents carry over if we switch subs", "they're on the character, sub doesn't matter", {"subs"}),
        ("any news on the new patch?", "new one drops friday", set()),
        # "a way", "way more": no topic
        ("is there a way to see which jokers i haven't won with?", "nah anaglyph is way more fun", set()),
        # laughter written out ties no topic (session 49)
        ("ギガｗｗｗ 直しとくわ", "ｗｗｗ 雷？", set()),
        ("hahaha the cat again", "hahaha which cat", {"cat"}),
        # 「今度は」, said by both, ties no topic
        (
            "解像度を変えたら今度は他のクリップが拡大された",
            "縁取りできた！けど今度は文字がにじむねんけど",
            set(),
        ),
    ],
)
def test_shared_words(a: str, b: str, shared: set[str]) -> None:
    assert shared_words(a, b, frozenset()) == shared


@pytest.mark.parametrize(
    ("a", "b", "plain", "roots"),
    [
        # a word of the same root ties two lines read for another conversation's thread (session 62)
        ("don't spoil it i haven't started", "it's not a spoiler if it's in the trailer", set(), {"spoil"}),
        ("the update broke my saves", "updated last night, saves fine", {"saves"}, {"update", "saves"}),
        # … not a short word that only ends so
        ("need a bed", "red one", set(), set()),
        ("the dark mode finally has contrast", "darker than the buzzard's", set(), set()),
    ],
)
def test_shared_roots(a: str, b: str, plain: set[str], roots: set[str]) -> None:
    assert shared_words(a, b, frozenset()) == plain
    assert shared_words(a, b, frozenset(), roots=True) == roots
