"""question_kinds: which questions are for the bot at all, and what kind of answer a question asks for."""

from __future__ import annotations

import pytest

from kikimimi.domain.invitations import invites
from kikimimi.domain.question_kinds import (
    asks_a_guess,
    asks_a_number,
    asks_yes_no,
    for_the_bot,
    for_the_people,
    guesses,
    hedges,
    kind_of,
)

KINDS = [
    # a headcount, a call people join, people's time for a game on a day ahead
    ("ok who's actually coming to the pub quiz friday?", "invitation"),
    ("who is actually in charge of the wiki?", "question"),
    ("anyone joining the sketch-along stream tuesday?", "invitation"),
    ("anyone wanna help me playtest my new deck saturday? 2 hrs max", "invitation"),
    ("spare ticket for the gig still going, no takers? 😅", "invitation"),  # an offer put again (session 50)
    ("No takers? :-(", "question"),  # bare, in a help room: a bump of one's own question
    ("誰か今夜マダミス回さない？2人足りない", "invitation"),  # 回す, a game run together
    ("土曜の朝釣りしない？潮いいらしい", "proposal"),  # an outing named for a day, a reason after
    ("日曜ブックオフ巡りしない？ジャンク漁りたい", "proposal"),
    ("誰かモバイルバッテリー持ってない？", "question"),  # asked for a thing, not a doing
    ("can anyone help me fix my wiring before saturday?", "question"),
    ("明日の夜ディスコで合奏する人ー", "invitation"),
    ("うちも上の階うるさいよ、夜中に掃除機かける人いるし", "question"),
    ("今夜これ使ってる人いる？", "personal"),
    # the group's plan asked of the group
    ("what are we opening with, the same reel as last time?", "proposal"),
    # a share of a group buy; a job done together at a planned time, not help by a deadline
    ("anyone want in on a bulk order of filament? 10% off at 5 spools", "invitation"),
    ("coffee run at 3, who wants in?", "invitation"),
    ("does anyone want in-app purchases turned off on the kids tablet?", "question"),
    ("anyone want to help sort the lost and found tonight? it's a mountain", "invitation"),
    # the group's plan put as a bare deed; a date people plan for; one's own invitation asked again
    ("meet outside the north gate at 6:30?", "proposal"),
    ("carpool from the library lot? i can take four", "proposal"),
    ("carpool lanes open on weekends?", "question"),
    ("anyone doing the maker faire on the 21st?", "invitation"),
    ("anyone going to the repair cafe on march 8?", "invitation"),
    ("anyone doing the 2nd edition rules?", "question"),
    ("nobody for trivia tonight? we need two more", "invitation"),
    ("no one up for a dawn paddle?", "invitation"),
    ("nobody knows why the build fails?", "question"),
    ("nobody wants to help me with the fn keys?", "question"),
    # joining a plan with a question of it; a day ahead by the month; one's own invitation asked again
    ("im in for the late show, save me a seat?", "invitation"),
    ("im in canada, does the store ship here?", "question"),
    ("anyone want to co-op the new campaign next weekend?", "invitation"),
    ("鍋会だれもいない？まあいいけど", "invitation"),
    # surprise at the time, a muse that answers itself
    ("え、もうそんな季節？", "rhetorical"),
    ("3日遅れたけど、まあいいか", "rhetorical"),
    # the group's plan: mused, confirmed, its contingency
    ("ほな二次会はカラオケかな", "proposal"),
    ("じゃあ明日は晴れるかな", "question"),
    ("来月の第2土曜で確定でいい？", "proposal"),
    ("日曜雨ならどうする？", "proposal"),
    ("スマホ落としたらどうする？", "question"),
    # polls of the group; what everyone is into; company asked for; a place to fill; joining with a question
    ("what are we thinking, over or under 180 for the final?", "proposal"),
    ("遠征、金曜と土曜どっちがいい人多い？", "proposal"),
    ("what's everyone reading lately? i need a new novel", "personal"),
    ("anyone want to do the couch to 5k program with me?", "invitation"),
    ("anyone want to help me with this error?", "question"),
    ("board game night at mine friday, still need one more. anyone?", "invitation"),
    ("参加！集合どこ？", "invitation"),
    ("anyone want to help me understand why my build fails today?", "question"),
    # what they are doing now, asked of someone
    ("いま何やってんの", "personal"),
    ("今なにしてる？", "personal"),
    ("いま何やってもエラーになる", "question"),
    # something to do, fancied by name; people's time asked for on a day ahead (not help asked for)
    ("anyone fancy a bike ride to the coast tomorrow? i'll bring snacks", "invitation"),
    ("明日の練習試合、見に来てくれる人ー？", "invitation"),
    ("who called you", "question"),
    # being named, answered in jest
    ("呼んだ？それ入れたの俺だよ", "rhetorical"),
    ("you rang? yeah i set that bot up", "rhetorical"),
    ("誰が呼んだの？", "question"),
    # The group's plan asked of the group, first or alone.
    ("日曜どうする？ 上流のほう行く？", "proposal"),
    ("what are we doing friday? bowling again?", "proposal"),
    ("what time are we meeting", "proposal"),
    ("what are we doing wrong here, the build fails", "question"),
    # an offer said short, as in Kansai
    ("描こか？", "proposal"),
    ("持ってこか？", "proposal"),
    ("どこか？", "question"),
    ("来週から何見る？", "proposal"),  # what the group will watch
    ("何曜日にする？", "proposal"),
    ("このアニメ何話まである？", "question"),
    ("なんか設定で直せたりしませんか？", "question"),  # 〜たりしませんか asks, it proposes nothing
    # The group's plan asked again: "same time next week?"
    ("are we doing the same time next week?", "proposal"),
    ("same time tomorrow?", "proposal"),
    ("what time next week?", "question"),
    # A helper tells the one they help what to try, then asks of theirs, or asks for their details.
    ("今ちょっと味見してみて。しょっぱいだけか、甘みが出てきてるか。あと蓋はきっちり閉めてる？", "personal"),
    ("あ、iPadOSのバージョンもいくつか教えて", "personal"),
    ("再起動してみて。誰かこのエラー分かる？", "question"),  # then asks the room
    ("同じ症状の人いる？", "personal"),  # whether someone here has it: theirs to say
    ("今回コルダ上がる人おるん？", "personal"),
    ("このエラー分かる人いる？", "question"),  # help asked for
    ("check the pins. anyone else have this?", "question"),
    ("どうやって設定するか教えて", "question"),  # a how-to, anyone's to answer
    ("ルーターの設定で、ネットワーク分離がオンになってないか見られます？", "personal"),  # asks them to look
    ("can you check which port it's plugged into?", "personal"),
    ("do we want departure slots or does everyone just taxi at once", "proposal"),  # a choice for the group
    # Places taken so far, the rest offered to the room.
    ("ok 3 seats sat: marta, ravi, ? anyone else", "invitation"),
    ("does anyone else have this bug?", "question"),
    # Invitations: for the people asked.
    ("coffee break, anyone?", "invitation"),
    ("burgers tonight?", "invitation"),
    ("one more game?", "invitation"),
    # a habit of one's own, put to the room to relate to
    ("does anyone else hum the same jingle all night or is that a me thing", "rhetorical"),
    # a view put for agreement, and a complaint at how things always are (session 54)
    ("ok. great set though?? the crowd was into it", "rhetorical"),
    ("is the pool open today though?", "question"),
    ("なんで休みの日に限っていつもこんな寒いわけ？？", "rhetorical"),
    ("なんで冷蔵庫のプリンがないの？？", "question"),
    ("なんでこんなエラー出るの？？", "question"),
    ("なんで夜中なのにこんな暑いわけ？？", "rhetorical"),
    ("another round, anyone?", "invitation"),
    ("board games saturday, who's in?", "invitation"),
    ("who's running talk-in at field day? last year nobody did", "invitation"),  # a job to take on
    ("anyone down for a walk after work?", "invitation"),
    ("who wants to grab ramen?", "invitation"),
    ("i wanna play some ranked tonight, who's in?", "invitation"),  # the asker's wish, put to the room
    # … but the asker's own plan, then a question, is a question.
    ("I want to get a MiniDV camera. How do I know it will work with linux?", "question"),
    ("i want to get a new gpu, anyone know if the 4070 is worth it?", "question"),
    ("is the ferry running sunday? really don't want to get stuck on the island", "question"),  # a fear
    ("anyone going to the meetup on friday?", "invitation"),
    # going up or out on a day, coming to something on one (session 46)
    ("anyone heading out to the reservoir sunday? thinking an early swim", "invitation"),
    ("anyone coming to the repair cafe thursday?", "invitation"),
    ("anyone going to upgrade the router this weekend or waiting for the patch?", "question"),
    # a thing to settle now, for the group
    ("そろそろ会場決めへん？", "proposal"),
    ("まだ決めてない？", "question"),
    ("anyone watching the game tonight?", "invitation"),  # whose plans: for the people asked
    ("who's streaming saturday?", "invitation"),
    ("カラオケ行く人いる？", "invitation"),
    ("誰か映画見に行く人ー", "invitation"),
    ("週末みんなで遊ばない？", "invitation"),
    # Plans asked of people, in Japanese: a day or an hour, 誰か, and what they would do.
    ("明日の配信だれか見る？", "invitation"),
    ("今夜だれか段位戦いく？", "invitation"),
    ("誰かこのあと通話しない？眠れなくて", "invitation"),
    ("誰か今からギャザラーのリーヴ一緒に回らん？暇な人〜", "invitation"),
    ("誰かこのエラーの直し方知らん？", "question"),
    ("22時の卓あと1人なんだけど誰か入れる？", "invitation"),
    ("anyone wanna do a pancake run? the diner on 5th is open", "invitation"),
    # A goodbye that asks something on the way out: for the people who stay.
    ("おやすみ！面接結果出たら教えてね", "farewell"),
    ("gn! you still on for sat?", "farewell"),
    # Rhetorical: they ask nothing.
    ("the release went out on a friday, right?", "rhetorical"),
    ("結局仲直りしてた。何だったの", "rhetorical"),  # what it all was, wondered after telling it
    ("昨日の地震何だったの？", "question"),
    ("it's freezing in here, isn't it?", "rhetorical"),
    # settled by its asker in the same line: the room is asked nothing any more
    ("nobody up for splitting the bulk order? ok i'll just buy the small bag", "rhetorical"),
    ("anyone got a spare 3d printer nozzle? nvm i'll just order one", "rhetorical"),
    ("ベランダの配線、誰かわかる？じゃあ自分で調べるか", "rhetorical"),
    ("空いてる人いない？まあいいや", "rhetorical"),
    # … but a question still asked after a plan of one's own is a question
    ("ok i'll just reinstall it, but which version should i get?", "question"),
    ("じゃあ一人で行くけど、駐車場ってある？", "question"),
    ("you can't be serious?!", "rhetorical"),
    ("who even does that?", "rhetorical"),
    ("who cares?", "rhetorical"),
    ("この店、前より高くなったよね？", "rhetorical"),
    ("マジで？！", "rhetorical"),
    ("50は多くない？w", "rhetorical"),
    # a retort with 「が？」, to an invitation: what one is busy with, told (session 62)
    ("レポート中ですが？？", "rhetorical"),
    ("山頂でゴミ捨ててる人いた。誰がそんなことするの？？", "rhetorical"),  # who would, wondered at
    # a prediction asked of the room: theirs to make (session 62)
    ("どっち優勝すると思う？", "personal"),
    ("who do you guys think wins?", "personal"),
    ("which one do you think is better?", "question"),
    ("明日テストなんだが？", "rhetorical"),
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
    ("このキーボード、打鍵音ちょっと高く感じない？", "rhetorical"),  # a feeling to share (session 48)
    ("夏の夕方の匂いって好きだと思わない？", "rhetorical"),
    ("土曜の夜さ、みんなで一作目から同時視聴しない？", "proposal"),  # any deed, all at once (session 48)
    ("みんなで決めたことじゃない？", "question"),
    ("誰が最初に寝落ちするか選手権やる？", "proposal"),  # a thing to do together, named
    ("このあとマリカやる？", "proposal"),
    ("これどうやる？", "question"),
    ("この球根って、冬でも発芽する？", "question"),  # what happens to a thing, not a deed (session 50)
    ("根っこ全部切ったんだけど、これでもまた発根する？", "question"),
    ("ライト替えたらすぐ点灯する？", "question"),
    ("今日ボルダリングする？", "proposal"),
    # A suggestion put as a question, to someone with a problem.
    ("maybe try clearing the cache? browsers hold onto favicons forever", "proposal"),
    ("try a different cable?", "proposal"),
    # A cause guessed at, for the one with the trouble (session 50).
    ("maybe the battery contacts? mine corroded after the rain", "proposal"),
    ("could be your router's band steering? had the same drops", "proposal"),
    ("ヒューズじゃね？うちも夏に一回飛んだ", "proposal"),
    ("これ壊れてるんじゃない？", "question"),  # no reason after: it asks
    # About the one asked: what they got, did, felt. Theirs to answer.
    ("wait which one did u end up getting", "personal"),
    ("ooh rapid trigger? hows it feel", "personal"),
    ("how was the concert?", "personal"),
    # Their call on who wins: theirs to make.
    ("関西勢は今年どこが全日本行けると思う？", "personal"),
    ("誰が勝つと思う？", "personal"),
    ("who do you guys think takes it tonight?", "personal"),
    ("which team do you think will win the cup?", "personal"),
    ("wifi切れるんですけど、どうしたらいいと思いますか？", "question"),
    # whether someone they know is coming, what they show, what they did: theirs
    ("anyone know if jun's coming? he said maybe", "personal"),
    ("is it coming to ps5?", "question"),
    ("anyone know if ranked is coming back?", "question"),
    ("[image: same terminus, now 4 platforms and a flyover] better??", "personal"),
    ("右下って何の札置いてたの", "personal"),
    ("so did you get the job??", "personal"),
    ("what did you fill it with?", "personal"),
    ("えーいいな！どこの？", "personal"),
    ("おつ！どこ行ったんだっけ", "personal"),
    ("旅行どうだった？", "personal"),
    ("そういえばこないだの子とはどうなったん", "personal"),
    ("どこの買ったの？", "personal"),
    ("で、製麺機で何作るの？", "personal"),
    ("ファズフェイスって電源どうしてるん？PNPやろ", "personal"),  # how they do it
    ("9pm est?", "proposal"),  # a time, in a time zone
    ("anyone wanna co-watch the agdq run before the race? i'll stream it in vc", "invitation"),
    ("土曜のやつ、持ち時間どうする？", "proposal"),  # the group's call, its subject first
    ("土曜のジョーシンの大会だれ行く？", "invitation"),  # who is going, on a planned day
    ("今夜ボイチャでセッティング詰めよかなって思ってんねんけど、誰か来る？", "invitation"),
    ("こわ、何言われてたん", "personal"),  # what was said to them
    ("今何Ω付いてる？", "personal"),  # their setup now
    # whether they go anywhere, what their plans are: theirs (or a plan), never the bot's
    ("週末どっか行く？", "personal"),
    ("夏休みどこか行った？", "personal"),
    ("どっか空いてる店知らない？", "question"),
    ("you going anywhere for the holidays?", "personal"),
    ("any plans this weekend?", "personal"),
    ("any plans to add a dark mode?", "question"),
    ("is anywhere open late near the station?", "question"),
    ("dishwasher update?", "personal"),  # how their thing is going, checked in on
    ("is there an update?", "question"),
    # a place in the game offered to the room
    ("one more slot, anyone lurking? :wololo:", "invitation"),
    ("2 spots left, who wants in?", "invitation"),
    ("one more slot in the config file, anyone know why?", "question"),
    # whether they saw or heard it: news shared as a question, for the people
    ("今日の新衣装のティザー見た？？？", "personal"),
    ("昨日の配信みた？", "personal"),
    ("did you guys see the new trailer?", "personal"),
    ("did anyone see the patch notes?", "personal"),
    ("did anyone see my charger? its a white anker one", "question"),
    ("has anyone seen this error before: E: dpkg was interrupted?", "question"),  # help asked for
    ("フィギュアのホコリ対策ってみんなどうしてる？", "question"),  # advice asked of the room
    ("装備どうしてる？", "question"),
    ("LEDがめっちゃ眩しいんですけど抵抗何Ωにしたらいいですか", "question"),
    # Western dialect: 「行かん？」 for 「行かない？」; "too busy, right?" in 〜すぎん？.
    ("誰か今からマルチで鍛石集め行かん？", "invitation"),
    ("明日の昼ラーメン行かん？駅前にできた新しいとこ", "invitation"),
    ("土曜の夜BGAで卓立てへん？", "invitation"),  # Kansai's へん
    ("明日雨降らへん？", "question"),
    ("集合は秦野駅北口 7:30 でどう", "proposal"),
    ("みんな忙しすぎん？", "rhetorical"),
    ("なんでこれ動かん？", "question"),
    # What they are into, what they have to show: theirs.
    ("今期なに見てる？", "personal"),
    ("いいな〜 写真ないの？", "personal"),
    ("what are u all watching rn?", "personal"),
    ("pics??", "personal"),
    ("名前もう決めた？", "personal"),
    ("have u decided on a name yet?", "personal"),
    ("新作もう発売された？", "question"),
    ("このエラーなに？", "question"),
    # An outing and "anyone" end the line; a line that says it asks is a question, whatever its tag.
    ("ok last call boba anyone??", "invitation"),
    ("is it just me or does every show end on a cliffhanger now", "rhetorical"),
    ("ちょっと聞きたいんだけど、リーチ後の暗槓ってOKなんだっけ？送り槓はダメなんだよね？", "question"),
    ("quick question, the api is rest right?", "question"),
    # The group's own plan; a why that trails off into a feeling.
    ("おつー　今日何時から回す？", "proposal"),
    ("なんでこの時間に見せるの…お腹すいた", "rhetorical"),
    ("なんでエラー出るの…？", "question"),
    ("ほんとそれ、土曜どこいった", "rhetorical"),
    ("今日あっつすぎん？？溶ける", "rhetorical"),
    # … but a tag that says its asker forgot how (session 58) asks to be told
    ("スイッチのスクショってスマホに送れたよね？やり方忘れた", "question"),
    ("switch screenshots can go to your phone right? forgot how tho", "question"),
    ("this map is so cursed right?", "rhetorical"),
    ("なんで6月だけないんだよ誰が決めたん", "rhetorical"),
    ("てかなんで説明書のネジの番号と袋の番号ちゃうねん。なんでこうなるん", "rhetorical"),  # a Kansai gripe
    ("なんでこのエラー出るん？", "question"),
    # where one's own things went: only they can know
    ("キーキャップ引き抜くやつどこやったっけ…", "rhetorical"),
    ("where did i put my keycap puller", "rhetorical"),
    ("え、誰やろ楽しみ", "rhetorical"),  # wondered, with a feeling after it
    ("誰が来るんやろ？", "question"),
    ("今から通話でキャラシ作る人おらん？暇やねん", "invitation"),
    ("これ分かる人いる？", "question"),
    ("where do i put the config file?", "question"),
    ("ピン留めってどこにあったっけ？", "question"),
    ("なんで6月は祝日ないの？", "question"),
    ("わかる、あれ何時からだっけ？", "question"),
    ("俺1限なんだけど？？なんで起きてんの俺", "rhetorical"),
    ("なんでこのエラー出るの？", "question"),
    # A goodbye at the end of the line too.
    ("生きてたらね？ｗ おやすみ〜", "farewell"),
    ("still on for sat? gn", "farewell"),
    ("is the gn key mapped to anything?", "question"),
    # Something to do together, at a time people plan for; an offer to the one asked.
    ("anyone wanna duo tonight? need like 80 rr for plat", "invitation"),
    ("anyone wanna run some maps later today?", "invitation"),
    ("anyone wanna run unrated after ranked? trying to learn neon lol", "invitation"),
    ("anyone wanna hop on in a bit?", "invitation"),
    # Something of one's own offered to whoever wants it: for the people, taken or not.
    ("i have like 60 spare iron from the swamp run, anyone need some?", "invitation"),
    ("got 2 extra tickets for saturday, anyone want them?", "invitation"),
    ("spare potions if anyone needs?", "invitation"),
    ("who's down to mine tonight? need diamonds for a new pick ⛏️", "invitation"),  # an emoji, still English
    ("anyone need a ride to the meetup?", "invitation"),
    ("ポーション余ってる、いる？", "invitation"),
    ("誰かスリーブいる？余ってる", "invitation"),
    ("チケット1枚余ってる人いる？", "personal"),  # asks for one: theirs to give
    ("does anyone need to reinstall after the update?", "question"),
    ("alsa says connection refused to audio device, etc.. someone wanna help?", "question"),  # asks for help
    ("anyone know if the extra dlc is worth it?", "question"),
    ("anyone wanna explain this error after the update?", "question"),
    ("anyone seeing this error after the update?", "question"),
    ("22時半までに素材集め付き合おうか？", "proposal"),
    ("手伝いましょうか？", "proposal"),
    ("want me to send the link?", "proposal"),
    ("anyone want to help me debug tonight?", "question"),
    ("anyway game night saturday, still on?", "proposal"),
    ("are we still on for friday?", "proposal"),
    ("ルールどうする？", "proposal"),  # the group's call
    ("how do u get the portraits to fade like that, tween?", "personal"),  # how they made what they show
    ("それどうやってそんな綺麗に咲かせたの？", "personal"),
    ("how do you make a tween fade out?", "question"),
    ("エラー出たらどうする？", "question"),
    ("どこで買えるでしょうか？", "question"),
    ("これで合ってるのかどうか？", "question"),
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
    # Something offered with a word on it after the mark; taking up a plan with a detail; a dialect
    # invitation on a planned day (session 24).
    ("also i've got a spare tv code from the bundle, anyone want it? expires end of month", "invitation"),
    ("anyone need help? i can't figure out this error", "question"),
    ("いけるー何時？", "proposal"),
    ("ついでに明日の朝活で周回せん？7時くらいから", "invitation"),
    ("明日これせんといかんのやけどどうすればいい？", "question"),
    ("でも13時だと最初ほぼ人いなくない？みんな昼くるの遅いし", "rhetorical"),
    ("これ高くない？どこで買えば安いか知りたい", "question"),
    # Session 24, round 3: invitations with a remark after them, a bare day and hour, a plan's place
    # asked, a spare with its name, a welcome back with its question.
    ("anyone wanna do one quick round of skribbl before bed? just one", "invitation"),
    ("誰か今からマイクラ入らん？ちょっとだけ", "invitation"),
    ("誰か分かる人おらん？", "question"),
    ("誰かこのエラー知らん？", "question"),
    ("friday 8pm?", "proposal"),
    ("sat 10am?", "proposal"),
    ("ほな14日で。場所はいつもの駅前の雀荘でええ？", "proposal"),
    ("このコマンドでいい？", "question"),
    ("i printed way too many owlbears lol, anyone want a spare? unpainted", "invitation"),
    ("anyone want the dupe? free to a good home", "invitation"),
    ("おつかれ〜 今日混んでた？", "personal"),
    ("おつかれさまです、質問いいですか？", "question"),
    ("あと今夜22時くらいにオンラインで協力ライブやる人おらん？", "invitation"),
    # a hand asked for on a day ahead is people's time; help with a problem now is a question
    ("あと誰か明日の昼マイクラのサーバーの整地手伝ってくれへん？拠点広げたいねん", "invitation"),
    ("誰かこのエラー直すの手伝ってくれない？", "question"),
    # more of what the room plays, put to it; the group's own hour; a gripe with who it happens to between
    ("last round of gartic phone before bed? anyone?", "invitation"),
    ("one more game?", "invitation"),
    ("last time i checked was it 2gb?", "question"),
    ("今夜の友人戦、何時からにする？", "proposal"),
    ("なんで私だけいっつもこうなるん", "rhetorical"),
    ("そういや福袋で余ったキーキャップあるんやけど、誰かいる？", "invitation"),  # something spare, offered
    ("余った人いる？", "personal"),  # whether someone here has some: theirs to say
    ("どこで撮ったん？", "personal"),  # where they did it
    ("なんで毎回洗車した次の日に限って雨降るん", "rhetorical"),  # why it always happens: a gripe
    ("なんで毎回ログイン切れるの？", "question"),
    # … with more said before the 毎回 (session 46)
    ("なんでうちの近所のスーパーって毎回レジ1台しか開いてないの", "rhetorical"),
    ("なんで週末の朝の電車っていつも工事してんの", "rhetorical"),
    ("なんでうちの近所のスーパーって毎回レジ1台しか開いてないの？", "question"),
    ("8pm? most people are off work by then", "proposal"),  # an hour, and why
    ("anyone want my old dremel? free, pickup only, never use it anymore", "invitation"),  # a giveaway
    ("anyone want my old dremel? i can't get it to spin", "question"),
    ("8pm? or is that too late?", "question"),
    ("どこでエラー出る？", "question"),
    ("9pm server time?", "proposal"),
    ("should we do thursday too or is that too much cox for one week", "proposal"),  # its mark left off
    ("anyone want one last round of geoguessr? one. i swear", "invitation"),  # an hour on the server's clock
    ("anyone wanna split a bulk rubber order from marco? need 4 ppl for the discount", "invitation"),
    ("何枚書いたん？", "personal"),  # how much of it they did
    ("昨日何人来たっけ？", "question"),  # … not how many came: the room's
    ("ええやん！サイズなんぼにしたん？", "personal"),  # what they chose
    ("今から誰か通話でセッティングいじらへん？ﾋﾏやねん", "invitation"),  # Kansai へん, put to anyone
    ("誰か知らへん？", "question"),  # … not "doesn't anyone know?"
    ("[image] 新しいボディ塗ってん、どう", "personal"),  # their work shown, an opinion asked
    # Hands asked for with a job to do: for the people asked; help with one's own problem is a question.
    ("週末の作品展、搬入手伝える人いますか？", "invitation"),
    ("撤収手伝ってくれる方いませんか？", "invitation"),
    ("明日の練習、参加する人いますか？", "invitation"),
    ("詳しい方いますか？", "question"),
    ("anyone free to help set up the booth saturday?", "invitation"),
    ("who can help carry the kiln shelves in?", "invitation"),
    ("need a roamer, anyone?", "invitation"),  # a place to fill
    ("来月のオフ会、梅田で集まれる人おる？", "invitation"),
    ("アウェイ戦、車出せる人おる？", "invitation"),  # a lift asked for
    ("what's everyone up to tonight?", "invitation"),  # the room's own doings, theirs to say
    ("こんな時間にみんな何してんの", "invitation"),
    ("need help with my config, anyone?", "question"),
    ("can anyone help me with my wiring?", "question"),
    # "ok?" ending a sentence that asks is no tag
    (
        "what's the safe way to clean up the extra? and was i supposed to topcoat first or is doing lines on"
        " bare plastic ok?",
        "question",
    ),
    ("we meet at the shop at 8 ok?", "rhetorical"),
    # whether someone will be there, and one more player looked for: the people's to answer
    ("is teo coming? he said maybe on sunday", "invitation"),
    ("is tinker in the patch notes?", "question"),
    ("is ranked coming back this season?", "question"),
    ("ほなミッドできる5人目探さなあかんな。誰かおる？", "invitation"),
    ("みんな持ち寄り何作る？", "proposal"),  # what each will bring: the people's
    # what to do, put to the one who said their trouble; not asked how, nor a what-if
    ("ホットミルク飲めば？", "proposal"),
    ("羊数えてみたら？", "proposal"),
    ("いつ行けば？", "question"),
    ("雨だったら？", "question"),
    # what the asker wants the answer for, said after it, invites nobody
    (
        "does the switch version have the farewell stuff too or only pc? wanna grab it for my commute",
        "question",
    ),
    ("anyone up for ranked? wanna get my placements done", "invitation"),
    # anyone's own state, their own or yet; the link to what someone made, asked of them (session 49)
    ("anyone already paid their club fees? treasurer is asking", "personal"),
    ("has anyone registered for the spring 10k yet?", "personal"),
    ("has anyone registered a domain with porkbun, is it legit?", "question"),
    ("link when it's live?", "personal"),
    ("drop the link?", "personal"),
    ("link to the docs?", "question"),
    ("新しい職場もう慣れた？", "personal"),
    # an outing named for a day, put to the room; not whether a thing happens (session 49)
    ("日曜の朝さ、河川敷でバーベキューしない？", "proposal"),
    ("来週ボルダリングしない？", "proposal"),
    ("今日また接続しない？さっきから", "question"),
    # read after the twelfth wave (session 49): whether others share it, the group's own loss, who was
    # with them, company looked for late, a doing on a day after a first sentence
    ("does anyone else's dog bark at the hoover or just mine", "personal"),
    ("is it just me or does the new map feel slower", "personal"),
    ("朝になると絶対首が痛いんだけど俺だけ？", "personal"),
    ("we had the lead at half time. why did we lose it", "personal"),
    ("who'd you go with? saw a club jersey in the photo", "personal"),
    ("anybody awake? cant sleep", "invitation"),
    ("back. board game night friday anyone?", "invitation"),
    # a guess at a friend's sigh, then a cheer: for them (session 53)
    ("the driving test? you got this", "personal"),
    ("dentist again? hang in there", "personal"),
    ("面接？ファイト〜", "personal"),
    ("締め切り明日？がんばれー", "personal"),
    ("which dentist do you go to? good luck finding one open on sunday", "question"),
    # how they are, and their own day tomorrow, asked after (session 53)
    ("首の寝違えもう治った？", "personal"),
    ("膝の具合どう？", "personal"),
    # … in any politeness: a coach's 「どうだ？」, 「どうですか？」 (session 57)
    ("ゆうき、腰の具合どうだ？無理すんなよ", "personal"),
    ("体調どうですか？", "personal"),
    ("手首の調子どうかな？", "personal"),
    ("明日はバイト？", "personal"),
    ("knee any better?", "personal"),
    ("wrist still sore?", "personal"),
    ("are u off tomorrow?", "personal"),
    ("このケーブルで大丈夫？", "question"),
    ("明日って雨？", "question"),
    ("is the server ok?", "question"),
    ("how did the dentist appointment go?", "personal"),
    ("so how did your driving test go??", "personal"),
    ("how did the romans heat their baths?", "question"),
    ("面接って無事終わった？", "personal"),
    ("レポート済んだ？", "personal"),
    ("帰りにパン屋寄るなら、クロワッサン残ってたら教えて", "personal"),
    ("lmk if you spot the blue one at the market", "personal"),
    ("この関数って何が返ってくる？わかったら教えて", "question"),
    ("すみません、さっきの件どなたか分かる方いたら教えてください…", "question"),
    # a drive or a walk offered to the room; another time asked for, declining (session 53)
    ("anyone want to drive up to the lookout at 11?", "invitation"),
    ("anyone wanna walk down to the night market after this?", "invitation"),
    ("sounds fun but i'm wiped. rain check?", "invitation"),
    # when or where to meet, put to the group (session 61)
    ("10時半集合？", "proposal"),
    ("駅前集合？", "proposal"),
    ("集合？", "question"),
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
        ("たしか金曜の夜？19時くらい", True),  # recalled, unsure, said first
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
        # Remembered, not sure: 「〜気がする」, 「〜なかったっけ」.
        ("夕方からって天気予報で言ってた気がする", True),
        ("熱海って花火大会けっこうやってなかったっけ", True),
        ("名古屋って開演何時だっけ", False),
        # A figure offered, about: 「22時くらい？」, "8ish?".
        ("22時くらい？", True),
        ("たぶん？先週の投票で鈴鹿勝ってた気がする", True),  # unsure, said first, then why
        ("60cmやなかった？前に写真で見たで", True),
        ("probably? the vote last week went that way", True),
        ("たぶん？", False),
        ("遊舎工房かな、小分けのやつ", True),
        ("3人とか？", True),
        ("8ish?", True),
        ("#events, pinned calendar. i think it's the 14th?", True),
        ("野菜なら500倍じゃなかった？ボトルの裏に書いてあるよ", True),
        ("i think it's broken, how do i fix it?", False),
        ("i think its japanese for like 'listening ears'? maya from infra named it", True),
        ("like 60? stopped counting tbh", True),
        ("like 5:15? registration closes 6:30 i think", True),  # a time, guessed
        ("around 200 bucks?", True),
        ("~1.1k/hr with 3 rows so like 4k when its done?", True),
        ("like what?", False),
        # Wondering whether one can is no guess.
        ("夕方走れるかな〜", False),
        ("いまんとこ6人かな", True),
        ("何時くらい？", False),
        # Kansai 「ちゃう？」 guesses; 「どっちがいいと思う？」 asks.
        ("昔話の頭巾のやつちゃう？かぶると動物の声が聞こえるってやつ", True),
        ("GBCのシェル、クリアパープルとクリアグリーンどっちがいいと思う？", False),
        ("isn't it on the wiki? shells page, like halfway down", True),
        ("it's japanese for like, an ear listening in? which tracks, it reads everything", True),
        ("its down? anyone else getting 502s", False),
        ("isn't that the one from last year?", True),
        # … and a brief Kansai one, what it is, offered with ちゃう
        ("22時ちゃう？", True),
        ("pretty sure tatsu said $5 entry, all of it to top 3?", True),
        ("先月くらい？管理人さんが入れてた気がする", True),
        ("夜やろ？9時とかでええんちゃう", True),  # a time proposed, unsure
        ("何時がいいんちゃう？", False),
        ("どれくらい？", False),
        ("来月ちゃう？告知まだ出てへんやろ", True),
        ("どれがええと思う？", False),
        # what should be so, remembered; a place suggested politely
        ("来週の火曜までやったはず", True),
        ("前回と同じお弁当屋さんでいいんじゃないですか", True),
        ("はずしたほうがいい？", False),
        ("たぶん土曜…？", True),  # unsure, first thing
        ("たぶん何時？", False),
        # a thing offered, then why, hedged (session 46); a thing asked for, then a hedge, still asks
        ("眼鏡の人？手帳持ってるし、たぶん書記のほう", True),
        ("WD-40？ゴム傷むかもだから少しだけ", True),
        ("充電器ある？たぶん明日いる", False),
        ("明日来る？たぶん雨だけど", False),
        ("ケーブル何？たぶんUSB-Cだと思うけど", False),
    ],
)
def test_a_guess_put_with_a_question_mark(text: str, guess: bool) -> None:
    assert guesses(text) is guess


@pytest.mark.parametrize(
    ("question", "number", "yes_no"),
    [
        ("which node version does the build use now?", True, False),
        ("CPU温度ってアイドル何度くらいなら普通？", True, False),
        ("is the wiki down for anyone else?", False, True),
        ("does anyone know how to mount a usb drive?", False, True),
        ("昨日の試合見た？？9回のあれ何ｗｗ", False, True),  # yes or no first
        ("which port does the dev server use?", True, False),  # a port is a number
        ("where do the release notes live?", False, False),
        ("how fast are u running it?", True, False),
        ("え、全部？容量どうしたん", True, True),  # a quantity asked after by name
        ("何匹釣れたん？", True, False),
        ("え、全部？どうしたん", False, True),
        ("what hydration?", True, False),
        ("what flight times are you getting on 1300s?", True, False),
        ("when's the next session?", True, False),  # a quantity, by its name
        ("集合いつ？", True, False),
        ("お好み焼きどこ？いつものとこ？", False, False),  # いつも is "the usual", not "when"
    ],
)
def test_what_kind_of_answer_a_question_asks_for(question: str, number: bool, yes_no: bool) -> None:
    assert asks_a_number(question) is number
    assert asks_yes_no(question) is yes_no


@pytest.mark.parametrize(
    ("text", "inviting"),
    [
        ("今夜テスト配信見てくれる人ー？音量見たい", True),
        ("土曜のライブ、誰か聴きに来てくれる人いない？", True),
        ("明日までにこのエラー直したいんだけど、見てくれる人いる？", False),  # help by a deadline
        ("anyone fancy a swim at the reservoir sunday?", True),
        ("anyone fancied trying the new build yet?", False),
        # Session 48: one's own invitation asked again, 「…感じ？」; a list going round, "anyone else?"
        ("読書会、誰もいない感じ？笑 まあまた今度で", True),
        ("cool, sheet's going round. anyone else?", True),
        ("is the wiki down for anyone else?", False),
        ("my build passes now. anyone else?", False),
        ("ok, 3 jars noted. anyone else? closing it sunday", True),
        # a doing on a day, fancied or asked "anyone?" (session 48); not a question or a trouble
        ("anyone fancy a moth trap session tonight after dark?", True),
        ("anyone fancy nightjar watching at the heath friday?", True),
        ("ukulele jam thursday evening, anyone? bring a capo", True),
        ("is the library open saturday, anyone?", False),
        ("the build broke again today, anyone?", False),
        # something to do now or later, called out with 「…人ー」 whatever the verb (session 56)
        ("今から通話で去年の文化祭の動画見返す人ー？", True),
        ("明日の朝イチで川沿い歩く人ー", True),
        ("今夜ボドゲ持ち寄る人〜？", True),
        ("明日のテスト範囲わかる人ー？", False),
        ("今日の議事録どこにあるか知ってる人ー？", False),
        # a plan for a day, then the asker's own part in it (session 62)
        ("watchalong for the derby sunday? ill open the stage channel", True),
        ("bbq saturday? i can bring the grill", True),
        ("is the renewal this friday? i'll have to check", False),
        ("the patch tomorrow? i can't wait", False),
        ("lobby anyone? ft3s, like 20 min of warmup before bed", True),  # a game's session (session 62)
        ("is the lobby full?", False),
    ],
)
def test_peoples_time_asked_for_is_an_invitation(text: str, inviting: bool) -> None:
    assert invites(text) is inviting


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # the group's plan on a day, put after a sentence
        ("bags are packed, ferry tomorrow?", "proposal"),
        ("wait, is it tomorrow?", "question"),
        # whose plans: an outing on a day ahead
        ("anyone paddling the lower gorge sunday? launching 9am", "invitation"),
        ("anyone riding with clipless pedals? are they worth it", "question"),
        # a plan for all, urged
        ("紅葉そろそろ見頃じゃない？みんなで行こうよ", "invitation"),
        # each one's own state, checked on
        ("みんなチケット買えた？", "personal"),
        ("did everyone book their train?", "personal"),
        ("みんなこれ取れた？どうやるの", "question"),
        # the group's plan put as 「〜のどう？」 (its は left off), or a stop on its way home
        ("始発で行って昼に帰るのどう？空いてそう", "proposal"),
        ("明日早いけど行くのどうしよ", "question"),
        ("この靴、雨の日に履くのどう思う？", "question"),
        ("毎年ベランダが鳩に汚されるのどうにかならないかな", "question"),
        ("帰りに道の駅よる？", "proposal"),
        # whether they did it: theirs (not 「誰か買ったの？」)
        ("昨日の花火大会行ったの？", "personal"),
        ("誰か福袋買ったの？", "question"),
        # an invitation given up on in the same line
        ("nobody for karaoke tonight? fine. singing to the cat", "rhetorical"),
        ("anyone know a good scanner app? fine print never scans right", "question"),
        ("この電車って新宿に寄る？", "question"),
        ("練習のあと駅前のパン屋寄ってかない？", "proposal"),
    ],
)
def test_plans_and_checks_of_the_group(text: str, kind: str) -> None:
    assert kind_of(text) == kind


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("無料って何GBまででしたっけ？", True),
        ("whats the safe temp range for them?", True),
        ("9回のあれ何ｗｗ", False),
        ("参加人数教えてー", True),  # a count asked after by name (session 49)
        ("人数を教えてください！", True),
    ],
)
def test_a_number_asked_by_its_unit(text: str, number: bool) -> None:
    assert asks_a_number(text) is number


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # surprise at what was just offered, taken up at once: for the one who offered
        ("いいの？持ってく", "rhetorical"),
        ("you sure? i'll grab it", "rhetorical"),
        ("いいの？それとも別のほうがいい？", "question"),
        ("really? how did you fix it without a reflash", "question"),
        # stopping for the night, put to the room
        ("今夜はこの辺までにしよっか", "proposal"),
        # a grumble; going on somewhere together; an outing fancied
        ("この渋滞なんとかならんかなー", "rhetorical"),
        ("帰りに温泉も寄らない？", "proposal"),
        ("anyone fancy grabbing tacos after the meetup?", "invitation"),
        # news shared as a question, then told by its asker
        ("did you guys see the eclipse pics from the coast? the ring one is unreal", "rhetorical"),
        ("昨日の決勝見た？延長の同点ゴールやばすぎ", "rhetorical"),
        ("did anyone catch the final? i missed the second half", "question"),  # they missed it
        ("did anyone see my blue thermos? it was by the sink", "question"),  # a lost thing
        ("has anyone seen the new museum wing? looks huge in photos", "question"),  # asks who has
    ],
)
def test_an_offer_taken_with_surprise_and_a_night_ended(text: str, kind: str) -> None:
    assert kind_of(text) == kind


def test_the_most_or_least_is_a_number_asked() -> None:
    assert asks_a_number("what's the longest you've left it running?")
    assert not asks_a_number("what's the best way to clean it?")


def test_surprise_then_a_question_unmarked_still_asks() -> None:
    assert kind_of("wait really? does it not shrink") == "question"


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("who do you think sent the anonymous card?", True),
        ("any theories on why the clock stopped?", True),
        ("what's your guess, forger or the cousin?", True),
        ("犯人だれだと思う？", True),
        ("この手紙、どう思う？", True),
        ("who sent the anonymous card?", False),
        ("犯人だれ？", False),
        ("i think it was the cousin", False),
    ],
)
def test_a_guess_or_view_asked_of_the_room(text: str, asks: bool) -> None:
    assert asks_a_guess(text) is asks


@pytest.mark.parametrize(
    ("text", "hedged"),
    [
        ("probably the cousin, the handwriting slants the same way", True),
        ("my guess is the gardener", True),
        ("たぶん従兄弟のほう", True),
        ("庭師っぽい", True),
        ("the cousin, the handwriting slants the same way", False),
        ("庭師だよ", False),
    ],
)
def test_a_view_given_as_a_guess(text: str, hedged: bool) -> None:
    assert hedges(text) is hedged
