"""Links in what the bot posts: it may repeat a link it was shown, or one on the allowlist, never invent one.

A link is what a reader can follow: `scheme://…` (any scheme, so `hxxp://` too), `www.…`, `<…>`-wrapped
and the target of a markdown `[text](url)`. Defanged text without `://` (`evil[.]com`) and bare domains
(`node.js`, `example.com`) are not links: no client makes them clickable, and prose is full of them.
A URL runs to whitespace, a bracket or quote, or Japanese text (often written right after a link).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

# Not part of a URL: whitespace, brackets, quotes, the prompt's bracket look-alikes, and Japanese script
# and punctuation (hiragana, katakana, CJK ideographs, full-width forms).
_STOP = r"\s<>()\[\]{}\"'`‹›「」『』（）【】、。\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_URL = rf"(?:[a-z][a-z0-9+.\-]{{0,15}}://|www\.)[^{_STOP}]+"
_MARKDOWN = re.compile(rf"\[([^\]\n]*)\]\(\s*<?({_URL})>?(?:\s+\"[^\"\n]*\")?\s*\)", re.IGNORECASE)
_BARE = re.compile(_URL, re.IGNORECASE)
_TRAILING = ".,;:!?'\"…*_~|"  # prose and markdown around a link, not part of it


@dataclass(frozen=True)
class Checked:
    """The text with unknown links removed, and the host of each removed one (for the log)."""

    text: str
    removed: tuple[str, ...] = ()


def find_links(text: str) -> list[str]:
    """Every link in `text`, as written (markdown targets included, trailing punctuation excluded)."""
    return [_trim(m.group(0)) for m in _BARE.finditer(text)]


def known_links(texts: Iterable[str]) -> frozenset[str]:
    """The normalized links that appear in `texts` (what the writer was shown)."""
    return frozenset(_key(link) for text in texts for link in find_links(text))


def host_of(link: str) -> str:
    """The lower-case host of a link ("" when it has none that parses)."""
    parts = _split(link)
    return parts[0] if parts else ""


def allowed(link: str, known: frozenset[str], allowlist: Iterable[str]) -> bool:
    """Was the link shown to the writer, or is its host on the allowlist (a suffix, on a label boundary)?"""
    if _key(link) in known:
        return True
    host = host_of(link)
    for entry in allowlist:
        suffix = entry.strip().lower().removeprefix("*.").strip(".")
        if suffix and host and (host == suffix or host.endswith("." + suffix)):
            return True
    return False


def keep_known_links(text: str, seen: Iterable[str], allowlist: Iterable[str] = ()) -> Checked:
    """Remove every link of `text` that is not in `seen` (texts the writer was shown) nor allowlisted."""
    known = known_links(seen)
    allow = tuple(allowlist)
    removed: list[str] = []

    def verdict(link: str) -> bool:
        if allowed(link, known, allow):
            return True
        removed.append(host_of(link) or "?")
        return False

    def markdown(match: re.Match[str]) -> str:
        label, target = match.group(1), _trim(match.group(2))
        # A masked link whose target is unknown keeps its words; its label is checked as text below.
        return match.group(0) if verdict(target) else label

    text = _MARKDOWN.sub(markdown, text)
    text = _remove_bare(text, verdict)
    return Checked(text.strip(), tuple(removed))


def _remove_bare(text: str, keep: Callable[[str], bool]) -> str:
    """Drop the bare links `keep` refuses, with one of the spaces around each (no double spaces left)."""
    out: list[str] = []
    pos = 0
    for match in _BARE.finditer(text):
        link = _trim(match.group(0))
        start, end = match.start(), match.start() + len(link)
        if _inside_kept_markdown(text, start) or keep(link):
            continue
        if text.endswith("<", 0, start) and text.startswith(">", end):  # <url>: a link without a preview
            start, end = start - 1, end + 1
        before = text[pos:start]
        if before.endswith(" ") and (end == len(text) or text[end] in " \n"):
            before = before[:-1]
        out.append(before)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _inside_kept_markdown(text: str, start: int) -> bool:
    """Is this link the target of a markdown link that was already checked and kept: `](url)`/`](<url>)`?"""
    return text.endswith("](", 0, start) or text.endswith("](<", 0, start)


def _trim(link: str) -> str:
    return link.rstrip(_TRAILING)


def _split(link: str) -> tuple[str, str, str, str] | None:
    """(host, port, path, query) as a browser reads them, or None when the authority does not parse.

    Like WHATWG for http(s): the authority ends at `/`, `\\`, `?` or `#`, and its last `@` ends the
    user info (so `https://google.com@evil.example` and `https://evil.example\\@google.com` are evil's).
    """
    rest = link if link[:4].lower() == "www." else link.split("://", 1)[-1]
    match = re.match(r"([^/\\?#]*)([^?#]*)(?:\?([^#]*))?", rest)
    assert match is not None  # every group may be empty: the pattern matches any string
    authority, path, query = match.group(1), match.group(2), match.group(3) or ""
    host_port = authority.rpartition("@")[2]
    if host_port.startswith("["):  # an IPv6 literal
        host, bracket, port = host_port[1:].partition("]")
        if not bracket or (port and not port.startswith(":")):
            return None
        port = port[1:]
    else:
        host, _, port = host_port.partition(":")
    if port and not (len(port) <= 5 and port.isascii() and port.isdigit() and int(port) <= 65535):
        return None
    host = host.lower().rstrip(".")
    return (host, port, path, query) if host else None


def _key(link: str) -> str:
    """What makes two links the same: host, port, path (without a final /) and query; not scheme or anchor."""
    parts = _split(link)
    if parts is None:
        return link.lower()
    host, port, path, query = parts
    return f"{host}{':' + port if port else ''}{path.rstrip('/')}{'?' + query if query else ''}"
