"""tension: the room's state read over its last lines (ending, misunderstanding, conflict, active)."""

from __future__ import annotations

import pytest

from kikimimi.domain.model import ConversationState, Message
from kikimimi.domain.tension import read_state
from tests.chat import line as msg

ACTIVE = ConversationState.ACTIVE
ENDING = ConversationState.ENDING
CONFLICT = ConversationState.CONFLICT
MISUNDERSTANDING = ConversationState.MISUNDERSTANDING


def chat(*lines: tuple[str, str]) -> list[Message]:
    """An exchange, a few seconds between lines."""
    return [msg(f"m{i}", author, text, 4 * i) for i, (author, text) in enumerate(lines)]


DEPLOY = chat(
    ("alice", "prod is down again. did someone deploy?"),
    ("bob", "I pushed the hotfix an hour ago"),
    ("alice", "on a friday. you always push on fridays"),
    ("bob", "that's not what happened, the pipeline was already red"),
    ("alice", "did you even look at it before merging?"),
    ("bob", "I did. maybe read the logs before pointing fingers"),
    ("alice", "oh great, thanks a lot. now I get to fix it on a saturday"),
    ("bob", "WHATEVER. revert it yourself then!!"),
)

CASES: list[tuple[str, list[Message], ConversationState]] = [
    # English arguments.
    ("en: deploy blame", DEPLOY, CONFLICT),
    (
        "en: offsite plan escalates",
        chat(
            ("carol", "for the offsite I booked the lake cabin"),
            ("dan", "we said we'd vote on it first"),
            ("carol", "no, we agreed I'd pick this time"),
            ("dan", "you never let anyone else decide anything"),
            ("carol", "that's not true and you know it"),
            ("dan", "every time you organise something it's like this"),
            ("carol", "are you serious? I did all the work!!"),
        ),
        CONFLICT,
    ),
    (
        "en: heated code review",
        chat(
            ("erin", "left some comments on your PR"),
            ("frank", "saw them. most of them are nitpicks"),
            ("erin", "no, they're not nitpicks, the error handling is broken"),
            ("frank", "I've written this pattern a hundred times, it's fine"),
            ("erin", "how many times do I have to say it, you can't swallow exceptions"),
            ("frank", "sure, because your last PR was so perfect"),
            ("erin", "wow. that's not the point and you know it"),
            ("frank", "I'm not changing it. approve it or don't, I don't care"),
        ),
        CONFLICT,
    ),
    # Japanese arguments.
    (
        "ja: trip decided alone",
        chat(
            ("ken", "旅行の日程、来月の三連休にしといたよ"),
            ("yui", "まだ決めてなかったよね？"),
            ("ken", "いや、みんなに聞いたじゃん"),
            ("yui", "勝手に決めないでよ"),
            ("ken", "いや、それは違うって"),
            ("yui", "いつもそうじゃん。なんで先に相談しないの？"),
            ("ken", "はいはい、もういいよ"),
        ),
        CONFLICT,
    ),
    (
        "ja: deleted data at work",
        chat(
            ("sato", "本番のデータ消したの誰？"),
            ("tanaka", "僕じゃないです、昨日は触ってません"),
            ("sato", "ログに田中さんのアカウントが残ってるんだけど"),
            ("tanaka", "違います、それは自動ジョブです"),
            ("sato", "毎回そう言うよね。ちゃんと確認してから言って"),
            ("tanaka", "そんなこと言ってないです！！"),
            ("sato", "何回言わせるの？ありえない"),
        ),
        CONFLICT,
    ),
    (
        "ja: friends fall out",
        chat(
            ("mika", "昨日のドタキャン、まだ怒ってるからね"),
            ("riko", "だから謝ったじゃん"),
            ("mika", "謝ればいいと思ってるでしょ"),
            ("riko", "は？そんなこと言ってないし"),
            ("mika", "いつもそうやってごまかすよね"),
            ("riko", "どうせ私が悪いんでしょ"),
            ("mika", "ふざけないでよ！！"),
        ),
        CONFLICT,
    ),
    # English misunderstandings.
    (
        "en: online or in person",
        chat(
            ("alice", "meet at 10 tomorrow?"),
            ("bob", "sure, works for me"),
            ("alice", "I'm at the cafe, where are you?"),
            ("bob", "wait, what? I'm at home, I thought you meant the online call"),
            ("alice", "no, I meant in person at the cafe"),
        ),
        MISUNDERSTANDING,
    ),
    (
        "en: the release means two things",
        chat(
            ("dev", "the release is done, finally"),
            ("pm", "great, I'll tell the customers it's live"),
            ("dev", "live? no, it's only on staging"),
            ("pm", "you said the release was done"),
            ("dev", "I meant the release branch is cut, not the production deploy"),
            ("pm", "which release are we even talking about? the mobile one?"),
            ("dev", "we're talking about different things, I mean the server release"),
        ),
        MISUNDERSTANDING,
    ),
    (
        "en: 10am or 10pm",
        chat(
            ("gina", "dinner booking is for 8, we leave at 7?"),
            ("hal", "sure. and the call with the vendor is at 10"),
            ("gina", "10pm? that's late for them"),
            ("hal", "huh? 10am obviously"),
            ("gina", "oh. I thought you meant tonight"),
            ("hal", "no, tomorrow morning"),
        ),
        MISUNDERSTANDING,
    ),
    # Japanese misunderstandings.
    (
        "ja: morning or night, cafe or online",
        chat(
            ("haru", "明日の10時でいい？"),
            ("nao", "おっけー"),
            ("haru", "今カフェ着いたよー、どこ？"),
            ("nao", "え、夜の10時だと思ってた…オンラインのやつじゃないの？"),
            ("haru", "朝だよ！カフェで会うって言ったじゃん"),
        ),
        MISUNDERSTANDING,
    ),
    (
        "ja: not what I meant",
        chat(
            ("kota", "資料の修正、終わった？"),
            ("emi", "はい、全部直しました"),
            ("kota", "グラフがまだ古いままだけど"),
            ("emi", "え？グラフも直すんですか？"),
            ("kota", "そういう意味じゃなくて、数字を最新にしてほしいって話"),
            ("emi", "数字ってどの数字ですか？"),
        ),
        MISUNDERSTANDING,
    ),
    (
        "ja: talking past each other",
        chat(
            ("jun", "週末の打ち上げ、駅前の店でいい？"),
            ("aki", "え、オンラインでやるんじゃないの？"),
            ("jun", "いや、会場で集まる話だったよね"),
            ("aki", "なんか話が噛み合ってない気がする"),
        ),
        MISUNDERSTANDING,
    ),
    # Controls: talk that only looks tense line by line.
    (
        "en: banter with laughter",
        chat(
            ("ivy", "gg, you got absolutely destroyed in mario kart"),
            ("joe", "you always pick rainbow road on purpose lol"),
            ("ivy", "you never stop complaining 😂"),
            ("joe", "you're terrible lol 😂"),
            ("ivy", "rematch tonight?"),
        ),
        ACTIVE,
    ),
    (
        "en: a debate that converges",
        chat(
            ("kim", "for the new service I'd go with mongo"),
            ("lee", "no, we need joins, postgres fits better"),
            ("kim", "mongo has lookups"),
            ("lee", "not the same thing, and migrations get messy"),
            ("kim", "hmm, true for the billing tables"),
            ("kim", "fair point, let's go with postgres"),
        ),
        ACTIVE,
    ),
    (
        "en: an argument they repair",
        chat(
            ("alice", "who merged without running the tests?"),
            ("bob", "me, it was a one-line change"),
            ("alice", "you always say that and then CI breaks"),
            ("bob", "that's not what happened last time"),
            ("alice", "did you even check the build?"),
            ("bob", "no, you're right, I didn't. sorry, my bad"),
            ("alice", "ok, fair. just run them next time"),
        ),
        ACTIVE,
    ),
    (
        "en: repaired, ending on the apology",
        chat(
            ("max", "you deleted my branch?!"),
            ("ned", "it was merged, that's not what I'd call deleting"),
            ("max", "you never ask before cleaning up"),
            ("ned", "sorry, my bad"),
        ),
        ACTIVE,
    ),
    (
        "ja: repaired",
        chat(
            ("ken", "勝手に決めないでよ"),
            ("yui", "いや、それは違うって"),
            ("ken", "いつもそうじゃん！！"),
            ("yui", "ごめん、言い過ぎた"),
        ),
        ACTIVE,
    ),
    (
        "en: a plain help exchange",
        chat(
            ("olga", "how do I change the log level in the worker?"),
            ("pete", "set LOG_LEVEL in the env file"),
            ("olga", "which env file? there are two"),
            ("pete", "the one in /etc/worker"),
            ("olga", "it still prints debug lines"),
            ("pete", "restart the service after changing it"),
        ),
        ACTIVE,
    ),
    (
        "en: one no in a friendly chat",
        chat(
            ("quin", "is the standup still at 9?"),
            ("rae", "no, they moved it to 9:30"),
            ("quin", "nice, more coffee time"),
        ),
        ACTIVE,
    ),
    (
        "ja: friends laughing",
        chat(
            ("aoi", "昨日のカラオケ楽しかったね"),
            ("sora", "あの歌やばかった笑"),
            ("aoi", "いや、あれは練習したから笑"),
            ("sora", "いつも同じ曲じゃん笑"),
            ("aoi", "違うし！今度は新曲歌うからw"),
            ("sora", "楽しみにしてる"),
        ),
        ACTIVE,
    ),
    (
        "en: a misunderstanding they clear up",
        chat(
            ("alice", "meet at 10?"),
            ("bob", "wait, what? I thought you meant 10pm"),
            ("alice", "no, I meant 10am"),
            ("bob", "ahh got it, my bad"),
        ),
        ACTIVE,
    ),
    (
        "ja: a help exchange with なんで and 違う",
        chat(
            ("aoi", "なんで動かないの？"),
            ("sora", "違うよ、ドライバ入れた？"),
            ("aoi", "入れたけどまだ動かない"),
            ("sora", "再起動してみて"),
        ),
        ACTIVE,
    ),
    (
        "en: a label in capitals and a shrug at one's own loop, not a fight (session 49)",
        chat(
            ("rin", "recorded the 5/4 groove finally. timing drifts in bar 3 but whatever"),
            ("ode", "new here, the ARP light on my synth stays off after the update, any ideas?"),
        ),
        ACTIVE,
    ),
    (
        "ja: shouting at a machine, not at each other",
        chat(
            ("aoi", "PCが勝手に再起動した"),
            ("sora", "違うよ、アップデートだよ"),
            ("aoi", "毎回これなんだよね！！"),
        ),
        ACTIVE,
    ),
    (
        "en: a plain debate that does not heat up",
        chat(
            ("kim", "tabs are better"),
            ("lee", "no, spaces"),
            ("kim", "no, tabs, they're configurable"),
            ("lee", "I disagree"),
        ),
        ACTIVE,
    ),
    (
        "en: a question is not a goodbye",
        chat(
            ("sam", "ok, the deck is done"),
            ("tia", "see you at 10 for the dry run?"),
        ),
        ACTIVE,
    ),
    (
        "en: a change of topic is not ending",
        chat(
            ("sam", "thanks, that fixed it"),
            ("tia", "nice"),
            ("sam", "anyway, did anyone watch the game last night?"),
        ),
        ACTIVE,
    ),
    # Endings.
    (
        "en: a happy goodbye",
        chat(
            ("uma", "that was a great session, thanks everyone"),
            ("vic", "yeah, really productive"),
            ("uma", "ok I'm heading out, see you tomorrow!"),
            ("vic", "bye! 👋"),
        ),
        ENDING,
    ),
    (
        "ja: a happy goodbye",
        chat(
            ("aoi", "今日はありがとう、楽しかった！"),
            ("sora", "こちらこそ！"),
            ("aoi", "そろそろ寝るね、おやすみー"),
            ("sora", "またね！"),
        ),
        ENDING,
    ),
    (
        "en: leaving mid-fight is ending (it comes first)",
        chat(
            ("alice", "you always do this!!"),
            ("bob", "that's not true"),
            ("alice", "whatever, bye"),
        ),
        ENDING,
    ),
    (
        # session 53: excitement in capitals, "no more …", and one's own "stupid question" are no fight
        "en: a club's news, shouted for joy",
        chat(
            ("kai", "TICKETS ARE LIVE!!! go go go"),
            ("mo", "GOT TWO. row f"),
            ("lu", "finally?? no more camping outside the box office"),
            ("ren", "ok stupid question but is the show all ages?"),
        ),
        ACTIVE,
    ),
    (
        "en: one's stupidity named at the other, in capitals",
        chat(
            ("kai", "who moved the cones AGAIN"),
            ("mo", "me, they were in the way"),
            ("kai", "that was a stupid move, no"),
            ("mo", "you're so dumb sometimes. MOVE THEM BACK then"),
        ),
        CONFLICT,
    ),
    (
        "en: goodbye answered with thanks",
        chat(
            ("wes", "I'll push the fix tonight"),
            ("xia", "great. gotta run, good night all"),
            ("wes", "thanks, you too"),
        ),
        ENDING,
    ),
]


@pytest.mark.parametrize(
    ("conversation", "state"), [(c, s) for _, c, s in CASES], ids=[n for n, _, _ in CASES]
)
def test_state_at_the_last_line(conversation: list[Message], state: ConversationState) -> None:
    reading = read_state(conversation)
    assert reading.state is state, reading
    if state in (CONFLICT, MISUNDERSTANDING):
        assert 0 < reading.tension <= 1
        assert len(reading.between) == 2
    else:
        assert reading.tension == 0
        # The words name nothing; a back-and-forth whose turns grate is the model's to name.
        assert reading.between == () or (reading.ask_model and state is ACTIVE)


def test_signals_name_what_was_seen() -> None:
    assert {"accusation", "disagreement", "sarcasm", "shouting"} <= set(read_state(DEPLOY).signals)
    misread = read_state(next(c for name, c, _ in CASES if name == "en: online or in person"))
    assert {"wait_what", "thought_you_meant", "i_meant", "reading_clash"} <= set(misread.signals)


def test_between_names_the_two_most_recent_first() -> None:
    assert read_state(DEPLOY).between == ("id_bob", "id_alice")
    # A third person chatting nearby is not in the fight.
    crowd = chat(
        ("alice", "you always push on fridays"),
        ("carol", "anyone up for lunch?"),
        ("bob", "that's not what happened"),
        ("alice", "did you even look at it?!"),
        ("carol", "I'll get sushi then"),
        ("bob", "oh great, thanks a lot"),
    )
    reading = read_state(crowd)
    assert reading.state is CONFLICT
    assert reading.between == ("id_bob", "id_alice")


def test_one_sided_cues_add_the_person_answered() -> None:
    conversation = chat(
        ("haru", "明日の10時でいい？"),
        ("nao", "え、夜の10時だと思ってた"),
        ("nao", "オンラインのやつじゃないの？"),
    )
    reading = read_state(conversation)
    assert reading.state is MISUNDERSTANDING
    assert reading.between == ("id_nao", "id_haru")


def test_tension_rises_as_it_escalates() -> None:
    early, middle, full = (read_state(DEPLOY[:n]) for n in (3, 5, 8))
    assert early.state is ACTIVE and early.tension == 0
    assert middle.state is CONFLICT and full.state is CONFLICT
    assert 0 < middle.tension < full.tension
    levels = [read_state(DEPLOY[:n]).tension for n in range(4, 9)]
    assert levels == sorted(levels)  # never falls while nobody repairs


def test_reads_only_the_last_lines() -> None:
    calm = [msg(f"c{i}", "alice" if i % 2 else "bob", f"calm line {i}", 40 + 4 * i) for i in range(6)]
    assert read_state([*DEPLOY, *calm]).state is ACTIVE  # cooled down, nobody repeated it
    assert read_state(DEPLOY, lines=2).state is CONFLICT  # two heated lines from both still read
    assert read_state(DEPLOY, lines=1).state is ACTIVE  # one line is never a conflict


def test_bot_lines_are_not_read() -> None:
    bot = msg("b", "kikimimi", "bye everyone!", 100, own=True)
    assert read_state([*DEPLOY, bot]).state is CONFLICT
    assert read_state([bot]) == read_state([])
    assert read_state([]).state is ACTIVE


def test_a_fight_that_starts_again_after_a_repair() -> None:
    conversation = chat(
        ("alice", "you always push on fridays"),
        ("bob", "sorry, my bad"),
        ("alice", "you said that last week too!!"),
        ("bob", "oh great, here we go again"),
    )
    assert read_state(conversation).state is CONFLICT
