"""A process's copy of the newest buffered lines of each place, kept equal to the buffer by one small query
per use: the documents changed since its last look (Windows.buffer_changes).

Ingest, the judge and the reply each read a window of a place's newest lines every time they run. Each
function keeps its own copy (one per process as deployed; the simulation keeps one per function too): the
first use reads the window with the time each line last changed; every later use asks only for the
documents changed after the newest change it applied — new lines, edits, tombstones, an erase marker —
applies them, and answers what `Windows.recent_messages` would answer now. A use pays one read, or one per
changed document when more than one changed.

Deletes reach every copy at its next use: a tombstone (a delete, forget me) is a change like any other, a
forget's rewrite is an edit, and an erase (forget channel) deletes documents and then moves the place's
erase marker, which makes a copy drop itself and read the window again. A copy is also read again whole
once it is LIFETIME old, so no text outlives a minute in a process that stops using the place (the guild
memory's cache is a minute too). Only buffered text of the place is held, and handed on only through the
shared copy below.

The same look carries the intervention marker: recording or rewriting one of the place's interventions
moves it, so after one the copy reads the interventions changed since (`interventions`), not all of them.

Copies are shared through one document per place (Windows.window_digest): a first use reads it and the
changes after its mark instead of the window, and leaves its own copy there when it had to read more than
that (only if no other process wrote or cleared the document meanwhile: a precondition on its version).
Every write that takes or alters text of the place (a delete, an edit, a forget's rewrite of an
intervention, an erase) clears that document in the same commit, so what it holds at rest is never what
was erased; each line in it also expires with its own buffer line (the document's expiry is its oldest's).
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from kikimimi.domain.buffer_change import DELETED, ERASED, INTERVENED, MESSAGE, UNTIMED, BufferChange
from kikimimi.domain.model import ChannelKey, Intervention, Message
from kikimimi.domain.window_digest import InterventionsHeld, Order, WindowDigest
from kikimimi.ports import Interventions, Windows

LIFETIME = timedelta(seconds=60)
KEEP = 4  # lines held per line asked for: enough for the next windows, bounded per place
SYNC_LIMIT = 50  # changes read per look; a burst of more and the copy is read again whole
# The shared copy's words at most, its lines' and its interventions' each: a document holds 1 MiB.
SHARED_LINE_BYTES = 300_000


@dataclass
class _Place:
    loaded_at: datetime  # the use case's clock: when the copy was read (whole, or from the shared digest)
    mark: datetime  # server time of the newest change applied
    lines: dict[str, Message]
    floor: Order  # every line ordered at or after it is held
    want: int  # the most lines a use asked for since the copy was read
    looked_at: datetime | None = None  # the use case's clock at the last look
    interventions: InterventionsHeld | None = field(default=None)
    version: str | None = None  # the shared digest's version this use read or wrote (None: do not share)


class PlaceLines:
    """The newest lines of each place one function of this process served (thread-safe); `keep` is the
    buffer's lifetime of a line (what the shared digest may hold)."""

    def __init__(self, keep: timedelta = timedelta(minutes=30)) -> None:
        self._lock = threading.Lock()
        self._places: dict[str, _Place] = {}
        self._keep = keep

    def newest(
        self, windows: Windows, key: ChannelKey, since: datetime, limit: int, now: datetime
    ) -> list[Message]:
        """The newest `limit` lines created at or after `since`, oldest first, as `Windows.recent_messages`
        answers now: the copy after one look at what changed, else read whole."""
        if limit <= 0:
            return []
        held, version = self._current(windows, key, now)
        if held is not None:
            with self._lock:
                answer = _answer(held, since, limit)
            if answer is not None:
                return answer
        return self._load(windows, key, since, limit, now, held.want if held else limit, version)

    def between(
        self, windows: Windows, key: ChannelKey, after: datetime, until: datetime, limit: int, now: datetime
    ) -> list[Message] | None:
        """Lines created in [after, until], oldest first, at most `limit` (a summary's window), when the
        copy after one look (or the shared one) holds every line from `after` on; None when it cannot
        tell, and the caller reads them (this never reads a window whole)."""
        held, _ = self._current(windows, key, now)
        if held is None:
            return None
        with self._lock:
            if (after, "") < held.floor:
                return None
            found = sorted((m for m in held.lines.values() if after <= m.created_at <= until), key=_order)
        return found[:limit]

    def interventions(
        self,
        windows: Windows,
        records: Interventions,
        key: ChannelKey,
        since: datetime,
        limit: int,
        now: datetime,
    ) -> list[Intervention]:
        """As `records.interventions_since`: kept with the place's copy (a look first, unless this use
        already looked); once the intervention marker moved, only those recorded or rewritten since are
        read."""
        with self._lock:
            held = self._places.get(key.id)
            looked = held is not None and held.looked_at == now and _fresh(held, now)
        if not looked:
            held, _ = self._synced(windows, key, now)
        with self._lock:
            kept = held.interventions if held is not None else None
            mark = held.mark if held is not None else None
            covers = kept is not None and kept.since <= since and kept.limit >= limit
            if kept is not None and covers and not kept.stale:
                return [i for i in kept.found if i.at >= since][-limit:]
        if kept is not None and covers and mark is not None:
            changed = records.interventions_changed(key, kept.mark, SYNC_LIMIT)
            fresh = None if len(changed) >= SYNC_LIMIT else _merged(kept, changed, mark)
        else:
            fresh = None
        if fresh is None:
            fresh = InterventionsHeld(
                since, limit, tuple(records.interventions_since(key, since, limit)), mark or UNTIMED
            )
        with self._lock:
            current = held is not None and self._places.get(key.id) is held and mark is not None
            if held is not None and current:
                held.interventions = fresh
        if held is not None and current:
            self._share(windows, key, held, now)
        return [i for i in fresh.found if i.at >= since][-limit:]

    def held(self, key: ChannelKey, message_id: str, now: datetime) -> Message | None:
        """The line if the copy holds it and this use looked at the place (it is buffered as it is)."""
        with self._lock:
            held = self._places.get(key.id)
            if held is None or held.looked_at != now or not _fresh(held, now):
                return None
            return held.lines.get(message_id)

    def drop(self, key: ChannelKey, message_id: str) -> None:
        """A line this process deleted: out of the copy now (its tombstone would take it at the next look)."""
        with self._lock:
            held = self._places.get(key.id)
            if held is not None:
                held.lines.pop(message_id, None)

    def _synced(self, windows: Windows, key: ChannelKey, now: datetime) -> tuple[_Place | None, bool]:
        """The place's copy after a look at what changed since it was last brought up to date (None when
        there is none, it is too old, or the look asks for a read of the whole window), and whether a
        look was paid."""
        with self._lock:
            held = self._places.get(key.id)
            if held is not None and not _fresh(held, now):
                del self._places[key.id]
                held = None
            mark = held.mark if held is not None else None
        if held is None or mark is None:
            return None, False
        changes = windows.buffer_changes(key, mark, SYNC_LIMIT)
        with self._lock:
            if self._places.get(key.id) is not held:
                return self._places.get(key.id), True  # read again meanwhile, by a concurrent use
            if len(changes) >= SYNC_LIMIT or any(
                c.state == ERASED and c.changed_at > held.mark for c in changes
            ):
                del self._places[key.id]
                return None, True
            for change in changes:
                if change.changed_at > held.mark:  # a concurrent look may have applied it (and later ones)
                    _apply(held, change)
            held.looked_at = now
            _trim(held)
            return held, True

    def _current(self, windows: Windows, key: ChannelKey, now: datetime) -> tuple[_Place | None, str | None]:
        """The place's copy after a look: this process's, else the shared one (None: read the window
        whole); and the shared copy's version when this use read it (a window read whole after it may be
        shared at that version)."""
        held, looked = self._synced(windows, key, now)
        if held is not None or looked:  # after a burst or an erase the shared copy is older still
            return held, None
        digest, version = windows.window_digest(key)
        if digest is None:
            return None, version
        held = self._from_digest(windows, key, digest, version, now)
        if held is None:
            return None, version
        with self._lock:
            return held, held.version  # its own write, when the look found changes

    def _from_digest(
        self, windows: Windows, key: ChannelKey, digest: WindowDigest, version: str, now: datetime
    ) -> _Place | None:
        """The shared digest, brought up to date by one look, as this process's copy; None when the look
        asks for a read of the whole window. Left shared again when the look found changes."""
        changes = windows.buffer_changes(key, digest.mark, SYNC_LIMIT)
        if len(changes) >= SYNC_LIMIT or any(c.state == ERASED for c in changes):
            return None
        held = _Place(
            now,
            digest.mark,
            {m.id: m for m in digest.lines},
            digest.floor,
            digest.want,
            looked_at=now,
            interventions=digest.interventions,
            version=version,
        )
        for change in changes:
            _apply(held, change)
        _trim(held)
        with self._lock:
            self._places[key.id] = held
        if changes:
            self._share(windows, key, held, now)
        return held

    def _load(
        self,
        windows: Windows,
        key: ChannelKey,
        since: datetime,
        limit: int,
        now: datetime,
        want: int,
        version: str | None,
    ) -> list[Message]:
        """Read the window whole, with the newest change time among its lines: a change after that time
        shows at the next look, one before it is in the window read (a look applies again what it holds
        already, harmlessly). A window with no line to time it by asks for the newest change first. The
        copy is shared when the digest's `version` was read before the window."""
        want = max(want, limit)
        window = windows.recent_changes(key, since, want)
        mark = max((c.changed_at for c in window), default=UNTIMED)
        if mark == UNTIMED or any(c.changed_at == UNTIMED for c in window):
            head = windows.buffer_changes(key, None, 1)
            mark = head[-1].changed_at if head else UNTIMED
            window = windows.recent_changes(key, since, want)
        lines = [c.message for c in window if c.message is not None]
        floor = (since, "") if len(lines) < want else max((since, ""), _order(lines[0]))
        held = _Place(now, mark, {m.id: m for m in lines}, floor, want, looked_at=now, version=version)
        with self._lock:
            self._places[key.id] = held
        self._share(windows, key, held, now)
        return lines[-limit:]

    def _share(self, windows: Windows, key: ChannelKey, held: _Place, now: datetime) -> None:
        """Leave the copy in the place's shared digest, in the use that read it (a later use's copy may be
        newer than the digest, but is not written: one write per cold use at most, none while warm). The
        lines older than a buffer line lives are left out, and the document expires with its oldest."""
        with self._lock:
            if held.version is None or held.loaded_at != now or held.mark == UNTIMED:
                return
            horizon = now - self._keep
            lines = sorted((m for m in held.lines.values() if m.created_at >= horizon), key=_order)
            floor = max(held.floor, (horizon, ""))
            size = sum(_size(m.content) for m in lines)
            while size > SHARED_LINE_BYTES:  # long lines: fewer of them
                size -= _size(lines.pop(0).content)
                floor = max(floor, _order(lines[0]) if lines else (now, ""))
            shown = held.interventions
            if (
                shown is not None
                and sum(_size(c) for i in shown.found for c in i.context) > SHARED_LINE_BYTES
            ):
                shown = None
            digest = WindowDigest(held.mark, tuple(lines), floor, held.want, shown)
            version = held.version
        expire_at = (lines[0].created_at if lines else now) + self._keep
        kept = windows.keep_window_digest(key, digest, version, expire_at)
        with self._lock:
            held.version = kept  # None: another process wrote or cleared it meanwhile; leave it to them


def _size(text: str) -> int:
    return len(text.encode())


def _fresh(held: _Place, now: datetime) -> bool:
    return timedelta(0) <= now - held.loaded_at < LIFETIME


def _apply(held: _Place, change: BufferChange) -> None:
    """One changed document: a line in or out of the copy, or the interventions to read again."""
    held.mark = change.changed_at
    line = change.message
    if change.state == MESSAGE and line is not None and _order(line) >= held.floor:
        held.lines[line.id] = line
    elif change.state in (MESSAGE, DELETED):
        held.lines.pop(change.doc_id, None)
    elif change.state == INTERVENED and held.interventions is not None:
        held.interventions = replace(held.interventions, stale=True)


def _merged(kept: InterventionsHeld, changed: list[Intervention], mark: datetime) -> InterventionsHeld:
    """The kept interventions with those recorded or rewritten since their mark (each replacing its
    earlier self): still the newest `limit` at or after `since`, now as of the copy's `mark`."""
    by_id = {_intervention_id(i): i for i in kept.found}
    by_id.update((_intervention_id(i), i) for i in changed)
    found = sorted((i for i in by_id.values() if i.at >= kept.since), key=lambda i: i.at)[-kept.limit :]
    return InterventionsHeld(kept.since, kept.limit, tuple(found), mark)


def _intervention_id(intervention: Intervention) -> tuple[str, str]:
    """What names an intervention's document: a retried record overwrites it."""
    return intervention.trigger_id, intervention.response_type.value


def _answer(held: _Place, since: datetime, limit: int) -> list[Message] | None:
    """The window from the copy, or None when the copy cannot tell: lines older than its floor may be
    missing, and fewer than `limit` lines from the floor on match."""
    found = sorted((m for m in held.lines.values() if m.created_at >= since), key=_order)
    if len(found) >= limit or (since, "") >= held.floor:
        held.want = max(held.want, limit)
        return found[-limit:]
    return None


def _trim(held: _Place) -> None:
    if len(held.lines) > KEEP * held.want:
        keep = sorted(held.lines.values(), key=_order)[-KEEP * held.want :]
        held.lines, held.floor = {m.id: m for m in keep}, _order(keep[0])


def _order(message: Message) -> Order:
    return message.created_at, message.id


_COPIES: weakref.WeakKeyDictionary[object, dict[str, PlaceLines]] = weakref.WeakKeyDictionary()
_COPIES_LOCK = threading.Lock()


def of(owner: object, function: str, keep: timedelta) -> PlaceLines:
    """The copy `function` (ingest, judge, reply) keeps for `owner` (a Deps: one per process, and one per
    simulated process, whose functions keep theirs apart as their deployed processes do); `keep` is the
    buffer's lifetime of a line."""
    with _COPIES_LOCK:
        copies = _COPIES.setdefault(owner, {})
        copy = copies.get(function)
        if copy is None:
            copy = copies[function] = PlaceLines(keep)
        return copy


def every(owner: object) -> list[PlaceLines]:
    """Every function's copy kept for `owner` (a delete handled here leaves them all)."""
    with _COPIES_LOCK:
        return list(_COPIES.get(owner, {}).values())
