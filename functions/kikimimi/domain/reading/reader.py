"""The reply reader: for each message, the earlier one it responds to, from certain signs or learned weights.

Certain: a Discord reply reference, an address to the bot (its latest line), or an `<@id>` mention or
a `nick:` / name / 〜さん address of someone in the window when the weights pick one of their lines.
Else the weights score every option (each of the `window` lines before it, and "opens a conversation")
and the best wins; its confidence is its share of the softmax over all options. Each message is read
knowing the links of the lines before it (who was answering whom), as `kikimimi train-links` trains.

Two tables of weights: where people address each other by name (an IRC channel's `nick:`, Discord
mentions) an unaddressed line is seldom a reply to someone; where nobody does (most Discord channels, a
dialogue), replies go by turn-taking, content and timing, and the weights for such rooms read them. There,
in a room that reads as one conversation, a reply takes its turn after the latest line by someone else
(`window.dialogue_turn`); the trainer reads the weights' own choices.

Where people name each other, boosted trees (trees.py) then re-rank the weights' best few options by
numbers read together (measures.py): how sure the weights were, the time and lines between, who has been
answering whom. The trees choose; a link's confidence stays the weights' probability of the chosen line,
which the rules that read links (`questions`, `answer_turns`) were set on. Where nobody names anyone the
weights alone read the room: there the trees, learned from IRC, misread Discord's answers that come a
line or two late (the chats of `chats/`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from kikimimi.domain.model import Message
from kikimimi.domain.reading.addressing import Line, place, place_one
from kikimimi.domain.reading.features import FEATURE_SET, FEATURE_SETS, choices_of
from kikimimi.domain.reading.measures import measures
from kikimimi.domain.reading.trees import LinkTrees, finite
from kikimimi.domain.reading.window import Candidate, Window, dialogue_turn, read_window

WEIGHTS_VERSION = 1  # the layout of the weights file; FEATURE_SET names what its features mean

# Where the dialogue turn applies, it overrides the weights' choice of the author's own line (an IRC habit)
# and of another person's line unless the weights are more than twice as sure of that one.
TURN_ODDS = 0.5

Options = list[tuple[str | None, list[str]]]  # each option (None: opens a conversation) and its features


@dataclass(frozen=True)
class Link:
    """Which earlier message a message responds to (None: it opens a conversation, or is first)."""

    id: str
    reply_to: str | None
    confidence: float  # the model's probability for reply_to; 1.0 when certain
    certain: bool  # Discord or the text said so: a reply reference, a mention, an address by name
    # Certain, or read where people address each other by name: there a learned link alone may close a
    # question (elsewhere what the line says must, `answer_turns`).
    names_people: bool = True


Explained = tuple[Link, Options]  # a link and the options it chose among


class LinkWeightsInvalid(ValueError):
    """Weights data that the reader cannot use; the message says which field and why."""


def _number(value: object, where: str) -> float:
    return finite(value, where, LinkWeightsInvalid)


@dataclass(frozen=True)
class LinkWeights:
    """Trained weights of the reply reader: one per feature name, a bias, and how they were trained."""

    bias: float
    weights: Mapping[str, float]
    window: int = 40
    feature_set: str = FEATURE_SET
    trained: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: object) -> LinkWeights:
        """Parse and check the weights file's JSON object; LinkWeightsInvalid names what is wrong."""
        if not isinstance(data, dict):
            raise LinkWeightsInvalid(f"expected a JSON object, got {type(data).__name__}")
        version = data.get("version")
        if version != WEIGHTS_VERSION:
            raise LinkWeightsInvalid(f"version: expected {WEIGHTS_VERSION}, got {version!r}")
        feature_set = data.get("feature_set")
        if feature_set not in FEATURE_SETS:
            reads = " or ".join(map(repr, FEATURE_SETS))
            raise LinkWeightsInvalid(
                f"feature_set: trained for {feature_set!r}, this code reads {reads} "
                "(retrain: kikimimi train-links)"
            )
        window = data.get("window")
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise LinkWeightsInvalid(f"window: expected a positive whole number, got {window!r}")
        weights = data.get("weights")
        if not isinstance(weights, dict) or not weights:
            raise LinkWeightsInvalid("weights: expected a non-empty object of feature name → number")
        parsed = {str(name): _number(value, f"weights.{name}") for name, value in weights.items()}
        trained = data.get("trained", {})
        if not isinstance(trained, dict):
            raise LinkWeightsInvalid("trained: expected an object")
        bias = _number(data.get("bias"), "bias")
        return cls(bias, MappingProxyType(parsed), window, feature_set, MappingProxyType(dict(trained)))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the weights file (names sorted, so a file diff shows what changed)."""
        return {
            "version": WEIGHTS_VERSION,
            "feature_set": self.feature_set,
            "window": self.window,
            "trained": dict(self.trained),
            "bias": self.bias,
            "weights": {name: self.weights[name] for name in sorted(self.weights)},
        }

    def score(self, features: Sequence[str]) -> float:
        """The option's logit: the bias plus the weights of its features (unknown names weigh nothing)."""
        get = self.weights.get
        return self.bias + sum(get(name, 0.0) for name in features)


def _softmax(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


@dataclass(frozen=True)
class Scored:
    """A window's options as the weights score them: their features, candidates (None: opens a
    conversation), logits and softmax, and the dialogue turn where the unaddressed table reads it."""

    options: Options
    candidates: list[Candidate | None]
    logits: list[float]
    probabilities: list[float]
    turn: str | None
    named: bool  # read by the table for rooms whose people name each other, where the trees re-rank

    def best(self, top: int) -> list[int]:
        """The indices of the `top` options the weights rank first, best first (ties: earlier first)."""
        return sorted(range(len(self.logits)), key=lambda i: -self.logits[i])[:top]

    def measures(self, win: Window, top: int) -> list[tuple[float, ...]]:
        """The trees' measures of the `top` best options, best first."""
        ranked = [(self.candidates[i], self.logits[i], self.probabilities[i]) for i in self.best(top)]
        return measures(win, ranked, self.turn)


def _reranked(trees: LinkTrees, win: Window, s: Scored) -> list[float]:
    """The probabilities with the weights' `top` best options sharing what the weights gave them as the
    trees rank them (the rest keep theirs, so the best stays among the top)."""
    best = s.best(trees.top)
    shares = _softmax([trees.score(x) for x in s.measures(win, trees.top)])
    mass = sum(s.probabilities[i] for i in best)
    out = list(s.probabilities)
    for i, share in zip(best, shares, strict=True):
        out[i] = mass * share
    return out


class ReplyReader:
    """Reads which earlier message each message of one channel responds to."""

    def __init__(
        self,
        weights: LinkWeights,
        window: int = 40,
        *,
        unaddressed: LinkWeights | None = None,
        trees: LinkTrees | None = None,
    ) -> None:
        self.weights = weights  # for rooms whose people address each other by name (all rooms, alone)
        self.unaddressed = unaddressed  # for rooms where nobody does
        self.trees = trees  # re-rank the weights' best options where people name each other
        self.window = window

    def links(self, messages: Sequence[Message], names: Sequence[str] = ()) -> list[Link]:
        """One Link per message in `messages` (oldest first, one channel), each choosing among the
        `window` messages before it. `names` are the bot's names (addresses to the bot are certain links
        to the bot's latest line, if any). A system message (join, pin) replies to nothing."""
        return list(self.stream(messages, names))

    def stream(self, messages: Sequence[Message], names: Sequence[str] = ()) -> Iterator[Link]:
        """The links of `links`, one message at a time: each reads the links found before it."""
        for link, _ in self._read(messages, names, explain=False):
            yield link

    def explain(self, messages: Sequence[Message], names: Sequence[str] = ()) -> Iterator[Explained]:
        """The links of `stream` as the weights alone choose them, each with the options it chose among
        and their features (what `kikimimi train-links` learns from: the lines before it read as the
        reader read them)."""
        return self._read(messages, names, explain=True)

    def _read(self, messages: Sequence[Message], names: Sequence[str], explain: bool) -> Iterator[Explained]:
        chat = [m for m in messages if m.is_chat]
        lines: list[Line] = []
        parents: dict[str, str | None] = {}
        for m in messages:
            if not m.is_chat:
                yield Link(m.id, None, 1.0, True), []
                continue
            lines.append(place_one(chat, len(lines), names, self.window))
            link, opts = self._link(lines, len(lines) - 1, parents, turns=not explain)
            parents[m.id] = link.reply_to
            yield link, opts if explain else []

    def candidates(
        self, message: Message, earlier: Sequence[Message], names: Sequence[str] = ()
    ) -> list[tuple[str | None, float]]:
        """The probability of each candidate parent (None: opens a conversation), summing to 1, best first."""
        chat = [m for m in earlier if m.is_chat][-self.window :]
        lines = place([*chat, message], names, self.window)
        parents: dict[str, str | None] = {}
        for at in range(len(chat)):  # the window's own links, as `links` reads them
            parents[chat[at].id] = self._link(lines, at, parents)[0].reply_to
        win = read_window(lines, len(lines) - 1, self.window, parents)
        ranked, _ = self._ranked(win)
        return sorted(ranked, key=lambda pair: -pair[1])

    def _table(self, win: Window) -> LinkWeights:
        """The weights that read this room: by whether its people address each other by name."""
        return self.weights if self.unaddressed is None or win.names_people else self.unaddressed

    def scored(self, win: Window) -> Scored:
        """The window's options as the weights score them (the table that reads this room), before the
        trees: what the trees re-rank at run time and learn from in `kikimimi train-links`."""
        weights = self._table(win)
        opts, found = choices_of(win, weights.feature_set)
        logits = [weights.score(features) for _, features in opts]
        turn = dialogue_turn(win) if weights is not self.weights else None
        candidates = [found.get(option or "") for option, _ in opts]
        return Scored(opts, candidates, logits, _softmax(logits), turn, weights is self.weights)

    def _ranked(self, win: Window) -> tuple[list[tuple[str | None, float]], Scored]:
        """Every option with its probability, in `options` order (stable for ties): the weights' softmax,
        its best options' share re-ranked by the trees; and the options as the weights scored them."""
        s = self.scored(win)
        probs = s.probabilities
        if self.trees is not None and s.named and len(s.options) > 1:
            probs = _reranked(self.trees, win, s)
        return [(option, p) for (option, _), p in zip(s.options, probs, strict=True)], s

    def _link(
        self, lines: Sequence[Line], at: int, parents: Mapping[str, str | None], *, turns: bool = True
    ) -> tuple[Link, Options]:
        """The link of lines[at] and the options the weights chose among (none when it was certain)."""
        line = lines[at]
        m = line.message
        if m.reply_to_id:
            return Link(m.id, m.reply_to_id, 1.0, True), []
        earlier = lines[max(0, at - self.window) : at]
        if line.to_bot:
            own = next((e.message.id for e in reversed(earlier) if e.message.is_self), None)
            if own is not None:
                return Link(m.id, own, 1.0, True), []
        win = read_window(lines, at, self.window, parents)
        ranked, s = self._ranked(win)
        opts, named = s.options, s.named
        weighed = dict(zip((option for option, _ in opts), s.probabilities, strict=True))
        # Ties (trees that cannot tell two options apart) go to the weights' choice.
        choice, p = max(ranked, key=lambda pair: (pair[1], weighed[pair[0]]))
        turn = s.turn if turns and choice is not None else None  # only where the unaddressed table reads
        if turn is not None and turn != choice:
            mine = any(e.message.id == choice and e.message.author_id == m.author_id for e in earlier)
            chance = dict(ranked).get(turn, 0.0)
            if mine or chance >= TURN_ODDS * p:
                return Link(m.id, turn, weighed[turn], False, named), opts
        # The text names whom it is for (a mention, `nick:`, 〜さん): certain when the weights pick one of
        # their lines. They may read it as going on with the author's own line, or as answering a bot
        # command that quoted the name: then the weights' choice stands, unsure.
        author = next((e.message.author_id for e in earlier if e.message.id == choice), None)
        if line.to is not None and author == line.to:
            return Link(m.id, choice, 1.0, True), opts
        return Link(m.id, choice, weighed[choice], False, named), opts
