"""The question reader's notes in the question's language (`notes_local`), the English kept."""

from __future__ import annotations

import pytest

from checker.reader import computed, read_question
from service.computed import translator

POISON_EN = "Poison changes the attack value: give it with Poison applied"


@pytest.mark.parametrize(
    ("text", "lang", "word"),
    [
        ("Angreb 3 med poison mod Shield 1, hvor meget skade tager den?", "da", "angrebsværdien"),
        ("Angriff 3 mit Gift gegen Schild 1, wie viel Schaden?", "de", "Angriffswert"),
        ("Attaque 3 avec poison contre bouclier 1, combien de dégâts ?", "fr", "valeur d'attaque"),
        ("Attacco 3 con veleno contro scudo 1, quanti danni?", "it", "valore d'attacco"),
        ("Ataque 3 con veneno contra escudo 1, ¿cuánto daño?", "es", "valor de ataque"),
        ("Aanval 3 met vergif tegen schild 1, hoeveel schade?", "nl", "aanvalswaarde"),
    ],
)
def test_a_note_is_said_in_the_questions_language(text, lang, word):
    reading = read_question(text, lang, "frosthaven")
    assert reading is not None
    answer = computed(reading, None, translator(lang))
    assert answer["notes"] == [POISON_EN]  # the English reference, as before
    assert len(answer["notes_local"]) == 1 and word in answer["notes_local"][0]


def test_without_a_language_there_are_no_local_notes():
    reading = read_question("Attack 3 with poison against shield 1, how much damage?", "en")
    assert reading is not None
    answer = computed(reading)
    assert answer["notes"] == [POISON_EN] and "notes_local" not in answer
