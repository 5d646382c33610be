"""Invitations (pure): something to do together put to the people ("tea, anyone?", 「ご飯行く人いる？」,
"who's in?"), hands asked for with a job to do, or something of one's own offered to the room ("anyone need
some?", 「余ってるけどいる？」). They are for the people asked, never a question for the bot."""

from __future__ import annotations

import re

from kikimimi.domain.rule_terms import normalized

__all__ = ["JA_PLANNED", "invites"]

# Things people do together: "tea, anyone?", "pizza friday?", "movie night, who's in?".
_OUTINGS = (
    r"tea|coffee|lunch|dinner|breakfast|brunch|supper|drinks?|beers?|pints?|pizza|sushi|ramen|tacos?|burgers?"
    r"|boba|bubble tea|froyo|donuts?|wings|pho|dim sum|curry|noodles|smoothies?"
    r"|bbq|snacks?|ice ?cream|food|movies?|movie night|film|cinema|games?|game night|board ?games?|karaoke"
    r"|walk|run|gym|hike|swim|party|bowling|pub|bar|trivia|quiz night|cards|poker|football|soccer|basketball"
    r"|rounds?|match|episode"
    # a game's sessions: "lobby anyone? ft3s", "scrims tonight?", "duos anyone?"
    r"|lobby|lobbies|scrims?|duos|trios|squads?|raids?|dungeons?|co-?op"
)
_WHEN = (
    r"today|tonight|tomorrow|soon|later|now|this (?:week(?:end)?|evening|afternoon|morning)|next week"
    r"|after(?: work)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?|at \d{1,2}(?::\d\d)?(?: ?[ap]m)?|\d{1,2} ?[ap]m"
)
_ANYONE = r"any ?(?:one|body)|some ?(?:one|body)|y'?all|guys|folks|people|peeps|team|everyone"
# A day people make plans for (not "now" or "after": "anyone seeing this error after the update?" asks).
_PLANNED = (
    r"tonight|today|tomorrow|this (?:week(?:end)?|evening|afternoon|month)|next (?:week(?:end)?|month)"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|sat|sun"
    # a date ("… swap meet on the 9th?", "… on june 14")
    r"|on the \d{1,2}(?:st|nd|rd|th)"
    r"|(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.? \d{1,2}(?:st|nd|rd|th)?(?!\d)"
)
# … and, for something to do together, any time soon ("anyone wanna run unrated after ranked?").
_SOON = (
    r"now|rn|later|soon|in a bit|after (?:this|that|ranked|work|class|school|dinner|lunch|[a-z]+ing)"
    r"|before (?:bed|sleep|dinner|lunch|work|class|we start|the (?:race|game|match|raid|stream|show|run))"
)
_EN_INVITATION = re.compile(
    # whether someone will be there: "is teo coming? he said maybe", "is dana in tonight?" (not "is tinker in
    # the patch?", "is ranked coming back?")
    r"^(?:so |and |wait |ok )?(?:is|are|will) (?!(?:it|this|that|there|the|anyone|anybody|everyone|someone"
    r"|somebody|you|u|we|they|he|she|i)\b)[a-z][\w.]*(?: and [a-z][\w.]*)?"
    r" (?:coming|joining|playing|in|around|on|gonna (?:come|join|play))\b"
    r"(?! (?:back|out|soon|to|the|a|an|sale|steam|pc|console|mobile)\b)|"
    # "last round of gartic phone before bed? anyone?", "one more game?": more of what the room is playing
    r"^(?:ok |so |alright )?(?:one )?(?:last|more|another|final)\s+(?:round|game|match|run|episode)s?\b"
    rf"(?:\s+of\s+[\w' -]{{1,30}}?)?(?:\s+(?:before \w+|{_WHEN}))?\s*[?？,]*\s*(?:{_ANYONE})?\s*[?？]+\W*$|"
    # "tea, anyone?", "lunch anyone?", "drinks tonight, anyone?"
    r"^(?:(?:the|a|some|more|one more|one last|another|quick|late|early|team)\s+)?"
    rf"(?:{_OUTINGS})(?:\s+(?:break|run|night|time|session|trip))?"
    rf"(?:\s+(?:{_WHEN}))?,?\s*(?:{_ANYONE})?\s*[?？]+\W*$"
    # "lobby anyone? ft3s, like 20 min of warmup": the outing and "anyone" open the line, what it is after
    rf"|^(?:{_OUTINGS})(?:\s+(?:run|break|night|time|tonight|rn|now))?,?\s*(?:{_ANYONE})\s*[?？]+"
    # "ok last call boba anyone??": the outing and "anyone" end the line
    rf"|\b(?:{_OUTINGS})(?:\s+(?:run|break|night|time))?,?\s*(?:{_ANYONE})\s*[?？]+\W*$"
    # "movie night, who's in?", "who's coming?", "who wants to grab lunch?"
    r"|\bwho(?:'s| is| else is)? (?:actually |still |even )?"
    r"(?:in(?! (?:charge|the|a|an|my|your|that|this|it|there|here)\b)|coming|joining|down|up for|game)\b"
    # "watchalong for the derby sunday? ill open the stage channel": a plan for a day put to the room, then
    # the asker's own part in it (not "is the renewal this friday? i'll have to check", asked)
    r"|^(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|what|when|where|which|who|why|how)\b)"
    rf"[^?？]{{3,40}}\b(?:{_PLANNED}|{_SOON})\s*[?？]+\s*"
    r"(?:i'?ll|ill|i can(?!'?t)|i will|we can(?!'?t)|i'?m (?:hosting|opening|making|bringing))\b"
    # "anyone still up?", "anybody awake?": company looked for, late
    r"|^(?:(?:ok|so|hey|yo)[,!\s]+)?(?:any ?one|any ?body|who'?s|who is) (?:else )?(?:still )?"
    r"(?:up|awake)\s*[?？]"
    # "who's on tonight?", "who's around later?": who will be there to play or hang out
    r"|\bwho(?:'s|s| is| else is)? (?:on|online|around|free)"
    r"(?:\s+(?:tonight|today|later|rn|now|this \w+)|\s*[?？])"
    r"|\bwho (?:else )?(?:wants|wanna|is up for|is down for|is keen|fancies)\b"
    # "who's running talk-in at field day?", "who's bringing setups?": who will take a job on
    r"|\bwho(?:'s|s| is)(?: gonna| going to)? (?:bringing|running|driving|hosting|organi[sz]ing|cooking"
    r"|handling|covering|booking|picking up|taking care of)\b"
    # "anyone free to help set up the booth saturday?", "who can help carry the tables in?": hands asked for,
    # with a job to do (not "can anyone help me with my wiring?")
    rf"|\b(?:{_ANYONE}|who)(?: else)?(?: (?:can|could|is free to|free to|able to|wants to|wanna|up to))?"
    r" help(?: us| out)?(?: with)?(?: the)? (?:set ?up|setting up|carry|carrying|move|moving|load|loading"
    r"|unload|unloading|tear ?down|tearing down|pack(?:ing)? up|clean ?up|cleaning up|staff|run the"
    r"|out at|at the (?:booth|stall|table|door|event|show))\b"
    # "need a roamer, anyone?", "we need one more for stacks, anybody?": a place to fill, asked of the room
    r"|(?:^|[.!,;]\s+)(?:we |still )?need (?:a|an|one more|another|\d|two|a \w+)\b[^?？]{0,30}[,.\s]\s*"
    rf"(?:{_ANYONE}|takers)\s*[?？]+\W*$"
    # "great, starting a list. anyone else?", "nice, 2x350 noted. anyone else? closing it friday": a list,
    # a sheet or an order going, the rest of the room asked to join
    r"|\b(?:list|sheet|sign-?ups?|order|pallet|headcount|noted|added|put (?:you|u) down)\b"
    r"[^?？]{0,40}[.!,]\s*"
    rf"(?:{_ANYONE}) else\s*[?？]+(?:\s+[^?？]{{1,40}})?\W*$"
    # "ok 3 seats sat: marta, ravi, ? anyone else": places taken so far, the rest offered to the room
    rf"|\b(?:seats?|spots?|slots?|places?|tickets?)\b.{{0,40}}?(?:{_ANYONE}) else\s*[?？]*\W*$"
    # "one more slot, anyone lurking?", "2 spots left, anyone?": a place in the game, offered to the room
    r"|^(?:(?:one|1|two|2|a) (?:more|last)|last|(?:one|1|two|2) (?:open|free))"
    r" (?:slot|spot|seat|place|player)s?\b[^?？]{0,24}\b"
    rf"(?:{_ANYONE}|takers|who(?:'s| wants)?)"
    r"\s*(?:lurking|around|on|online|in|down|wants? (?:in|it))?\s*[?？]"
    # "carvery still on offer btw, no takers? 🥲": an offer, put again (a bare "No takers? :-(" bumps a
    # question of one's own)
    r"|\b(?:on offer|still going|still up for grabs|spare|free|going begging)\b[^?？]{0,20}"
    r"\b(?:no|any) takers\s*[?？]+\W*$"
    # "nobody for the tbc group buy?", "no takers for saturday?": one's own invitation, asked again (not a
    # plea for help bumped: "nobody wants to help me out?")
    r"|^(?:so |ok |welp |hm+ |well )?(?:nobody|no ?one|no takers)(?: else| at all)?(?![^?？]*\bhelp)"
    r" (?:for|up for|down for|keen on|interested in|in on|wants? in|wants? to)\b[^?？]*[?？]+"
    r"(?![^?？]*\b(?:i'?ll|guess|fine|whatever|nvm|never ?mind)\b)"  # not given up: "… ok i'll just buy it"
    # company asked for: "anyone want to do the 100k in march with me?"
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna|want to|fancy|up for|down for)\b[^?？.!]*\bwith (?:me|us)\b"
    # joining someone's plan, with a question of it: "im in for depot, pick me up at 8?", 「入る！合言葉は？」
    r"|^(?:入る|入ります|行く|いく|参加(?:する|します)?|乗った)[!！]+\s*[^？?]{0,20}[？?]"
    # joining someone's plan, with a question of it: "im in for depot, pick me up at 8?"
    r"|^(?:i'?m|im) in(?: for [^?？,.]{1,20})?[,.!]\s*[^?？]*[?？]"
    # "anyone lurking?": people to play with, looked for
    rf"|^(?:{_ANYONE}) (?:else )?lurking\b"
    # "anyone up for pizza tonight?", "anyone want to join?", "anyone wanna grab food?"
    rf"|\b(?:{_ANYONE}) (?:up|down|keen|game) for\b"
    # "anyone going to the meetup on thursday?" (but not "anyone going to fix the build?")
    rf"|\b(?:{_ANYONE}|who(?:'s| is)?(?: else)?) (?:going|coming|heading|attending|joining)"
    r"(?: to (?:the|a|an|this|that|my|our)\b| tonight| today| tomorrow| later|\s*[?？]"
    # … going up or out on a day planned, or coming to something on one: "anyone going up saturday
    # morning?", "anyone coming to open bench at the co-op thursday?"
    rf"| (?:up|out|over|down)\b[^?？.!]{{0,20}}\b(?:{_PLANNED})\b"
    rf"| to [^?？.!]{{1,40}}\b(?:{_PLANNED})\b\s*[?？])"
    # "anyone joining the weave-along call saturday?": a thing people will join, at a time they plan for
    rf"|\b(?:{_ANYONE}|who(?:'s| is)?(?: else)?) (?:joining|attending) (?:the|a|an|this|that|my|our|us)\b"
    rf"[^?？.!]*\b(?:{_PLANNED}|call|stream|session|meetup|meet-?up|event|game|match|raid)\b"
    # "anyone watching the match tomorrow?", "who's playing ranked tonight?", "anyone riding the loop
    # saturday?": whose plans, not a question
    rf"|\b(?:{_ANYONE}|who(?:'s| is)?(?: else)?) (?:watching|playing|streaming|doing|hosting|riding|cycling"
    r"|biking|hiking|paddling|climbing|skating|fishing|swimming|skiing|camping)\b"
    rf"[^?？.!]*\b(?:{_PLANNED})\b"
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna|fancy|fancies|feel like) (?:to )?"
    r"(?:come|join|grab|get|go|play|watch|co-?watch|hang|eat|have|meet|hop|do (?:a|an|one|some)|hit|try"
    r"|duo|trio|squad|queue|q|raid|grind|scrim|team up|party up|co-?op|1v1|split|chip in|go in on|carpool"
    r"|drive|walk|ride|head|swing by)\b"
    # another time asked for, declining: "tempting but my contacts are out. rain check?"
    r"|\brain ?check\s*[?？]"
    # "anyone fancy a dawn dip at the lido saturday?": something to do, fancied by name
    rf"|\b(?:{_ANYONE}) (?:else )?(?:fancy|fancies) (?:a|an|some|the|[a-z]{{3,}}ing)\b"
    # a doing on a day, then "anyone?": "stitch-along sunday afternoon, anyone? i'm doing a card holder" (or
    # after a first sentence: "back. ghost grind party tomorrow night anyone?")
    r"|(?:^|[.!]\s+)(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|what|who|where|when|why|how"
    r"|which)\b)(?![^?？]*\b(?:broke|broken|crash\w*|errors?|fail\w*|stuck|down|won'?t|doesn'?t|can'?t|isn'?t)\b)"
    rf"(?:[\w'-]+[\s-]){{0,4}}?[\w'-]+ (?:{_PLANNED})"
    r"(?: (?:afternoon|evening|morning|night|arvo))?\s*[,.!]?\s*"
    rf"(?:{_ANYONE})\s*[?？]+"
    # … or a doing on a day: "anyone fancy vismig off the dam sunday from first light?"
    rf"|\b(?:{_ANYONE}) (?:else )?(?:fancy|fancies)\b[^?？.!]*\b(?:{_PLANNED})\b"
    # "anyone want one last round of geoguessr?", "anyone up for a quick game?": more of what the room plays
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna|up for|down for|fancy)\s+(?:a|an|one|some)?\s*"
    r"(?:more|last|final|quick|another)?\s*(?:more\s+)?(?:last\s+)?(?:round|game|match|run)s?\b"
    # "anyone wanna run some maps tonight?": something to do together at a time people plan for
    # … or soon, or after something ("anyone wanna run unrated after ranked?")
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna) (?!(?:to )?(?:help|explain|tell|show|check|look))"
    rf"[^?？.!]*\b(?:{_PLANNED}|{_SOON})\b"
    # "anyone wanna help me playtest a one-shot sunday?": people's time for something done together, on a day
    # ahead (not "can anyone help me fix my wiring before saturday?") …
    # … or with any job, done at a time people plan for ("anyone want to help triage the backlog tonight?"),
    # not by a deadline ("… before saturday")
    rf"|\b(?:{_ANYONE}) (?:else )?(?:wants?|wanna|want to|free to|up to) help (?:me |us )?"
    r"(?!(?:understand|figure|fix|debug|solve|decide|work out|find|get|with|out|me|us)\b)[a-z]+\b"
    rf"[^?？.!]*(?<!before )(?<!by )(?<!until )(?<!till )\b(?:{_PLANNED})\b"
    # a share of something bought together: "anyone want in on a group order?", "who wants in?"
    rf"|\b(?:{_ANYONE}|who) (?:else )?(?:wants?|wanna) in(?: on\b| for\b|\s*[?？!,]|\s*$)"
    # … asked of others, not the asker's own plan ("I want to get a MiniDV camera. How do I know …?") nor
    # a fear ("really don't want to get turned away at the station")
    r"|(?<!\bi )(?<!\bi really )(?<!\bi just )(?<!\bi'd )(?<!\bi still )(?<!n't )(?<!\bdont )(?<!\bnot )"
    r"\b(?:wanna|want to|care to|fancy|you in for|join (?:us|me)) (?:come|join|grab|get|go|play|watch|hang)"
    # … or the asker's own wish, put to the room: "i wanna play tonight, anyone?", "i really want to go,
    # who else?"
    r"|\bi (?:really |just |still )?(?:wanna|want to) (?:come|join|grab|get|go|play|watch|hang)\b[^?？]*"
    rf"[,.!\s](?:{_ANYONE}|who(?:'s| is)?(?: else)?(?: in| down| coming| joining)?)\s*[?？]+\W*$"
    rf"|^(?:you )?(?:up|down|in) for (?:a |some )?(?:{_OUTINGS})\b"
)
# 「誰か行く人ー」「ご飯行く人いる？」「カラオケ行かない？」「一緒にやらない？」
_JA_ACTIVITY = (
    r"行く|いく|来る|くる|やる|する|参加する|食べる|飲む|見る|遊ぶ|来れる|行ける|参加できる|集まれる|出れる|出られる"
    r"|車出せる|乗せられる|乗せれる"  # a lift asked for: 「アウェイ戦、車出せる人おる？」
    # … or who cannot come, counted before booking: 「店予約するけど、行かれへん人おる？」
    r"|行けない|行かれへん|行けへん|来れない|来られない|来れへん|参加できない|無理な"
    # … or a hand asked for with a job to do (「搬入手伝える人いますか？」「撤収手伝ってくれる方ー」)
    r"|手伝える|手伝ってくれる|手伝ってもらえる|手伝いに来れる|手伝いできる"
)
# A day or hour people make plans for: 「今夜」「明日の配信」「22時の卓」.
JA_PLANNED = (
    r"今夜|今晩|今日|明日|あした|あす|明後日|週末|今度|来週|土曜|日曜|今週|朝練|夜"
    r"|このあと|この後|今から|\d{1,2}時"
)
# Plans asked of people: 「明日の配信だれか見る？」「今夜だれか段位戦いく？」「22時の卓、誰か入れる？」.
_JA_PLANS = (
    r"行く|いく|来る|くる|やる|する|見る|みる|参加する|遊ぶ|走る|出る|入る|入れる|来れる|行ける|打つ|回る"
)
_JA_INVITATION = re.compile(
    rf"(?:{_JA_ACTIVITY})(?:人|方)(?:いる|いない|いま[すせ]|おる|おらん|おらへん|おりま|[ー〜~！!？?]|$)"
    # one's own invitation, asked again: 「作り置き会だれもいない？笑」
    r"|^[^？?。]{0,16}(?:誰|だれ)も(?:いない|おらん|おらへん|来ない|こない|来ーへん)(?:感じ|かんじ|系|の|ん)?[？?]"
    # one more player looked for: 「ミッドできる5人目探さなあかんな。誰かおる？」
    r"|(?:人目|メンバー|メンツ|面子|助っ人)[^？?]{0,24}(?:誰か|だれか)[^？?]{0,6}"
    r"(?:おる|いる|いない|おらん|おらへん|いません|いますか)[？?ー〜]"
    rf"|(?:{JA_PLANNED}).{{0,24}}(?:誰か|だれか|みんな)[^？?。]{{0,24}}(?:{_JA_PLANS})[？?ー〜~]"
    rf"|(?:誰か|だれか|みんな)[^？?。]{{0,24}}(?:{JA_PLANNED})[^？?。]{{0,24}}(?:{_JA_PLANS})[？?ー〜~]"
    r"|(?:行か|いか|来|こ|やら|遊ば|食べ|飲ま|見|参加し|集まら|回さ|回ら|走ら|打た|潜ら|囲ま)ない[？?ー〜~]"
    r"|一緒に.*(?:ない|ません|よう)[かか]?[？?]"
    # 「今から通話で…動画見返す人ー？」: a doing at a planned time, called out with 「…人ー」 (not
    # 「わかる人ー？」, nor a state asked after: 「持ってる人ー？」)
    rf"|(?:{JA_PLANNED})[^？?。]{{0,30}}[\u4e00-\u9fffぁ-ん][うくすつぬぶむぐる]"
    r"(?<!わかる)(?<!分かる)(?<!てる)(?<!でる)(?<!とる)(?:人|方)[ー〜~]+[？?]?\W*$"
    # 「誰かこのあと通話しない？」: something to do, put to anyone
    r"|(?:誰か|だれか)[^？?。]{0,24}(?:しない|しませんか)[？?ー〜~]"
    # the same in western dialect: 「誰か今からマルチで鍛石集め行かん？」「スマブラやらん？」
    rf"|(?:誰か|だれか|みんな|一緒に|{JA_PLANNED})[^？?。]{{0,24}}(?:行か|いか|やら|遊ば|来|せ|し)ん[？?ー〜~]"
    # … any verb so (「誰か今から…一緒に回らん？」), but not 「誰か知らん？」 ("doesn't anyone know?")
    r"|(?:誰か|だれか|みんな)[^？?。]{0,24}一緒に[^？?。]{0,12}(?<!知)(?<!分か)(?<!わか)[らかさたなまがばわ]ん[？?ー〜~]"
    # … or alone (「誰か今からマイクラ入らん？」), but not 「誰か分かる人おらん？」 (help asked for)
    r"|(?:誰か|だれか)[^？?。]{0,24}(?<!知)(?<!分か)(?<!わか)(?<!お)[らかさたなまがばわ]ん[？?ー〜~]"
    # … in Kansai's へん (「誰か通話でセッティングいじらへん？」)
    r"|(?:誰か|だれか)[^？?。]{0,24}(?<!知)(?<!分か)(?<!わか)(?<!お)[らかさたなまがばわ]へん[？?ー〜~]"
    # who is going on a planned day (「土曜のジョーシンの大会だれ行く？」), anyone coming (「…誰か来る？」)
    rf"|(?:{JA_PLANNED})[^？?。]{{0,24}}(?:誰|だれ)(?:が)?(?:{_JA_PLANS})[？?ー〜~]"
    r"|(?:誰か|だれか)(?:来る|くる|来れる|来ない|こない|来[ーえ]へん)[？?ー〜~]*\W*$"
    # … or in Kansai's へん (「土曜の夜BGAで卓立てへん？」), not 「明日雨降らへん？」 (a question)
    rf"|(?:誰か|だれか|みんな|一緒に|{JA_PLANNED})[^？?。]{{0,24}}"
    r"(?:立て|行か|いか|やら|遊ば|せえ|しい|来え|集まら|飲ま|食べ|入ら|回ら|打た)へん[？?ー〜~]"
    # … where the verb alone says it (「明日の昼ラーメン行かん？」), not いかん ("no good") or 来ん
    r"|(?:行か|やら|遊ば|食べ|飲ま|飲みに行か|食べに行か)ん[？?ー〜~]"
    r"|(?:ご飯|ごはん|飯|ランチ|昼|夕飯|飲み|カラオケ|映画|ゲーム|お茶)(?:でも|とか)?(?:行く|どう|いかが|しない)"
    # a plan for all, urged: 「そろそろピークじゃない？みんなで行こうよ」, 「一緒にやろうぜ」
    r"|(?:みんなで|皆で|一緒に)[^？?。]{0,20}(?:行こ|いこ|やろ|しよ|遊ぼ|飲も|食べよ|見よ|観よ)う"
    r"(?:よ|ぜ|や|ね|ー|〜|!|！)*\W*$"
    # something to do now, asked of people: 「今から通話でキャラシ作る人おらん？暇やねん」
    r"|(?:今から|このあと|この後|通話で|一緒に)[^？?。]{0,20}人(?:いる|おる|おらん|おらへん|いない)[？?ー〜]"
    # something to do on a day ahead, anyone who will: 「今夜ボイチャで安里屋ユンタ合わせる人ー」 (not
    # 「今夜これ使ってる人いる？」, who has or knows something)
    rf"|(?:{JA_PLANNED})(?!まで)[^？?。]{{0,24}}(?<!知って)(?<!持って)(?<!使って)(?<!分か)(?<!わか)(?<!あ)(?<!て)る(?:人|方)"
    r"(?:[ー〜~！!]|(?:いる|おる|いない|おらん|います|いますか|いません|おらへん)(?:[？?ー〜~]|\W*$))"
    # a hand asked for on a day ahead: 「誰か明日の昼マイクラの整地手伝ってくれへん？」 (people's time),
    # or to come, watch or listen (「今夜テスト配信見てくれる人ー？」): people's time, not the bot's
    r"|(?:明日|あした|明後日|週末|今度|来週|土曜|日曜|今夜|今晩|このあと|この後|\d{1,2}時)(?!まで)[^？?。]{0,30}"
    r"(?:手伝って|見て|観て|聞いて|聴いて|来て|付き合って|参加して)(?:くれ|ほし|もらえ)"
)


def invites(text: str) -> bool:
    """An invitation to do something together ("tea, anyone?", 「ご飯行く人いる？」), or something of one's
    own offered to the room ("60 spare iron, anyone need some?", 「スリーブ余ってるけどいる？」): for the
    people asked."""
    low = normalized(text)
    if _EN_INVITATION.search(low) or _EN_GIVEAWAY.search(low) or _DOINGS.search(low):
        return True
    return not low.isascii() and bool(
        _JA_INVITATION.search(low) or (_JA_SPARE.search(low) and _JA_WANTED.search(low))
    )


# What the people in the room are up to, asked of them: "what's everyone up to tonight?",
# 「こんな時間にみんな何してんの」 (theirs to say).
_DOINGS = re.compile(
    r"\bwhat(?:'s| is| are)? (?:everyone|everybody|y'?all|you guys|u guys|people) (?:up to|doing)\b"
    r"|(?:みんな|皆)[^？?。]{0,10}(?:何|なに)(?:して|やって)(?:る|ん|ます)"
)


# Something offered to whoever wants it: "anyone need some?", "got 2 extra tickets, anyone want them?",
# "spare potions if anyone needs", "anyone need a ride?" (not "anyone need to reinstall after this?").
_EN_GIVEAWAY = re.compile(
    rf"\b(?:{_ANYONE}|who|u|you)(?: else)? (?:(?:needs?|wants?|wanna) (?:some|one|it|them|any|these|those"
    r"|mine|my|the (?:spare|extra|rest|leftovers?)|a (?:ride|lift|spare|copy))"
    r"|needs? (?:a )?hand|needs? help)\b[^?？]*[?？]+\W*$"
    # … with a word on it after: "anyone want it? expires end of month" (not "anyone need help? i can't …")
    rf"|\b(?:{_ANYONE}|who)(?: else)? (?:wants?|wanna)"
    r" (?:it|them|one|some|a spare|the (?:dupe|extra|spare|rest)"
    r"|my (?:old |spare |extra )?[\w-]+(?: [\w-]+)?)"
    r"[?？]+(?![^?？]*\bi\b)[^?？]{0,60}$"  # "anyone want my old mfj tuner? free, pickup only, …"
    rf"|\b(?:spare|extra|leftover)\b[^?？]*\bif (?:{_ANYONE}|u|you) (?:needs?|wants?)\b[^?？.!]*[?？]*\W*$"
)
# … in Japanese: something spare, given or lent (「余ってる」「あげる」「譲る」, not 「余ってる人いる？」,
# which asks for it), and whether anyone wants it (「いる？」「欲しい人いる？」).
_JA_SPARE = re.compile(
    r"余って(?!る人|いる人)|余った(?!人)|余り|あまって(?!る人|いる人)|あまった(?!人)|あげる|譲る|譲ります|ゆずる|貸せる"
)
_JA_WANTED = re.compile(r"(?:いる|要る|欲しい|ほしい)(?:人|ひと)?(?:いる|おる)?[？?ー〜]")
