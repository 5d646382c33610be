"""The question watch (pure): one open question read against the lines after it, one line at a time —
what each line says of it (said outright, read from the reply links, or the next turn, answer_turns.py)
and what the lines so far leave behind. `questions.answer_of` runs it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kikimimi.domain.addressees import for_another, names
from kikimimi.domain.answer_turns import offer_taken, turn_answers
from kikimimi.domain.answer_words import SHAPE, relates, takes_up
from kikimimi.domain.figures import same_figure
from kikimimi.domain.invitations import invites
from kikimimi.domain.language import japanese_share
from kikimimi.domain.model import Message
from kikimimi.domain.open_questions import NICK_PREFIX, asks
from kikimimi.domain.other_threads import asked_of_another
from kikimimi.domain.question_echoes import says_the_verb_back
from kikimimi.domain.question_forms import asks_back, asks_its_own, asks_of_them, asks_unmarked_clause
from kikimimi.domain.question_kinds import asks_a_number, asks_yes_no, proposes
from kikimimi.domain.question_owners import handed_answers, named_answers, owner_answers, shown_answers
from kikimimi.domain.reading import Link
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import agrees, bumps, calls_only, grateful, shifts, takes_it
from kikimimi.domain.reply_shapes import asks_too, only_shrugs, shrugs, tells_own_trouble
from kikimimi.domain.rule_terms import TO_THE_ROOM, directed_to, is_closing, is_question, norm
from kikimimi.domain.tension import sees_off
from kikimimi.domain.topic_words import common_words, shared_words

# The asker's own follow-up that closes the question (besides thanks and closings).
_SETTLED = re.compile(
    r"\b(?:nvm|never ?mind|solved|fixed (?:it|now)|got it|figured (?:it )?out"
    r"|found (?:it|the (?:answer|problem))"
    r"|(?:it|that) work(?:s|ed)|works now|working now|no longer needed|sorted(?: it)? out)\b"
    r"|自己解決|解決(?:しました|した|です)|わかりました|分かりました|わかった|分かった|できました|(?:でき|いけ)た[!！。]?$"
    r"|直りました|直った|動きました|動いた|大丈夫です|もう大丈夫|なんでもない|何でもない"
    r"|^(?:できた|できました|いけた|いけました)[!！]"  # 「できた！6000で動いてる」
    # taking in what someone told them: 「やっぱそうか〜」, "ahh makes sense", "gotcha"
    r"|^(?:ahh?,? |oh,? |ok,? )?(?:makes sense|gotcha|that explains it)\b"
    r"|\bgood to know\b|^(?:huh,? |ahh?,? |oh,? |ok,? )*(?:i see|noted|til)\W*$"  # "huh ok good to know"
    r"|^(?:ok,? |oh,? )?noted[,.!]+\s*(?![^?？]*[?？])"  # "noted, not a saturday then"
    # the answer they expected: "knew it. he was angling for 30", "ha, thought so"
    r"|^(?:(?:ha+|lol|ok|yep|yeah|ugh)[,!.\s]+)?(?:i )?(?:knew it|thought so|called it)\b(?![^?？]*[?？])"
    # … and in Japanese: 「ほー、覚えとく」, 「メモった」, 「参考になります」
    # (not 「これ参考になるよ」, a pointer, nor 「えっ、勉強になります？」, asked)
    r"|(?![^?？]*[?？])(?:覚えと(?:く|こ|きます)|覚えておき?(?:く|ます)"
    r"|メモ(?:った|っとく|っとこ|しとく|しとこ|しました|しておきます)"
    r"|勉強にな(?:る|った|ります|りました)|参考にな(?:った|ります|りました)|いいこと聞いた)"
    r"|^(?:やっぱ|やっぱり)?そう(?:か|なんだ|なのか)[〜ー!！。、]"
    # having looked where they were pointed: 「見ました、木綿にします」, "checked the pins, ty"
    r"|^(?:あ[、,]?\s*)?(?:見ました|見てきました|見てきた|見た|確認しました|確認した)(?:[、,!！。]|$)"
    r"|^(?:ok,? |oh,? )?(?:checked|read|saw) (?:it|that|the pins?|the faq|the pinned (?:one|message|post))\b"
    # found where it was all along, or withdrawn: "oh it's literally printed on the bottle", "ignore me",
    # 「あ、カレンダーに書いてあった」, 「お騒がせしました」 (not "oh it's windows 11 btw", a detail added)
    r"|\b(?:ignore me|ignore that|disregard|scratch that|answered my own question)\b(?![^?？]*[?？])"
    r"|^(?:(?:oh|ah+|wait|oops|lol|nvm)\b[,.!]*\s*)+(?:it'?s|its|they'?re|that'?s|it was)\s+"
    r"(?:(?:literally|right|all|already|just)\s+)?(?:(?:printed|written|listed|pinned|posted)\s+)?"
    r"(?:in|on|at)\s+(?:the|their|his|her|my|our|your|this|that)\b(?![^?？]*[?？])"
    r"|^(?:あ|あっ|あー|あれ|おっと)[、,!！\s]*[^？?]*(?:に|で)(?:書いて(?:あった|ありました|たわ)|載って(?:た|ました)"
    r"|あった(?:わ|[!！。]|$)|ありました)(?![^？?]*[？?])"
    r"|お騒がせしました|お騒がせしてすみません"
    # … or taken elsewhere: "asked in #help-desk instead", 「やっぱ地域チャンネルで聞いたんでいいです」
    r"|\b(?:asked|asking|i'?ll (?:just )?ask|gonna ask|will ask) (?:it )?(?:in|on|over in) "
    r"(?:#\S+|the \w+(?: \w+)? (?:channel|server|forum|discord|chat))(?![^?？]*[?？])"
    r"|^(?:あ[、,]?\s*)?(?:やっぱ(?:り)?|もう)[、,\s]*(?:[^？?]{0,24}(?:聞いた|聞きます|聞いてみます|聞く)(?:んで|ので|から)?"
    r"[、,\s]*)?(?:いいです|大丈夫です|いいや|大丈夫)(?![^？?]*[？?])"
)


# A bare "ok" from the asker right after someone's line: they took it as the answer.
_ACK_WORD = (
    r"(?:おけ|おっけ[ーい]?|オッケ[ーい]?|了解|りょ|りょうかい|ok|okay|k|kk|got it|gotcha|bet|👍"
    r"|せやった|せやな|そうやった|そうだった|たしかに|確かに|なるほど|そっか|ほんまや|oh right|ah right|true"
    r"|bless|phew|whew|thank god|thank goodness"
    r"|(?:you(?:'re| are)? (?:a )?)?(?:legend|lifesaver|life saver|star|hero)|nice one|perfect|sweet|ace"
    # … or judged good, by the asker: 「ちょうどいいじゃん」, "sounds good"
    r"|ちょうどいい(?:じゃん|やん|ね|な)?|いいじゃん|ええやん|最高|完璧|助かる|sounds good|that works"
    # … or recognised as what they meant: 「それそれ」, "that's the one"
    r"|それそれ|そうそうそれ|そうそれ|それです|that'?s the one|that'?s it|yep that'?s it|exactly"
    # … or about as expected: 「そんなもんか」, "fair enough"
    r"|(?:まあ)?そんな(?:もん|感じ)(?:か|なんや|なんだ|なのか|やな|だよね)|fair enough)"
)
# … one or two of them, an emoji after: "phew ok 😅"
_ACK = re.compile(rf"^{_ACK_WORD}(?:[\s,、]+{_ACK_WORD})?[!！。.〜ー\s\u2600-\u27bf\U0001f300-\U0001faff]*$")


# A yes or a no said bare: "ya", "nope", 「うん」, 「ない」 (wider than the reader's yes/no kind, a
# trained feature answer_turns reads: "ya" and 「ない」 are not in it, and moving it moves the link tables).
_BARE_YES_NO = re.compile(
    r"^(?:ya+|yah|yea+h?|yes+|yep|yup|nope|nah|no+|うん|ううん|はい|いや|いえ|そう|せや|ある|ない|あるよ|ないよ)"
    r"[!.。！〜ー\sw笑👍]*$"
)


# … or taken (or thanked for), and what the asker will do about it drawn: "bet, signing up then",
# 「ありがと、じゃあ朝マズメ狙いかな」.
_ACK_THEN = re.compile(
    rf"^(?:{_ACK_WORD}|ありがと\S*|サンキュ\S*|thanks|thx|ty)[\s,、!！.。]+"
    r"(?:[^?？]{2,40}?\bthen[^\w?？]*$|(?:じゃあ|じゃ|ほな|なら)[、,\s]*[^？?]{1,24}$)"
)


# … or recognising what was just pointed to: 「あ、さっきのVitalってそれか」, "oh that's the one".
_ACK_FOUND = re.compile(
    r"^(?:あ|ああ|あー|おお|お|え|やっぱ|やっぱり)[っ、,!！\s]*[^？?]{0,24}"
    r"(?:それ|これ|あれ|あの[^\s？?！!、。]{1,6}?)(?:か|ね|だ)[!！。〜ー]*$"  # 「あーあの子か！」
    r"|^(?:oh|ah|ahh|ooh)[,!.\s]+(?:that'?s (?:the one|it)|so that'?s it|there it is)\b"
    # … or found where it was pointed to: 「あったわ、Lで」, "found it, ty"
    r"|^(?:(?:あ|ああ|あー|お)[っ、,!！\s]*)?(?:あった|見つけた|みつけた|見つかった)(?:わ|ー|！|!|。|、|,|\s|$)"
    r"|^(?:(?:oh|ah|ok)[,!.\s]+)?(?:found it|there it is)\b"
)
# … or the figure said since, taken with a word: 「22時りょ」, "9pm works", "ok 8 it is".
_ACK_FIGURE = re.compile(
    r"^(?:ok |okay |おけ)?\S{1,10}?\s*(?:りょ|了解|おけ|おっけ[ーい]?|ok|okay|works|it is|でいこう|で|ね)"
    r"[!！。.〜ー\s]*$"
)


# … or taking it and asking the next thing: 「了解。ついでに、パックの口ってどうしてます？」, "ok ty. also …".
_ACK_AND_ON = re.compile(
    r"^(?:了解|りょ|おけ|おっけ[ーい]?|なるほど|そっか|ok|okay|got it|gotcha|thanks|thx|ty|ありがと\S*)"
    r"[、。,.!！\s]+(?:ty[,.!\s]+|thanks[,.!\s]+)?"
    r"(?:ついでに|あと[、,]|それと|もう一(?:つ|個)|ちなみに|also\b|btw\b|another (?:q|question)\b|unrelated\b"
    r"|while i'?m here\b)"
)


# … or one of the question's own options chosen: "lol fair, roof it is", 「じゃあ屋根にするわ」.
_ACK_CHOICE = re.compile(
    r"^(?:(?:lol|lmao|ok|okay|fair|fair enough|alright|right|ah|oh|huh|welp|guess|ha+)[,!.\s]+)*"
    r"(?P<en>[^,.!?]{2,24}?)\s+(?:it is|then)[!.\s]*$"
    # … or said after a word taking the answer: "fair. keeping it"
    r"|^(?:fair|fair enough|ok|okay|true|alright|gotcha)[,!.]+\s+(?P<said>[^,.!?]{2,24}?)[!.\s]*$"
    r"|^(?:(?:じゃあ|ほな|なら|ほんなら|よし|おけ|了解|りょ|そっか|なるほど|うーん|うーむ|んー|ふむ)[、,\s]*)*"
    r"(?P<ja>[^、。？?\s]{1,12}?)(?:にする|にしよ(?:う|っと)?|にします|でいく|でいこう?|で決まり)"
    r"(?:わ|か[ぁあー〜]*|ね|かな)?[!！。〜ー\s]*$"
)


# … or reacting to it and drawing from it: 「まじか、ほな10枚は無理か」, "damn ok, guess i'll wait then".
_ACK_REACT = re.compile(
    r"^(?:まじか|マジか|まじで|そうなんや|そうなんだ|そうなの|そうなんか|へー|へえ|ええ[ー〜]*|えー+|うわ[ーあ〜]*"
    r"|damn|dang|oh no|oh nice|oh ok(?:ay)?|ah ok(?:ay)?|ahh ok(?:ay)?|welp|rip|huh|ugh(?: ok(?:ay)?)?|oof"
    r"|ah well|aw+(?: man)?)[、,!！.。〜ー\s]+\S"
)


# … drawing from it: "… waiting then", "guess i'll …", 「ほな…」「じゃあ…」.
_DRAWS = re.compile(
    r"\bthen\W*$|\bguess i'?ll\b|\bi guess\W*$|\bi'?ll (?:wait|hold off|skip)\b|ほな|じゃあ|なら"
)


# … or drawn, said as a decision: 「じゃあウインドブレーカー持ってくかぁ」, 「ほな明日にするわ」.
_DRAWN_JA = re.compile(
    r"^(?:うーん|んー|そっか|そうか)?[、,\s]*(?:じゃあ|じゃ|ほな|ほんなら|それなら|そしたら)[、,\s]*[^？?]{1,24}"
    r"(?:か[ぁあー〜]*|かな[ぁあー〜]*|わ|にする|しよ(?:う|っと)?)[。…!！〜ー\s]*$"
)


# The asker understood, whatever follows: "ahh that explains the 40 mins i spent staring at a field", "oh
# that makes sense", "so that's why it kept failing", 「なるほど、だから点かなかったのか」.
_UNDERSTOOD = re.compile(
    r"^(?:(?:ahh*|ohh*|ooh|aha|ah ok|oh ok|right|ok|okay)[,!.\s]+)?"
    r"(?:that|this|which) (?:explains|makes sense)\b"
    r"|^(?:(?:ahh*|ohh*|aha|right)[,!.\s]+)?(?:so )?that'?s why\b"
    r"|^(?:ahh*|ohh*|aha)[,!.\s]+(?:i see|makes sense)\b"
    r"|^(?:なるほど|そういうことか|そういうことね|それでか|だからか)"
)


# Thanks said before any help ("thanks in advance", "thank you for any help"): the question is still open.
_THANKS_AHEAD = re.compile(
    r"\b(?:thanks|thank you|thx|ty)\b.{0,12}\b(?:in advance|ahead|for any(?: \w+)?|anyone|everyone who)\b"
    r"|\bany help (?:is )?(?:appreciated|welcome)|よろしくお願い|お願いします"
)


def settles(text: str) -> bool:
    """The asker's follow-up that closes their own question ("nvm", "solved", "自己解決しました" …)."""
    low = norm(text)
    if _SETTLED.search(low):
        return True
    return is_closing(low) and not is_question(low) and not _THANKS_AHEAD.search(low)


def _addresses(message: Message, person: Message) -> bool:
    """Is the message addressed to the person: a mention, their name, or `nick:` for their name without its
    decorations (`mandrix:` for "[[mandrix]]")?"""
    if f"<@{person.author_id}>" in message.content or f"<@!{person.author_id}>" in message.content:
        return True
    nick = NICK_PREFIX.match(message.content.strip())
    if nick and _bare(nick.group(1)) and _bare(nick.group(1)) == _bare(person.author_name):
        return True
    return directed_to(message, {norm(person.author_name): person.author_name}) is not None


# A clause that goes on past the thanks to say something ("thanks! and set LOG_LEVEL", 「ありがとう、あと…」).
_GOES_ON = re.compile(
    r"[,.!;:、。！]\s*(?:and|but|also|btw|now|then|try|use|set|run|install|check|see|あと|それと|ちなみに)"
)


def _thanks_only(text: str, asked: str) -> bool:
    """Thanks or praise ("you've been so helpful!") that brings nothing of its own (an answer, a link, a
    yes said first: 「付いてた。…のは助かる」 to 「…付いてた？」)."""
    line = profile(text)
    said = line.answer or line.code or line.url or _GOES_ON.search(norm(text))
    return grateful(text) and not said and not says_the_verb_back(asked, text)


def _bare(name: str) -> str:
    return re.sub(r"[\W_]+", "", norm(name))


@dataclass(frozen=True)
class Settled:
    """Why a question is settled, and the message that settled it."""

    reason: str
    by: str


def asks_again(text: str) -> bool:
    """Could the line only ask again what was asked before: a bump, or too brief to be a question of its
    own ("... mario kart? anyone? 🥲", 「カラオケ誰もおらん…？」)?"""
    low = norm(text)
    japanese = bool(japanese_share([low]))  # any Japanese script, emoji or not
    return bumps(text) or (len(low) <= 16 if japanese else len(low.split()) <= 5)


BEFORE_LINES = 12  # the room's lines before a question that tell what a line after it goes on with
SAME_ASK_SECONDS = 20  # two brief questions this close, by two people, ask the same thing


def _bare_ask(text: str) -> bool:
    """A question of a word or two ("code?", 「パスなに？」): it can only ask again what was just asked."""
    low = norm(text)
    return len(low.split()) <= 3 if low.isascii() else len(low) <= 8


BACK_LINES = 3  # how soon after the question the asker's answer to a question put back comes
TWO_TAKE_IT_UP = 0.3  # how sure the reader must be of each of two people's lines right after a question

TURN_SECONDS = 30  # the asker's lines this close before the question are one turn with it


@dataclass
class Watch:
    """A question read against the lines after it, one at a time: what each line says of it, and what
    the lines so far leave behind (who spoke since, which of the asker's lines go on with it)."""

    question: Message
    later: Sequence[Message]
    links: Mapping[str, Link] | None
    sure: float
    inferred: bool
    before: Sequence[Message]  # the chat before the question
    after: Sequence[Message]  # … and after it
    earlier: set[str]  # the asker's older lines
    pair: set[str]  # the asker's line that the question goes on with (a follow-up), if the reader says so
    follows: str | None  # the line the question goes on from, as the reader links it
    since: list[Message] = field(default_factory=list)  # other people's messages after the question
    thread: set[str] = field(default_factory=set)  # the question and the asker's lines that go on with it

    @classmethod
    def of(
        cls,
        question: Message,
        later: Sequence[Message],
        links: Mapping[str, Link] | None,
        sure: float,
        inferred: bool,
    ) -> Watch:
        # `later` may hold the chat before the question too: order, not the clock (IRC logs have minutes).
        at = next((i for i, m in enumerate(later) if m.id == question.id), None)
        before = later[:at] if at is not None else [m for m in later if m.created_at < question.created_at]
        after = (
            later[at + 1 :] if at is not None else [m for m in later if m.created_at >= question.created_at]
        )
        earlier = {m.id for m in before if m.author_id == question.author_id}
        # A follow-up ("does newegg sell it?") goes on with the asker's line just before it: a line to the
        # asker about that one answers both.
        goes_on = links.get(question.id) if links and inferred else None
        pair = (
            {goes_on.reply_to} & earlier
            if goes_on is not None and before and goes_on.reply_to == before[-1].id
            else set()
        )
        follows = goes_on.reply_to if goes_on is not None and goes_on.confidence >= sure else None
        return cls(
            question,
            later,
            links,
            sure,
            inferred,
            before,
            after,
            earlier,
            pair,
            follows,
            thread={question.id},
        )

    @property
    def turn(self) -> set[str]:
        """The question and the asker's lines sent just before it, one turn ("[image: the shelf]" — "this
        one?"): a Discord reply to any of them replies to the question."""
        ids = {self.question.id}
        for p in reversed(self.before):
            seconds = (self.question.created_at - p.created_at).total_seconds()
            if p.author_id != self.question.author_id or seconds > TURN_SECONDS:
                break
            ids.add(p.id)
        return ids

    @property
    def around(self) -> list[Message]:
        """The lines near the question: who is in the room, and who talks to whom there."""
        return [*self.before[-6:], *self.after[:6]]

    def read(self, m: Message) -> Settled | None:
        """What the line `m` (after the question) says of it: settled, or None (and the line is noted)."""
        link = self.links.get(m.id) if self.links else None
        if m.is_self and (
            m.reply_to_id == self.question.id
            or (
                link is not None
                and link.reply_to in self.thread
                and link.confidence >= self.sure
                and link.names_people
            )
        ):
            return Settled("the bot answered it", m.id)
        if m.is_self and self._put_to_the_bot(m.reply_to_id):
            return Settled("the bot answered the asker, who put it to the bot", m.id)
        if not m.is_human:  # another bot (a level-up notice, a reminder) answers nobody's question
            return None
        if m.author_id == self.question.author_id:
            return self._by_asker(m, link)
        return self._by_other(m, link)

    def _by_asker(self, m: Message, link: Link | None) -> Settled | None:
        """The asker settles it, turns to someone who took it up, or goes on with it."""
        if settles(m.content) and not self._sees_off(m):
            return Settled("the asker settled it", m.id)
        if self.since and takes_it(m.content):
            return Settled("the asker is trying what they were told", m.id)  # 「おけ、見てくる」
        if self._agrees_to_a_plan(m):
            return Settled(f"the asker took {self.since[-1].author_name}'s plan", m.id)  # 「それでいこう」
        acked = _ACK.match(norm(m.content)) or _ACK_FOUND.match(norm(m.content))
        if self.since and acked and self._right_after(self.since[-1], m):
            return Settled(
                f"the asker took {self.since[-1].author_name}'s answer", m.id
            )  # 「歴戦ゴア周回したい」「おけ」
        if (
            self.since
            and _ACK_THEN.match(norm(m.content))
            and self._right_after(self.since[-1], m)
            and not asks(self.since[-1].content)
        ):
            return Settled(
                f"the asker took {self.since[-1].author_name}'s answer", m.id
            )  # "yep 👍" — "bet, signing up then"
        if self._takes_a_bare_yes(m):
            return Settled(
                f"the asker took {self.since[-1].author_name}'s answer", m.id
            )  # "ya" four lines on — "noooo my corner carry 😭"; 「うん」 — 「助かる、来週行ってみる」
        told = self._understood(m)
        if told is not None:
            return Settled(f"the asker took {told.author_name}'s answer", m.id)
        if self._draws_from_the_next_turn(m):
            return Settled(
                f"the asker took {self.since[0].author_name}'s answer", m.id
            )  # "ugh ok, waiting then"
        if self.since and self._reacts(m, link):
            return Settled(f"the asker took {self.since[-1].author_name}'s answer", m.id)
        if _ACK_FIGURE.match(norm(m.content)):
            said = next((p for p in reversed(self.since) if same_figure(p.content, m.content)), None)
            if said is not None:
                return Settled(
                    f"the asker took {said.author_name}'s answer", m.id
                )  # 「22時どう？」「22時りょ」
        if self.since and _ACK_AND_ON.match(norm(m.content)):
            return Settled(
                f"the asker took {self.since[-1].author_name}'s answer", m.id
            )  # 「了解。ついでに…」
        chose = _ACK_CHOICE.match(norm(m.content))
        choice = chose and (chose["en"] or chose["said"] or chose["ja"])
        if self.since and choice and shared_words(choice, self.question.content, frozenset()):
            return Settled(f"the asker took {self.since[-1].author_name}'s answer", m.id)  # "roof it is"
        # … or the way an answer just gave (「水貼りのほうがきれい」 — 「じゃあ水貼りにするかぁ」)
        told = next((p for p in reversed(self.since[-2:]) if choice and choice in norm(p.content)), None)
        if told is not None and chose is not None and not chose["said"] and self._right_after(told, m):
            return Settled(f"the asker took {told.author_name}'s answer", m.id)
        echoed = self._echoes_an_answer(m)
        if echoed is not None:
            return Settled(f"the asker took {echoed.author_name}'s answer", m.id)  # 「カーペットw まあ…」
        about = self._asks_about_an_answer(m)
        if about is not None:
            return Settled(f"the asker is asking {about.author_name} about their answer", m.id)
        helper = self._helper(m, link) or self._asked_back(m)
        if helper is not None:
            return Settled(f"the asker is talking with {helper.author_name}", m.id)
        if link is None or link.reply_to in self.thread:
            self.thread.add(m.id)
        return None

    def _agrees_to_a_plan(self, m: Message) -> bool:
        """Does the asker agree to a plan put just before, in the talk their question opened (「来月の日程、
        候補ある？」 … 「じゃあ土曜にしない？」 — 「それでいこう」)? What they asked is settled by it."""
        if not self.since or not agrees(m.content) or asks(m.content):
            return False
        plan = self.since[-1]
        if re.search(r"\d", m.content) and not same_figure(plan.content, m.content):
            return False  # "9 works" to 「22時どう？」: another time, put back
        return self._right_after(plan, m) and proposes(plan.content) and len(self.since) <= 3

    def _taken_up_by_two(self, m: Message, link: Link | None) -> bool:
        """Do two people, one after the other, right after a question put to everyone ("what are yall
        running…?", 「今みんなどの子育ててる？」), each reply to it as the reader reads them, asking nothing
        and opening nothing new ("110 front 115 rear", "120 both but i'm heavier")? Each gave theirs: it
        is answered, in whatever room."""
        if len(self.since) != 1 or link is None or link.reply_to not in self.thread:
            return False
        if not _TO_EVERYONE.search(norm(self.question.content)) or shifts(m.content):
            return False
        first = self.since[0]
        told = self.links.get(first.id) if self.links else None
        return (
            told is not None
            and told.reply_to in self.thread
            and first.author_id != m.author_id
            and [p.id for p in self.after[:2]] == [first.id, m.id]
            and not asks(first.content)
            and not asks(m.content)
            and not shifts(first.content)
            and not names(m.content, first.author_name)  # 「ヨシまたぶっ飛んで…」: about the one before
            and min(told.confidence, link.confidence) >= TWO_TAKE_IT_UP
        )

    def _understood(self, m: Message) -> Message | None:
        """The line the asker says they understood by (「なるほど、だから…」): the latest of the last
        three since that no Discord reply or mention puts on another line."""
        if not self.since or not _UNDERSTOOD.match(norm(m.content)) or asks(m.content):
            return None
        links = self.links or {}
        asker = self.question.author_id
        others = {x.author_name for x in self.around if x.is_human and x.author_id != asker}
        told = [
            p
            for p in self.since[-3:]
            if not (p.id in links and links[p.id].certain and links[p.id].reply_to not in self.thread)
            and not any(names(p.content, name) for name in others - {p.author_name})  # "@cairn_bee 8:30…"
        ]
        return told[-1] if told else None

    def _echoes_an_answer(self, m: Message) -> Message | None:
        """The line of the last few said since whose word the asker says back first, asking nothing, a word
        their question did not say (「…カーペットの切れ端で代用したで笑」 — 「カーペットw まあ木守れたら
        なんでもええか」): they took it as an answer."""
        low = norm(m.content)
        if asks(m.content):
            return None
        if low.isascii():
            return self._says_the_next_turn_back(m)
        # 「あー工具か、見てなかった」: the word, between a sound of taking it in and 「か」
        head = re.split(r"[！!、,。…\sｗw笑?？]", _TAKING_IN.sub("", low), maxsplit=1)[0]
        head = re.sub(r"(?<=[一-龥ァ-ヶー])(?:かぁ|かー|か)$", "", head)
        if not 2 <= len(head) <= 8 or not _JA_WORD.search(head):
            return None
        if head in norm(self.question.content):
            return None
        return next((p for p in reversed(self.since[-3:]) if head in norm(p.content)), None)

    def _says_the_next_turn_back(self, m: Message) -> Message | None:
        """The one line said since, just before, whose figure and unit the asker opens on ("3 hours is rough
        with two kids" to "…takes 3 hours tho"). A word said back may as well correct it ("Thunderbird is
        client software")."""
        if len(self.since) != 1 or not self._right_after(self.since[0], m) or asks(self.since[0].content):
            return None
        told = self.since[0]
        figure = re.match(r"(\d[\d.,]*)\s*([a-z]+)", norm(m.content))
        if figure and re.search(
            rf"(?<![\d.]){re.escape(figure[1])}\s*{re.escape(figure[2])}", norm(told.content)
        ):
            return told
        return None

    def _asks_about_an_answer(self, m: Message) -> Message | None:
        """The line right after the question (by someone else, asking nothing, among the last few) whose
        word the asker asks about first, a word their question did not say ("silicone like a spray or the
        stick thing?" to "salt. rinse it… silicone only"; 「セモリナってスーパーに売ってる？」): they took
        that line up."""
        if not asks(m.content):
            return None
        low = norm(m.content)
        cut = r"[\s,.!?…]" if low.isascii() else r"[！!、,。…\sｗw笑?？]|って"  # "w" laughs only in Japanese
        head = re.split(cut, low, maxsplit=1)[0]
        common = common_words(self.around)
        if not (3 if low.isascii() else 2) <= len(head) <= 16 or not shared_words(head, head, common):
            return None  # "wait", "so", 「それ」: no word of a topic
        if shared_words(head, self.question.content, common):
            return None  # their own question's word: a follow-up, not a question about an answer
        # the line right after the question (the next turn), not a remark of later lines on its topic
        # (「俺トリル対策でちょうはつ入れたわ」, then 「ちょうはつ誰に持たせてんの」)
        first = self.since[0] if 0 < len(self.since) <= 3 else None
        if first is None or first.author_id == m.author_id or asks(first.content):
            return None
        return first if shared_words(head, first.content, common) else None

    def _takes_a_bare_yes(self, m: Message) -> bool:
        """Does the asker speak right after someone's bare yes or no, which can go only to their yes/no
        question (nobody else asked one since), and say something of it without asking more?"""
        if not self.since or not self._right_after(self.since[-1], m) or asks(m.content):
            return False
        said = self.since[-1]
        return (
            said.author_id != m.author_id
            and _BARE_YES_NO.match(norm(said.content)) is not None
            and asks_yes_no(self.question.content)
            and not any(asks(p.content) for p in self.since[:-1] if p.author_id != m.author_id)
        )

    def _reacts(self, m: Message, link: Link | None) -> bool:
        """Does the asker react to the line just before, which the reader is sure it answers and puts on the
        question, and draw from it without asking more (「たしかそうやった気する」 — 「まじか、ほな10枚は
        無理か」)? Not "damn, that sucks" to news of another thread."""
        last = self.since[-1]
        told = self.links.get(last.id) if self.links else None
        return (
            told is not None
            and told.reply_to in self.thread
            and _ACK_REACT.match(norm(m.content)) is not None
            and not asks(m.content)
            and not asks(last.content)
            and self._right_after(last, m)
            and link is not None
            and link.reply_to == last.id
            and link.confidence >= self.sure
        )

    def _draws_from_the_next_turn(self, m: Message) -> bool:
        """Does the asker react to the one line said since, the next turn, and draw from it without asking
        more ("most won't ship under 40F…" — "ugh ok, waiting then"; 「ほな10枚は無理か」)?"""
        low = norm(m.content)
        return (
            len(self.since) == 1
            and self._right_after(self.since[0], m)
            and (
                (_ACK_REACT.match(low) is not None and _DRAWS.search(low) is not None)
                or (  # 「じゃあウインドブレーカー持ってくかぁ」, on the thing asked about or told
                    _DRAWN_JA.match(low) is not None
                    and any(
                        shared_words(p.content, m.content, frozenset())
                        for p in (self.question, self.since[0])
                    )
                )
            )
            and not asks(m.content)
            and not asks(self.since[0].content)
        )

    def _asked_back(self, m: Message) -> Message | None:
        """Who put a question back to the asker just after theirs ("how many of you? i've got 3 seats",
        "are you using ext2 or ext3?") that the asker's line answers ("me and priya i think"): they took
        the question up, whatever line the reader ties theirs to."""
        at = next((i for i, p in enumerate(self.after) if p.id == m.id), len(self.after))
        if asks(m.content):
            return None
        # The latest question about them since, past another pair's lines (「インボイスの番号どこに書く？」
        # 「右上かな」 between), but not past the asker's own.
        back = None
        for k in range(at - 1, -1, -1):
            p = self.after[k]
            if p.author_id == m.author_id or k >= BACK_LINES or at - k > BACK_LINES:
                return None
            if (
                p.is_human
                and asks(p.content)
                and (asks_of_them(p.content) or (k == 0 and _checks(p.content)))
            ):
                back = p
                break
        if back is None or back.reply_to_id not in (None, *self.thread):
            return None
        if asked_of_another(back, m, self.around):
            return None  # put to someone else's line, or to someone by name
        return back if takes_up(back.content, m.content, SHAPE, common_words(self.around)) else None

    def _put_to_the_bot(self, line_id: str | None) -> bool:
        """Is the line the bot answered the asker's own, after the question and on its words (「チョコって
        なんで入れるんだろ」, then 「ききみみー、カレーにチョコ入れると何が変わるの？」)?"""
        line = next((m for m in self.after if m.id == line_id), None)
        return (
            line is not None
            and line.author_id == self.question.author_id
            # … or their bump of it ("anyone?"), which the bot answered as the question
            and (
                bool(profile(line.content).words & profile(self.question.content).words)
                or bumps(line.content)
            )
        )

    def _right_after(self, line: Message, m: Message) -> bool:
        """Is `m` the next line after `line`?"""
        at = next((i for i, p in enumerate(self.after) if p.id == m.id), 0)
        return at > 0 and self.after[at - 1].id == line.id

    def _sees_off(self, m: Message) -> bool:
        """The asker's goodbye to someone else leaving: they stay, and their question is still open."""
        at = next((i for i, line in enumerate(self.after) if line.id == m.id), len(self.after))
        return not _SETTLED.search(norm(m.content)) and sees_off(m, self.after[:at])

    def _helper(self, m: Message, link: Link | None) -> Message | None:
        """The one (of those who spoke since) the asker's line answers or addresses, if they took it up."""
        helper = next((p for p in self.since if p.id == m.reply_to_id or _addresses(m, p)), None)
        if helper is None and link is not None and link.confidence >= self.sure:
            # (not an invitation to the room: "anyone wanna do roulettes w me in a bit?" helps nobody)
            helper = next(
                (
                    p
                    for p in self.since
                    if p.id == link.reply_to and asks(p.content) and not invites(p.content)
                ),
                None,
            )
        if (
            helper is not None
            and self.links
            and not inferred_about(helper, self.links, self.thread, self.question, self.sure)
        ):
            return None  # the asker talks with someone about something else
        return helper

    def _by_other(self, m: Message, link: Link | None) -> Settled | None:
        """Someone else replies, answers the asker, answers it as the reader links it, or takes the turn."""
        question = self.question
        replied = m.reply_to_id is not None and m.reply_to_id in self.turn
        if replied and only_shrugs(m.content):
            self.since.append(m)  # "idk sorry, never grown it", as a reply: still open for someone who knows
            return None
        if replied:
            return Settled(f"{m.author_name} replied to it", m.id)
        if self._answers_the_same_ask(m):
            return Settled(f"{m.author_name} answered the same question, asked just before", m.id)
        if self._said_to_both(m):
            return Settled(f"{m.author_name} answered both askers", m.id)
        if offer_taken(question, m, self.since):
            return Settled(f"{m.author_name} took the offer", m.id)
        if calls_only(m.content, question.author_name) or _thanks_only(m.content, question.content):
            return None  # "bob?" before what they have to say, or thanks for help given: nothing of it yet
        if _addresses(m, question) and self._about_it(link):
            return Settled(f"{m.author_name} answered the asker", m.id)
        if (
            not self.inferred
            or for_another(m, question, self.later)
            or shrugs(m.content)
            or self._captioned_elsewhere(m)
            or self._shows_own_remark(m)
        ):
            self.since.append(m)  # "not sure, sorry": taken up, still open for someone who knows
            return None
        if (
            link is not None
            and link.reply_to in self.thread
            and link.confidence >= self.sure
            and not asks_back(m.content)
            and not asks_its_own(m.content)  # "wait is the festival event still going…": another question
            and not tells_own_trouble(question.content, m.content)  # "my … doesnt work either": me too
            and (link.names_people or link.certain)
            and not self._own_thread(m)  # 「エンコーダー動いた！」 after their own encoder question
        ):
            return Settled(f"{m.author_name} answered it ({link.confidence:.2f})", m.id)
        if not self.since and _shares_the_feeling(question, m):
            return Settled(f"{m.author_name} shares the feeling", m.id)
        if turn_answers(
            self.question,
            m,
            link,
            self.thread,
            self.since,
            self.around,
            self.follows,
            self.links,
            self.before[-BEFORE_LINES:],
        ):
            return Settled(f"{m.author_name} answered it (the next turn)", m.id)
        if self._taken_up_by_two(m, link):
            return Settled(f"{self.since[0].author_name} and {m.author_name} took it up", m.id)
        if named_answers(question, m, self.since, self.around, self.links):
            return Settled(f"{m.author_name}, whom it names, answered it", m.id)
        if handed_answers(question, m, self.since, self.around, self.links):
            return Settled(f"{m.author_name}, whom it was handed to, answered it", m.id)
        if owner_answers(question, m, self.before, self.since, self.around, self.links):
            return Settled(f"{m.author_name} answered it, a question on their own line", m.id)
        if shown_answers(question, m, self.since, self.around):
            return Settled(f"{m.author_name} answered it, a question about what they showed", m.id)
        self.since.append(m)
        return None

    def _answers_the_same_ask(self, m: Message) -> bool:
        """Two people ask the same brief thing at once (「合言葉は？」, 「パスなに？」): a reply to the first,
        with no question of its own, answers both."""
        prior = self.before[-1] if self.before else None
        return (
            prior is not None
            and prior.is_human
            and m.reply_to_id == prior.id
            and prior.author_id not in (self.question.author_id, m.author_id)
            and (self.question.created_at - prior.created_at).total_seconds() <= SAME_ASK_SECONDS
            and asks(prior.content)
            and asks_again(prior.content)
            and _bare_ask(self.question.content)
            and asks_a_number(prior.content) == asks_a_number(self.question.content)
            and not asks(m.content)
        )

    def _said_to_both(self, m: Message) -> bool:
        """Two people asked; the line says its answer is for both ("for both of you", 「二人とも同じこと聞いて
        るｗ」), asking nothing: whichever question it stands nearer to, it answers this one too."""
        others = [
            p
            for p in [*self.before[-2:], *self.since]
            if p.author_id not in (self.question.author_id, m.author_id)
            and p.is_human
            and (asks(p.content) or asks_unmarked_clause(p.content))
        ]
        # two who asked since, one of them again ("same q actually"): "both of you" is that pair
        later = {p.author_id for p in others if p in self.since} | {
            p.author_id for p in self.since if p.author_id != m.author_id and asks_too(p.content)
        }
        return (
            bool(others)
            and len(later - {self.question.author_id}) < 2
            and _TO_BOTH.search(norm(m.content)) is not None
            and not asks(m.content)
        )

    def _own_thread(self, m: Message) -> bool:
        """Does the line share words with its author's own line before the question, and none with it:
        their own thread going on, whatever the reader links it to?"""
        common = common_words(self.around)
        if shared_words(self.question.content, m.content, common):
            return False
        own = [p for p in self.before[-BEFORE_LINES:] if p.author_id == m.author_id]
        return any(shared_words(p.content, m.content, common) for p in own)

    def _captioned_elsewhere(self, m: Message) -> bool:
        """Is the line a picture its author goes straight on to say is of something else (「[image: 大会の
        組み合わせ表]」, then 「来月の大会の組み合わせ出たで」): news of their own, not an answer?"""
        if not _PICTURE_ONLY.match(m.content.strip()):
            return False
        at = next((i for i, p in enumerate(self.after) if p.id == m.id), None)
        nxt = self.after[at + 1] if at is not None and at + 1 < len(self.after) else None
        if nxt is None or nxt.author_id != m.author_id:
            return False
        common = common_words(self.around)
        return bool(shared_words(m.content, nxt.content, common)) and not shared_words(
            self.question.content, nxt.content, common
        )

    def _shows_own_remark(self, m: Message) -> bool:
        """Is the line a bare link or picture its author posts right after a remark of their own since the
        question ("lmao someone on reddit built an entire lube station", then the imgur link): what the
        remark told, shown, unless the remark leads in to it ("this guide fixed mine:")?"""
        if not (_PICTURE_ONLY.match(m.content.strip()) or _LINK_ONLY.match(m.content.strip())):
            return False
        prev = self.since[-1] if self.since else None
        return (
            prev is not None
            and prev.author_id == m.author_id
            and (m.created_at - prev.created_at).total_seconds() <= SHOWN_WITHIN_SECONDS
            and not asks(prev.content)
            and not _LEADS_IN.search(norm(prev.content))
        )

    def _about_it(self, link: Link | None) -> bool:
        """A line addressed to the asker is about this question unless (as the reader sees it) it is about
        one of their earlier lines: an answer to another of their questions leaves this one open."""
        return link is None or (
            link.reply_to in self.pair
            or (
                link.reply_to not in self.earlier
                and (not self.inferred or link.reply_to in self.thread or link.reply_to is None)
            )
        )


# An answer said to two askers at once: "for both of you", "you both", 「二人とも」, 「お二人とも」.
_TO_BOTH = re.compile(
    r"\b(?:(?:for )?both of (?:you|u|ya)|you both|u both|y'?all both)\b|(?:お?二人|ふたり)とも"
)


# A brief yes/no check put first thing after the question ("is there a displayport on the monitor?"): of
# the asker's setup, theirs to answer.
_CHECK = re.compile(
    r"^(?:is|are|was|were|does|do|did|has|have|can) (?!any ?(?:one|body)\b)\w+(?: \S+){0,8}[?？]+\W*$"
)


def _checks(text: str) -> bool:
    """Is the line such a check (`_CHECK`), not put to the room?"""
    return not TO_THE_ROOM.search(norm(text)) and _CHECK.match(norm(text)) is not None


# A question put to each one there, a poll: "what are yall running…?", 「みんな何使ってる？」.
_TO_EVERYONE = re.compile(
    r"\b(?:y'?all|you all|you guys|everyone|everybody|every1|folks)\b|みんな|皆さん|みなさん|皆様|各自"
)
_TAKING_IN = re.compile(r"^(?:あー+|あ[、,\s]|おー+|へー+|ほー+|えー+|なるほど)[、,\s]*")
_JA_WORD = re.compile(r"[一-龥ァ-ヶ]{2,}")  # a word said back: カーペット, 代用 (not 「うん」)
_PICTURE_ONLY = re.compile(r"^\[(?:image|画像|photo|写真|pic)[:：][^\]]*\]\W*$", re.IGNORECASE)
_LINK_ONLY = re.compile(r"^<?https?://\S+>?$", re.IGNORECASE)
SHOWN_WITHIN_SECONDS = 60  # a link posted this soon after its author's remark shows what the remark told
# A remark that leads in to what it shows: "this guide fixed mine:", "here's a video", 「これ見て」.
_LEADS_IN = re.compile(
    r"[:：]\s*$|\b(?:here|here'?s|this|these|try|check|see|look at|guide|video|link)\b"
    r"|これ|こちら|ここ|参考|見て"
)


# A "why" mused aloud, no mark (「明日1限やのに全然眠くないのなんでなん」, "why am i like this"), and a line
# that opens by sharing it (「わかる、…」, "same lol"): the room took it as a feeling, not a request.
_WHY = re.compile(r"\bwhy\b|なんで|何で|どうして|なぜ")


def _shares_the_feeling(question: Message, m: Message) -> bool:
    text = question.content
    return "?" not in text and "？" not in text and bool(_WHY.search(norm(text))) and relates(m.content)


def inferred_about(
    helper: Message, links: Mapping[str, Link], thread: set[str], question: Message, sure: float = 0.0
) -> bool:
    """Did the helper's line take up the question (a reply, an address, or a learned link to it, `sure`)? A
    line that opens by changing the subject (「てか昨日のはるきのクラッチ…」) took up nothing, however the
    reader links it."""
    link = links.get(helper.id)
    return (
        helper.reply_to_id in thread
        or _addresses(helper, question)
        or link is None
        or (link.reply_to in thread and link.confidence >= sure and not shifts(helper.content))
    )
