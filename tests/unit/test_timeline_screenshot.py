"""kikimimi timeline in a real browser: headless Chromium renders the demo's page to a PNG, not blank."""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.tools.replay import replay, write_json
from kikimimi_dev.tools.timeline import render
from kikimimi_dev.tools.timeline_events import parse_timeline

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo_conversation.jsonl"
WIDTH, HEIGHT = 1400, 900
WATCH_RESPOND = (0x67, 0x41, 0xD9)  # a fired question watch that decided to respond (the page's CSS)
CANCEL_X = (0xC9, 0x2A, 0x2A)


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit truecolour PNG, with the stdlib only."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, header = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format: depth {depth}, colour type {colour}"
    pixel = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * pixel
    rows, previous = [], bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(pixel, stride):
                line[i] = (line[i] + line[i - pixel]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous, strict=True))
        elif kind == 3:
            for i in range(stride):
                left = line[i - pixel] if i >= pixel else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - pixel] if i >= pixel else 0
                b, c = previous[i], previous[i - pixel] if i >= pixel else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        previous = bytes(line)
        rows.append(previous)
    return width, height, [bytes(r[i] for i in range(len(r)) if i % pixel < 3) for r in rows]


def colours(rows: list[bytes]) -> dict[tuple[int, int, int], int]:
    counts: dict[tuple[int, int, int], int] = {}
    for row in rows:
        for i in range(0, len(row), 3):
            key = (row[i], row[i + 1], row[i + 2])
            counts[key] = counts.get(key, 0) + 1
    return counts


def near(counts: dict[tuple[int, int, int], int], target: tuple[int, int, int], slack: int = 8) -> int:
    return sum(
        n for c, n in counts.items() if all(abs(a - b) <= slack for a, b in zip(c, target, strict=True))
    )


def test_the_decoder_reads_what_zlib_wrote() -> None:
    """A 3×2 PNG with each filter type the decoder knows, built by hand."""
    pixels = [[(10, 20, 30), (40, 50, 60), (70, 80, 90)], [(15, 25, 35), (45, 55, 65), (75, 85, 95)]]
    raw = b"\x00" + bytes(v for p in pixels[0] for v in p)
    up = bytes(
        (a - b) & 0xFF
        for a, b in zip(
            bytes(v for p in pixels[1] for v in p), bytes(v for p in pixels[0] for v in p), strict=True
        )
    )
    raw += b"\x02" + up

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    width, height, rows = decode_png(png)
    assert (width, height) == (3, 2)
    assert rows == [bytes(v for p in line for v in p) for line in pixels]


@pytest.mark.slow
def test_chromium_renders_the_demo_page(tmp_path: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip(
            "headless Chromium is not installed: apt-get install -y chromium (Debian's chromium package)"
        )
    out = io.StringIO()
    with DEMO.open(encoding="utf-8") as fh:
        write_json(replay(fh, Settings(enabled_channels="*")), out, messages=True)
    page = tmp_path / "timeline.html"
    page.write_text(render(parse_timeline(out.getvalue()), title="demo"), encoding="utf-8")
    shot = tmp_path / "timeline.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-color-profile=srgb",
            f"--screenshot={shot}",
            f"--window-size={WIDTH},{HEIGHT}",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    width, height, rows = decode_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    counts = colours(rows)
    background = counts.get((255, 255, 255), 0)
    assert len(counts) > 300  # text, bars, marks: many colours (a page of plain text has under 100)
    assert WIDTH * HEIGHT - background > WIDTH * HEIGHT // 50  # at least 2% of the page is drawn on
    assert near(counts, WATCH_RESPOND) > 100  # the fired question watch's bar reached the screen
    assert near(counts, CANCEL_X) > 20  # and the cancelled judgments' crosses
