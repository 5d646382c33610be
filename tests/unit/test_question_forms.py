"""question_forms: the form a line's own question takes — back to the asker, of one's own, unmarked."""

from __future__ import annotations

import pytest

from kikimimi.domain.question_forms import (
    asks_back,
    asks_its_own,
    asks_of_them,
    asks_unmarked_clause,
    brings_its_subject,
    wonders,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("which one?", True),
        ("the blue tin or the red one?", True),
        ("probably around 9 i think?", False),  # a guess put as a question answers
        ("those are perfect. what's the gap?", False),  # a verdict said first answers
        ("https://example.org/faq", False),  # a link alone answers "link?"
        ("22時じゃない？たぶん", False),
    ],
)
def test_asks_back(text: str, expected: bool) -> None:
    assert asks_back(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what time are we rolling out sunday?", True),
        ("which one?", False),
        ("is it the blue one?", False),  # points back at what was said
        ("what did you end up buying?", False),  # put to the one who spoke
        ("新しいとこ駐車場あったっけ？", True),
        ("駅前の？", False),
        ("それってどこで買えるん？", False),
        ("新しい会場って駐車場ある？", True),
        ("会場って駐車場ある？", False),  # too short to say: read as going back
    ],
)
def test_brings_its_subject(text: str, expected: bool) -> None:
    assert brings_its_subject(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("buttons feel ok with that shell?", True),
        ("does mozilla-plugin-vlc work with firefox?", False),
        ("固定は何でしてるん？", True),
        ("流木何本使ってる？", True),
        ("会場って駐車場ある？", False),
    ],
)
def test_asks_of_them(text: str, expected: bool) -> None:
    assert asks_of_them(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ok ordering xtol. where do people get it in the eu, everywhere's sold out", True),
        ("is there a list somewhere of boards with vial", True),
        ("how many layers does via give you", True),
        ("what even is this patch", False),
        ("nice, that worked. thanks all", False),
    ],
)
def test_asks_unmarked_clause(text: str, expected: bool) -> None:
    assert asks_unmarked_clause(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("is there a way to make caps do esc on tap", True),
        ("ok deleted it. do i pair from the car or the phone now", True),
        ("wait is the festival event still going or did it end sunday", True),
        ("why does the wind always die the second i finish staking out", True),
        ("why not, sounds fun", False),
        ("have you tried reseating the ram?", False),  # checks with the one asked
        ("yeah it works fine for me", False),
        # a tag question, its mark left off
        ("the riverside club has that lefty with the weird serve dont they", True),
        ("yeah they do", False),
        # a fact of its own subject, asked without its mark; not about what was said
        ("whats the max range on the bafang mid drive", True),
        ("what's the torque spec for the crank bolts", True),
        ("what's the point of that", False),
        ("whats the deal with it", False),
        # a why wondered at oneself in Japanese
        ("なんで毎回締め切り前になってから本気出すんだろう…", True),
        ("なんで？", False),
        ("なんで連休前って仕事が増えるんだろうね", True),
        ("なんで雨の日に限ってバス遅れるんやろな", True),  # Kansai (session 47)
        # a plea of one's own to the group (session 61)
        ("can we PLEASE turn off memory menu this time", True),
        ("can we just pause it", False),
        ("なんで洗濯した日に限って降るのやろう", True),
    ],
)
def test_asks_its_own(text: str, expected: bool) -> None:
    assert asks_its_own(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("unrelated but where's the pinout for the rp2040 clones", True),
        ("ノイズ除去ってDxOとLightroomどっちがいいんだろ", True),
        ("does it work on linux", True),
        ("どうも、助かりました", False),
        ("nice, thanks", False),
    ],
)
def test_wonders(text: str, expected: bool) -> None:
    assert wonders(text) is expected
