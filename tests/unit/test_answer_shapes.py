"""answer_shapes: when a line's shape alone answers a question (a yes, a figure counted as asked, one of
two things, a time, a place, a pick, a price)."""

from __future__ import annotations

import pytest

from kikimimi.domain.answer_shapes import answer_shaped, counts_as_asked, counts_otherwise, tells_when
from kikimimi.domain.reply_shapes import wonders_a_view


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        ("which python version does the ci image ship?", "3.12 since last week", True),
        ("how many seats are left for the workshop?", "four, I think", True),
        ("is the vpn down for anyone else?", "yep, same here", True),
        ("is the vpn down for anyone else?", "oh, not for me", True),
        ("where do I find the style guide?", "check the pinned message", True),
        ("whats a good first kit?", "there's a beginner kit list in the pins too, scroll up", True),
        ("is there a list of stores?", "check the pins", True),
        ("昨日の配信のプリセット配布ってどこ？", "概要欄にリンク貼ってある〜", True),
        # What was said or written, to whether something heard is true.
        (
            "てか新曲のMV撮影もう終わってるって噂ほんと？",
            "ファンクラブのブログで「夏っぽいもの撮った」って言ってたよね",
            True,
        ),
        (
            "is it true they're dropping the season pass?",
            "yeah they said on stream it's gone next patch",
            True,
        ),
        ("what time does the shop open?", "they said on stream it's great", False),
        ("where do I find the style guide?", "pinned 📌", True),
        ("where do I find the style guide?", "https://example.com/style", True),
        ("スタイルガイドってどこ？", "ピン留め見て", True),
        ("should we push the retro to thursday?", "works for me", True),
        ("じゃあ金曜にまとめて出すのはどう？", "それでいこう！", True),
        ("VPN落ちてる？", "こっちも落ちてる", True),
        ("三脚いる？", "いらんいらん、スナップだし", True),
        ("小籠包って予約いる？", "並ぶ店ならいらんでしょ", True),
        ("エビの脱皮殻って取った方がいいの？", "放置でOK、食べてカルシウム補給するから", True),
        ("エビの脱皮殻って取った方がいいの？", "うちのエビ今日も元気", False),
        ("あそこって駐車場ある？", "10時半でおk！", False),
        (
            "現像したらなんか肌がオレンジっぽくなるんだけどどうすれば",
            "カメラプロファイル「Adobe標準」のままだとそうなりがち、カメラマッチングにしてみ",
            True,
        ),
        ("ノズル240でいいのかな、糸引きすごいんだけど", "230まで下げてリトラクション増やしてみ", True),
        ("埋め込みJPEGのまま見とく設定ってある？", "読み込みのとき「埋め込みとサイドカー」選んどけば", True),
        ("傘いる？", "夕方から降るらしいし持ってったほうがいいでしょ", True),
        # Not by shape: laughter, a yes to a question a yes cannot answer, a number nobody asked for.
        ("is the vpn down for anyone else?", "lol classic", False),
        ("where do I find the style guide?", "yes", False),
        ("where do I find the style guide?", "I fixed 3 bugs today", False),
        ("how do I rebase onto main?", "works for me", False),
        # One side of "A or B", first thing.
        ("was that on the new pc or the old laptop", "new pc!! first night on it", True),
        ("is the relay on racetime or just in vc?", "racetime, link in 30", True),
        ("is the relay on racetime or just in vc?", "the relay starts at 8", False),
        ("also is it on their server or ours", "theirs, ill post the party code here", True),
        # others have it too
        (
            "is it just me or do fridges get louder after midnight",
            "mine roars around 3, it's not just you",
            True,
        ),
        # a moment, to when
        ("摘心ってどのタイミングでやるの？", "トマトなら支柱のてっぺんに届いたくらいで", True),
        ("摘心ってどのタイミングでやるの？", "トマトなら支柱は180cmで", False),
        # A channel named as where the answer is.
        ("did 0.9 go out yet?", "#announcements has it", True),
        ("自作プリセットの配布ってここに貼っていいんだっけ", "#作品共有 のほうでお願い〜", True),
        ("where's the schedule?", "it's in #events", True),
        ("which issue number is it?", "#1482 I think", True),  # a number, not a channel
        # The FAQ, the wiki or the docs named as holding the answer.
        ("is there a list of recommended mods?", "faq, bottom section", True),
        ("does orca export the plate with settings?", "the wiki covers that, under export", True),
        ("キーキャップのプロファイルっていろいろあるんですか？", "FAQにあるよ〜 図つきで比較してる", True),
        ("USB端子もげたんですけど終わりですか😭", "#faq 参照、もげた時の対処載ってる", True),
        ("is there a list of recommended mods?", "faq is a mess tbh", False),
        # a figure said first, hedged
        (
            "how long did shipping take for u guys? been eyeing one too",
            "like 5 days to the uk for mine",
            True,
        ),
        ("how long did shipping take?", "like it was ages ago, i was in the uk then", False),
        # a yes said short, or said of the thing asked about
        ("anyone doing field day with the club this year?", "ye, signed up for the 40m station", True),
        ("has anyone ordered from that new LED shop? prices look too good", "they're legit, slow tho", True),
        # a date is not a price
        ("いくらしたの？", "レンズ付きで13万ちょい", True),
        ("いくらしたの？", "朝霧って寒くない？まだ2月だよ", False),
        ("通勤どれくらいかかるの？", "電車で40分くらい", True),  # … but how long is said in minutes
        # an echo answers the yes/no asked second, after a plan's question
        ("日曜どうする？ 上流のほう行く？", "行く行く！ 前回ボウズやったからリベンジしたい", True),
        ("日曜どうする？ 上流のほう行く？", "雨らしいで", False),
        # who did something, told by describing someone
        ("the score carried so hard. who did it?", "same guy who did that whale documentary", True),
        ("the score carried so hard. who did it?", "the guy is a genius honestly", False),
        # a fact recalled, answered by what was heard of it
        ("明日雨なんだっけ", "午後からって言ってた", True),
        ("土曜って雨予報ちゃうかった？", "夜は降水確率30%やって", True),
        ("明日雨なんだっけ", "まじかー", False),
        # not just them, said as how it is here
        (
            "is it just me or did the rain get insanely loud",
            "hammering here too. the gutter is doing a drum solo",
            True,
        ),
        (
            "did 10.10 break trickplay for anyone else or is it just me",
            "mine's fine, it's probably still generating",
            True,
        ),
        ("is it just me or did the rain get insanely loud", "the gutter is doing a drum solo", False),
        # a verdict on what was asked about, said first, whatever follows
        (
            "with what, feeler gauges? I only have the ones from a car kit",
            "those are perfect. what's the gap?",
            True,
        ),
        ("with what, feeler gauges?", "that is the worst part lol", False),
        # what to do, told by an instruction, to a question about what the asker must do
        (
            "do i have to return it and borrow it again or will it just show up now",
            "sign out of overdrive in the kobo settings, sign back in with the new card, then sync",
            True,
        ),
        ("is the new season out yet", "sign up for the beta lol", False),
        # which colour or model, one named first
        ("ランプ何色になっとる？", "オレンジや。白にならへん", True),
        ("ランプ何色になっとる？", "え、見てくる", False),
        # whether it is better to have it, told by what it does for you
        (
            "開閉センサーってあった方がいいんですか？",
            "オートロックを閉めたらにできるから、あると誤作動かなり減るよ",
            True,
        ),
        ("開閉センサーってあった方がいいんですか？", "うちは付けてないなあ", False),
        # one side of "A or B" named first, a word with "&" in it, or another form of the side's word
        ("back from the shop. r&d or sales for the booth?", "r&d, they know the demo", True),
        ("do they take bookings or is it walk in only", "bookable online, a week out", True),
        ("do they take bookings or is it walk in only", "the soup is great", False),
        # a missed thing asked after, and where it is told first
        ("has anyone seen the spare head torch?", "on the shelf by the kettle", True),
        ("where'd the zip ties go? the black ones", "i put them in the red crate", True),
        ("has anyone seen the spare head torch?", "wasnt that the one with the red strap", False),
        ("did anyone find the answer to question 3?", "on the quiz? no idea", False),
        # where, asked in English, and a place told first; who has it in stock, the seller named first
        (
            "where's everyone parking for the derby? the main lot is closed",
            "side streets behind the library",
            True,
        ),
        ("where's everyone parking for the derby?", "dunno, at the bar probably", False),
        ("is the 35mm ektar back in stock anywhere?", "the camera exchange had six rolls tuesday", True),
        ("is the 35mm ektar back in stock anywhere?", "it had six rolls tuesday", False),
        # how everyone does it, asked, and one's own way told
        ("みんな鍋の焦げってどうやって落としてる？", "重曹入れて煮てる。一発", True),
        ("みんな鍋の焦げってどうやって落としてる？", "わかる、落ちないよね", False),
        ("how do you all keep the dough from sticking?", "i just flour the banneton with rice flour", True),
        ("how do you all keep the dough from sticking?", "i think it's the hydration?", False),
        # a figure in Japanese: near the start or in a short line, not deep in a notice (session 49)
        ("ワックスってどれくらいの頻度で塗ればいいの？", "月1で十分", True),
        ("ワックスってどれくらいの頻度で塗ればいいの？", "うちは新品の間は週1、そのあと月1", True),
        (
            "ワックスってどれくらいの頻度で塗ればいいの？",
            "来週の練習試合、集合場所が変わりました！駐車場は3台までなので乗り合わせで",
            False,
        ),
        ("タレって冷蔵庫で何日もつ？", "毎回火入れしてればだいたい2週間はいける。それ以上は冷凍してる", True),
        # leave asked, and given with a limit (session 54)
        ("can you bring your own food into the stadium?", "sealed water bottles only, they check bags", True),
        ("are dogs allowed on the ferry?", "only if they're in a crate", True),
        ("does the library let you eat at the desks?", "not unless it's the cafe corner", True),
        (
            "can we park in the staff lot saturday?",
            "blue pass holders only. street parking is free tho",
            True,
        ),
        ("can you bring your own food into the stadium?", "i only just got tickets lol", False),
        ("are dogs allowed on the ferry?", "my dog only eats wet food lol", False),
        ("このプールって浮き輪持ち込んでいい？", "小さい子用のだけOKだよ", True),
        ("会場って三脚使っていいの？", "許可証あればOKらしい", True),
        ("会場って三脚使っていいの？", "三脚だけで3キロあるんだけどｗ", False),
        # an option offered, said back with its particle (session 54)
        ("集合いつものコンビニ前でいい？", "コンビニ前で！", True),
        ("打ち上げは駅前の居酒屋でいいかな？", "駅前でおけ", True),
        ("集合いつものコンビニ前でいい？", "コンビニで肉まん買ってこ", False),
        # how it went, asked of an event and told (session 54)
        ("how did the bake sale go on saturday??", "i was there, it went great! sold out by noon", True),
        ("how did the bake sale go on saturday??", "went ok, rain kept people away", True),
        ("how did the bake sale go on saturday??", "i was stuck at work all saturday", False),
        ("昨日の発表会どうだった？", "行ったよ、めっちゃよかった！", True),
        # a pick named first, to a request for recommendations
        ("any recs for a lightweight tent? mine weighs a ton", "nemo hornet. 2 lbs and sets up fast", True),
        ("キーボードのおすすめある？", "HHKB一択", True),
        ("キーボードのおすすめある？", "私はRealforce派〜", True),
        ("any recs for a lightweight tent? mine weighs a ton", "lol same, my back hates me", False),
        # things asked for by their kind, named and nothing else; how many there are, to "any …" (session 61)
        ("anyone know of a CLI AIM client thats in the ubuntu distro?", "centericq, pork", True),
        ("can someone recommend a good markdown editor?", "obsidian or logseq", True),
        ("anyone know of a CLI AIM client thats in the ubuntu distro?", "brb", False),
        ("anyone know of a CLI AIM client thats in the ubuntu distro?", "ugh, rip", False),
        ("anyone know of a way to keep the vpn up?", "centericq, pork", False),
        ("anyone look at the pine st listing? any hand tools", "couple of block planes, looked rusty", True),
        ("anyone look at the pine st listing? any hand tools", "someone grabbed them already", False),
        ("any ideas?", "couple of things to try", False),
    ],
)
def test_answer_shapes(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped


def test_a_bare_yes_answers_only_right_after_the_question() -> None:
    # After other lines, a bare "yes" may answer any of them; a version or a pointer still says which.
    assert not answer_shaped("is the vpn down?", "yes", bare=False)
    # … and so may hearsay: 「ホテルのチェックイン15時だって」 lines later is another thread's news
    assert not answer_shaped(
        "登山電車ってSuica使えるんだっけ？", "ホテルのチェックイン15時だって", bare=False
    )
    assert answer_shaped("which node version?", "20, since the upgrade", bare=False)
    assert answer_shaped("where is the style guide?", "see the wiki page", bare=False)


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        # which one, named first by its code or as "the … one"
        ("nice swap. which battery?", "45N1739, the 9 cell one", True),
        ("nice swap. which battery?", "the 9 cell one", True),
        ("nice swap. which battery?", "lol it barely fits", False),
        # where to get it, a place named first
        ("塗料ってどこで買うのが安い？", "ヨドバシならポイント付くよ", True),
        ("塗料ってどこで買うのが安い？", "それな、高いよね", False),
        # a count of what is asked, its counter left to the question; how many are left, to "enough?"
        ("みんなガット何ポンドで張ってる？", "俺26", True),
        ("みんなガット何ポンドで張ってる？", "22時には帰る", False),
        ("テーピング足りる？", "あと3ロールある", True),
        ("do we have enough cones for saturday?", "like 20, plus the old ones", True),
    ],
)
def test_the_answer_a_question_asks_for_by_its_shape(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped


@pytest.mark.parametrize(
    ("question", "line", "told"),
    [
        ("when do you want to start?", "saturday works", True),
        ("so when is the raid", "friday 9pm", True),
        # "when" as a clause of time asks nothing of when
        ("does it overheat when you run it for an hour?", "tuesday i tried it for two", False),
        # a day put as the plan answers when
        ("いつ？平日は無理", "じゃあ日曜にしない？", True),
        ("いつ空いてる？", "なら来週の土曜とか", True),
        # … or by the month (session 46)
        ("when does the ice rink open again?", "early december, they posted it", True),
        ("when's the swap meet?", "end of the month i think", True),
        ("when's the swap meet?", "may be cancelled honestly", False),  # "may", a verb
        ("祭りって何日だっけ", "8月の第2土曜", True),
        ("祭りって何日だっけ", "雨だったら中止", False),
        # a date asked for by name: 日程, "a date" (session 53)
        ("練習試合の日程って出た？", "再来週の日曜、市民グラウンド", True),
        ("歓迎会の日にち決まった？", "第2金曜だって", True),
        ("did they ever set a date for the cleanup day?", "the 21st, meet at the gate", True),
        ("have we got a date for the quiz night yet", "next thurs i think", True),
        ("did they ever set a date for the cleanup day?", "no clue honestly", False),
        ("is the schedule up to date?", "saturday i checked it", False),
    ],
)
def test_when_told(question: str, line: str, told: bool) -> None:
    assert tells_when(question, line) is told


@pytest.mark.parametrize(
    ("question", "line", "otherwise"),
    [
        # a time of day is not how long (何時間)
        ("フル充電って何時間くらいかかる？", "21時には終わってたで", True),
        ("フル充電って何時間くらいかかる？", "2時間半くらい", False),
        # milliseconds counted
        ("遅延って何msくらい？", "うちのは80msくらい", False),
        ("遅延って何msくらい？", "3人で使ってる", True),
    ],
)
def test_a_figure_that_counts_something_else(question: str, line: str, otherwise: bool) -> None:
    assert counts_otherwise(question, line) is otherwise


def test_milliseconds_asked_are_counted() -> None:
    assert counts_as_asked("入力遅延って何msある？", "12msくらい")


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        # a plan adopted answers whatever way the plan was put (「〜ない？」 is read as a question)
        ("土曜は前半だけ流して、後半に新曲入れない？", "いいね、そうしよう", True),
        ("what if the opener goes last this time?", "ok let's go with that", True),
        ("土曜は前半だけ流して、後半に新曲入れない？", "いいね", False),  # agreement alone, to no proposal
        ("土曜は前半だけ流して、後半に新曲入れない？", "それでいこうか？", False),  # asked back
        # anything will do, to 「〜でいいの？」
        ("ここの下地ってシーラーでいいの？", "どれでもいい、薄く塗れば", True),
        ("ここの下地ってシーラーでいいの？", "なんでもないよ", False),
        # the one that is good, named (「…がいい」)
        ("ソースって先に入れたほうがいいの？", "最後がいい、焦げるから", True),
        ("ソースって先に入れたほうがいいの？", "焦げるの嫌だね", False),
        # where it is, to whether it is there
        ("説明書って箱に入ってる？", "箱の底に入ってたよ", True),
        ("説明書って箱に入ってる？", "箱は捨てちゃった", False),
        # one side of "A or B" chosen, with a full stop after it
        ("north lot or the garage?", "garage. north lot is full by 9", True),
        # … said by its stem, from the few words before the "or"
        ("are you laminating the cards or just sleeving them?", "lamination. sleeves peel", True),
        ("are you laminating the cards or just sleeving them?", "lamps are on sale btw", False),
        # a guess confirmed as about right (session 46)
        ("so like 3 hours each way?", "roughly, a bit less if the ferry's on time", True),
        ("so like 3 hours each way?", "sounds about right", True),
    ],
)
def test_answers_told_by_a_plan_taken_or_a_place(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped


@pytest.mark.parametrize(
    ("question", "line", "counted"),
    [
        ("無料プランって何GBまで？", "5GB、写真込みで", True),
        ("このバッテリー何mAh？", "5000mAhのやつ", True),
        ("無料プランって何GBまで？", "5時間くらいかかった", False),
    ],
)
def test_data_units_are_counted(question: str, line: str, counted: bool) -> None:
    assert counts_as_asked(question, line) is counted


@pytest.mark.parametrize(
    ("question", "line", "told"),
    [
        # the time of day asked, a clock time said first (session 62)
        ("what time is reclear thursday, same as always?", "8:30", True),
        ("集合何時だっけ？", "9時半！", True),
        ("what time is reclear thursday?", "i think 8 people signed up", False),
        ("what time is reclear thursday?", "8:30? not sure", False),  # asked back
        # until what day, asked, and the day said first (session 62)
        ("新ユニの注文っていつまでだっけ", "金曜まで！サイズ表はノートにある", True),
        ("until when is the preorder open?", "friday i think", True),
        ("新ユニの注文っていつまでだっけ", "サイズ表はノートにある", False),
    ],
)
def test_a_clock_time_tells_the_time_asked(question: str, line: str, told: bool) -> None:
    assert counts_as_asked(question, line) is told


def test_a_figure_measured_between_two_offered() -> None:
    assert answer_shaped("is the new batch 12mm or 11.5 again", "11.8 on mine", bare=False)
    assert not answer_shaped("is the new batch 12mm or 11.5 again", "no idea", bare=False)


@pytest.mark.parametrize(
    ("line", "wondered"),
    [("棚、もう一段増やしたほうがいいかな", True), ("もう一段増やしたほうがいいよ", False)],
)
def test_a_view_wondered_at_is_no_yes_or_no(line: str, wondered: bool) -> None:
    assert wonders_a_view(line) is wondered
    assert answer_shaped("これって補強いる？", line) is not wondered


@pytest.mark.parametrize(
    ("question", "line", "named"),
    [
        ("[画像] これ。ウニ？", "ブンブクだねそれ、割れてないのすごい", True),
        ("それってカワセミ？", "ヒヨドリっぽい", True),
        ("それってカワセミ？", "今日寒いね", False),
    ],
)
def test_what_a_thing_shown_is_named(question: str, line: str, named: bool) -> None:
    assert answer_shaped(question, line, bare=False) is named


def test_a_date_is_no_other_count() -> None:
    """「11月の半ばの日曜」 to 「何日だっけ」 tells a date; 「3時間」 to 「何日かかる？」 counts otherwise."""
    assert not counts_otherwise("祭りって何日だっけ", "8月の第2土曜")
    assert counts_otherwise("乾くまで何日かかる？", "3時間くらい")


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        # a price asked by any of its words (料金 too): a date is no price, an amount is
        ("料金どれくらいかかった？", "5月5日", False),
        ("料金どれくらいかかった？", "3000くらい", True),
        ("how much did the repair cost you", "like 80", True),
    ],
)
def test_a_date_is_no_price(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped


@pytest.mark.parametrize(
    ("question", "line", "counted"),
    [
        # a price asked, told in money, whatever comes before it (session 54)
        ("そういえば市営プールの入場料っていくらだっけ", "あ、入場料は2時間400円ね", True),
        ("how much is the day pass at the climbing gym again", "day pass is $18, $12 after 6", True),
        ("そういえば市営プールの入場料っていくらだっけ", "2時間くらい泳いでた", False),
        ("how much is the day pass at the climbing gym again", "went for 3 hours yesterday", False),
    ],
)
def test_a_price_told_counts_as_asked(question: str, line: str, counted: bool) -> None:
    assert counts_as_asked(question, line) is counted


@pytest.mark.parametrize(
    ("question", "line", "shaped"),
    [
        # an arrangement pointed back to answers where or when (session 56)
        ("where are we meeting for the ride sunday?", "same as last week, the bakery on 5th", True),
        ("what time's practice tomorrow?", "same time as always", True),
        ("where we eating after, anyone know?", "usual spot i think", True),
        ("打ち上げどこでやる？", "いつものとこでいいんじゃない", True),
        ("明日の集合何時だっけ", "前回と同じでいいよ", True),
        # … but not to a question of another kind, nor said as a question back
        ("is the dryer fixed yet?", "same as yesterday tbh", False),
        ("好きなパンなに？", "いつものやつ", False),
        # "where" asked without its verb's helper ("where we parking…"), a place told
        ("where we parking tonight?", "on the gravel strip past the boat launch", True),
        ("where we parking tonight?", "i'm walking lol", False),
    ],
)
def test_an_arrangement_pointed_back_to(question: str, line: str, shaped: bool) -> None:
    assert answer_shaped(question, line) is shaped
