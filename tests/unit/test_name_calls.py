"""Name calls: the bot's name (and a person's) said TO them is a call, said ABOUT them is not.

Tables in both languages and both directions, with the forms people write a name in: kana and kanji,
honorifics (さん, さーん, ちゃん, 様, 氏 …), stretched names (ききみみー, kikimimiii), width and case.
"""

from __future__ import annotations

import pytest

from kikimimi.domain import name_calls
from kikimimi.domain.model import Message
from kikimimi.domain.rule_terms import calls_name, directed_to, is_addressed
from kikimimi.settings import Settings
from tests.chat import line

NAMES = Settings().names  # kikimimi, ききみみ, キキミミ, 聞き耳: the defaults


def msg(content: str, author: str = "zed") -> Message:
    return line("t", author, content)


JA_CALLS = [
    "ききみみもおやすみ",  # a goodnight to it too (session 62)
    # A vocative: the name opening the message, bare, stretched or with an honorific.
    "ききみみ、今日の天気わかる？",
    "キキミミ！これ見て",
    "聞き耳さん、ちょっといい？",
    "聞き耳さーん、いるー？",
    "三分割法ってそもそも誰が言い出したの？ききみみ知ってる？",
    "ききみみさ〜ん",
    "キキミミちゃーん、おはよ",
    "ききみみくん、元気？",
    "聞き耳様、お願いがあります",
    "ききみみー！",
    "ききみみぃ、たすけて",
    "キキミミー、起きてる？",
    "ｷｷﾐﾐ、おはよう",
    "ＫＩＫＩＭＩＭＩ、これ読める？",
    "ねえねえキキミミ、これどう思う？",
    "おーい聞き耳ー",
    "ちょっとききみみさん、聞いて",
    "ありがとう聞き耳！",
    "おはようききみみ",
    "おやすみ、キキミミ",
    "うん。聞き耳、次の質問ね",
    # The name ending the message after a comma, a final particle or a greeting.
    "これどう思う？キキミミ",
    "教えて、ききみみ",
    "そうだよねキキミミ",
    "助かったよ、聞き耳さん",
    "いつもありがとね、ききみみちゃん",
    # A question or request put to it, the name opening its clause.
    "ききみみ的にはどっち？",
    "キキミミ的にはアリ？",
    "キキミミはどう思う？",
    "ききみみはどっちが好き？",
    "聞き耳さんはどう思いますか",
    "ききみみ氏はどう思われますか",
    "キキミミは？",
    "ききみみも来る？",
    "聞き耳さんいる？",
    "ききみみいる？",
    "キキミミ起きてる？",
    "ききみみどう思う？",
    "キキミミ教えて",
    "それ気になる。羊を数えるのってなんで羊なの？教えてキキミミ",
    "羊数えるのってマジで効果あるん？教えてキキミミ🐑",
    "ねえキキミミ🐑",
    "キキミミ、手伝ってくれない？",
    "キキミミもなんか言って",
    "ききみみってば！",
    "じゃあ、キキミミはどっちがいいと思う？",
    # Asking it for something.
    "聞き耳に聞いてみよう",
    "キキミミに相談しよう",
    "ききみみに頼もう",
    "@聞き耳 これ何",
    "＠キキミミ　おすすめある？",
    # An ASCII name in Japanese running text.
    "kikimimiさん、これ",
    "Kikimimiはどう思う？",
    "kikimimi教えて",
    "ききみみ、いる？",
    "キキミミさん、明日の天気は？",
    "ききみみ先生、教えてください",
    "キキミミならどうする？",
    "聞き耳さんに質問です",
    "キキミミ　これ翻訳して",
    "それな、キキミミ",
    "どうしよう、ききみみ",
    "聞き耳さんおはようございます",
    "キキミミさんすごい！",
    "ききみみ君はどっち派？",
]

JA_ABOUT = [
    "ききみみはおはようって言わない",  # what it does not say, told of it
    "うちの妹、聞き耳さんのこと「ききみみちゃん」って呼んでてかわいい",  # the name quoted
    "キキミミに聞けば？",  # telling a friend to ask it
    "ききみみに聞いてみたら？",
    "聞き耳に相談したらどう？",
    # The name as an argument of a statement or of a question to the room.
    "kikimimiってなんの名前？",
    "キキミミって誰が作ったの？",
    "ききみみってAIなの？",
    "キキミミとは何者か",
    "昨日キキミミが言ってた映画見たよ",
    "キキミミのせいだ",
    "キキミミの返事、長すぎない？",
    "ききみみが答えてくれたやつ、合ってた",
    "それキキミミに聞いたら教えてくれたよ",
    "聞き耳さんが言ってたやつ",
    "昨日聞き耳さんと話してたんだけど",
    "ききみみを入れてから便利になった",
    "なんでキキミミ返事しないの？",
    "キキミミ入れたのって部長だっけ？",  # what someone did with it, its particle dropped
    "キキミミさん入れたのって誰だっけ",  # … with its honorific
    "キキミミさん入れてから計画立てるの楽になったよね",  # since it was done, with its honorific
    "キキミミ作ったの誰？",
    "ききみみ使ってる人いる？",
    "キキミミ最近静かだね",
    "作ったのはキキミミ",
    "犯人はききみみ",
    "このサーバーのキキミミってbotなんだっけ",
    # The everyday word 聞き耳 (and ききみみ), never a call in running text.
    "聞き耳を立ててたの？",
    "聞き耳立ててたの？",
    "隣の人が聞き耳を立ててて気まずかった",
    "ずっと聞き耳を立ててたら疲れた",
    "みんな聞き耳立ててるよ",
    "ききみみをたてる",
    "聞き耳をそばだてる",
    "聞き耳頭巾って昔話知ってる？",
    "廊下で聞き耳立てるのやめなよ",
    "キキミミが落ちてる",
    "キキミミの中の人いるの？",
    "ききみみって名前かわいいよね",
    "キキミミはbotだよ",
    "キキミミさんのアイコンかわいい",
    "キキミミに聞いたらわかるかもよ",
    "あいつ聞き耳立ててるよ",
    "聞き耳たててた",
    "キキミミより人間のほうが早いよ",
    "キキミミも間違えるんだね",
    "それ、キキミミが教えてくれた",
    # A participant, not the bot, is called.
    "たなかさん、どう思う？",
    "ゆきちゃーん、いる？",
    "けんくんはどっちがいい？",
]

EN_CALLS = [
    # what it knows, said on the way to a question put to it (session 62)
    "ok so i was gonna leave it out but wait kikimimi would know, can i put it in the fridge overnight?",
    "kikimimi-san, what time does the hardware store close on sundays?",
    # the name closing a question put in the middle of the line
    "settle this, what's the boiling point of water up in denver kikimimi, marcy says it's like 80",
    "kikimimi does crepuscular mean dawn AND dusk or just dusk?",  # does, a subject, a bare verb
    "recommend me a podcast to fall asleep to kikimimi, something boring but not tax law boring",
    "kikimimi, what's the capital of Peru?",
    "kikimimi what's up",
    "kikimimi do you know how to rebase?",
    "kikimimi can you summarize this thread",
    # a question going on from one put to it before (session 57)
    "kikimimi and what about the other half that's been in the rice cooker on keep warm?",
    "kikimimi is it actually dangerous to wake up a sleepwalker? my roommate is up",
    "kikimimi does the member discount stack with the sale?",
    "kikimimi can i freeze cooked rice?",
    "kikimimi is it bad to have chamomile tea if i already had coffee at 8pm, like does it cancel out or",
    "ok random but kikimimi do octopuses actually have three hearts or is that a tumblr myth",
    "quick one kikimimi, how long should a nap be tomorrow so i dont wake up feeling like garbage",
    "real question kikimimi, is it bad to nap after 4?",
    # a question said to be for it, then the question (session 49)
    "question for kikimimi: what's the smoke point of ghee?",
    "one for kikimimi, how long do you rest a brisket?",
    # after a clause and a comma, opening the next (session 46)
    "ok serious one, hey kikimimi roughly how far is the walk from the pier to the castle?",
    "sorry to derail, kikimimi what year did the bridge open?",
    "kikimimi help",
    # asked for the speaker, then put to it: "… for us kikimimi, which …?" (session 53)
    "settle an argument for us kikimimi, which is older, the pyramids or the mammoths?",
    "kikimimi evening! quick question about sourdough",
    "kikimimi anything good to watch tonight?",
    "quick sanity check for me kikimimi, is it 200 or 250 grams of flour in a cup?",
    "Kikimimi!",
    "kikimimi?",
    "KIKIMIMI where are you",
    "kikimimiii where are you",
    "kikimimi~ you there?",
    "ｋｉｋｉｍｉｍｉ, ping",
    "hey kikimimi",
    "hey kikimimi, quick question",
    "hi kikimimi how are you",
    "ok kikimimi, settle this: tabs or spaces?",
    "thanks kikimimi!",
    "thank you kikimimi, that worked",
    "good job kikimimi",
    "what do you think, kikimimi?",
    "what do you think kikimimi?",
    "you there kikimimi?",
    "any ideas, kikimimi?",
    "so, kikimimi, any thoughts?",
    "lol. kikimimi, explain this",
    "what does kikimimi think?",
    "let's ask kikimimi",
    "i'll ask kikimimi",
    "@kikimimi look at this",
    "kikimimi-san, help",
    "kikimimi tell me a joke",
    "Can you help me with this, kikimimi?",
    "kikimimi which one is better?",
    "any idea kikimimi?",
    "kikimimi how do I undo a commit",
    "sounds good kikimimi",
    "kikimimi: what's a monad",
    "morning kikimimi!",
    "i don't think that's right kikimimi",
]

EN_ABOUT = [
    "wait kikimimi works out here?? i have like one bar",  # what it does, wondered at (session 62)
    "kikimimi would know, ask it",  # told to a friend
    "kikimimi knows, it told me yesterday",
    "i had a question for kikimimi: it never answered",  # said of it
    "that one's a question for kikimimi, not me lol",
    "i told him, kikimimi is just a bot that reads the channel",  # said of it, after a comma
    "is it weird i named my plant kikimimi, lol",
    "how does kikimimi, the bot, decide when to talk",
    "lol kikimimi has been quiet today",
    "who named it kikimimi",  # the name itself, talked about
    "why did they call it kikimimi",
    "I asked kikimimi about git yesterday",
    "is kikimimi a real word?",
    "kikimimi is a weird name",
    "kikimimi is the best bot on this server",
    "kikimimi does the summaries every night",
    "kikimimi does this, it summarises whenever the room goes quiet",  # the clause ends: said of it
    "and kikimimi does the summaries too",
    "i wonder how kikimimi do it",
    "who named it kikimimi, was it dee?",
    "i told kikimimi, what a day",
    "she rebuilt the whole bracket for us kikimimi, what a legend",  # not a question put to it
    "kikimimi lowkey saved my cover letter last week btw",
    "kikimimi's answers are always long",
    "kikimimi-style summaries are lowkey the best thing in this server",  # a compound, said of it
    "kikimimi can't even spell",
    "kikimimi said the build was green",
    "have you met kikimimi?",
    "did you ask kikimimi?",
    "ask kikimimi, it gave me a decent list last month",  # telling a friend to
    "just ask kikimimi lol",
    "you should ask kikimimi, it untangled that flaky test thread last week",
    "ok wait kikimimi settled the pineapple pizza thing for us last week",
    "btw kikimimi dug up that miso butter pasta recipe for me earlier, made it, it slaps",
    "kikimimi does summaries too?",
    "kikimimi found me a great recipe yesterday",
    "kikimimi about to end a friendship",
    "kikimimi already pinned the raid times in #schedule, got the date wrong",  # an adverb, then its deed
    "kikimimi finally summarised the patch thread lol",
    "kikimimi even remembered my cat's name",
    "kikimimi pulling up my old tent question from june was a bit much lol",  # what it did, judged
    # what it is doing, said of it (session 53)
    "kikimimi carrying the whole server tonight",
    "kikimimi coming in clutch with the pasta recipe again",
    "the name kikimimi comes from a folk tale",
    "who added kikimimi to this server?",
    "i think kikimimi misunderstood",
    "blame kikimimi",
    "we should mute kikimimi for a bit",
    "kikimimis are cute",
    "mykikimimi app",
    "kikimimi_bot crashed",
    "bob, what do you think?",
    "kikimimi is down again",
    "kikimimi keeps replying to everything",
    "why is kikimimi so slow today",
    "does kikimimi store our messages?",
    "I love kikimimi",
    "kikimimi and I are friends now",
    "can kikimimi read images?",
    "someone should fix kikimimi",
    "this server runs kikimimi",
    "ask bob, not kikimimi",
    "is this kikimimi's fault?",
]


@pytest.mark.parametrize("text", JA_CALLS + EN_CALLS)
def test_a_call_to_the_bot_is_a_name_call(text: str) -> None:
    assert calls_name(text, NAMES) is True
    assert is_addressed(msg(text), NAMES) == "name_call"


@pytest.mark.parametrize("text", JA_ABOUT + EN_ABOUT)
def test_talk_about_the_bot_is_not_a_call(text: str) -> None:
    assert calls_name(text, NAMES) is False
    assert is_addressed(msg(text), NAMES) is None


@pytest.mark.parametrize(
    ("text", "names", "expected"),
    [
        # Only the configured name is given: its other forms are derived.
        ("キキミミさん、これ", ("ききみみ",), True),
        ("ききみみー", ("キキミミ",), True),
        ("キキミミはどう思う？", ("聞き耳",), True),  # the kanji reading
        ("ききみみ的にはどっち？", ("聞き耳",), True),
        ("ｷｷﾐﾐちゃん", ("ききみみ",), True),
        ("KIKIMIMI, hi", ("kikimimi",), True),
        ("聞き耳を立ててた", ("ききみみ",), False),
        # Another bot name: a made-up one and an everyday one.
        ("ぽちさーん、いる？", ("ぽち",), True),
        ("昨日ぽちが言ってた", ("ぽち",), False),
        ("しらたきさん、それそれ！", ("しらたき",), True),
        ("しらたき美味しいよね", ("しらたき",), False),
        ("しらたきいる？", ("しらたき",), True),
        ("mochi, you awake?", ("Mochi",), True),
        ("mochi is my favourite snack", ("Mochi",), False),
    ],
)
def test_the_forms_of_any_configured_name(text: str, names: tuple[str, ...], expected: bool) -> None:
    assert calls_name(text, names) is expected


def test_the_variants_of_the_default_names() -> None:
    forms = {v for name in NAMES for v in name_calls.variants(name)}
    assert {"kikimimi", "ききみみ", "キキミミ", "聞き耳"} <= forms
    assert set(name_calls.variants("ｷｷﾐﾐ")) >= {"キキミミ", "ききみみ"}
    assert name_calls.variants("  ") == ()


@pytest.mark.parametrize("text", ["ああ" * 40 + "ききみみ", "kikimimi " * 200, "、" * 500 + "聞き耳"])
def test_long_and_repetitive_messages_are_read_quickly(text: str) -> None:
    calls_name(text, NAMES)  # no catastrophic backtracking: would time out


PEOPLE = {
    "bob": "bob",
    "carol": "carol",
    "ゆき": "ゆき",
    "たなか": "たなか",
    "しらたき": "しらたき",
    "jo": "jo",
    "martina": "martina",
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Said to a person present.
        ("thanks carol, that worked", "carol"),
        ("hey bob, you around?", "bob"),
        ("what do you think, carol?", "carol"),
        ("ゆきさん、ありがとう！", "ゆき"),
        ("ゆきちゃーん、いる？", "ゆき"),
        ("ユキさん、おはよう", "ゆき"),
        ("たなかさんはどう思う？", "たなか"),
        ("ねえたなか、これ見て", "たなか"),
        ("おはよう、ゆき", "ゆき"),
        ("joさん、こんにちは", "jo"),
        ("しらたきさん、それそれ", "しらたき"),
        # Talk about a person, or about the bot.
        ("bob is great", None),
        ("I asked carol about it", None),
        ("昨日ゆきが言ってた", None),
        ("たなかさんのはお父さん譲り", None),
        ("ゆきさんに聞いてみよう", None),  # asking counts for the bot only
        ("しらたき美味しいよね", None),
        ("so what, jo", None),
        ("kikimimi, what do you think?", None),
        ("キキミミはどう思う？", None),
        ("carol the file is in /etc", None),  # an everyday-word-safe reading of ASCII nicks
        ("ゆきさん出番だよ", "ゆき"),
        ("たなかさんとゆきさんはどう思う？", "ゆき"),  # both are asked: the first present
        ("たなかさんとゆきさんは仲良しだね", None),
        ("ゆきさん、キキミミが言ってたやつ見た？", "ゆき"),
        # a letter off a person's long name is often someone else's: only the bot's is read misspelt
        ("martina, you around?", "martina"),
        ("marina, you around?", None),
        ("mratina, you around?", None),
    ],
)
def test_directed_to_reads_the_same_forms(text: str, expected: str | None) -> None:
    assert directed_to(msg(text), PEOPLE) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ゆきさん、キキミミが言ってたやつ見た？",
        "carol, did kikimimi answer you?",
        "たなかくん、聞き耳立ててたでしょ？",
    ],
)
def test_a_line_to_a_person_about_the_bot_does_not_call_it(text: str) -> None:
    assert calls_name(text, NAMES) is False
    assert directed_to(msg(text), PEOPLE) is not None


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("kikimimiって何してるbot？", True),
        ("ききみみって全部のメッセージ読んでるの？ちょっと怖いｗ", True),  # an everyday word as the subject
        ("前にききみみがまとめてくれた温泉リストどこ？", True),
        ("聞き耳さんって何者？", True),
        ("does kikimimi remember stuff?", True),
        # The idiom, 聞き耳を立てる, names nobody.
        ("聞き耳立ててたの？", False),
        ("隣の部屋の話に聞き耳を立ててた", False),
        ("今日は聞き耳も立てずに寝た", False),
    ],
)
def test_talk_about_the_bot_names_it(text: str, about: bool) -> None:
    assert name_calls.named(text, NAMES) is about


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a letter dropped or two swapped in a long ASCII name, still said to it (session 54)
        ("kikmimi what's a good ratio for cold brew?", True),
        ("how far is the moon again, kikimmi?", True),
        ("hey kikimmii are you there", True),
        # … or split in two, halves of four letters or more (session 57)
        ("kiki mimi pls whats the actual difference between a freewheel and a freehub", True),
        ("kiki mimi?", True),
        ("mimi and kiki are my cats", False),
        # a kana dropped from the bot's kana name, called with an honorific (session 57); not bare
        ("ききみさーん、炊飯器のタイマーって何時間前からセットしても大丈夫？", True),
        ("キキミさん、これ教えて", True),
        ("ききみ、これ教えて", False),
        # … and not a short word that happens to be near it
        ("kimi no na wa is on tonight", False),
        ("きみ、それ本気で言ってる？", False),
    ],
)
def test_a_misspelt_call_is_still_a_call(text: str, expected: bool) -> None:
    assert calls_name(text, NAMES) is expected


@pytest.mark.parametrize(
    ("text", "present", "expected"),
    [
        # the bot's long name clipped to its first half, said to it first thing (session 58)
        ("kiki how long is spa in km? settling a bet w my brother", ["dex", "sal"], True),
        ("kiki can you give me like 3 good questions to ask at the end of an interview?", ["raf"], True),
        ("hey kiki, what's 38.4 celsius in fahrenheit?", [], True),
        ("kiki quick one, whats the ratio for overnight oats? milk to oats", ["cole", "ines"], True),
        # asked of it, its mark said, or a dispute put to it (session 62)
        ("kiki are you awake too? 😂", ["ana"], True),
        ("kiki settle this: is it 'per se' or 'per say'. hollis swears its per say", ["hollis"], True),
        # … not where someone in the room goes by it, nor talk about it, nor in the middle of a line
        ("kiki did you get home ok? that storm was wild", ["kiki", "nightjar"], False),
        # … nor asking after someone's day, a friend who goes by it before she has spoken
        ("kiki did you get home ok? that storm was wild", ["nightjar"], False),
        ("kiki are you still up", [], False),
        ("kiki you still have my umbrella btw", ["kiki_b"], False),
        ("does kiki remember stuff tho? like will it know about the cheese tomorrow", [], False),
        ("lol kiki is such a weird name for a bot", [], False),
        ("my mom asked who kiki is", [], False),
        # read only where the room is known
        ("kiki how long is spa in km?", None, False),
    ],
)
def test_the_name_clipped_is_a_call_where_nobody_present_goes_by_it(
    text: str, present: list[str] | None, expected: bool
) -> None:
    assert name_calls.called(text, NAMES, lambda _: "?" in _, present=present) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the name set off mid-line, then a question put to it (session 54)
        ("mika did you catch the match — kikimimi, what does offside actually mean?", True),
        ("sorry to bug you kikimimi, but how long do eggs keep out of the fridge?", True),
        ('jo said "cold showers burn fat" — is that true kikimimi, or is he making it up?', True),
        ("ゆいちゃん、看板見た？「一期一会」って書いてあったけど　ききみみ、それってどういう意味？", True),
        # … not the name talked about there
        ("mika did you catch the match — kikimimi, the bot, summed it up nicely", False),
        ("did you ask kikimimi, or should i?", False),
        ("昨日の件だけど　ききみみ、って名前かわいいよね？", False),
    ],
)
def test_a_call_set_off_midline(text: str, expected: bool) -> None:
    assert calls_name(text, NAMES) is expected


@pytest.mark.parametrize(
    ("text", "mention", "bare"),
    [
        ("kikimimi", False, True),
        ("hey kikimimi!", False, True),
        ("kiki?", False, True),
        ("ききみみ〜", False, True),
        ("聞き耳さーん", False, True),
        ("ねえキキミミ", False, True),
        ("<@42>", True, True),
        ("<@42>", False, False),  # someone else mentioned
        ("聞き耳さーん、いるー？", False, False),  # asks whether it is there
        ("kikimimi what time is it", False, False),
        ("kikimimi is so fast lol", False, False),
        ("lol", False, False),
        ("<@42> hello?", True, False),  # a greeting: said to it now
        ("hi kikimimi!", False, False),
    ],
)
def test_a_bare_call_is_the_name_alone(text: str, mention: bool, bare: bool) -> None:
    """Session 62: the name alone (a greeting, a stretch, an honorific, a mark at most): its question to
    come."""
    assert name_calls.bare_call(line("m", "hollis", text, 0, mentions_bot=mention), NAMES, ["ana"]) is bare


def test_the_callers_next_line_after_a_bare_call_is_the_call() -> None:
    call = line("c", "hollis", "kikimimi", 0)
    other = line("o", "vex", "housewarming raid night when", 5)
    question = line("q", "hollis", "any good stretch for wrists/forearms?", 11)
    assert name_calls.call_followed(question, [call, other, question], NAMES) == call
    late = line("q", "hollis", "any good stretch for wrists/forearms?", 45)
    assert name_calls.call_followed(late, [call, late], NAMES) is None  # too long after
    answered = line("b", "kikimimi", "yes?", 8, own=True)
    assert name_calls.call_followed(question, [call, answered, question], NAMES) is None  # the bot spoke
    said = line("s", "hollis", "kikimimi is so fast lol", 0)
    assert name_calls.call_followed(question, [said, question], NAMES) is None  # talk about it
    someone = line("v", "vex", "any good stretch?", 11)
    assert name_calls.call_followed(someone, [call, someone], NAMES) is None  # another person's line
