"""Figures a question says and a line says back: the same number of the same thing."""

from __future__ import annotations

import pytest

from kikimimi.domain.figures import corrects_figure, picks_offered_figures, same_figure, tells_the_day
from tests.chat import line


@pytest.mark.parametrize(
    ("asked", "text", "same"),
    [
        ("63ってレベル50？", "50フラット", True),  # the unit left off one side
        ("what valve length, 44mm?", "for ur rims 44 is fine ya", True),
        ("3周目の途中で落ちる？", "3周目はいける", True),
        ("3周目の途中で落ちる？", "3回目で慣れた", False),  # another thing counted (session 49)
        ("is the 12v one enough?", "12a is the max it draws", False),
        ("is the 12v one enough?", "12v is plenty", True),
        ("what size, 10?", "no idea", False),
    ],
)
def test_the_same_figure_counts_the_same_thing(asked: str, text: str, same: bool) -> None:
    assert same_figure(asked, text) is same


@pytest.mark.parametrize(
    ("asked", "text", "corrects"),
    [
        ("駐車場ってまだ500円やんな？", "土日は700になったで", True),
        ("still 20 a month, right?", "25 now", True),
        (
            "4段目でつまずくのって普通ですか？",
            "4人目の新人さんかわいいね",
            False,
        ),  # another thing (session 49)
    ],
)
def test_a_figure_corrected_counts_the_same_thing(asked: str, text: str, corrects: bool) -> None:
    assert corrects_figure(asked, text) is corrects


@pytest.mark.parametrize(
    ("said", "chose"),
    [
        # another's proposed figure, agreed to: not an answer to the question between (session 49)
        ("10 is fine, i'll move the booking", True),
        ("10時でいいよー", True),
        ("10 of them were flat", False),
    ],
)
def test_a_figure_proposed_before_and_agreed_to(said: str, chose: bool) -> None:
    before = [line("p", "ines", "could we start at 10 instead of 9:30 on sunday?", 0)]
    question = line("q", "owl", "what pressure do you run on 28mm tubeless?", 20)
    m = line("m", "kiko", said, 30)
    assert picks_offered_figures(question, m, [*before, question]) is chose


@pytest.mark.parametrize(
    ("asked", "text", "told"),
    [
        ("あの八百屋って月曜休みだっけ？", "火曜だよ、月曜はやってる", True),
        ("is trivia still on wednesdays?", "thursdays since the summer", True),
        ("is trivia still on wednesdays?", "trivia is the best", False),
        ("what day is trivia?", "thursdays", False),  # not a yes/no question: other rules read it
        (
            "新しいレートって今日からだっけ？",
            "金曜のアプデ後からって告知にあった",
            True,
        ),  # a day from today (session 50)
        ("is the market on tonight?", "tomorrow, the rain pushed it", True),
        ("is the market on tonight?", "the market is the best", False),
    ],
)
def test_a_day_told_to_a_question_that_names_one(asked: str, text: str, told: bool) -> None:
    assert tells_the_day(asked, text) is told
