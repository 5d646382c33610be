"""Shared fixtures: each server family lives in its own plugin module under tests/fixtures."""

pytest_plugins = [
    "tests.fixtures.emulators",
    "tests.fixtures.cloud_tasks",
    "tests.fixtures.gemini",
    "tests.fixtures.fake_discord",
    "tests.fixtures.serving",
    "tests.fixtures.ci_emulators",
]
