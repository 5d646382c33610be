"""In gcp mode the functions refuse to start without a real LLM: template text never reaches a channel."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient

from kikimimi import bootstrap
from kikimimi.bootstrap import ConfigError
from kikimimi.settings import Settings

from .conftest import recorded

JUDGE = recorded("cloud_tasks_judge.json")


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Only the given variables, and no process Deps yet: the functions start from the environment."""
    for name in Settings.env_names():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(bootstrap, "_process", None)

    def set_(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)

    return set_


@pytest.mark.parametrize(
    ("mode", "backend", "refused"),
    [("gcp", "none", True), ("gcp", "gemini", False), ("gcp", "offline", False), ("local", "none", False)],
)
def test_only_gcp_mode_with_the_template_writer_is_refused(mode: str, backend: str, refused: bool) -> None:
    settings = Settings(mode=mode, llm_backend=backend)
    if refused:
        with pytest.raises(ConfigError, match=r"^LLM_BACKEND=none is refused with KIKIMIMI_MODE=gcp"):
            bootstrap.check_deployable(settings)
    else:
        bootstrap.check_deployable(settings)


@pytest.mark.parametrize("function", ["judge", "reply"])
def test_the_deployed_functions_do_not_start_with_llm_backend_none(
    client: Callable[[str], FlaskClient], environment: Callable[..., None], function: str
) -> None:
    environment(KIKIMIMI_MODE="gcp", LLM_BACKEND="none")
    response = client(function).post("/", json=JUDGE["body"], headers=JUDGE["headers"])
    assert response.status_code == 500  # Cloud Tasks retries, and the error is in the function's log
    assert bootstrap._process is None, "no Deps were built: nothing was read, judged or posted"
    with pytest.raises(ConfigError, match=r"LLM_BACKEND=none .* set LLM_BACKEND=gemini"):
        bootstrap.process_deps()


def test_with_gemini_the_same_environment_starts(
    client: Callable[[str], FlaskClient], environment: Callable[..., None]
) -> None:
    environment(KIKIMIMI_MODE="gcp", LLM_BACKEND="gemini", GEMINI_API_KEY="key")
    response = client("judge").post("/", json=JUDGE["body"])  # not from Cloud Tasks: refused, nothing built
    assert response.status_code == 403
    deps = bootstrap.process_deps()
    assert deps.settings.llm_backend == "gemini" and "built=[]" in repr(deps)


@pytest.mark.parametrize(
    ("settings", "build", "named"),
    [
        (Settings(llm_backend="offline"), lambda s: bootstrap.build_llms(s), "LLM_BACKEND=offline"),
        (Settings(llm_backend="none"), lambda s: bootstrap.build_llms(s), "LLM_BACKEND=none"),
        (Settings(llm_backend="none"), lambda s: bootstrap.build_memory_llm(s), "LLM_BACKEND=none"),
        (Settings(embedding_backend="usem"), lambda s: bootstrap.build_embedder(s), "EMBEDDING_BACKEND=usem"),
        (
            Settings(discord_backend="recording"),
            lambda s: bootstrap.build_discord(s),
            "DISCORD_BACKEND=recording",
        ),
    ],
)
def test_the_deployed_bundle_builds_no_local_backend(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, build: Callable[[Settings], object], named: str
) -> None:
    """functions/ alone (as deployed, without kikimimi_dev) refuses the local backends, naming them."""
    monkeypatch.setattr(bootstrap, "_local_backends", None)
    with pytest.raises(ConfigError, match=rf"^{named} is a local backend: .*kikimimi_dev"):
        build(settings)
