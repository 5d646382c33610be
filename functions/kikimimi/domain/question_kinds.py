"""What kind of question a line asks (pure): a real one, an invitation, a rhetorical one, a proposal to the
group, a personal one, a guess put as a question; and what answers it would give (a yes or no, a number).
What a reply says by its shape is reply_shapes.py."""

from __future__ import annotations

import re

from kikimimi.domain.invitations import JA_PLANNED, invites
from kikimimi.domain.rule_terms import TO_THE_ROOM, muses, normalized

__all__ = [
    "asks_a_number",
    "asks_yes_no",
    "for_the_bot",
    "for_the_people",
    "guesses",
    "kind_of",
    "personal",
    "proposes",
    "rhetorical",
]

_TAG_ASKER = re.compile(
    r"^(?:\S+[:,]\s*)?(?:is|are|am|was|were|do|does|did|can|could|will|would|should|has|have|what|how|where|which|who|why|when)\b"
)
# A tag on a statement: "…, right?", "…, no?", "…, isn't it?", "…, don't you think?" ("is that right?" asks).
_EN_TAG = re.compile(
    r",\s*(?:right|innit|eh|huh|no|yeah|ok|okay|yes)[\s.…]*[?？]+\W*$|\s(?:right|innit|ok|okay)[\s.…]*[?？]+\W*$"
    r"|\b(?:is|are|was|were|do|does|did|can|could|will|would|has|have|should)n'?t"
    r" (?:it|he|she|they|you|we|i|that|this|there)\s*[?？]+\W*$"
    r"|\bdon'?t you (?:think|agree|love|hate)\b.*[?？]\W*$"
)
_EN_RHETORICAL = re.compile(
    # A short exclamation asked of nobody: "are you kidding me?!", "seriously!?".
    r"^(?!how|where|which|what)(?:\S+\s+){0,4}\S*(?:[?？]\s*[!！]|[!！]\s*[?？])\W*$"
    r"|^(?:who|what kind of (?:person|monster|idiot))(?: \w+)?"
    r" (?:does|would do|even does|says|cares|knew|asked)"
    r"(?: (?:that|this|it|such a thing))?\s*[?？]+\W*$"
    # Whole lines that ask nothing: "who cares?", "guess what?", "really?".
    r"|\bwho (?:came up with|thought of|approved|signed off on|decided on) (?:that|this)\b"
    # "who moves a couch at 1am??" (but "who knows the password??" asks)
    r"|^who (?:even )?(?!knows|has|wants|remembers|needs|uses|gets)\w+s\b[^?？]*[?？]{2,}\W*$"
    r"|^(?:what the (?:hell|heck|fuck|actual)|wtf|who cares|who knew|why not|guess what|you know what"
    r"|am i right"
    r"|how hard can it be|what could (?:possibly )?go wrong|are you (?:kidding|serious|joking)(?: me)?"
    r"|seriously|really|srsly|rly|for real|is this a joke|why me)\s*[?？!！.]+\W*$"
    # being named, answered in jest: "you rang?", "did someone say my name?"
    r"|^(?:you rang|(?:did )?(?:some|any) ?(?:one|body) (?:say|said|call|called) my name"
    r"|who called (?:me|for me))\b"
    # a retort: "and?? crisps are food", "so? it still counts" (no other question after it)
    r"|^(?:and|so|so what|and what)\s*[?？]+(?![^?？]*[?？])"
    # where one's own things went: "where did i put my keycap puller…"
    r"|\bwhere (?:did i (?:put|leave|stash)|have i (?:put|left|stashed))\b"
    # a gripe about everything: "is it just me or does every show end on a cliffhanger now"
    r"|^is it just me or (?:does|do|is|are|did) (?:every|all|everything|everyone|everybody|nobody)\b"
    # … or a habit of one's own, put to the room to relate to: "…or is that a me problem"
    r"|\bis (?:it|that|this) (?:just )?a me (?:problem|thing)\b"
    # a view put for agreement: "good gig though??", "great set tho?" (not "is the pool open today though?")
    r"|(?:^|[.!]\s+)(?!(?:is|are|was|were|do|does|did|can|could|will|would|what|how|where|which|who|when|why)\b)"
    r"(?:\S+\s+){0,3}\S+ (?:though|tho)\s*[?？]+"
)
_JA_RHETORICAL = re.compile(
    # 「〜よね？」「〜でしょ？」「多くない？w」
    r"(?:よね|よな|でしょ|だろ|じゃん|やん|じゃね|くない|すぎない|すぎん|すぎじゃない)[ぇえ〜~ー]*[？?]+[\Wｗw笑]*$"
    # a feeling put to the room to share: 「フラックスの匂いって夜のほうが強く感じない？」, 「…と思わない？」
    r"|(?:感じ|思わ|おもわ)(?:ない|へん|ん)[ぇえ〜~ー]*[？?]+[\Wｗw笑]*$"
    # who would do such a thing, wondered at: 「…捨ててる人いた。誰がそんなことするの？？」
    r"|(?:誰|だれ)が(?:そんな|あんな)[^？?]{0,10}(?:する|した|やる|やった|すん)(?:の|ん|ねん|ねや)?[？?]+[\Wｗw笑]*$"
    # a retort, what one is told with a 「が？」: 「レポート中ですが？？」, 「明日テストなんだが？」
    r"|(?:です|だ|なんです|なんだ|ます|でした|だった)(?:が|けど|けども)[ぁあ〜~ー]*[？?]+[\Wｗw笑]*$"
    r"|^(?:まじ|マジ|本当|ほんと|ホント|うそ|嘘|え|えっ|は)(?:で|に)?[？?!！]+\W*$"  # 「マジで？」「嘘？！」
    # a grumble, wishing it were otherwise: 「冬の夕方だけ跳ねるの何とかならんかな」
    r"|(?:何とか|なんとか)(?:ならん|ならない|ならへん|ならねー|ならんもん)(?:かな|かね|か|のか)[ぁあー〜…]*[？?]*\W*$"
    # being named, answered in jest: 「呼んだ？入れたの俺」, 「…呼んだ？」
    r"|^(?:呼んだ|よんだ|呼ばれた|よばれた)(?:\?|？|[^\w]*$)"
    # … and then glad of it: 「まじ？助かる🙏」, 「ほんと？うれしい」
    r"|^(?:まじ|マジ|本当|ほんと|ホント)(?:で|に)?[？?!！]+\s*(?:助かる|たすかる|ありがと|ありがたい|うれしい|嬉しい|神)"
    r"|[？?][!！]|[!！][？?]"
    # a complaint at how things always are: 「なんで休みの日に限っていつもこんな寒いわけ？？」
    # (not 「なんでこんなエラー出るの？？」, asked)
    r"|^(?:なんで|何で|なぜ)[^？?]{0,30}(?:(?:限って|いつも|毎回)[^？?]*(?:わけ|の|ん|なん)|こんな[^？?]*わけ)"
    r"[？?]{2,}\W*$"
    # surprise at the time: 「えっもうそんな時期？」, "is it that time already?"
    r"|^(?:えっ?|ええ|まじ|うそ|え、)?[、,\s]*もう(?:そんな|こんな)(?:時期|時間|季節|年)(?:なの|なん|か)?[？?]+\W*$"
    # a muse that answers itself: 「自分65にしてたわ、まあ大差ないか」
    r"|まあ[^？?、。]{0,15}(?:ないか|いいか|ええか|そうか|しゃあないか)[。ｗw笑〜ー…]*$"
    r"|(?:なんで|何で)(?:やねん|だよ)|誰が(?:得|やる|するん|決めた)"
    r"|(?:なんで|何で)[^？?]{0,20}(?:んだよ|んだよな|のさ)"  # 「なんで6月だけないんだよ」: a gripe
    # wondered with a feeling after it: 「え、誰やろ楽しみ」, 「何が出るんだろう、わくわく」
    r"|(?:やろ|だろう?)[なねー〜]*[、,\s]*(?:楽しみ|たのしみ|気になる|きになる|わくわく|ワクワク)[！!〜ー]*$"
    # what it all was, wondered after telling it: 「結局仲直りしてた。何だったの」, 「なんやったんあれ」
    r"|(?:何|なん)(?:だった|やった)(?:の|ん|んだ|んや)(?:あれ|それ)?(?:ろう|やろ|か)?[。…〜ーｗw笑]*$"
    # where one's own things went: 「キーキャップ引き抜くやつどこやったっけ…」 (only they can know)
    r"|どこ(?:に)?(?:やった|置いた|おいた|しまった|片付けた)(?:ん)?(?:だ)?っけ"
    # … in Kansai: 「なんで説明書のネジの番号と袋の番号ちゃうねん」, 「なんでこうなるん」
    r"|(?:なんで|何で)[^？?。]{0,30}ねん(?:[。、\s！!ｗw笑]|$)|(?:なんで|何で)[^？?。]{0,12}(?:こう|そう)(?:なるん|なんねん|なるの)"
    # why it always happens, no mark: 「なんで毎回釣り行く前の日に限って雨予報になるん」, 「なんで深夜アニメの
    # 前のCMって毎回同じソシャゲなの」 (a gripe)
    r"|^(?:なんで|何で)[^？?。]{0,16}(?:毎回|いつも|いっつも|決まって)[^？?]{0,30}(?:ん|の|ねん|んだ)[ｗw笑…]*$"
    # a pressing "isn't it?" with a word of feeling after it: 「今日あっつすぎん？？溶ける」
    r"|(?:よね|でしょ|じゃん|くない|すぎない|すぎん)[ぇえ〜~ー]*[？?]+\s*[^？?\s]{1,8}$"
    # … or a reason after it: 「でも13時だと最初ほぼ人いなくない？みんな昼くるの遅いし」
    r"|(?:よね|でしょ|じゃん|くない|すぎない|すぎん)[ぇえ〜~ー]*[？?]+\s*[^？?\s]{1,20}(?:し|もん|からな?)[ｗw笑…]*$"
    # agreeing, then a line of the same feeling, no mark: 「ほんとそれ、土曜どこいった」
    r"|^(?:ほんとそれ|まじそれ|それな|わかる|わかりみ)[、,\s!！ｗw]+[^？?]+$"
    # a why that trails off into a feeling, no mark: 「なんでこの時間に見せるの…お腹すいた」
    r"|^(?:なんで|何で|どうして)[^？?]*(?:の|んだ|ん)(?:[…‥]|\.{2,})+[^？?]+$"
    # a why put to oneself: 「なんで起きてんの俺」, 「何やってんだ私」
    r"|(?:なんで|何で|どうして|何やって)[^？?]{0,16}(?:の|んだ|ん)[?？]*(?:俺|おれ|私|わたし|僕|ぼく|うち|自分)[?？ｗw笑…]*$"
)
# A proposal to the group: "should we …?", "how about …?", 「〜のはどう？」「〜しない？」.
_EN_PROPOSAL = re.compile(
    r"^(?:so |ok |okay |then |well )?(?:should we|shall we|how about|what about we|what if we|why don'?t we"
    r"|can we just|could we (?:just )?|let'?s|do we want to|wanna)\b.*[?？]"
    # … its mark left off: "should we do thursday too or is that too much"
    r"|^(?:so |ok |okay |then |well )?(?:should|shall) we\b"
    # a choice put to the group: "do we want departure slots or does everyone just taxi at once"
    r"|^(?:so |ok |okay |then |well )?do we want\b[^?？]*\bor\b"
    # the group's guess asked of the group: "what are we thinking, nz lead of 250 by stumps?"
    r"|^(?:so |ok |okay |alright )?what (?:are|r) we thinking\b"
    # the group's plan asked of the group: "what are we doing friday?", "what time are we meeting"
    r"|^(?:so |ok |okay |then |alright )?(?:what'?s the plan|what is the plan"
    r"|what are we (?:doing(?! wrong)|playing|eating|watching|running|starting with|opening with"
    r"|kicking off with|bringing|ordering|cooking|going with)|what time (?:are|r) we"
    r"|where (?:are|r) we (?:meeting|going|eating|playing))\b"
    # a plan of the group's, asked again: "game night saturday, still on?", "are we still on for friday?"
    r"|\bstill on(?: for [^?？]{1,20})?\s*[?？]|\b(?:are|r) we still on\b"
    # … or again: "are we doing the same time next week?", "same time tomorrow?"
    r"|^(?:so |ok |okay |alright )?(?:(?:are|r) we (?:doing|meeting|playing|on for) )?(?:the )?same time"
    r" (?:next week|tomorrow|next time|again|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)\s*[?？]"
    # the group's plan on a day: "ok moder attempt saturday??", "raid tonight?", "key's in my bag, golem
    # tomorrow?"
    r"|(?:^|[,.!;]\s+)(?:ok |so |alright |right )?"
    r"(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have"
    r"|what|who|where|when|why|how|which|any)\b)(?:[\w'-]+ ){1,3}(?:tonight|tomorrow|today|this weekend"
    r"|(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s*[?？]+"
    # a bare day and hour: "friday 8pm?", "sat 10am?", "9ish?" (a reason may follow: "7pm? the crowd…")
    r"|^(?:ok |so |then )?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat|sun"
    r"|tmrw|tomorrow|tonight)?\s*(?:at |@)?\d{1,2}(?::\d\d)?\s*(?:am|pm|ish)?"
    r"\s*(?:est|edt|cst|cdt|pst|pdt|et|pt|ct|gmt|bst|utc|cet|cest|jst|aest|server time)?\s*[?？]+"
    r"(?:\W*$|\s+[^?？]+$)"
    # a plan said, then one person asked: "8 cet is fine for me. pete?"
    r"|[.!]\s+(?!(?:anyone|anybody|everyone|right|yes|no|ok|okay|why|how|what|when|where|who|which|thoughts"
    r"|ideas)\b)[a-z][\w.-]{1,15}\s*[?？]+\W*$"
    # the group's plan put as a bare deed: "carpool from the park and ride?", "meet at the trailhead at 7?"
    r"|^(?:ok |so |then |alright )?(?:carpool|car ?share|meet(?: up)?|regroup|head out|roll out|convoy)"
    r" (?:at|from|in|by|around|after|before|outside|near|on|tomorrow|tonight|first)\b[^?？]{0,60}[?？]+"
    r"(?:\W*$|\s+[^?？]+$)"
    # an offer to the one asked: "want me to send it?", "shall i grab you one?"
    r"|^(?:\S+[,!]?\s+)?(?:do you |u )?(?:want|wanna|need) me to\b.*[?？]|^(?:\S+[,!]?\s+)?shall i\b.*[?？]"
)
# What happens to a thing, not what people do together: 「また発根する？」, 「これ重複しない？」.
_HAPPENS = "".join(
    f"(?<!{w})"
    for w in [
        "発生",
        "反応",
        "動作",
        "起動",
        "接続",
        "認識",
        "同期",
        "表示",
        "更新",
        "変化",
        "失敗",
        "発根",
        "発芽",
        "開花",
        "成長",
        "復活",
        "回復",
        "再生",
        "劣化",
        "故障",
        "発酵",
        "解決",
        "機能",
        "対応",
        "反映",
        "完了",
        "増殖",
        "結露",
        "膨張",
        "沸騰",
        "点灯",
        "点滅",
        "振動",
        "充電",
        "重複",
        "定着",
        "硬化",
        "乾燥",
        "腐敗",
        "変色",
        "退色",
    ]
)
_JA_PROPOSAL = re.compile(
    # stopping for the night, put to the room: 「今日はここまでにして続きはまた明日かな」
    r"(?:今日|今夜|今回|きょう)は(?:ここ|この辺|このへん|これ)まで(?:に(?:して|しよ|する|しと)|で|かな|にしよ)|"
    # a plan mused for the group: 「えらい！じゃあ初日の夜は赤玉かな」
    r"(?:^|[！!。、,]\s*)(?:じゃあ|ほな|なら)[^？?、。]{0,16}(?:は|で)[^？?、。\s]{1,12}?(?<![るたいうく])かな[ぁあー〜]*$|"
    # a poll of the group: 「練習、土日どっちがいい人多い？」
    r"(?:どっち|どれ|いつ|何時)[^？?]{0,10}(?:人|ひと)(?:多い|おおい)[？?]|"
    # the group's own plan asked: 「宿はどのへんにする？」「何時集合にする？」「何時からにする？」
    r"(?:どこ|どの\S{0,2}|何時|何月|何日|何曜日?|いつ|どれ|何|なに)(?:から|まで)?(?:に|で|へ|集合に)?"
    r"(?:する|しよ|行く|いく|集合|集まる|出る|出発する|泊まる|やる|回す|始める|潜る"
    # 「来週から何見る？」, 「みんな持ち寄り何作る？」
    r"|見る|観る|遊ぶ|食べる|食う|飲む|頼む|歌う|作る|持ってく|持っていく|着てく|着る)[？?]"
    # 「7月の三連休どう？」
    r"|(?:月|日|曜|時|週末|連休|今度|明日|来週)(?:の\S{0,6})?(?:とか|は|で|に)?(?:どう|いかが)[？?]"
    r"|\d{1,2}時\S{0,4}(?:とか|で(?:いい|どう))[？?]"  # 「9時集合とか？」
    r"|^[^？?、。\s]{1,12}(?:集合|待ち合わせ|出発)[？?]+\W*$"  # 「10時半集合？」: when or where to meet, put
    # 「土曜10時でええ？」, 「場所はいつもの駅前の雀荘でええ？」
    rf"|(?:{JA_PLANNED}|\d{{1,2}}日|集合|場所|店)[^？?。]{{0,20}}で(?:いい|ええ|よい|おけ|OK|ok)[？?]"
    r"|(?:で|とか)(?:どう|いかが)(?:かな|ですか|でしょう)?[？?]*\W*$"  # 「集合は秦野駅北口 7:30 でどう」
    r"|(?:確定|決定|決まり)で(?:いい|ええ|よい|おけ|OK|ok)[？?]"  # 「11月の3連休で確定でいい？」
    rf"|(?:{JA_PLANNED})[^？?。]{{0,12}}(?:たら|なら)どうする[？?]"  # 「土曜雨だったらどうする？」
    # 「…太古で入るのどう？」, its は left off (not 「行くのどうしよ」, 「…のどう思う？」, 「…のどうにか」)
    r"|(?:る|う|く|す|つ|ぬ|む|ぶ|ぐ|た)のは?(?:どう(?!し|思|おも|に|や)|いかが)|(?:を|に|で|一緒に|みんなで)しない[？?]"
    r"|(?<!たり)(?<!だり)しませんか"  # not 「設定で直せたりしませんか？」, a question
    r"|(?:みんなで|皆で|一緒に)[^？?]{0,10}(?:しない|やらない|行かない)[？?]"  # 「来週末みんなで鍋しない？」
    # an outing named for a day, put to the room: 「今度の土曜さ、…羽村までポタリングしない？」 (not
    # 「これ重複しない？」, whether a thing happens)
    rf"|^(?=[^？?]*(?:{JA_PLANNED}|月曜|火曜|水曜|木曜|金曜|連休|休み))[^？?]*"
    # a noun of two or more, or one ending in り (「ハードオフ巡り」, 「朝釣り」)
    rf"(?:[\u30a1-\u30ffー\u4e00-\u9fff]{{2,}}|[\u4e00-\u9fff]り)"
    rf"{_HAPPENS}(?:しない|しよう|せん|せえへん|しーひん)[？?]+(?:\W*$|\s*[^？?]{{1,30}}$)"
    # … any deed all do at once: 「日曜の朝、みんなで模試を時間計って同時に解かない？」 (not 「…じゃない？」,
    # 「安くない？」)
    r"|(?:みんなで|皆で)[^？?。]{0,30}(?<!じゃ)(?<!では)(?<![くでん])ない[？?]"
    r"|(?:も|に|へ)(?:寄ら|よら|行か|いか|回ら|まわら)ない[？?]"  # 「…のあと、コッペパン屋さんも寄らない？」
    # a stop on the group's way, put to it: 「帰りに御殿場のアウトレット寄る？」
    r"|(?:帰りに|帰り道に|ついでに)[^？?。]{0,20}(?:寄る|よる|寄ってく|よってく)[？?]"
    r"|(?:寄って|よって)い?か(?:ない|へん|ん)[？?]"  # 「吟行のあと…クルミドコーヒー寄ってかない？」
    # a thing to settle now, for the group: 「そろそろ宿決めへん？」, 「先に店押さえない？」
    r"|(?:決め|押さえ|予約せ|予約し)(?:ない|へん|ひん|ん)[？?]"
    r"|(?:しよ|しましょ|やろ|行こ|いこ)うか?[？?]|ことにしない"
    # a thing to do together, named and put to the room: 「選手権やる？」「マリカやる？」「鍋する？」
    rf"|[\u4e00-\u9fff\u30a1-\u30ffー]{{2,}}{_HAPPENS}(?:やる|する|やらん|せーへん|せえへん|やらへん)[？?]+\W*$"
    # the group's call: 「ルールどうする？」, 「土曜のやつ、持ち時間どうする？」
    r"|^(?:[^、。？?\s]{1,12}[、,]\s*)?[^、。？?\s]{1,8}(?<![らば])(?:は|って)?どうする[？?]+\W*$"
    # a suggestion to someone stuck, put as a question: 「見てからインパクトでいけない？」, 「再起動したら？」
    r"|(?:で|を|に|から)(?:いけ|行け|でき|やれ|勝て|間に合わ)ない[？?]|(?:したら|すれば|やったら|使ったら)[？?]"
    # leave asked of the room: 「夜食テロしていい？」
    r"|(?:して|てて|って)(?:も)?いい[？?]+\W*$"
    # an offer to the one asked: 「素材集め付き合おうか？」「部屋立てようか？」「手伝いましょうか？」
    # (not 「でしょうか？」)
    r"|(?<![だでか])(?:[おこそとのほもよろごぞぼぽ]|ましょ)うか[？?]"
    # … said short, as in Kansai: 「描こか？」「見たろか？」「持ってこか？」「送ろっか？」
    r"|(?:[\u4e00-\u9fff][こごそぞとどのぼぽもろ]|やろ|しよ|てこ|とこ|たろ)っ?か[？?]+\W*$"
)
# Questions that a number, a version or a time answers ("which node version…?", "how many…?", 「何時？」).
_ASKS_NUMBER = re.compile(
    r"\b(?:which|what|what'?s|what is) (?:the )?(?:\w+ ){0,2}(?:version|release|number|time|day|date|port"
    r"|size|year|build|kernel|count|amount|price|cost|limit|rate|score|total|temperature|temp|speed|budget|deadline"
    r"|reading|range"
    r"|length|width|height|weight|depth|distance|capacity|pressure|voltage|wattage|resolution"
    r"|hydration|ratio|dilution|percentage|gauge|dose|dosage|iso|fps|dpi|rpm|ppm|frequency|ohm)s?\b"
    r"|\bhow (?:many|much|long|old|big|often|far|soon|fast|hot|warm|cold|high|tall|heavy|deep|wide|loud"
    r"|thin|thick|short|small|low|narrow|strong|tight)\b"
    r"|\bwhat time\b"
    # the most or least asked for: "what's the most segments you've had before it lagged?"
    r"|\bwhat(?:'?s| is| was) the"
    r" (?:most|max|maximum|least|min|minimum|fewest|highest|lowest|longest|biggest)\b"
    r"|(?:^|[.?!,]\s*)(?:\S+[:,]\s*)?(?:so |and |but |ok )?"
    r"when(?:'?s| is| are| was| were| do| does| did| will| can| should)\b"
    r"|何時|何日|何人|何回|何個|何分|何歳|何度|何泊|何年|何週|何キロ|何センチ|何ミリ|いくら|いくつ|幾つ|いつ(?!も)|何曜|なんぼ"
    r"|どのくらい|どれくらい|何円|何枚|何本|何台|何匹|何杯|何冊|何件|何着|何グラム|何リットル|何ml|何cc|バージョン"
    # 「連鶴って何羽つなぐん？」, 「これ長さ何メートル？」
    r"|何(?:羽|頭|粒|段|階|周|局|玉|缶|袋|箱|株|鉢|試合|戦|メートル|キロ|グラム|時間|ワット|倍|割|%"
    # … or by a unit in letters: 「無料って何GBまで？」 (not 「あれ何ｗｗ」)
    r"|ポンド|インチ|ドル|ページ|ボルト|ヘルツ|パーセント|ヶ月|か月|カ月|(?!w+(?![a-z]))[a-z]{1,4}(?![a-z]))"
    # a quantity asked after by name: 「容量どうしたん」, 「予算は？」, 「人数教えてくださいー」
    r"|(?:容量|予算|値段|料金|価格|金額|サイズ|重さ|距離|枚数|人数|台数|本数)(?:は|って|を)?"
    r"(?:どう|どれ|何|なに|いくら|[？?]|教えて|おしえて)"
)


def asks_a_number(question: str) -> bool:
    """A question that a number, a version or a time answers ("which node version…?", 「何時？」)."""
    return bool(_ASKS_NUMBER.search(normalized(question)))


# An offer of one's own help or company, put as a question: "want me to ask him?", "i can bring mine if
# u want?", 「サブ垢のフレ呼ぶ？」, 「貸そうか？」 (a brief line whose question ends on a plain verb).
_EN_OFFER = re.compile(
    r"\b(?:want|wanna|need) me to\b|\bshall i\b|\bshould i (?:bring|grab|ask|call|invite|send|lend|get)\b"
    r"|\bi (?:can|could) (?:bring|lend|send|grab|ask|invite|call|get|share)\b[^?？]*[?？]"
)
_JA_OFFER = re.compile(r"[うくすつぬむぶぐる]か?[？?]")  # 「呼ぶ？」, and 「貸そうか？」 ends on う too


def offers(text: str) -> bool:
    """An offer put as a question ("want me to ask him?", 「フレ呼ぶ？」「貸そうか？」): its answer is the one
    offered to taking it or not."""
    low = normalized(text)
    if low.isascii():
        return bool(_EN_OFFER.search(low))
    return len(low) <= 30 and bool(_JA_OFFER.search(low))


# A question its asker settles in the same line, giving up on the room: "so nobody for the cal hypo split?
# ok ill just grab 2 buckets for myself", 「ベランダの配線、誰かわかる？じゃあ自分で調べるか」, "…? fine. …".
_SETTLES_ITSELF = re.compile(
    r"[?？]+\s*(?:(?:ok(?:ay)?|oh well|fine|alright|guess|nvm|never ?mind|welp)\b[,.!]*\s*"
    r"(?:then\s+)?(?:i'?ll|ill|i will|i guess i'?ll|guess i'?ll|just)\b[^?？]*$"
    # … or given up on with a sigh: "nobody for receipts sesh? fine. suffering alone"
    r"|(?:fine|oh well|welp|guess not|cool cool|ok then|k then)(?:[,.!]+(?:\s+[^?？]*)?)?$"
    r"|(?:じゃあ|じゃ|ほな|まあ|しゃーない|仕方ない|しゃあない)[、,]?[^?？]*(?:[るうくすつぬむぶぐ]か|しよう?|いいや)[ぁ-ん〜ー。…w笑]*$)"
)


def rhetorical(text: str) -> bool:
    """A question that asks nothing: a tag ("…, right?", 「〜よね？」), an exclamation ("seriously?!"), or
    one its asker settles in the same line ("nobody for the split? ok i'll just grab 2 for myself")."""
    low = normalized(text)
    if _SETTLES_ITSELF.search(low):
        return True
    # "… what's the safe way to clean it? and is doing lines on bare plastic ok?": its last sentence asks
    last = re.sub(r"^(?:and|so|but|or|also|plus)\s+", "", re.split(r"(?<=[.!?？])\s+", low.strip())[-1])
    tag = bool(_EN_TAG.search(low)) and not _TAG_ASKER.match(low) and not _TAG_ASKER.match(last)
    return tag or bool(_EN_RHETORICAL.search(low) or (not low.isascii() and _JA_RHETORICAL.search(low)))


def proposes(text: str) -> bool:
    """A proposal to the group ("should we …?", "how about …?", 「〜のはどう？」「〜しない？」)."""
    low = normalized(text)
    return bool(_EN_PROPOSAL.search(low) or (not low.isascii() and _JA_PROPOSAL.search(low)))


# A figure worked out aloud from figures just said: "~1.1k/hr with 3 rows so like 4k when its done?".
_WORKED_OUT = r"\b(?:so|that'?s|thats) (?:like|about|around|roughly|maybe) ~?\d[^?？]{0,24}[?？]+\W*$"


def works_out(text: str) -> bool:
    """Is the line a figure worked out aloud ("… so like 4k when its done?"): the speaker's own estimate,
    put with a mark of doubt, for whoever cares to check it, not a question the room owes an answer?"""
    return bool(re.search(_WORKED_OUT, normalized(text)))


# A guess offered with a question mark of doubt: "probably around 9 i think?", "maybe 0.2mm?",
# 「22時じゃない？たぶん」, 「マシになるんじゃない？」. It answers someone; it asks nobody.
_EN_GUESS = re.compile(
    # a figure guessed: "probably 0.2mm?", "maybe 8ish?", "around 9 i think?"
    r"^(?:(?:oh|um+|hmm+|well|idk|not sure)[,.\s]+)?"
    r"(?:probably|prob|prolly|maybe|perhaps|i think|i guess|pretty sure|iirc|should be|might be|around)"
    r"\s+(?:(?:like|around|about|at|by|on|the|a)\s+)*\d[^?？]{0,16}[?？]"
    # … or offered about: "8ish?", "around 9?", "like 60? stopped counting tbh"
    r"|^(?:like |around |about )?\d{1,2}(?::\d\d)?\s*(?:-?ish|or so)\s*[?？]"
    r"|^(?:like|around|about|roughly|prob|probably|maybe) ~?\d[\d,.:]*(?:\s*[a-z]+)?\s*[?？]"
    # … or a hedge tacked on after it: "sunday i think?", "the blue one maybe?"
    r"|\b(?:i think|i guess|i believe|maybe|probably|prob|iirc)\s*[?？]+"
    # … or said after one: "#events, pinned calendar. i think it's the 14th?"
    r"|\b(?:i think|i guess|i believe|pretty sure|iirc) (?:it'?s|its|it was|they'?re|that'?s)"
    r" [^?？]{1,25}[?？]+\W*$"
    # … or any statement opened by one, with its mark of doubt: "pretty sure tatsu said $5 entry, all of it to
    # top 3?"
    r"|^(?:(?:oh|um+|hmm+|well)[,.\s]+)?(?:pretty sure|i'?m pretty sure|i think|i believe|iirc)"
    r" [^?？]{1,60}[?？]+\W*$"
    # … or one, then a word more: "i think its japanese for like 'listening ears'? maya named it", "i think
    # it just reads what's posted here? the pinned post in #meta explains it"
    r"|^(?:i think|i guess|i believe|pretty sure|iirc) [^?？]{1,50}[?？]+\s+[^?？]+$"
    # … or unsure, said first, then why: "probably? the vote last week went that way"
    r"|^(?:prob|probably|prolly|maybe|i think so|pretty sure)\s*[?？]+\s+[^?？]{2,60}$"
    # … or a few words opened by one: "maybe a little?", "prob close to done then?"
    r"|^(?:prob|probably|prolly|maybe|i think|i guess|pretty sure)\b(?:\s+[^\s?？]+){0,4}\s*[?？]"
    # … or a statement put with a mark of doubt, then more said of it: "it's japanese for like, an ear
    # listening in? which tracks, it reads everything"
    r"|^(?:it'?s|its|that'?s|thats|they'?re|theyre) [^?？]{1,50}[?？]+\s+(?!any ?(?:one|body)\b)[^?？]+$"
    # … or put as a negative question: "isn't it on the wiki? shells page, like halfway down"
    r"|^(?:isn'?t|isnt|wasn'?t|wasnt|aren'?t|arent) (?:it|that|there|this|they)\b[^?？]{1,50}[?？]"
    # … or a figure worked out aloud (`works_out`)
    "|" + _WORKED_OUT
)
_JA_GUESS = re.compile(
    # 「熱海って花火大会けっこうやってなかったっけ」: remembered, asked to be confirmed
    r"なかったっけ[？?]*[w笑。…〜~]*$"
    # 「たしか金曜の夜？19時くらい」: recalled, unsure, and said first
    r"|^(?:たしか|確か|多分|たぶん)(?!に)[、,\s]*[^？?]{1,16}[？?]+(?:[^？?]{0,24})?[w笑。…〜~]*$"
    # 「帽子の人？工具持ってるし、たぶん大工チームの誰か」: a thing offered, then why, hedged (not
    # 「HDMIある？たぶん明日使う」, which asks)
    r"|^[^？?、。\s]{0,9}[一-龥ァ-ヶーA-Za-z0-9][？?]+[^？?]{0,30}(?:たぶん|多分|かも|と思う)[^？?]{0,20}[w笑。…〜~]*$"
    # 「22時くらい？」, 「3人とか？」: a figure offered, about
    # (then hedged or a reason given: 「9時くらい？たぶん」, 「9時くらい？受付が9時半からだったはず」)
    r"|^[^？?]{0,8}\d[^？?]{0,6}(?:くらい|ぐらい|位|ごろ|頃|とか)[？?]+"
    r"(?:\s*(?:たぶん|多分|たしか|確か)|[^？?]{0,30}(?:はず|気がする|と思う|らしい|だった))?[w笑。…〜~]*$"
    # 「夜やろ？9時とかでええんちゃう」: a time or a thing proposed, unsure, no mark needed
    r"|(?:とか|で|が)(?:ええ|いい)ん(?:ちゃう|ちゃいます|じゃない|じゃね)(?:ですか|でしょうか|か)?[？?]*[w笑。…〜~]*$"
    # 「先月くらい？管理人さんが入れてた気がする」: about when, offered, then more
    r"|^[^？?\d]{1,8}(?:くらい|ぐらい|ごろ|頃)[？?]+(?:[^？?]{2,40})?[w笑。…〜~]*$"
    r"|(?:じゃない|じゃなかった|じゃね|じゃないかな|んじゃない|んじゃね|と思う|と思うけど|じゃないの|んちゃう"
    r"|やつちゃう|ちゃうかな|とちゃう)[？?]+"
    r"\s*(?:たぶん|多分|知らんけど|知らないけど|わからんけど|しらんけど|[^？?]{0,24}(?:かも|かな|けど|気がする|すれば|したら))?"
    r"[ｗw笑。…〜~]*$"
    r"|^[^？?]*(?:かな|かなぁ|かなあ|かも)[ｗw笑。…〜~]*$"  # 「いまんとこ6人かな」: no mark at all
    r"|^[^？?]{1,20}(?:かな|かも)[、,][^？?]*$"  # 「遊舎工房かな、小分けのやつ」: the guess, then more
    # 「おとといの夜…やったかな。昨日バタバタしてて」: a thing or a past guessed, then a sentence (not
    # 「行けるかな。ちょっと考える」, wondering)
    r"|^[^？?]{1,20}(?<![うくすつぬふむゆるぐずづぶぷい])(?:かな|かも)。[^？?]*$"
    # 「野菜なら500倍じゃなかった？ボトルの裏に書いてあるよ」: the guess, then where to check
    r"|^[^？?]{1,30}(?:じゃなかった|じゃなかったっけ|じゃない|んじゃない|やつちゃう|とちゃう|ちゃう|やない|やなかった)"
    r"[？?]+[^？?]{2,30}$"
    # 「22時ちゃう？」, 「来月やない？」: a brief Kansai guess, what it is offered with ちゃう
    r"|^[^？?]{1,12}(?:ちゃう|ちゃいます|やない|やないの|やないか)[？?]+[ｗw笑。…〜~]*$"
    # 「たぶん？先週の投票で鈴鹿勝ってた気がする」: unsure, said first, then why
    r"|^(?:たぶん|多分|たしか|確か|おそらく)[ー〜…]*[？?]+\s*[^？?]{2,40}$"
    # 「たぶん土曜…？」: said unsure, first thing
    r"|^(?:たぶん|多分|たしか|確か|おそらく)[、,\s]*[^？?、。]{1,16}[…。.]*[？?]+[ｗw笑…〜~]*$"
    # 「たしか全部ついてたはず…自信ない」: said unsure, no mark
    r"|^(?:たしか|確か)[^？?]*(?:はず|と思う|気がする)|^[^？?]*はず[^？?]{0,4}(?:自信ない|知らんけど|たぶん)"
    # 「たぶん第2のはず？前回と同じなら」: what should be so, with a mark of doubt, then why
    r"|^[^？?]{1,30}はず(?:や|だ|です)?(?:けど|だけど)?[？?]+[^？?]{0,24}$"
    # 「来週の火曜までやったはず」: what should be so, remembered
    r"|^[^？?]{2,30}はず(?:や|だ|です|やで|だよ|よ|やけど|だけど|けど)?[ｗw笑。…〜~！!]*$"
    # 「夕方からって天気予報で言ってた気がする」: remembered, not sure
    r"|^[^？?]*(?:気がする|気がします)(?:よ|けど|な|ね)*[w笑。…〜~]*$"
)


# Asking the room for a guess or a view: "who do you think it is?", "any theories?", 「だれだと思う？」.
_ASKS_A_GUESS = re.compile(
    r"\b(?:what|who|which|where) do (?:you|u|y'?all|you guys|people|we) (?:think|reckon)\b"
    r"|\bany (?:guesses|theories)\b|\bwhat'?s (?:your|ur) (?:guess|read|take)\b"
    r"|(?:だと|と|って)(?:思う|おもう|思います)[？?]|どう(?:思う|おもう|思います)|予想[はし]"
)
# A view given as a guess: "probably the carpenter", 「たぶん大工チームの誰か」.
_HEDGED = re.compile(
    r"\b(?:probably|prob|prolly|maybe|i think|i'?d say|my guess|i reckon|pretty sure|gotta be|has to be"
    r"|must be)\b"
    r"|たぶん|多分|かも|と思う|じゃないかな|っぽい|気がする|ちゃうかな|やと思う"
    # its question left off: 「換気扇止まってるだけでは」
    r"|(?:だけ|から|のせい|せい)(?:では|じゃ)[？?]?\s*$"
)


# How one is, said unsure, then told on: "honestly good? tired. they gave me…", "fine?? i think".
_HOW_UNSURE = re.compile(
    r"^(?:(?:honestly|tbh|idk|i mean|um+|uh+|hm+|mostly|pretty|still)[,.]?\s+)?(?:good|fine|ok|okay|alright"
    r"|great|decent|not bad|meh|busy|tired|weird|chill|rough|so so|so-so|surviving|better|slow|fast)"
    r"[?？]+\s+[^?？]{3,}$"
    r"|^(?:まあ)?(?:まあまあ|ぼちぼち|いい感じ|普通|ふつう|微妙|楽しい|しんどい|生きてる)[？?]+\s*[^？?]{3,}$"
)


def says_how_unsure(text: str) -> bool:
    """Is the line how its author is, said unsure ("honestly good? tired. …", 「まあまあ？ 残業はないけど…」):
    an answer to "how's the new job?", not a question of its own?"""
    return bool(_HOW_UNSURE.match(normalized(text)))


def asks_a_guess(text: str) -> bool:
    """Does the question ask the room for a guess or a view ("who do you think…?", 「だれだと思う？」)?"""
    return bool(_ASKS_A_GUESS.search(normalized(text)))


def hedges(text: str) -> bool:
    """Does the line give a view as a guess ("probably the carpenter", 「たぶん大工チームの誰か」)?"""
    return bool(_HEDGED.search(normalized(text)))


def guesses(text: str) -> bool:
    """A guess put with a question mark of doubt ("probably around 9 i think?", 「22時じゃない？たぶん」):
    after someone's question, an answer; not a question back nor one for the bot."""
    low = normalized(text)
    asked = re.split(r"[?？]", low, maxsplit=1)[0]
    if (
        _WH.search(asked)
        or _TAG_ASKER.match(asked)
        or re.search(r"\b(?:what|which|where|who|why|how)\b", asked)
    ):
        return False
    if low.isascii():
        return bool(_EN_GUESS.search(low))
    return bool(_JA_GUESS.search(low)) and not muses(low)  # 「夕方走れるかな〜」 wonders, it does not guess


# Agreeing to a plan and asking a detail of it: "im down, 8ish?", "yeah im in, 7?", 「行く行く！何時？」.
_ACCEPTS_DETAIL = re.compile(r"^[\W_]*(?:\S+[\W_]+){0,3}\S*[?？]+\W*$")


_EN_ACCEPT = re.compile(
    r"^(?:yes|yeah|yep|yup|ya|sure|bet|i'?m (?:down|in|game)|down|in|count me in|sounds good|works for me"
    r"|deal|me(?: too)?)\b"
)
_JA_ACCEPT = re.compile(r"^(?:行く|いく|いける|行ける|いいね|いいよ|参加|乗った|のった|やる)")


def _accepts(low: str) -> bool:
    agreement = _EN_ACCEPT.match(low) if low.isascii() else _JA_ACCEPT.match(low)
    if agreement is None or ("?" not in low and "？" not in low):
        return False
    said = r"^(?:[\s,!.、。！ー〜~]*(?:i'?m in|i'?m down|down|in|行く|いく))+[ー〜~]*"
    rest = re.sub(said, "", low[agreement.end() :])
    return bool(_ACCEPTS_DETAIL.match(rest)) and len(rest.split()) <= 4


# About the one asked: their experience, their things, their doings ("which one did u end up getting",
# "how's it feel", "did you get it?", 「どうだった？」「いくらした？」). Only they can say.
_EN_PERSONAL = re.compile(
    # who they think will win, asked of the room: "who do you guys think takes it?"
    r"\b(?:who|which(?: one| team| side)?)\s+(?:do|d)\s*(?:you|u|y'?all|ya)(?: guys| all)?\s+think\s+"
    r"(?:will |is gonna |gonna )?(?:wins?|takes? it|takes? the \w+|gets? (?:it|the \w+))\b|"
    r"\bhow(?:'s|s| is| was| does| did|'d| do)? (?:it|that|they|the new \w+|your \w+|ur \w+)"
    r" (?:feel|feels|feeling|going|go|went|treating|holding up|sound|sounds|look|looks|taste|tastes)\b"
    r"|\bhow (?:was|were) (?:it|that|they|the|your|ur)\b"
    # a request to the one who will be there to see: "lmk if you spot the blue one"
    r"|\b(?:lmk|let me know|tell me) if (?:you|u) (?:see|spot|find|hear)\b"
    # how their day's event went: "how did the dentist appointment go?" (not "how did the romans heat…")
    r"|\bhow did (?:the|your|ur) [\w' -]{1,30} go\b"
    r"|^(?:welcome back|wb)\b[^?？]{0,40}[?？]"  # "welcome back! was the flight ok?": for them
    # what they are into, what they have to show: "what are u all watching rn?", "pics??"
    r"|\bwhat (?:are|r) (?:you|u|y'?all|you guys|ppl|people)(?: all)?"
    r" (?:watching|playing|reading|listening to|into)\b"
    r"|\bwhat'?s everyone (?:watching|playing|reading|listening to|into|working on|eating|drinking)\b"
    r"|^(?:pics|photos|pic|screenshot|screenie)\s*(?:or it didn'?t happen|pls|please)?\s*[?？]+"
    # "did u get it in the end?", "did you like it?": what they did or got
    r"|(?:^|[,.!?？]\s*|\b(?:so|and|but|wait|ooh|oh|ok|lol|also)\s+)did (?:you|u|ya)"
    r" (?:end up|finally|actually|ever)?\s*(?:get|buy|go|like|love|enjoy|finish|pass|win|make it|pick)\b"
    r"|\b(?:what|which|where|when|how much)\b[^?？]*\bdid (?:you|u|ya)\b"  # "what did you fill it with?"
    r"|\b(?:your|ur) (?:new|old|own)\b"
    # whether the others share it: "does anyone else's cat scream at the vet or just mine", "is it just
    # me or…"
    r"|\bor (?:is it )?just (?:me|mine|us|ours)\b|^(?:is it|it'?s) (?:just|only) (?:me|us)\b"
    r"|\bam i the only one\b"
    # what happened to the group itself, wondered: "why did we lose it"
    r"|\bwhy did we\b"
    # who was with them: "who went with you?", "who'd you go with?"
    r"|\bwho (?:went|came|was|were|ran|raced|rode) (?:with|along with) (?:you|u|ya)\b"
    r"|\bwho(?:'d| did) (?:you|u|ya) (?:go|come|run|ride|travel) with\b"
    # whether they saw or heard it: "did you guys see the new trailer?", "have you seen the patch notes?"
    # (not "has anyone seen this error before", help asked for)
    r"|^(?:(?:so|and|btw|yo|omg|wait|ok)[,!\s]+)*(?:did|have|has) (?:(?:you|u|ya|y'?all|you guys)(?: all)?"
    r" (?:already |just )?(?:see|seen|watch|watched|catch|caught|hear|heard|read)\b"
    r"(?![^?？]*\b(?:error|problem|issue|bug|warning|crash)s?\b)"
    r"|(?:anyone|anybody|everyone) (?:already |just )?"
    r"(?:see|seen|watch|watched|catch|caught|hear|heard|read)\b"
    r"[^?？]{0,30}\b(?:trailer|teaser|video|vod|stream|episode|ep|news|announcement|patch notes|post|tweet"
    r"|pics|photos|(?:show)?match|game|show|movie|clip|finale|reveal|drop)s?\b)"
    # the link to what they made, asked of them: "link when its up?", "drop the link?"
    r"|^(?:got a |drop the |share the |post the |send the )?(?:link|url)(?: to it| pls| please"
    r"| when (?:it'?s|its|it is) (?:up|live|done|ready|out))?\s*[?？]+\W*$"
    # how their thing is going, checked in on: "dishwasher update?", "pizza status??"
    r"|^(?:[a-z']+\s+){1,2}(?:update|status|progress|report)\s*[?？]+\W*$"
    # their plans: "you going anywhere for the holidays?", "any plans this weekend?"
    r"|\b(?:you|u|ya) (?:going|headed|heading|off) (?:anywhere|somewhere)\b"
    # how they are, asked after: "knee any better?", "wrist still sore?"; their own day: "u off tomorrow?"
    r"|^(?:(?:how'?s|is|hows) (?:the |your |ur )?|(?:your|ur) )?"
    r"(?:back|knee|wrist|shoulder|neck|ankle|foot|leg|arm|head|throat|tooth|stomach|cold|cough|headache"
    r"|migraine|fever)"
    r" (?:any better|still (?:sore|hurting|bad|aching)|feeling (?:any )?better|doing|holding up|ok|okay)"
    r"\s*[?？]"
    r"|^(?:are )?(?:you|u) (?:working|off|in|on shift|at work) (?:tomorrow|tmrw|tmr|tonight)\s*[?？]"
    r"|^(?:so |and )?(?:any|got any) (?:big )?plans"
    r"(?: (?:this|for|tonight|tomorrow|today|on|over|after)\b|\s*[?？])"
    r"|\b(?:have|did) (?:you|u|ya) (?:already )?(?:decided|picked|named|booked|chosen)\b"
    # how they made what they show: "how do u get the portraits to fade like that, tween?"
    r"|\bhow (?:do|did|d) (?:you|u|ya) [^?？]{0,40}\blike (?:that|this)\b"
    # whether someone they know is coming: "anyone know if jun's coming?"
    r"|\bif (?!it\b|this\b|that\b|there\b|what\b)[a-z][\w.-]*(?:'s|’s) (?:coming|joining|around|playing)\b"
    # what they show, their opinion asked: "[image: …] better??"
    r"|^\[(?:image|screenshot|photo|pic)[^\]]*\]\s*"
    r"(?:better|thoughts|how'?s (?:this|that)|rate it|good|ok|any good)\W*$"
    # their call on who wins or gets through: "who do you guys think takes it tonight?", "your picks?"
    r"|\b(?:who|which (?:\w+ )?\w+) (?:do|d'?) ?(?:you|u|ya|y'?all|we)(?: guys| all)? think"
    r" (?:will |'?ll |is gonna |gonna )?(?:wins?|takes?|makes?|gets?|goes|go|tops?|finish(?:es)?)\b"
    r"|^(?:so |ok |and )?(?:your|ur|any) (?:picks|predictions|bets)\s*[?？]"
    # each one's own state, checked on: "did everyone get the day off?", "you all booked?"
    r"|\b(?:did|has|have) (?:everyone|everybody|you all|y'?all|you guys)(?: all)?"
    r" (?:get|got|manage|book|booked|finish|finished|sort|sorted|grab|buy|bought|request|requested"
    r"|pack|packed)\b"
    r"|^(?:so |ok |and )?(?:is )?(?:everyone|everybody|you all|y'?all)"
    r" (?:booked|packed|sorted|set|ready)\s*[?？]"
    # … or anyone's, their own or yet: "anyone actually booked their exam yet?", "anyone paid their dues?"
    r"|\b(?:any ?one|any ?body)(?: else| here)? (?:actually |already |even )?(?:booked|registered|signed up"
    r"|paid|ordered|submitted|renewed|applied|packed|received|sorted)"
    r" (?:[^?？]{0,30}\btheir\b|[^?？]{0,30}\byet\b)"
)
_JA_PERSONAL = re.compile(
    # who they think will win, asked of the room: 「どっち優勝すると思う？」 (a prediction is theirs to make)
    r"(?:どっち|どちら|どれ|誰|だれ|どこ)[^？?]{0,8}(?:優勝|勝つ|勝ち|勝て|くる|来る)[^？?]{0,6}と?(?:思う|予想)[？?]|"
    # what they show, their opinion asked: 「[image] 新しいボディ塗ってん、どう」
    r"^\[(?:image|画像|写真)\][^？?]*(?:どう|どない|いい感じ|どうかな)[？?]?\W*$"
    r"|(?:塗って|作って|描いて|撮って|組んで|組み立てて)(?:ん|みた|きた|もうた)[、,。!！\s]*(?:どう|どない)[？?]?\W*$|"
    r"どうだった|どうでした|どうなった(?:ん|の|[？?]|$)|どんな感じ|使い心地|住み心地|乗り心地|いくらした|いくらだった|いくらで買"
    r"|どこで買った|どこの(?:やつ|？|\?)|何にした|なににした|どれにした|どれ買った"
    r"|(?:なんぼ|いくつ|何(?:センチ|サイズ|色|号|cm|mm))にした"  # 「サイズなんぼにしたん？」: what they chose
    # whether they saw or heard it: 「新衣装のティザー見た？？？」, 「あのニュース聞いた？」
    r"|(?:見た|みた|観た|読んだ|聴いた|聞いた)(?:ん|の)?[？?]+\W*$"
    # whether they go anywhere: 「週末どっか行く？」, 「夏休みどこか行った？」
    r"|(?:どっか|どこか)(?:に|へ)?(?:遊びに|飲みに|食べに)?(?:行く|いく|行った|いった|行ってた|出かけ|出掛け)"
    r"[^？?。]{0,4}[？?]"
    # what they are doing now: 「いま何やってんの」, 「今なにしてる？」 (everyone's: `invitations._DOINGS`)
    r"|^(?:いま|今)(?:は)?(?:何|なに|なん)(?:を)?(?:やって|して|やっと|しと)(?:ん|る|ます)(?:の|ん)?[？?]*\W*$"
    # what they did: 「どこ行ったんだっけ」「何買ったの？」「誰と行ったの」「何の札置いてたの」
    r"|(?:どこ|何|なに|誰と|だれと)(?:に|へ|を|で|の)?(?:行った|いった|行ってた|食べた|買った|観た|見た|頼んだ)"
    r"(?:の|ん|っけ|[？?])"
    r"|(?:何|なに)の\S{1,4}(?:置いてた|置いた|使ってた|入れてた|やってた|持ってた|付けてた)"
    r"(?:の|ん|っけ|[？?])"
    # … or where they did it: 「どこで釣ったん？」, 「どこで撮ったの？」
    r"|どこで[^？?。、]{0,6}(?:った|んだ|いた|した|てた)(?:ん|の)?[？?]"
    # … or how much of it they did: 「何枚書いたん？」 (not 「何人来たっけ」, the room's)
    r"|(?:何|なん)(?:枚|匹|本|回|周|冊|杯|個|キロ|km|時間|ページ)[^？?。、]{0,6}(?:った|んだ|いた|した|てた|れた)"
    r"(?:ん|の)?[？?]"
    # … or whether they did it: 「スジエビ持って帰ったの？」 (not 「誰か買った？」)
    r"|^(?!.*(?:みんな|皆|誰か|だれか|どなたか))[^？?]*(?:持って帰った|持ち帰った|連れて帰った|買った"
    r"|行った|いった|食べた|飲んだ|釣った|撮った|捕まえた|申し込んだ)(?:の|ん)[？?]+\W*$"
    # what they will do with it: 「製麺機で何作るの？」
    r"|(?:何|なに)(?:を)?(?:作る|つくる|する|買う|食べる|頼む|着る|撮る)の[？?]"
    # what they are into: 「今期なに見てる？」「最近なにやってる？」
    r"|(?:何|なに)(?:を)?(?:見て|観て|聴いて|聞いて|読んで|やって|遊んで|使って|ハマって)(?:る|ます)(?:の|ん)?[？?]"
    # asking them to share: 「写真ないの？」「写真見せて」
    r"|(?:写真|画像|動画|スクショ)(?:ないの|ある|ないん|見せて|はよ|貼って)"
    # whether they have done it yet: 「名前もう決めた？」「ワクチンもう打った？」
    r"|もう(?:慣れた|なれた|決めた|買った|行った|見た|観た|食べた|やった|終わった|打った|出した|予約した|申し込んだ|読んだ)"
    r"(?:の|ん)?[？?]"
    # welcoming someone back, then asking them: 「おつかれ〜 今日混んでた？」, 「おかえり！どうだった？」
    r"|^(?:おつかれ|お疲れ|おつ|おかえり|お帰り)(?!さま)[ー〜~！!、,。\s]+[^？?]{1,24}[？?]"
    # how they made what they show: 「それどうやってそんな綺麗に咲かせたの？」
    r"|(?:どうやって|どうやったら)[^？?]{0,16}(?:そんな|こんな|あんな|そんなに|こんなに)"
    # how they do a thing of theirs named first, what their setup is now: 「ファズフェイスって電源
    # どうしてるん？」, 「今何Ω付いてる？」 (not the room's 「装備どうしてる？」, 「…ってみんなどうしてる？」)
    r"|^(?!.*(?:みんな|皆|誰か|だれか|どなたか))[^？?]*?って[^？?]{0,12}どうして(?:る|ます|いる)(?:の|ん)?[？?]"
    # why they do or know it, asked of them: 「なんで覚えてるの」, 「なんで知ってるん？」
    r"|^(?:え[、,]?\s*)?(?:なんで|何で|なぜ)[ぁ-ゖ一-龥]{1,3}(?:てる|てた|てん)(?:の|ん)?[？?]*\W*$"
    # what was said or done to them: 「こわ、何言われてたん」
    r"|(?:何|なに)(?:て|を)?(?:言われ|聞かれ|され)(?:た|てた|とった)(?:の|ん)?"
    r"|(?:今|いま)(?:何|なに|どれ|どの|どんな)[^？?。]{0,10}(?:付いて|ついて|使って|入って|挿して|刺さって|なって)"
    r"(?:る|ます)(?:の|ん)?[？?]"
    # whether the others share it: 「…絶対左に流れるんだけど私だけ？」, 「俺だけかな？」
    r"|(?:私|わたし|あたし|俺|おれ|僕|ぼく|うち|自分)だけ(?:かな|かい|なの|なん|やろか|ですか)?[？?]+\W*$"
    # how they are, asked after: 「肩こり大丈夫？」, 「首の寝違えもう治った？」, 「膝の具合どう(だ)？」; their
    # own day tomorrow: 「明日はバイト？」
    r"|(?:肩こり|肩|腰|首|膝|ひざ|足首|手首|腕|頭痛|頭|お腹|おなか|喉|のど|背中|歯|風邪|かぜ|熱|体調|具合|怪我|ケガ|けが|寝違え)"
    r"(?:って|は|の)?(?:具合|調子)?(?:は|って)?(?:もう)?(?:大丈夫|だいじょぶ|平気|治った|なおった|良くなった|よくなった|マシ|まし|どう)"
    r"(?:に?なった)?(?:の|ん|だ|です(?:か)?|かな)?[？?]"
    r"|^(?:明日|あした|今日|きょう|今夜)(?:って|は|も)?(?:仕事|休み|学校|バイト|出勤|早番|遅番|夜勤|朝早い)(?:なの|なん)?[？?]+\W*$"
    # their own event, checked on: 「面接って無事終わった？」, 「引っ越し終わった？」
    r"|(?:引っ越し|引越し|面接|試験|テスト|発表|手術|退院|納品|締め?切り?|レポート|課題|卒論|修論|作業|準備|片付け|大掃除)"
    r"(?:って|は)?(?:もう|無事|ちゃんと)?(?:終わった|おわった|済んだ|すんだ|受かった|通った)(?:の|ん)?[？?]"
    # a request to the one who will be there to see: 「クロワッサン残ってたら教えて」
    r"|(?:あったら|残ってたら|売ってたら|見つけたら|見かけたら|空いてたら)(?:教えて|おしえて|連絡して|言って)"
    # each one's own state, checked on: 「みんな休み取れた？」, 「各自チケット買えた？」
    r"|(?!.*(?:どうやっ|どうやる|どうすれ|やり方|方法|コツ))(?:みんな|皆|各自|全員)[^？?。]{0,12}(?:取れた|とれた|決まった|終わった|済んだ|できた|出来た|買えた|届いた"
    r"|予約した|予約できた|申し込んだ|準備できた)(?:の|ん)?[？?]"
    # their call on who wins or gets through: 「関西勢は今年どこが全日本行けると思う？」, 「誰が勝つと思う？」
    r"|(?:どこ|誰|だれ|どの\S{0,4}|どっち|何位)(?:が|は|まで)[^？?。]{0,20}"
    r"(?:勝つ|勝て|勝ち|行ける|いける|優勝|残る|残れ|上がる|上がれ|通る|抜ける|獲る|取る|強い)"
    r"(?:と|って)?(?:思う|思います|予想)[？?]"
)


def personal(text: str) -> bool:
    """A question about the one asked ("which one did u end up getting", "how's it feel", 「どうだった？」):
    theirs to answer; a member who was not there cannot."""
    low = normalized(text)
    if low.isascii() and _HOW_TO.match(low):
        return False  # "is there any way to look at your old run boards…": a how-to, "your" anyone's
    if _TOLD_THEN_ASKED.search(low) and not TO_THE_ROOM.search(low):
        return True  # "unplug it for a minute. does the light come back?": for the one told what to try
    if not low.isascii() and _JA_ANYONE_WHO.search(low) and not _JA_KNOWS.search(low):
        return True
    if _CHEERED.search(low):
        return True  # "dentist again? hang in there", 「レポート？がんば〜」: a friend's trouble guessed at
    return bool(_EN_PERSONAL.search(low) if low.isascii() else _JA_PERSONAL.search(low))


# A short question then a cheer for the one asked: the question is only a guess at what they face.
_CHEERED = re.compile(
    r"^(?!\s*(?:what|which|how|where|who|why|when|whose)\b)[^?？]{1,24}[?？]+\s*"
    r"(?:がんば|頑張|ファイト|お大事に|\bgl\b|good luck|hang in there|you got this"
    r"|feel better|get well|you'?ll be fine)"
)


# A helper's line that tells the one they help what to try, then asks of what they have or did: 「今ちょっと
# 味見してみて。…あと蓋はきっちり閉めてる？」, "try another cable first. is it usb 3?"; or asks them for
# their details: 「iPadOSのバージョンも教えて」.
_TOLD_THEN_ASKED = re.compile(
    r"(?:[てで]みて|して(?:ください|下さい))[。！!\s][^？?]*[？?]"
    r"|^(?:ok |so |first |then )?(?:try|unplug|restart|reboot|check|make sure)\b[^?.!]*[.!]\s+[^?]*\?"
    r"|(?:バージョン|型番|機種|os|環境|スペック)[^？?。]{0,8}(?:教えて|おしえて)"
    # … or asks them to look: 「…オンになってないか見られます？」, "can you check which port it's in?"
    r"|(?:見|確認|試|チェック|調べ)(?:られ|でき|てもらえ|てみてもらえ|てみられ)(?:ます|る)[？?]"
    r"|^(?:\S+[,:]?\s+)?(?:can|could) (?:you|u) (?:check|try|look|see if|run|send|post|tell me|share|paste)\b"
)
# Whether someone here is so, or wants it: 「今回コルダ上がる人おるん？」, 「ボールいる人いる？」 — theirs to
# say (not 「分かる人いる？」, help asked for).
_JA_ANYONE_WHO = re.compile(
    r"人(?:おる|いる|いない|おらん|おらへん|いますか|いません|います)(?:ん|の|かな|か)?[？?]"
)
_JA_KNOWS = re.compile(
    r"(?:分かる|わかる|知って|知っとる|詳しい|教えて|分かり|わかり|できる|出来る)(?:方|人)"
)


_HOW_TO = re.compile(r"^(?:\S+[,.!]?\s+)?(?:is there (?:a|any) ?way|how (?:do|can|would) (?:i|we|one))\b")


# A suggestion put as a question, to someone with a problem: "maybe try clearing the cache?", "try a
# different cable?" — theirs to take or leave. ("have you tried…?" asks what they did: it stays a question.)
# A cause guessed at, for the one with the trouble: "maybe the speed sensor magnet? mine slid…",
# 「電池じゃね？あれ寒くなると一気に減るよ」 (the guess, then why).
_CAUSE_GUESSED = re.compile(
    r"^(?:maybe|prob|probably|could be|might be|sounds like)\s+"
    r"(?:the|your|ur|a|an|it'?s|its|that)\b[^?？]{1,40}[?？]"
    r"|^[^?？\s]{1,16}(?:じゃね|じゃない|とちゃう|ちゃう|やない)[?？]+\s*[^?？]{4,}$"
)


def guesses_a_cause(text: str) -> bool:
    """Is the line a cause guessed at for someone's trouble ("maybe the cable? …", 「電池じゃね？…」)?"""
    return bool(_CAUSE_GUESSED.match(normalized(text)))


_SUGGESTION = re.compile(
    r"^(?:maybe|perhaps|or|just|you could|could)?\s*(?:just )?try \w+[^?？]*[?？]"
    # a cause guessed at, for the one with the trouble (`_CAUSE_GUESSED`)
    rf"|{_CAUSE_GUESSED.pattern}"
    # 「ホットミルク飲めば？」, 「寝たら？」, 「羊数えてみたら？」: what to do, put to the one who said their
    # trouble (not 「どうすれば？」, asked, nor 「雨だったら？」, a what-if)
    r"|^(?![^?？]*(?:どう|何|なに|なん|いつ|どこ|誰|だれ|どれ))[^?？]{1,20}"
    r"(?:[えけげせぜてでねべぺめれ]ば|(?<![だや]っ)たら|(?<!な)だら)(?:いい(?:じゃん|やん|のに)?|ええやん)?[?？]+[w笑ｗ]*$"
)


# A goodbye that asks something on the way out (「おやすみ！結果出たら教えてね」, "gn! still on for sat?"):
# for the people who stay, not a question for the bot.
_SIGNS_OFF = re.compile(
    r"^(?:おやすみ|お休み|おやすー|寝るね|寝ます|落ちます|またね|じゃあね|gn\b|good ?night\b"
    r"|(?:night|nite|bye|cya|see (?:ya|you))(?: all| everyone| guys| y'?all)?(?=\s*[!.,~👋🌙]|\s*$))"
)


# … or that ends with one: 「生きてたらね？ｗ おやすみ〜」, "still on for sat? gn".
_SIGNS_OFF_LAST = re.compile(
    r"(?:^|[\s!！?？。、,.ｗw笑])(?:おやすみ(?:なさい)?|お休み|おやすー|落ちます|またね|gn|good ?night"
    r"|night (?:all|everyone|guys|y'?all))[\sー〜~!！.。ｗw笑👋🌙💤]*$"
)


# A line that says it asks something: 「ちょっと聞きたいんだけど、…だよね？」, "quick question, …, right?".
_ANNOUNCED = re.compile(
    r"^(?:ok |so |hey |hi )?(?:quick|dumb|stupid|random|noob|silly) q(?:uestion)?\b|^(?:q|question)\s*:"
    r"|^(?:ちょっと|すみません、?|あの、?)?(?:聞きたいんだけど|聞きたいんですけど|質問(?:なんですけど|なんだけど|です|があります|いい))"
)


# A tag question, then the asker saying they forgot how or do not know: 「…送れたよね？やり方忘れた」.
_FORGOT_HOW = re.compile(
    r"(?:よね|よな|でしょ|だろ|じゃん|っけ)[ぇえ〜~ー]*[？?]+\s*(?:[^？?\s]{0,6}(?:やり方|やりかた|方法|手順))?"
    r"(?:忘れた|わすれた|わからん|わかんない|わからない|分からん|分かんない|知らん)"
)


def kind_of(text: str) -> str:
    """What the line asks, as a kind: "invitation", "rhetorical", "proposal", "farewell", "personal" or
    "question"."""
    low = normalized(text)
    if _SIGNS_OFF.match(low) or _SIGNS_OFF_LAST.search(low):
        return "farewell"
    if _ANNOUNCED.search(low) or _FORGOT_HOW.search(low):
        return "question"  # its tag (「…だよね？」) asks to be told
    if _OWN_PURPOSE.search(low):
        # What it asks, not what its asker wants it for ("…or did that only come to pc? wanna grab it for
        # my train commute" asks a fact; the "wanna" is theirs)
        text = _asked_part(text)
        low = normalized(text)
    if invites(text):
        return "invitation"
    if rhetorical(text) or _SURE_OF_THE_OFFER.match(low) or _SHARES_NEWS.search(low):
        return "rhetorical"
    if proposes(text) or _accepts(normalized(text)) or _SUGGESTION.match(normalized(text)):
        return "proposal"
    # 「日曜どうする？ 上流のほう行く？」: a plan put to the group first, then a question about it
    first = re.match(r"[^?？]+[?？]+", low)
    if (
        first
        and not low.isascii()
        and first.end() < len(low.rstrip())
        and kind_of(first.group(0)) == "proposal"
    ):
        return "proposal"
    if personal(text):
        return "personal"
    return "question"


# Surprise at what was just offered, taken up at once (「いいの？持ってく」, "you sure? i'll grab it"): for
# the one who offered, if anyone.
_SURE_OF_THE_OFFER = re.compile(
    r"^(?:(?:え|ええ|oh|wait|wow)[、,!！\s]*)?(?:いいの|いいん(?:です)?か|いいんですか|まじで|本当に|ほんとに|ほんま"
    r"|you sure|u sure|are you sure|for real|really)[？?]+"
    r"(?!\s*(?:does|do|did|is|are|was|can|could|will|would|how|what|why|where|which|when|who)\b)[^？?]{0,24}$"
)


# News shared as a question, then told by its asker ("did anyone catch the wildcard uploads? the loop ones
# were unreal", 「土曜の気温見た？山の上-15℃予報だった」): they saw it; not "did anyone see my charger? …",
# "did you catch the walleye yet? …", "did anyone catch the score? i missed it", nor "has anyone seen …?",
# which asks for someone who has.
_SHARES_NEWS = re.compile(
    r"^(?:\S+[,.!]?\s+)?did (?:any ?one|any ?body|you|u|y'?all|you guys|everyone)"
    r"(?: else| here)? (?:catch|see|watch|hear)\b(?!\s+(?:my|our)\b)(?![^?？]*\byet\b)[^?？]*[?？]+\s+"
    r"(?![^?？]*\b(?:i|i'm|im|i've|my|me|missed|anyone|someone|somebody)\b)[^?？]{8,}$"
    r"|(?:見た|観た|見ました|聞いた|読んだ)[？?]+\s*(?![^？?]*(?:見逃|聞き逃|俺|私|僕|自分|わたし|教えて))[^？?]{6,}$"
)


def _asked_part(text: str) -> str:
    """The line up to its last question mark."""
    marks = [m.end() for m in re.finditer(r"[?？]+", text)]
    return text[: marks[-1]] if marks else text


# After the question, what its asker wants the answer for: "…? wanna grab it for my train commute", "…?
# trying to decide if i build the lens line first".
_OWN_PURPOSE = re.compile(
    r"[?？]\s*(?:i )?(?:wanna|want to|gonna|trying to|need to)\b[^?？]*\b(?:my|me|i)\b[^?？]*$"
)


def for_the_bot(text: str) -> bool:
    """A question a member could take up for the asker: not an invitation, rhetorical, a group's plan or
    one about the person asked."""
    return kind_of(text) == "question"


def for_the_people(text: str) -> bool:
    """An invitation, a rhetorical question or a group's plan: nobody's to answer but the people asked,
    even in the bot's own exchange (a personal question or a goodbye's question put to the bot is the
    bot's)."""
    return kind_of(text) in ("invitation", "rhetorical", "proposal")


_WH = re.compile(
    r"^(?:\S+[:,]\s*)?(?:what|what's|whats|how|where|which|who|why|when|whose)\b"
    r"|(?:何|なに|どこ|どう|いつ|誰|だれ|どれ|どの|どっち|いくら|なぜ|なんで)(?!か|も|でも)"
)


def asks_yes_no(question: str) -> bool:
    """A question a yes or a no answers (not "which…?", 「どこ？」); "does anyone know how…?" is one too, and
    so is one that asks yes or no first (「昨日の試合見た？？9回のあれ何ｗｗ」)."""
    question = normalized(question)
    first = re.split(r"[?？]", question, maxsplit=1)[0]
    yes_no_first = first != question and not _WH.search(first)
    return (
        not _WH.search(question)
        or yes_no_first
        or bool(re.match(r"^(?:does|do|did|is|has|can) (?:any|some)", question))
    )
