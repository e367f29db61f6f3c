"""Which of the seven languages a text is in (lingua, restricted to those seven)."""
from __future__ import annotations

from functools import lru_cache

# Short texts such as "item 225" are near-ties between languages; demanding this much distance
# between the best two makes such a text "unsure" (then the caller's default, usually English)
# instead of a guess. Measured on dev.yaml: 71/72 right either way, and "item 225" -> unsure.
MIN_RELATIVE_DISTANCE = 0.1


@lru_cache(maxsize=1)
def _detector():
    from lingua import Language, LanguageDetectorBuilder

    langs = {"en": Language.ENGLISH, "nl": Language.DUTCH, "da": Language.DANISH,
             "it": Language.ITALIAN, "de": Language.GERMAN, "es": Language.SPANISH,
             "fr": Language.FRENCH}
    # Preloaded: lingua then reads the seven languages' n-gram models on all cores at once
    # (measured here: ~0.9 s, against 1.3-1.9 s on one core when the first text loads them),
    # which is most of what the service's cold start waits for. The same models either way.
    detector = (LanguageDetectorBuilder.from_languages(*langs.values())
                .with_minimum_relative_distance(MIN_RELATIVE_DISTANCE)
                .with_preloaded_language_models().build())
    return detector, {v: k for k, v in langs.items()}


def detect_language(text: str, default: str | None = "en") -> str | None:
    """The language code of `text` among the seven, or `default` when unsure."""
    detector, codes = _detector()
    found = detector.detect_language_of(text)
    return codes.get(found, default) if found is not None else default
