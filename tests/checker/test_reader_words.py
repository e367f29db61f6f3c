"""The question reader knows each edition's words: the conditions the checks use as the
seven editions print them (and as players shorten them), Shield, Ward, Brittle and hit points
as the editions and players write them, and every such word of the archive's translations."""

from __future__ import annotations

import pytest
import yaml

from checker.reader import computed
from checker.reader.lexicon import LANGS, lexicon
from checker.reader.scan import scan
from tests.checker.test_reader import FH, RECORDS, read

# --- the words ---------------------------------------------------------------------------------

# Each condition the checks use, in the forms each edition prints (noun, adjective, participle;
# the archive's translations print "Betäubung", "Étourdissement", "Malédiction", "Fluch") and
# players' shortenings ("immob", "regen", "invis"); lower-case and accent-less forms too.
CONDITION_FORMS: dict[str, dict[str, str]] = {
    "en": {
        "poison": "poison poisoned",
        "wound": "wound wounded",
        "muddle": "muddle muddled",
        "immobilize": "immobilize immobilized immobilised immob",
        "disarm": "disarm disarmed",
        "stun": "stun stunned",
        "strengthen": "strengthen strengthened",
        "invisible": "invisible invisibility invis",
        "bless": "bless blessed",
        "curse": "curse cursed",
        "regenerate": "regenerate regeneration regen",
        "bane": "bane",
        "impair": "impair impaired",
    },
    "de": {
        "poison": "Vergiftung vergiftet Gift",
        "wound": "Wunde verwundet Verwundung",
        "muddle": "Verwirrung verwirrt",
        "immobilize": "bewegungsunfähig Bewegungsunfähigkeit immobilisiert",
        "disarm": "Entwaffnung entwaffnet",
        "stun": "Betäubung betäubt betaubt",
        "strengthen": "Stärkung gestärkt gestarkt",
        "invisible": "Unsichtbarkeit unsichtbar",
        "bless": "Segen gesegnet",
        "curse": "Fluch verflucht",
        "regenerate": "Regeneration",
        "impair": "beeinträchtigt",
    },
    "fr": {
        "poison": "Poison empoisonné empoisonnée empoisonne",
        "wound": "Blessure blessé blessée",
        "muddle": "Confusion désorienté désorientée",
        "immobilize": "immobilisé immobilisée",
        "disarm": "désarmé désarmée",
        "stun": "Étourdissement étourdi étourdie etourdi",
        "strengthen": "renforcé renforcée Renforcement",
        "invisible": "invisible Invisibilité",
        "bless": "Bénédiction béni bénie",
        "curse": "Malédiction maudit maudite",
        "regenerate": "Régénération régénéré",
    },
    "it": {
        "poison": "avvelenato avvelenata veleno",
        "wound": "ferito ferita ferite",
        "muddle": "confuso confusa confusione",
        "immobilize": "immobilizzato immobilizzata",
        "disarm": "disarmato disarmata",
        "stun": "stordito stordita",
        "strengthen": "rinforzato rinforzata",
        "invisible": "invisibile invisibilità",
        "bless": "benedizione benedetto",
        "curse": "maledizione maledetto",
        "regenerate": "rigenerazione",
    },
    "es": {
        "poison": "envenenado envenenada veneno",
        "wound": "herido herida",
        "muddle": "confundido confundida",
        "immobilize": "inmovilizado inmovilizada",
        "disarm": "desarmado desarmada",
        "stun": "aturdido aturdida",
        "strengthen": "fortalecido fortalecida",
        "invisible": "invisible invisibilidad",
        "bless": "bendición bendicion bendecido",
        "curse": "maldición maldito",
        "regenerate": "regeneración",
    },
    "nl": {
        "poison": "vergiftigd gif vergiftiging",
        "wound": "gewond wond verwond",
        "muddle": "verward verwarring",
        "immobilize": "geïmmobiliseerd geimmobiliseerd vastgezet",
        "disarm": "ontwapend",
        "stun": "verdoofd verdoving",
        "strengthen": "versterkt",
        "invisible": "onzichtbaar",
        "bless": "zegen gezegend",
        "curse": "vloek vervloekt",
        "regenerate": "regeneratie",
    },
    "da": {
        "poison": "forgiftet gift",
        "wound": "såret sår saret",
        "muddle": "forvirret",
        "immobilize": "immobiliseret fastlåst",
        "disarm": "afvæbnet",
        "stun": "bedøvet lammet",
        "strengthen": "styrket",
        "invisible": "usynlig",
        "bless": "velsignelse velsignet",
        "curse": "forbandelse forbandet",
        "regenerate": "regeneration",
    },
}
FORMS = [
    (lang, condition, form)
    for lang, table in CONDITION_FORMS.items()
    for condition, forms in table.items()
    for form in forms.split()
]

# Shield, Ward, Brittle and hit points as the editions print them (the archive: "scudo",
# "protezione", "PF", "Trefferpunkte", "puntos de vida", "HP", "hit points") and as players
# write them ("LP", "PdV", "PG", "levenspunten", "liv").
TERMS = [
    ("en", "hit points", "hp"),
    ("en", "hps", "hp"),
    ("en", "health", "hp"),
    ("de", "Trefferpunkte", "hp"),
    ("de", "LP", "hp"),
    ("de", "TP", "hp"),
    ("de", "Lebenspunkte", "hp"),
    ("de", "Schild", "shield"),
    ("de", "brüchig", "brittle"),
    ("fr", "PV", "hp"),
    ("fr", "PdV", "hp"),
    ("fr", "points de vie", "hp"),
    ("fr", "pts de vie", "hp"),
    ("fr", "Bouclier", "shield"),
    ("fr", "fragile", "brittle"),
    ("it", "PF", "hp"),
    ("it", "punti ferita", "hp"),
    ("it", "punti vita", "hp"),
    ("it", "PS", "hp"),
    ("it", "scudo", "shield"),
    ("it", "protezione", "ward"),
    ("it", "fragile", "brittle"),
    ("es", "PV", "hp"),
    ("es", "puntos de vida", "hp"),
    ("es", "PG", "hp"),
    ("es", "puntos de golpe", "hp"),
    ("es", "Escudo", "shield"),
    ("es", "frágil", "brittle"),
    ("nl", "HP", "hp"),
    ("nl", "levenspunten", "hp"),
    ("nl", "LP", "hp"),
    ("nl", "schild", "shield"),
    ("nl", "broos", "brittle"),
    ("da", "hit points", "hp"),
    ("da", "livspoint", "hp"),
    ("da", "liv", "hp"),
    ("da", "skjold", "shield"),
    ("da", "skrøbelig", "brittle"),
]


def _concepts(text: str, lang: str) -> list[str]:
    return [t.concept for t in scan(text, lexicon(lang)).terms]


@pytest.mark.parametrize("lang, condition, form", FORMS, ids=[f"{c[0]}-{c[2]}" for c in FORMS])
def test_every_printed_form_of_a_condition(lang: str, condition: str, form: str) -> None:
    assert _concepts(form, lang) == [f"effect.{condition}"]


def test_every_condition_in_every_language() -> None:
    english = set(CONDITION_FORMS["en"])
    for lang in LANGS:
        # Bane and Impair: the archive's translations keep the English words (fh-edge-11)
        assert english - set(CONDITION_FORMS[lang]) <= {"bane", "impair"}, lang


@pytest.mark.parametrize("lang, phrase, concept", TERMS, ids=[f"{c[0]}-{c[1]}" for c in TERMS])
def test_edition_terms(lang: str, phrase: str, concept: str) -> None:
    assert _concepts(phrase, lang) == [concept]
    assert _concepts(phrase.lower(), lang) == [concept]


def test_the_archive_translations_name_what_the_english_names() -> None:
    # every condition, Shield, hit points... an English ruling names is read in each of its
    # translations too: the editions' words the archive prints are all known
    audited = ("effect.", "shield", "ward", "brittle", "hp", "exhausted", "advantage")
    audited += ("disadvantage", "initiative", "discard", "rolling", "damage", "attack")
    unread = []
    for path in sorted(RECORDS.glob("*.yaml")):
        record = yaml.safe_load(path.read_text(encoding="utf-8"))
        texts = {
            record["lang"]: record["text"],
            **{k: v["text"] for k, v in (record.get("translations") or {}).items()},
        }
        named = {c for c in _concepts(texts.get("en", ""), "en") if c.startswith(audited)}
        for lang, text in texts.items():
            if lang in LANGS and (gap := named - set(_concepts(text, lang))):
                unread.append((path.stem, lang, sorted(gap)))
    assert unread == []


# --- hit points as players write them --------------------------------------------------------

# (lang, question): each gives 5 hit points left against an attack of 7, so 5 damage.
HIT_POINTS = [
    ("en", "the monster has 5 hp left and I attack for 7, how much damage does it take?"),
    ("en", "attack 7 against a guard that has 5 hit points remaining, how much damage?"),
    ("en", "with 5 HP, attack 7 hits me. how much dmg do i take"),
    ("en", "I'm at 5 health and an archer attacks for 7, how much damage?"),
    ("en", "It has only 5 hp left and I hit it for 7. damage?"),
    ("fr", "attaque 7 contre un garde, 5 PV restants, combien de dégâts ?"),
    ("fr", "il lui reste 5 PV, j'attaque à 7, combien de dégâts subit-il ?"),
    ("fr", "il me reste 5 points de vie et on m'attaque pour 7, combien je prends ?"),
    ("fr", "a 5 pts de vie, attaque 7, combien de degats je subis ?"),
    ("de", "Der Gegner hat noch 5 LP, ich greife mit 7 an, wie viel Schaden nimmt er?"),
    ("de", "ich hab noch 5 lebenspunkte übrig und werde mit 7 angegriffen, wie viel schaden?"),
    ("de", "Angriff 7 gegen mich mit 5 TP, wie viel Schaden erleide ich?"),
    ("it", "ha 5 punti vita rimasti, attacco 7, quanti danni subisce?"),
    ("it", "mi restano 5 pf e un mostro mi attacca con 7, quanti danni subisco?"),
    ("it", "con 5 ps, attacco 7: quanto danno subisco?"),
    ("es", "le quedan 5 PV, ataque 7, ¿cuánto daño recibe?"),
    ("es", "me quedan 5 de vida y me atacan con 7, cuanto daño recibo?"),
    ("es", "con 5 puntos de golpe, ataque 7, ¿cuánto daño sufro?"),
    ("nl", "hij heeft nog 5 levenspunten, aanval 7, hoeveel schade krijgt hij?"),
    ("nl", "ik heb nog 5 hp over en word met 7 aangevallen, hoeveel schade?"),
    ("nl", "met 5 lp, aanval 7, hoeveel schade krijg ik?"),
    ("da", "den har 5 liv tilbage, angreb 7, hvor meget skade tager den?"),
    ("da", "jeg har 5 livspoint og et monster angriber med 7, hvor meget skade?"),
    ("da", "med 5 hit points tilbage, angreb 7, hvor meget skade får jeg?"),
]


@pytest.mark.parametrize(
    "lang, question", HIT_POINTS, ids=[f"{c[0]}-{c[1][:40]}" for c in HIT_POINTS]
)
def test_hit_points_as_players_write_them(lang: str, question: str) -> None:
    reading = read(lang, FH, question)
    assert (reading.check, reading.missing) == ("damage", [])
    assert (reading.input["attack"], reading.input["hp"]) == (7, 5)
    assert computed(reading)["result"]["damage"] == 5


def test_hit_points_in_every_language() -> None:
    assert {lang for lang, _ in HIT_POINTS} == set(LANGS)
