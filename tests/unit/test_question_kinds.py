"""question_kinds: which questions are for the bot at all, and which replies answer one by their shape."""

from __future__ import annotations

import pytest

from kikimimi.domain.question_kinds import (
    agrees,
    answer_shaped,
    calls_only,
    for_the_bot,
    for_the_people,
    grateful,
    guesses,
    kind_of,
    laughs,
    shrugs,
    steps_away,
)

KINDS = [
    # Invitations: for the people asked.
    ("coffee break, anyone?", "invitation"),
    ("burgers tonight?", "invitation"),
    ("board games saturday, who's in?", "invitation"),
    ("anyone down for a walk after work?", "invitation"),
    ("who wants to grab ramen?", "invitation"),
    ("anyone going to the meetup on friday?", "invitation"),
    ("anyone watching the game tonight?", "invitation"),  # whose plans: for the people asked
    ("who's streaming saturday?", "invitation"),
    ("カラオケ行く人いる？", "invitation"),
    ("誰か映画見に行く人ー", "invitation"),
    ("週末みんなで遊ばない？", "invitation"),
    # Plans asked of people, in Japanese: a day or an hour, 誰か, and what they would do.
    ("明日の配信だれか見る？", "invitation"),
    ("今夜だれか段位戦いく？", "invitation"),
    ("22時の卓あと1人なんだけど誰か入れる？", "invitation"),
    ("anyone wanna do a pancake run? the diner on 5th is open", "invitation"),
    # A goodbye that asks something on the way out: for the people who stay.
    ("おやすみ！面接結果出たら教えてね", "farewell"),
    ("gn! you still on for sat?", "farewell"),
    # Rhetorical: they ask nothing.
    ("the release went out on a friday, right?", "rhetorical"),
    ("it's freezing in here, isn't it?", "rhetorical"),
    ("you can't be serious?!", "rhetorical"),
    ("who even does that?", "rhetorical"),
    ("who cares?", "rhetorical"),
    ("この店、前より高くなったよね？", "rhetorical"),
    ("マジで？！", "rhetorical"),
    ("50は多くない？w", "rhetorical"),
    ("a cake shaped like a bathtub?? who came up with that", "rhetorical"),
    ("who moves a couch at 1am??", "rhetorical"),
    # Proposals to the group.
    ("should we push the retro to thursday?", "proposal"),
    ("what if we split the migration in two?", "proposal"),
    ("じゃあ金曜にまとめて出すのはどう？", "proposal"),
    ("打ち上げは駅前でしませんか？", "proposal"),
    # Taking up a plan and asking a detail of it.
    ("im down, 8ish?", "proposal"),
    ("yeah im in, 7?", "proposal"),
    ("me!! 10ish?", "proposal"),
    ("行く行く！何時？", "proposal"),
    # The group's own plan asked: where, when, which.
    ("宿はどのへんにする？那覇？", "proposal"),
    ("てか何月に行く？", "proposal"),
    ("7月の三連休どう？", "proposal"),
    ("私も行きたい、9時集合とか？", "proposal"),
    ("てか来週末みんなで鍋しない？", "proposal"),
    # A suggestion put as a question, to someone with a problem.
    ("maybe try clearing the cache? browsers hold onto favicons forever", "proposal"),
    ("try a different cable?", "proposal"),
    # About the one asked: what they got, did, felt. Theirs to answer.
    ("wait which one did u end up getting", "personal"),
    ("ooh rapid trigger? hows it feel", "personal"),
    ("how was the concert?", "personal"),
    ("so did you get the job??", "personal"),
    ("what did you fill it with?", "personal"),
    ("えーいいな！どこの？", "personal"),
    ("おつ！どこ行ったんだっけ", "personal"),
    ("旅行どうだった？", "personal"),
    ("どこの買ったの？", "personal"),
    ("で、製麺機で何作るの？", "personal"),
    # Real questions, even the ones that look like the others.
    ("is anyone going to fix the flaky test?", "question"),
    ("anyone else getting 502s after the update today?", "question"),
    ("anyone doing backups with restic?", "question"),
    ("is that right?", "question"),
    ("does anyone know a good pizza place near the office?", "question"),
    ("which port does the dev server use?", "question"),
    ("any ideas?", "question"),
    ("誰か駐車場の場所知ってる？", "question"),
    ("この設定どこで変えられますか", "question"),
    ("無くても困らない？", "question"),
    ("how do you install flash on ubuntu?", "question"),  # a generic "you"
    ("where do you find the logs?", "question"),
    ("okay, where is that?", "question"),  # an acknowledgement, then a question of its own
    ("yeah but how do I make it start on boot?", "question"),
    ("誰かこのエラー見たことある？", "question"),
    ("この設定どう？", "question"),
    ("設定どこで変える？", "question"),
    ("who knows the wifi password??", "question"),
    ("night shift tomorrow, any tips?", "question"),
    ("trying to install nvidia drivers, any ideas?", "question"),
]


@pytest.mark.parametrize(("text", "kind"), KINDS)
def test_kind_of(text: str, kind: str) -> None:
    assert kind_of(text) == kind
    assert for_the_bot(text) is (kind == "question")


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ("tea, anyone?", True),
        ("the release went out on a friday, right?", True),
        ("im down, 8ish?", True),
        ("how was the concert?", False),  # put to the bot, or in its exchange, the bot's to answer
        ("gn! you still on for sat?", False),  # a goodbye: the watch leaves it, a call to the bot is answered
        ("which port does the dev server use?", False),
    ],
)
def test_only_invitations_rhetorical_questions_and_plans_silence_the_bot_in_its_own_exchange(
    text: str, people: bool
) -> None:
    assert for_the_people(text) is people


@pytest.mark.parametrize(
    ("text", "guess"),
    [
        ("probably around 9 i think? depends how long pho takes", True),
        ("maybe 0.2mm?", True),
        ("sunday i think?", True),
        ("22時じゃない？たぶん", True),
        ("たしかこうへいじゃなかった？", True),
        ("17時じゃない？18時だったかも", True),
        ("今は予約制じゃない？前は予約なしだった気がするけど", True),
        ("prob close to done then?", True),
        ("フリッカー低減オンにすればマシになるんじゃない？", True),
        ("maybe has a package for X that allows it?", False),  # wondering, not a figure guessed
        ("which one i think?", False),  # a question word: it asks
        ("何時だったかな？", False),
        ("is it probably the driver?", False),
    ],
)
def test_a_guess_put_with_a_question_mark(text: str, guess: bool) -> None:
    assert guesses(text) is guess


@pytest.mark.parametrize(
    ("text", "agreeing"),
    [
        ("それでいこう！", True),
        ("いいね、そうしよう", True),
        ("賛成です", True),
        ("works for me", True),
        ("sounds good 👍", True),
        ("+1", True),
        ("bet, 8 at the pho place", True),
        ("no way, thursday is packed", False),
        ("金曜は無理かも", False),
    ],
)
def test_agreement(text: str, agreeing: bool) -> None:
    assert agrees(text) is agreeing


@pytest.mark.parametrize(
    ("text", "laughing"),
    [
        ("lol classic", True),
        ("hahaha he did it again", True),
        ("草", True),
        ("lol yes", False),
        ("yes lol", False),
    ],
)
def test_laughter_is_not_an_answer_unless_it_says_one(text: str, laughing: bool) -> None:
    assert laughs(text) is laughing


@pytest.mark.parametrize(
    ("text", "away"),
    [
        ("brb, coffee", True),
        ("same, back in ten", True),
        ("gotta go, later", True),
        ("afk", True),
        ("ちょっと離席します", True),
        ("back in black is the best album", False),
        ("yes, back in 2019 it did", False),
        ("bye all", False),  # a goodbye (is_closing), not a stepping away
    ],
)
def test_stepping_away_is_not_an_answer(text: str, away: bool) -> None:
    assert steps_away(text) is away


@pytest.mark.parametrize(
    ("text", "thanks"),
    [
        ("thanks!", True),
        ("bob: you've been more helpful than google", True),
        ("cheers mate, saved my day", True),
        ("助かった〜ありがとう", True),
        ("thanks, does that work on 22.04?", False),  # a question of its own
        ("try the helper script", False),
    ],
)
def test_gratitude(text: str, thanks: bool) -> None:
    assert grateful(text) is thanks


@pytest.mark.parametrize(
    ("text", "name", "call"),
    [
        ("actionparsnip", "ActionParsnip", True),
        ("hey bob?", "bob", True),
        ("|Long|", "|Long|", True),
        ("<@42>", "bob", True),
        ("ゆうさーん", "ゆう", True),
        ("bob: try sudo", "bob", False),  # says something
        ("bob", "alice", False),  # someone else's name
        ("hey", "bob", False),  # nobody called
    ],
)
def test_a_bare_call_for_attention(text: str, name: str, call: bool) -> None:
    assert calls_only(text, name) is call


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        ("which python version does the ci image ship?", "3.12 since last week", True),
        ("how many seats are left for the workshop?", "four, I think", True),
        ("is the vpn down for anyone else?", "yep, same here", True),
        ("is the vpn down for anyone else?", "oh, not for me", True),
        ("where do I find the style guide?", "check the pinned message", True),
        ("where do I find the style guide?", "pinned 📌", True),
        ("where do I find the style guide?", "https://example.com/style", True),
        ("スタイルガイドってどこ？", "ピン留め見て", True),
        ("should we push the retro to thursday?", "works for me", True),
        ("じゃあ金曜にまとめて出すのはどう？", "それでいこう！", True),
        ("VPN落ちてる？", "こっちも落ちてる", True),
        # Not by shape: laughter, a yes to a question a yes cannot answer, a number nobody asked for.
        ("is the vpn down for anyone else?", "lol classic", False),
        ("where do I find the style guide?", "yes", False),
        ("where do I find the style guide?", "I fixed 3 bugs today", False),
        ("how do I rebase onto main?", "works for me", False),
    ],
)
def test_answer_shapes(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped


def test_a_bare_yes_answers_only_right_after_the_question() -> None:
    # After other lines, a bare "yes" may answer any of them; a version or a pointer still says which.
    assert not answer_shaped("is the vpn down?", "yes", bare=False)
    assert answer_shaped("which node version?", "20, since the upgrade", bare=False)
    assert answer_shaped("where is the style guide?", "see the wiki page", bare=False)


@pytest.mark.parametrize(
    ("text", "shrug"),
    [
        ("not sure, sorry", True),
        ("no idea tbh", True),
        ("hmm, dunno", True),
        ("ごめん、わからない", True),
        ("not sure but I think it's the 3.12 image", False),
        ("yes, same here", False),
    ],
)
def test_saying_you_do_not_know_is_not_an_answer(text: str, shrug: bool) -> None:
    assert shrugs(text) is shrug
