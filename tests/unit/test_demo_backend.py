"""The demo never waits for a model build: auto picks the offline model only when it is installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from kikimimi.settings import Settings
from kikimimi_dev.adapters import model_files
from kikimimi_dev.tools.demo import choose_backend


@pytest.mark.parametrize(
    ("requested", "configured", "installed", "chosen"),
    [
        ("auto", "none", True, "offline"),
        ("auto", "none", False, "none"),
        (None, "none", True, "offline"),
        ("auto", "gemini", True, "gemini"),  # LLM_BACKEND set: it wins over auto
        ("none", "none", True, "none"),  # asked for: kept
        ("offline", "none", False, "offline"),  # asked for: kept (its own error says how to install)
    ],
)
def test_the_demo_backend(
    monkeypatch: pytest.MonkeyPatch, requested: str | None, configured: str, installed: bool, chosen: str
) -> None:
    monkeypatch.setattr(model_files, "offline_installed", lambda cache_dir=None: installed)
    settings = Settings(llm_backend=configured, gemini_api_key="k" if configured == "gemini" else "")
    assert choose_backend(requested, settings) == chosen


def test_without_the_model_the_demo_says_how_to_get_real_replies(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(model_files, "offline_installed", lambda cache_dir=None: False)
    choose_backend("auto", Settings())
    out = capsys.readouterr().out
    assert "template writer" in out and 'pip install -e ".[offline]"' in out and "--llm gemini" in out


def test_offline_installed_needs_the_runtime_and_the_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "llama_cpp" else real_find_spec(name, *a),
    )
    assert model_files.offline_installed(tmp_path) is False
    monkeypatch.setattr(importlib.util, "find_spec", real_find_spec)

    def no_parts(spec: model_files.ModelSpec = model_files.QWEN_CODER_1_5B) -> list[Path]:
        raise model_files.OfflineModelNotInstalled("no parts")

    monkeypatch.setattr(model_files, "find_parts", no_parts)
    if real_find_spec("llama_cpp") is not None:
        assert model_files.offline_installed(tmp_path) is False  # the runtime alone is not the model
        monkeypatch.setattr(model_files, "is_verified", lambda target, spec: True)
        assert model_files.offline_installed(tmp_path) is True
