"""The rule score's terms: the room read once at the conversation moment (`Room`), then one small
function per term, each saying whether its term fires; `TERMS` lists them in the order a score shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kikimimi.domain import name_calls
from kikimimi.domain.conversation import passed_over, replies_to_other
from kikimimi.domain.model import ConversationState, Message
from kikimimi.domain.open_questions import participants_of
from kikimimi.domain.reactions import reaction_kind
from kikimimi.domain.reading.profile import profile
from kikimimi.domain.remarks import steps_away
from kikimimi.domain.reply_shapes import laughs
from kikimimi.domain.rule_config import RuleConfig
from kikimimi.domain.rule_terms import directed_to, is_addressed, is_closing, is_question, norm
from kikimimi.domain.states import TENSE
from kikimimi.domain.tension import Reading, sees_off
from kikimimi.domain.turns import conversation_terms, decay_term


def _seconds(a: datetime, b: datetime) -> float:
    return (a - b).total_seconds()


@dataclass(frozen=True)
class Room:
    """What the terms read: the judgment's inputs and what follows from them, worked out once."""

    messages: Sequence[Message]
    trigger: Message
    moment: datetime  # the conversation moment the windows are read at
    config: RuleConfig
    bot_spoke_at: Sequence[datetime]
    watch: bool
    maybe_answered: bool
    addressed: str | None  # the addressed term (mention, reply_to_bot, name_call), if the bot is
    last_spoke: datetime | None  # the bot's last post
    engaged: bool  # the bot spoke within the engagement window (not in a watch)
    cooling: bool  # … within the cooldown, unaddressed (not in a watch)
    question: bool  # the trigger is a question
    humans: Sequence[Message]
    ending: bool  # the room is winding down (a closing)
    state: ConversationState
    tense: bool  # a misunderstanding or a conflict the trigger's author is in
    # Turns that grate between the trigger's author and another, unnamed by the words: the model's to read.
    door: bool = False


def read_room(
    messages: Sequence[Message],
    trigger: Message,
    moment: datetime | None,
    config: RuleConfig,
    bot_spoke_at: Sequence[datetime],
    watch: bool,
    maybe_answered: bool,
    reading: Reading | None,
) -> Room:
    """The room at the judgment's conversation moment (`score_room` says what each input means)."""
    moment = moment or trigger.created_at
    addressed = is_addressed(trigger, config.names)
    spoke = sorted([m.created_at for m in messages if m.is_self] + list(bot_spoke_at))
    last_spoke = spoke[-1] if spoke else None
    # The bot posting after the moment (e.g. an answer to a mention meanwhile) is "just now".
    since_spoke = max(0.0, _seconds(moment, last_spoke)) if last_spoke else None
    # Turn-taking (engagement, cooldown) is about the flow of talk; a watch answers a question nobody
    # took, which the bot's own recent turn neither invites nor forbids (high frequency still counts).
    turn = since_spoke if since_spoke is not None and not watch else None
    # A watch is kept only for an open question, even one whose "?" is mid-line ("can i X? it won't stop").
    question = watch or is_question(trigger.content)
    humans = [m for m in messages if m.is_human]
    # One reading of "ending": a closing in the last lines, or the state's farewell reading.
    farewell = reading is not None and reading.state is ConversationState.ENDING
    ending = _ending(trigger, humans, watch, question, addressed)
    ending = ending or (farewell and not watch and not addressed)
    state, tense = _state(trigger, reading, ending, addressed)
    door = (
        reading is not None
        and reading.ask_model
        and not (ending or addressed or tense)
        and trigger.author_id in reading.between
    )
    return Room(
        messages=messages,
        trigger=trigger,
        moment=moment,
        config=config,
        bot_spoke_at=bot_spoke_at,
        watch=watch,
        maybe_answered=maybe_answered,
        addressed=addressed,
        last_spoke=last_spoke,
        engaged=turn is not None
        and turn <= config.engagement_seconds
        and not _floor_passed(messages, trigger, config)
        and not steps_away(trigger.content),  # 「ミルク温めてくる」 after the bot's answer: off to do it
        cooling=turn is not None and turn <= config.cooldown_seconds and not addressed,
        question=question,
        humans=humans,
        ending=ending,
        state=state,
        tense=tense,
        door=door,
    )


def _floor_passed(messages: Sequence[Message], trigger: Message, config: RuleConfig) -> bool:
    """Since the bot's last line people talk about the bot among themselves ("is kikimimi a real word?" —
    "it's japanese"), and the trigger follows someone else at once: the bot's turn is over, and what they
    say of it is not said to it."""
    at = next((i for i, m in enumerate(messages) if m.id == trigger.id), len(messages))
    own = next((i for i in range(at - 1, -1, -1) if messages[i].is_self), None)
    if own is None:
        return False
    spoke = messages[own].created_at  # lines of its instant came before it (it answered them at once)
    since = [m for m in messages[own + 1 : at] if m.is_human and m.created_at > spoke]
    about = any(
        name_calls.named(m.content, config.names) and not is_addressed(m, config.names)
        for m in [*since, trigger]
    )
    # In a busy room the talk has moved on among the people: a remark right after another's line is said
    # to them, by one the bot was not talking with (「初めて聞いたとき骨のやつかと思った」 after the bot
    # answered a friend), or, by anyone, an echo of that line (「それな」, "lol", "the first pancake curse is
    # real" after "first pancake is always a sacrifice").
    humans = [m for m in messages[:at] if m.is_human][-8:]
    busy = len({m.author_id for m in humans} | {trigger.author_id}) > SMALL_ROOM
    spoke_to = _spoken_to(messages, messages[own])
    echoes = (
        bool(_ECHO.match(norm(trigger.content)))
        or reaction_kind(trigger.content) == "laughter"
        or bool(since and len(profile(trigger.content).words & profile(since[-1].content).words) >= 2)
    )
    # … or, lines of theirs later, a remark after another's line on nothing the bot's talk was about
    # (「明日の自分かわいそう」 after 「明日の自分に全部任せよう…」), even by the one the bot answered.
    answered = next((m for m in messages if m.id == messages[own].reply_to_id), None)
    talk = profile(messages[own].content).words | (profile(answered.content).words if answered else set())
    later = (
        len(since) >= MOVED_ON_LINES
        and since[-1].author_id != trigger.author_id
        and not profile(trigger.content).words & talk
    )
    # In a small room too, once the bot has answered a call and the talk has gone on among the people: lines
    # of theirs later, or at once a remark after another's line, by one the bot was not talking with, on
    # nothing its talk was about (「それはそれでリアル」 after a friend's line, the bot having answered
    # another's call minutes before). Where the bot was talking as one of the three, it still is.
    called = answered is not None and is_addressed(answered, config.names) is not None
    turned = (
        spoke_to is not None
        and spoke_to != trigger.author_id
        and bool(since)
        and since[-1].author_id != trigger.author_id
        and not profile(trigger.content).words & talk
    )
    moved_on = not is_question(trigger.content) and (
        (busy and ((spoke_to is not None and spoke_to != trigger.author_id) or echoes or later))
        or (not busy and called and (later or turned))
    )
    # A question someone put to the room a line or two back, the trigger saying something to it ("who
    # schedules calls across half the planet honestly" — "me. i did."; 「みんな明日何時起き？」 — 「10時」 —
    # 「休みだから決めてない」): even by the one the bot answered, it is said to them.
    put = [
        m
        for m in since[-3:]
        if m.author_id != trigger.author_id and not is_addressed(m, config.names) and _puts_a_question(m)
    ]
    if put and not is_question(trigger.content) and reaction_kind(trigger.content) != "thanks":
        return True
    # In any room, a question someone put to another since the bot spoke ("wait you bake?? since when"), then
    # that person's answer ("since the kids started demanding it"): the turn is theirs, not the bot's.
    asked = since[-1] if since else None
    if asked is None or asked.author_id == trigger.author_id:
        return False
    answers_them = (
        profile(asked.content).asks  # "wait you bake?? since when": its mark mid-line
        and not is_addressed(asked, config.names)
        and not is_question(trigger.content)
    )
    # The one the bot answered turns to the one who remarked on it since, alone ("the ONE thing keeping you
    # up" — "it's been haunting me since the zoo trip"): said to that person, not to the bot. A remark may
    # end laughing ("…keeping you awake at 1am lol"), but laughter alone remarks nothing.
    remarked = (
        spoke_to == trigger.author_id
        and len(since) == 1
        and reaction_kind(asked.content) in (None, "laughter")
        and not laughs(asked.content)
        and len(asked.content) >= (_REMARK if asked.content.isascii() else _REMARK // 2)
        and not name_calls.named(asked.content, config.names)
        and not is_question(trigger.content)
        and _seconds(trigger.created_at, asked.created_at) <= config.engagement_seconds
    )
    return (
        answers_them
        or remarked
        or ((about or moved_on) and _seconds(trigger.created_at, asked.created_at) <= config.turn_seconds)
    )


def _puts_a_question(m: Message) -> bool:
    """A question or a wondering put to the room, marked or not ("who schedules calls that late honestly",
    「なんで冬の夜ってアイス食べたくなるんだろ」)."""
    low = norm(m.content)
    return profile(m.content).asks or bool(_WONDERS.search(low))


_WONDERS = re.compile(
    r"^(?:who|what|why|how|where|which)\b|^(?:なんで|何で|どうして|なぜ)|(?:んだろ|んだろう|のかな)$"
)


_REMARK = 12  # characters of a remark that says something (half as many in Japanese), not "lol" or "ok"


_ECHO = re.compile(
    r"^(?:それな|わかる|わかりみ|ほんとそれ|まじそれ|same|true|fr|ikr|real|so true|this)[\W_ｗw笑ー〜]*$"
)


def _spoken_to(messages: Sequence[Message], own: Message) -> str | None:
    """Whom the bot's line went to: the author of the line it replied to, or the person it named."""
    replied = next((m for m in messages if m.id == own.reply_to_id), None)
    if replied is not None:
        return replied.author_id
    people = {norm(m.author_name): m.author_id for m in messages if m.is_human}
    named = directed_to(own, {name: name for name in people})
    return people[named] if named is not None else None


SMALL_ROOM = 3  # speakers among the last 8 lines: a room that winds down together
MOVED_ON_LINES = 3  # people's lines since the bot spoke, after which a busy room's talk is among themselves


def _ending(
    trigger: Message, humans: Sequence[Message], watch: bool, question: bool, addressed: str | None
) -> bool:
    """A closing in the last lines ends the talk, unless the trigger asks or calls the bot."""
    if not watch:
        return not question and not addressed and any(is_closing(m.content) for m in humans[-2:])
    # The room winding down ends a question only for an asker who took part since: one who has been
    # silent is still waiting for the answer. In a busy room two others saying goodbye to each other
    # ("see ya") end their own talk, not the room's: there only the asker's farewell counts.
    stayed = any(m.author_id == trigger.author_id and m.created_at > trigger.created_at for m in humans)
    small = len({m.author_id for m in humans[-8:]}) <= SMALL_ROOM
    # The asker seeing someone else off (「おつ〜」 after 「一旦落ちる」) is not the asker leaving.
    asker = trigger.author_id
    closing_now = any(
        is_closing(m.content) and (small or (m.author_id == asker and not sees_off(m, humans[:at])))
        for at, m in enumerate(humans)
        if at >= len(humans) - 2 and m.id != trigger.id
    )
    return closing_now and stayed and not addressed


def _state(
    trigger: Message, reading: Reading | None, ending: bool, addressed: str | None
) -> tuple[ConversationState, bool]:
    """The state the rules name, and whether it is a misunderstanding or a conflict the trigger's author
    is in (`tension`): in a busy room, others' quarrel is not this line's."""
    state = ConversationState.ENDING if ending else ConversationState.ACTIVE
    if reading is None or reading.state is ConversationState.ACTIVE:
        return state, False
    state = reading.state if not ending else state
    tense = (
        state in TENSE  # the states only a model may post into (domain/states.py)
        and not addressed
        and trigger.author_id in reading.between
    )
    if not tense and state is not ConversationState.ENDING:
        state = ConversationState.ACTIVE
    return state, tense


Fired = list[tuple[str, float]]  # the terms a rule adds, each with its share of the term's weight


def _fires(term: str | None, on: bool = True) -> Fired:
    return [(term, 1.0)] if term and on else []


def _addressed(room: Room) -> Fired:
    return _fires(room.addressed)


def _engagement(room: Room) -> Fired:
    return _fires("engagement", room.engaged)


def _cooldown(room: Room) -> Fired:
    return _fires("cooldown", room.cooling)


def _turns(room: Room) -> Fired:
    """Turn-taking read at the trigger (domain.turns). A turn just before the trigger that the judge's
    clock no longer counts as engagement (and never during the cooldown) is the same recency, read when
    the person wrote; in a watch the bot's own turns are not the point (and may come after the question)."""
    fired: Fired = []

    def add(term: str, share: float = 1.0) -> None:
        # A watched question is open after people had their chance: that it came right after the bot's
        # line ("just answered" it) hands no turn to anyone by then.
        if not (room.watch and term == "just_answered"):
            fired.append((term, share))

    counted = room.watch or room.engaged or room.cooling
    conversation_terms(
        room.messages,
        room.trigger,
        room.config,
        room.bot_spoke_at,
        room.last_spoke,
        room.addressed,
        counted,
        add,
    )
    return fired


def _question(room: Room) -> Fired:
    return _fires("question", room.question)


def _question_left(room: Room) -> Fired:
    """A watched question still open when people have had time to answer: passed over (others talked on
    after it), or met by silence (people are away, not that they left it)."""
    late = (
        room.watch and _seconds(room.moment, room.trigger.created_at) >= room.config.unanswered_after_seconds
    )
    if not room.question or not late:
        return []
    return _fires("unanswered_question" if passed_over(room.messages, room.trigger) else "question_waiting")


def _maybe_answered(room: Room) -> Fired:
    """Someone may have answered the watched question: the LLM reads the lines, not the rules."""
    return _fires("maybe_answered", room.question and room.watch and room.maybe_answered)


def _keyword(room: Room) -> Fired:
    low = norm(room.trigger.content)
    return _fires("keyword", any(norm(k) in low for k in room.config.keywords if k))


def _knowledge_topic(room: Room) -> Fired:
    low = norm(room.trigger.content)
    return _fires("knowledge_topic", any(norm(k) in low for k in room.config.knowledge_topics if k))


def _after_silence(room: Room) -> Fired:
    before = [m for m in room.messages if m.id != room.trigger.id]
    quiet = (
        bool(before)
        and _seconds(room.trigger.created_at, before[-1].created_at) >= room.config.silence_seconds
    )
    return _fires("after_silence", quiet)


def _two_people(room: Room) -> Fired:
    """Two people talking with each other: the bot is not one of the voices of late."""
    recent_humans = room.humans[-8:]
    among = any(m.is_self for m in room.messages[-8:])
    pair = len({m.author_id for m in recent_humans}) == 2 and len(recent_humans) >= 4
    return _fires("two_people", pair and not room.addressed and not among)


def _not_mentioned(room: Room) -> Fired:
    """Nobody called the bot lately (an open question is for anyone: in a watch that says nothing)."""
    window = room.messages[-room.config.not_mentioned_window :]
    called = any(is_addressed(m, room.config.names) for m in window if m.is_human)
    return _fires("not_mentioned", not room.watch and not called)


def _high_frequency(room: Room) -> Fired:
    config = room.config
    in_window = [
        m
        for m in room.messages
        if 0 <= _seconds(room.moment, m.created_at) <= config.frequency_window_seconds
    ]
    return _fires("high_frequency", len(in_window) >= config.frequency_count)


def _decay(room: Room) -> Fired:
    return _fires(decay_term(room.humans[-6:]))


def _directed_elsewhere(room: Room) -> Fired:
    """The trigger is aimed at another person: by name, or as a reply to their line."""
    trigger, messages = room.trigger, room.messages
    participants = {k: v for k, v in participants_of(messages).items() if v != trigger.author_name}
    aimed = bool(directed_to(trigger, participants) or replies_to_other(trigger, messages))
    return _fires("directed_elsewhere", not room.addressed and aimed)


def _closing(room: Room) -> Fired:
    return _fires("closing", room.ending)


def _tension(room: Room) -> Fired:
    return _fires("tension", room.tense)


# The rule terms in the order a score lists them; each reads the room and adds the terms it finds.
TERMS: tuple[Callable[[Room], Fired], ...] = (
    _addressed,
    _engagement,
    _cooldown,
    _turns,
    _question,
    _question_left,
    _maybe_answered,
    _keyword,
    _knowledge_topic,
    _after_silence,
    _two_people,
    _not_mentioned,
    _high_frequency,
    _decay,
    _directed_elsewhere,
    _closing,
    _tension,
)
