"""The reply reader's feature strings are pinned: the trained weights (FEATURE_SET) mean exactly these."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from kikimimi.adapters.link_weights import load_link_weights
from kikimimi.domain.model import Message
from kikimimi.domain.reading import ReplyReader
from kikimimi.domain.reading.features import FEATURE_SET, options, place
from kikimimi.domain.reading.profile import counter_question, profile

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NAMES = ("kikimimi",)

# (author, text, seconds after T0); "kikimimi" is the bot.
ROOM = [
    ("alice", "morning all", 0),
    ("bob", "does anyone know how to mount a usb drive on ubuntu?", 20),
    ("carol", "bob: try sudo mount /dev/sdb1 /mnt", 45),
    ("bob", "thanks carol, that worked", 70),
    ("alice", "kikimimi, what's the weather like?", 90),
    ("kikimimi", "sunny all day, alice", 95),
    ("dave", "!info ndiswrapper", 120),
    ("alice", "and is it cold?", 130),
    ("けん", "明日の会議って何時からだっけ？", 200),
    ("ゆき", "10時くらいかな", 215),
    ("けん", "ゆきさん、ありがとう！", 230),
    ("carol", "lol", 300),
    ("bob", "anyway, which kernel are you on carol?", 900),
    ("carol", "5.15 i think", 960),
]


def _messages() -> list[Message]:
    return [
        Message(
            id=f"m{i}",
            guild_id="g",
            channel_id="c",
            thread_id=None,
            author_id=f"id_{author}",
            author_name=author,
            author_is_bot=author == "kikimimi",
            content=text,
            created_at=T0 + timedelta(seconds=t),
            is_self=author == "kikimimi",
        )
        for i, (author, text, t) in enumerate(ROOM)
    ]


def _all_options() -> list[tuple[str | None, list[str]]]:
    """Every option of every line, read with and without the links found before it."""
    reader = ReplyReader(load_link_weights(None))
    messages = _messages()
    lines = place(messages, NAMES, reader.window)
    parents = {link.id: link.reply_to for link in reader.links(messages, NAMES)}
    out: list[tuple[str | None, list[str]]] = []
    for at in range(len(lines)):
        out.extend(options(lines, at, reader.window, parents))
        out.extend(options(lines, at, reader.window))
    return out


def test_the_feature_set_is_the_one_the_weights_were_trained_for() -> None:
    assert FEATURE_SET == "reply-links/2"


def test_an_answer_to_a_question_reads_as_it_always_has() -> None:
    messages = _messages()
    lines = place(messages, NAMES, 40)
    carol = options(lines, 2, 40)  # "bob: try sudo mount …" → bob's question, one line back
    start, question = carol[0], carol[1]
    assert start[0] is None
    assert " ".join(start[1]) == (
        "S S&len:m S&n:0 S&ov:1 S&first S&gap:0m S&addr S&answer S&first&answer S&code S&first&code"
    )
    assert question[0] == "m1"
    assert " ".join(question[1]) == (
        "d:1 t:0m between:0 mine_between:0 ov:1 clen:m distinct:1 c_run_start&nth:0 c_first c_first&casks"
        " ov_best last last&d:1 addr addr&nth:0 addr&d:1 talk:0 answered:0 casks casks&d:1 casks&nth:0"
        " casks&answer casks&code casks&no_mine_between rel:aql rel:aql&d:1 rel:aql&m:ax kinds:yn>code"
        " kinds:yn>code&o1"
    )


def test_every_feature_string_is_pinned() -> None:
    """Change a feature's meaning and this fails: bump FEATURE_SET and retrain (`kikimimi train-links`)."""
    text = "\n".join(f"{option}\t{' '.join(features)}" for option, features in _all_options())
    assert hashlib.sha256(text.encode()).hexdigest() == PINNED


def test_text_profiles_are_pinned() -> None:
    got = []
    for _, text, _ in ROOM:
        p = profile(text)
        got.append((sorted(p.words), sorted(p.rare), p.asks, p.answer, p.lead, p.kind, p.size))
        got.append(counter_question(text))
    assert hashlib.sha256(repr(got).encode()).hexdigest() == PINNED_PROFILES


# Re-pinned when name_calls read "thanks carol, that worked" as said to carol (an input of the addressing
# features, not their meaning): the dev logs' link accuracy stayed 0.7205 with the same weights.
PINNED = "81a4fa48d71d22c88e7805d52406740be10ae9e3d58f4e091fd0f1743d1693e7"
PINNED_PROFILES = "bba65c87d67dc1537768d9e2610e4c4c73378081c350a9faa9c35389377e6951"
