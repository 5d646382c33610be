"""reply_shapes: what a reply says by its shape (agreement, a shrug, thanks, laughter, a call, a pointer,
something to try)."""

from __future__ import annotations

import pytest

from kikimimi.domain.remarks import accepts, agrees, calls_only, grateful, shifts, steps_away, welcomes
from kikimimi.domain.reply_shapes import JA_YES_NO, grants, laughs, only_shrugs, points, shrugs, suggests


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
        ("早起きできるならアリ", True),  # 「アリ」: that works, on a condition
        ("全然あり、楽しそう", True),
        ("ありがとう、助かった", False),
        ("アリの巣が玄関にできてた", False),  # ants
        ("金曜は無理かも", False),
        ("works", True),  # to "9pm server time?"
        ("9 works for me", True),
        # the day said first, to "are we doing the same time next week?"
        ("thursday works for me", True),
        ("friday's fine", True),
        ("tomorrow yeah", True),
        ("thursday is when i play", False),
        ("nothing works", False),
    ],
)
def test_agreement(text: str, agreeing: bool) -> None:
    assert agrees(text) is agreeing


@pytest.mark.parametrize(
    ("text", "accepting"),
    [
        ("助かる！一応声かけといて", True),
        ("ごめん助かる🙏", True),
        ("まじ？お願い！", True),
        ("yes please, im totally out", True),
        ("omg yes pls", True),
        ("that'd be great", True),
        ("pls!", True),
        ("please tell me how", False),
        ("lol nice", False),
        ("いらないかな", False),
    ],
)
def test_taking_up_an_offer(text: str, accepting: bool) -> None:
    assert accepts(text) is accepting


@pytest.mark.parametrize(
    ("text", "laughing"),
    [
        ("lol classic", True),
        ("hahaha he did it again", True),
        ("草", True),
        ("www", True),  # laughter typed long
        ("ｗｗｗｗ", True),
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
        ("ミルク温めてくる", True),  # off to do something
        ("コンビニ行ってくるわ", True),
        ("まじで泣けてくる", False),  # a feeling coming on
        ("眠くなってくる", False),
        ("back in black is the best album", False),
        ("yes, back in 2019 it did", False),
        ("bye all", False),  # a goodbye (is_closing), not a stepping away
        # session 54
        ("ちょっと外します", True),
        ("ちょっと洗濯物取り込んでくる", True),
        ("外して部屋に持っていかないとダメですか", False),  # taking something off, asked
        ("抜け毛がひどい", False),
    ],
)
def test_stepping_away_is_not_an_answer(text: str, away: bool) -> None:
    assert steps_away(text) is away


@pytest.mark.parametrize(
    ("text", "welcome"),
    [
        ("welcome!", True),
        ("welcome to the server :)", True),
        ("wb", True),
        ("いらっしゃい〜🧶", True),
        ("ようこそ！", True),
        ("welcome! udisksctl mount -b /dev/sdb1 works as a normal user", False),  # and an answer
        ("ようこそ！かぎ針なら段の最初に目印つけるといいよ", False),
        ("well come on then", False),
    ],
)
def test_a_bare_welcome_is_not_an_answer(text: str, welcome: bool) -> None:
    assert welcomes(text) is welcome


@pytest.mark.parametrize(
    ("text", "shift"),
    [
        ("btw did anyone see the patch notes", True),
        ("そういえば駅前のスタバっていつから工事？", True),
        ("てか昨日のラストのクラッチやばくなかった？", True),
        ("by the way it works now", True),
        ("the way it works is odd", False),
        # an item of its own, labelled (session 53)
        ("ok proposal: we all bring snacks friday", True),
        ("psa: the north lot is closed tomorrow", True),
        ("【告知】来週の練習は休みです", True),
        ("proposal sounds good to me", False),
        # … labelled in Japanese with a colon (session 54)
        ("朗報：駅前のパン屋、土曜も開くようになったって", True),
        ("お知らせ：次の集まりは第3日曜です", True),
        ("ニュースで見たけど雪すごいらしいね", False),
    ],
)
def test_a_line_that_changes_the_subject(text: str, shift: bool) -> None:
    assert shifts(text) is shift


@pytest.mark.parametrize(
    ("text", "thanks"),
    [
        ("thanks!", True),
        ("bob: you've been more helpful than google", True),
        ("cheers mate, saved my day", True),
        ("助かった〜ありがとう", True),
        ("え、そんなのあるんだ。ありがたい", True),
        ("thanks, does that work on 22.04?", False),  # a question of its own
        ("try the helper script", False),
        # "ty" said last (session 49), not the name
        ("ahh found it. ty", True),
        ("ty said he'd bring the cones", False),
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
    ("text", "shrug"),
    [
        ("not sure, sorry", True),
        ("no idea tbh", True),
        ("hmm, dunno", True),
        ("ごめん、わからない", True),
        # forgotten too (session 48), the question said back first or not
        ("誰だっけ…忘れた", True),
        ("いつだっけ、覚えてない", True),
        ("forgot tbh", True),
        ("forgot to mention, it's the 3.12 image", False),
        ("忘れたけど、たしか3番目のピン留め", False),
        ("not sure but I think it's the 3.12 image", False),
        ("yes, same here", False),
    ],
)
def test_saying_you_do_not_know_is_not_an_answer(text: str, shrug: bool) -> None:
    assert shrugs(text) is shrug


@pytest.mark.parametrize(
    ("text", "only"),
    [
        ("idk sorry, never grown it", True),
        ("わからん", True),
        ("+1 i wanna know too, mine are 35s and i've just been guessing", True),  # wanting to know too
        ("私も知りたい", True),
        ("idk, try the wiki", False),
        ("no idea but i think it's 3 days", False),
        ("わからんけど公式に載ってるかも", False),
    ],
)
def test_a_shrug_with_nothing_to_go_on(text: str, only: bool) -> None:
    assert only_shrugs(text) is only


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        ("see https://wiki.example.org/grub", True),
        ("https://paste.example.org/5982", True),
        ("is this what you mean? https://example.org/a", True),
        ("check the pinned message", True),
        ('it was on the front page last week, search "two stroke jetting"', True),  # what to search for
        ("search me, no idea", False),
        ("ピン留め見て", True),
        # a channel, as typed or as Discord sends its mention, said first or as where to look
        ("#marketplace maybe, people sell bags of them there", True),
        ("try #antennas, the balun people live there", True),
        ("check <#1190023344556677>", True),
        ("#1 fan of that shop lol", False),
        # A link that comes with its author's own trouble, or a call to the room: the question's evidence.
        ("any help about this? https://forum.example.org/t=337170", False),
        ("I finally found my CUPS error log. does anybody know why? https://paste.example.org/1", False),
        ("このエラー分かる人いる？ https://example.org/a", False),
        ("also i'm streaming some solo runs later if anyone wants to lurk https://twitch.tv/x", False),
        ("i made a guide for this https://example.org/guide", True),
        # where to ask, in Japanese; a GIF alone is a reaction
        ("#mix-soudan で聞いたほうが詳しい人おるで", True),
        ("#機材相談 で聞いて", True),
        ("#雑談 で話してたやつ", False),
        ("https://tenor.com/view/this-is-fine-dog-fire-gif-24177057", False),
        # the place named alone
        ("pins", True),
        ("faq lol", True),
        ("pins?", False),  # asked, not told
        ("機種による。FAQに載っとるで、機種別のとこ", True),  # the FAQ as holding it, in Kansai
        ("FAQに当番表のリンクあるで", True),  # … what it holds said after
        ("pinsir is my fav", False),
        # a menu path, where the setting is (session 49)
        ("options > video > vsync, then restart", True),
        ("アプリの設定→通知→サウンドで変えられるよ", True),
        ("tea > coffee fight me", False),  # a preference, no menu
        ("vinyl -> cd -> streaming, the usual story", False),
        ("レコード→CD→配信って流れ", False),
        # a site named as having it up (session 53)
        ("the club site has the full results up already", True),
        ("they're up on flickr, the album is public", True),
        ("my sister has the flu again", False),
        # shown in voice, offered (session 53)
        ("jump in vc, easier if i show you", True),
        ("ボイチャ来て、画面共有するわ", True),
        ("vc was fun last night", False),
    ],
)
def test_a_pointer_to_the_answer(text: str, pointer: bool) -> None:
    assert points(text) is pointer


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("have you tried drying them with a hairdryer first?", True),
        ("did u reseat the ram?", True),
        ("tried a different cable?", True),
        ("再起動してみた？", True),
        ("did you see the new trailer?", False),
        ("have you eaten yet?", False),
        ("did you check the logs", False),  # no mark: said, not asked
        ("昨日の配信見た？", False),
    ],
)
def test_something_to_try_put_as_a_question(text: str, suggestion: bool) -> None:
    assert suggests(text) is suggestion


@pytest.mark.parametrize(
    ("question", "line", "granted"),
    [
        # leave to borrow or use it, given first or said in the line (session 49)
        ("can i borrow the long ladder sat?", "sure, it's behind the shed", True),
        ("mind if i use the big pot for the stew?", "go ahead", True),
        ("テント1張り借りたいんだけど、空いてる？", "👍 倉庫のやつ持ってっていいよ", True),
        ("テント1張り借りたいんだけど、空いてる？", "倉庫の鍵どこだっけ", False),
        ("is the ladder tall enough for the gutters?", "sure, it's 4m", False),  # no leave asked
    ],
)
def test_leave_to_borrow_given(question: str, line: str, granted: bool) -> None:
    assert grants(question, line) is granted


@pytest.mark.parametrize(
    ("line", "said"),
    [
        # not any more, said first (session 56); not "now", 「もう寝るわ」, 「もう少し」
        ("もうないよ、春で終わっちゃった", True),
        ("もうやってないよ", True),
        ("もう売ってないっぽい", True),
        ("もう寝るわ", False),
        ("もう少し待ってて", False),
    ],
)
def test_not_any_more_is_a_no(line: str, said: bool) -> None:
    assert bool(JA_YES_NO.match(line)) is said
