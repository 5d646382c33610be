"""The dated price file of `kikimimi cost` (prices.toml beside this module), parsed and checked."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

FREE_PER = ("day", "month", "none")
PRICE_FIELDS = ("service", "item", "unit", "price", "per", "free", "free_per", "source", "date", "verified")


class PriceError(ValueError):
    """The price file is missing, malformed, or lacks a price the estimate needs."""


@dataclass(frozen=True)
class Price:
    """One unit price: `price` dollars per `per` units, after `free` units per `free_per`."""

    key: str
    service: str
    item: str
    unit: str
    price: float
    per: float
    free: float
    free_per: str
    source: str
    date: str
    verified: bool
    note: str = ""


@dataclass(frozen=True)
class ModelPrice:
    """Which prices a Gemini model's input and output tokens use; thinking models bill their cap."""

    input: str
    output: str
    thinking: bool
    # Gemini's implicit cache: a prompt whose start matches a recent prompt's, at least this many tokens
    # long, bills that start at the cached-input price.
    cached_input: str | None = None
    cache_min_tokens: int = 0


@dataclass(frozen=True)
class PriceBook:
    date: str
    currency: str
    region: str
    days: int
    prices: dict[str, Price]
    models: dict[str, ModelPrice]
    assumptions: dict[str, dict[str, Any]]

    def value(self, name: str) -> float:
        """An assumption's single value."""
        try:
            return float(self.assumptions[name]["value"])
        except KeyError as exc:
            raise PriceError(f"assumption {name!r} is missing from the price file") from exc

    def model(self, name: str) -> ModelPrice:
        if name not in self.models:
            known = ", ".join(sorted(self.models))
            raise PriceError(f"no price for model {name!r} in the price file (known: {known})")
        return self.models[name]


def default_path() -> Path:
    return Path(str(resources.files("kikimimi_dev.tools").joinpath("prices.toml")))


def _price(key: str, raw: dict[str, Any]) -> Price:
    missing = [f for f in PRICE_FIELDS if f not in raw]
    if missing:
        raise PriceError(f"price {key!r} lacks {', '.join(missing)}")
    if raw["free_per"] not in FREE_PER:
        raise PriceError(f"price {key!r}: free_per must be one of {', '.join(FREE_PER)}")
    if float(raw["per"]) <= 0 or float(raw["price"]) < 0 or float(raw["free"]) < 0:
        raise PriceError(f"price {key!r}: per must be positive, price and free not negative")
    return Price(
        key=key,
        service=str(raw["service"]),
        item=str(raw["item"]),
        unit=str(raw["unit"]),
        price=float(raw["price"]),
        per=float(raw["per"]),
        free=float(raw["free"]),
        free_per=str(raw["free_per"]),
        source=str(raw["source"]),
        date=str(raw["date"]),
        verified=bool(raw["verified"]),
        note=str(raw.get("note", "")),
    )


def parse_prices(text: str) -> PriceBook:
    """A PriceBook from the TOML text; every model's prices must exist."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PriceError(f"price file: {exc}") from exc
    meta = data.get("meta", {})
    prices = {key: _price(key, raw) for key, raw in data.get("prices", {}).items()}
    models = {
        name: ModelPrice(
            str(raw["input"]),
            str(raw["output"]),
            bool(raw.get("thinking", False)),
            str(raw["cached_input"]) if "cached_input" in raw else None,
            int(raw.get("cache_min_tokens", 0)),
        )
        for name, raw in data.get("models", {}).items()
    }
    for name, model in models.items():
        for key in (model.input, model.output, *([model.cached_input] if model.cached_input else [])):
            if key not in prices:
                raise PriceError(f"model {name!r} names price {key!r}, which the file lacks")
    return PriceBook(
        date=str(meta.get("date", "")),
        currency=str(meta.get("currency", "USD")),
        region=str(meta.get("region", "")),
        days=int(meta.get("days_per_month", 30)),
        prices=prices,
        models=models,
        assumptions=dict(data.get("assumptions", {})),
    )


def load_prices(path: str | Path | None = None) -> PriceBook:
    """The price file at `path`, or the one shipped with the package."""
    source = Path(path) if path else default_path()
    try:
        return parse_prices(source.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PriceError(f"cannot read the price file {source}: {exc}") from exc
