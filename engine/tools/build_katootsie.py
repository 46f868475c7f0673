"""Rebuild ``katootsie-categories.json``: generated answer lists merged with the hand-written ones.

Run it from the repository root after installing the sources it reads (they
are build-time only; the game never needs them)::

    apt-get install -y wordnet-base        # WordNet 3.0 database, /usr/share/wordnet
    .venv/bin/pip install pycountry        # ISO 3166 countries, ISO 639 languages
    .venv/bin/python engine/tools/build_katootsie.py

Sources and licences, recorded per category in the output file:

* **WordNet 3.0** (Princeton University; the WordNet 3.0 licence: use, copy,
  modify and distribute for any purpose without fee, keeping its copyright
  notice, which the output carries). Categories list the hyponyms (and
  instance hyponyms) of one or more noun senses, pruned: Latin genus and
  species names, taxonomic groups, abbreviations, long phrases and a few
  words unfit for a party game are dropped.
* **pycountry** (LGPL-2.1; its data comes from Debian's iso-codes): country
  names (ISO 3166-1, common names where given) and living languages
  (ISO 639-3, individual languages that also have a two-letter code).
* **Hand-written lists** (``katootsie-handwritten.json``, written for
  Clowder, MIT like the rest of the project), merged unchanged.

The output is deterministic (sorted answers, stable order), so a rebuild
with the same sources gives the same file.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "games" / "katootsie" / "data"
OUTPUT = DATA / "katootsie-categories.json"
HANDWRITTEN = DATA / "katootsie-handwritten.json"
WORDNET = Path("/usr/share/wordnet")

WORDNET_SOURCE = "WordNet 3.0 (Princeton University), Debian package wordnet-base"
WORDNET_LICENCE = (
    "WordNet 3.0 licence: WordNet 3.0 Copyright 2006 by Princeton University. All rights "
    "reserved. Permission to use, copy, modify and distribute for any purpose without fee."
)
PYCOUNTRY_LICENCE = "LGPL-2.1 (pycountry), data from Debian iso-codes"

MAX_WORDS = 4
"""Answers longer than this many words are phrases, not answers."""
MAX_LENGTH = 32

LATIN_ENDINGS = (
    "us",
    "um",
    "ae",
    "ii",
    "is",
    "ensis",
    "ata",
    "ica",
    "ana",
    "ia",
    "oides",
    "ella",
    "ina",
    "ula",
    "ora",
    "era",
    "ea",
    "ia",
    "ax",
    "ix",
)

LATIN_WORDS = {"musculus", "glandulae", "pars", "os", "arteria", "vena", "nervus", "oculus"}
"""First words of anatomical Latin names."""

UNFIT = {
    # Words WordNet files under these senses that a party game should not offer.
    "jew's harp",
    "jews' harp",
    "nigger",
    "chink",
    "gook",
    "jap",
    "squaw",
    "spic",
    "dago",
    "wop",
    "kike",
    "coon",
    "darky",
    "gypsy",
    "eskimo",
    "fairy",
    "pansy",
    "dyke",
    "fag",
    "faggot",
    "queer",
    "whore",
    "slut",
    "bitch",
    "bastard",
    "cock",
    "dick",
    "prick",
    "pussy",
    "twat",
    "tit",
    "crap",
    "shit",
    "piss",
    "ass",
    "arse",
    "sod",
    "negro",
    "mulatto",
    "oriental",
    "redskin",
    "injun",
    "wetback",
    "honky",
    "cracker",
    "paddy",
    "mick",
    "kraut",
    "hun",
    "limey",
    "frog",
    "spook",
    "retard",
    "cripple",
    "midget",
    "dwarf",
    "spastic",
    "lunatic",
    "cunt",
    "whorehouse",
    "whoredom",
    "boob",
    "boobs",
    "knockers",
    "tits",
    "bollocks",
    "nooky",
    "sex gland",
    "sex organ",
    "torture chamber",
    "slave ship",
}


# --------------------------------------------------------------------------- WordNet


@dataclass
class Synset:
    words: list[str]
    hyponyms: list[str] = field(default_factory=list)
    instances: list[str] = field(default_factory=list)


class WordNet:
    """The noun part of the WordNet database, read from its data files."""

    def __init__(self, folder: Path) -> None:
        self.synsets: dict[str, Synset] = {}
        self.senses: dict[str, list[str]] = {}
        self.genera: set[str] = set()
        self.english: set[str] = set()
        for line in (folder / "data.noun").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):
                continue
            head = line.partition(" | ")[0].split()
            count = int(head[3], 16)
            words = [head[4 + 2 * index] for index in range(count)]
            at = 4 + 2 * count
            pointers = int(head[at])
            synset = Synset(words)
            for index in range(pointers):
                symbol, offset, pos = head[at + 1 + 4 * index : at + 4 + 4 * index]
                if pos == "n" and symbol == "~":
                    synset.hyponyms.append(offset)
                elif pos == "n" and symbol == "~i":
                    synset.instances.append(offset)
            self.synsets[head[0]] = synset
            for word in words:
                if word.startswith("genus_"):
                    self.genera.add(word[len("genus_") :].lower())
        for name in ("index.noun", "index.adj", "index.verb", "index.adv"):
            for line in (folder / name).read_text(encoding="latin-1").splitlines():
                if line.startswith("  "):
                    continue
                fields = line.split()
                self.english.add(fields[0].lower())
                if name == "index.noun":
                    count, pointers = int(fields[2]), int(fields[3])
                    self.senses[fields[0]] = fields[6 + pointers : 6 + pointers + count]

    def sense(self, key: str) -> str:
        """The synset offset of ``lemma.N`` (the N-th noun sense, as WordNet orders them)."""
        lemma, number = key.rsplit(".", 1)
        return self.senses[lemma.lower()][int(number) - 1]

    def below(self, key: str, depth: int, instances: bool, only_instances: bool) -> set[str]:
        """The synsets under ``key``, at most ``depth`` steps down."""
        found: set[str] = set()
        stack = [(self.sense(key), 0)]
        while stack:
            offset, level = stack.pop()
            synset = self.synsets[offset]
            if level >= depth:
                continue
            children = [] if only_instances else list(synset.hyponyms)
            if instances or only_instances:
                children += synset.instances
            for child in children:
                if child not in found:
                    if not only_instances or child in synset.instances:
                        found.add(child)
                    stack.append((child, level + 1))
        return found

    def latin(self, word: str) -> bool:
        """Whether ``word`` looks like a genus, a species or a taxonomic group."""
        tokens = word.split()
        first = tokens[0]
        if first.lower() in self.genera and first[:1].isupper():
            return True
        if len(tokens) == 1:
            return word.endswith(("aceae", "idae", "ales", "inae", "oidea"))
        rest = tokens[1:]
        if first[:1].isupper() and all(t.islower() for t in rest):
            unknown = [t for t in rest if t not in self.english]
            if unknown and all(t.endswith(LATIN_ENDINGS) for t in unknown):
                return True
        return False


# --------------------------------------------------------------------------- categories


@dataclass(frozen=True)
class Spec:
    """One generated category: its title and the WordNet senses its answers come from."""

    title: str
    roots: tuple[str, ...]
    depth: int = 99
    instances: bool = False
    only_instances: bool = False
    proper: bool = False
    """Proper names (capitals kept); otherwise answers are written in lower case."""
    ignore_articles: bool = False
    exclude_roots: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    """A few plain answers WordNet misses, written by hand."""


SPECS: tuple[Spec, ...] = (
    Spec("Fruits", ("edible_fruit.1",), drop=("hip", "pome", "drupe", "berry")),
    Spec("Vegetables", ("vegetable.1",)),
    Spec("Musical Instruments", ("musical_instrument.1",)),
    Spec("Dog Breeds", ("dog.1",)),
    Spec("Birds", ("bird.1",)),
    Spec("Trees", ("tree.1",)),
    Spec("Flowers", ("flower.1",)),
    Spec("Sports", ("sport.1",)),
    Spec("Dances", ("dance.3",)),
    Spec("Tools", ("tool.1", "hand_tool.1")),
    Spec(
        "Cheeses",
        ("cheese.1",),
        add=(
            "asiago",
            "boursin",
            "colby",
            "emmental",
            "gorgonzola",
            "halloumi",
            "jarlsberg",
            "kashkaval",
            "leicester",
            "manchego",
            "nokkelost",
            "oaxaca",
            "paneer",
            "queso fresco",
            "raclette",
            "taleggio",
            "vacherin",
            "wensleydale",
            "yarg",
            "zamorano",
            "ossau-iraty",
            "idiazabal",
            "appenzeller",
            "double gloucester",
            "fontina",
            "ubriaco",
            "ibores",
        ),
    ),
    Spec("Weapons", ("weapon.1",)),
    Spec("Boats and Ships", ("boat.1", "ship.1")),
    Spec("Clothing", ("garment.1",)),
    Spec("Footwear", ("footwear.2",)),
    Spec("Hats", ("headdress.1",)),
    Spec("Fish", ("fish.1",)),
    Spec("Insects", ("insect.1",)),
    Spec("Mammals", ("mammal.1",), exclude_roots=("dog.1",)),
    Spec("Reptiles", ("reptile.1",)),
    Spec(
        "Herbs",
        ("herb.2",),
        add=(
            "anise",
            "basil",
            "bay leaf",
            "chives",
            "coriander",
            "dill",
            "epazote",
            "fennel",
            "garlic chives",
            "hyssop",
            "lemongrass",
            "lovage",
            "marjoram",
            "mint",
            "oregano",
            "parsley",
            "rosemary",
            "sage",
            "tarragon",
            "thyme",
            "vervain",
            "wild garlic",
            "za'atar",
            "yarrow",
            "jasmine",
            "kaffir lime leaves",
            "quillquiña",
            "culantro",
        ),
    ),
    Spec("Desserts", ("dessert.1",)),
    Spec("Drinks", ("beverage.1",)),
    Spec("Breads", ("bread.1",)),
    Spec("Furniture", ("furniture.1",)),
    Spec("Vehicles", ("vehicle.1",)),
    Spec("Diseases", ("disease.1",)),
    Spec("Gemstones", ("gem.5", "gem.2")),
    Spec("Minerals", ("mineral.1",)),
    Spec("Fabrics", ("fabric.1",)),
    Spec("Containers", ("container.1",)),
    Spec("Sauces", ("sauce.1",)),
    Spec("Cakes", ("cake.3",)),
    Spec("Candy", ("candy.1",)),
    Spec("Soups", ("soup.1",)),
    Spec("Bones", ("bone.1",)),
    Spec("Muscles", ("muscle.1",)),
    Spec("Cities", ("city.1",), only_instances=True, proper=True),
    Spec("Rivers", ("river.1",), only_instances=True, proper=True, ignore_articles=True),
    Spec("Mountains", ("mountain_peak.1", "volcano.2"), only_instances=True, proper=True),
    Spec("US States", ("American_state.1",), only_instances=True, proper=True),
    Spec("Sculptors", ("sculptor.1",), only_instances=True, proper=True),
    Spec("Architects", ("architect.1",), only_instances=True, proper=True),
    Spec("Chemists", ("chemist.1",), only_instances=True, proper=True),
    Spec("Mathematicians", ("mathematician.1",), only_instances=True, proper=True),
    Spec("Astronomers", ("astronomer.1",), only_instances=True, proper=True),
    Spec("Inventors", ("inventor.1",), only_instances=True, proper=True),
    Spec("Generals", ("general.1", "general_officer.1"), only_instances=True, proper=True),
    Spec("Kings", ("king.1",), only_instances=True, proper=True),
    Spec("Popes", ("pope.1",), only_instances=True, proper=True),
    Spec("Film Makers", ("film_maker.1", "film_director.1"), only_instances=True, proper=True),
    Spec("Playwrights", ("dramatist.1",), only_instances=True, proper=True),
    Spec("Economists", ("economist.1",), only_instances=True, proper=True),
    Spec("Statesmen", ("statesman.1",), only_instances=True, proper=True),
    Spec("Athletes", ("athlete.1",), instances=True, proper=True),
    Spec("Shapes", ("plane_figure.1", "solid.3")),
    Spec("Sports Equipment", ("sports_equipment.1",)),
    Spec("Spiders", ("spider.1", "arachnid.1")),
    Spec(
        "Baby Animals",
        ("young_mammal.1", "young_bird.1", "young.1"),
        add=(
            "calf",
            "chick",
            "cub",
            "duckling",
            "eaglet",
            "fawn",
            "foal",
            "gosling",
            "hatchling",
            "infant",
            "joey",
            "kid",
            "kitten",
            "lamb",
            "leveret",
            "nestling",
            "owlet",
            "piglet",
            "puppy",
            "squab",
            "tadpole",
            "whelp",
            "yearling",
            "cygnet",
            "elver",
            "fry",
        ),
    ),
    Spec("Weather", ("atmospheric_phenomenon.1",)),
    Spec("Rocks", ("rock.2",)),
    Spec("Medicines", ("medicine.2",)),
    Spec("Coats", ("coat.1",)),
    Spec("Bags", ("bag.1", "bag.4")),
    Spec("Chairs", ("chair.1", "seat.3")),
    Spec("Lamps", ("lamp.1",)),
    Spec("Fuels", ("fuel.1",)),
    Spec("Skilled Trades", ("skilled_worker.1",)),
    Spec("Professions", ("professional.1",)),
    Spec("Grains", ("cereal.1", "grain.2")),
    Spec("Birds of Prey", ("raptor.1",)),
    Spec("Snakes", ("snake.1",)),
    Spec("Wild Cats", ("feline.1",)),
    Spec("Shellfish", ("shellfish.1", "shellfish.2")),
    Spec("Metals", ("metallic_element.1", "alloy.1")),
    Spec("Chemical Elements", ("chemical_element.1",)),
    Spec("Gods and Goddesses", ("deity.1",), instances=True, proper=True),
    Spec("Philosophers", ("philosopher.1",), only_instances=True, proper=True),
    Spec("Physicists", ("physicist.1",), only_instances=True, proper=True),
    Spec("Explorers", ("explorer.1", "navigator.1"), only_instances=True, proper=True),
    Spec("Actors", ("actor.1", "actress.1", "comedian.1"), only_instances=True, proper=True),
    Spec("Singers", ("singer.1", "songwriter.1"), only_instances=True, proper=True),
    Spec("Saints", ("saint.1", "apostle.1"), only_instances=True, proper=True),
    Spec("Seas and Oceans", ("sea.1", "ocean.1"), only_instances=True, proper=True),
    Spec("Lakes", ("lake.1",), only_instances=True, proper=True),
    Spec(
        "Capital Cities",
        ("national_capital.1", "state_capital.1"),
        only_instances=True,
        proper=True,
    ),
    Spec("Card Games", ("card_game.1",)),
    Spec("Toys", ("plaything.1",)),
    Spec("Kitchen Utensils", ("kitchen_utensil.1", "cooking_utensil.1")),
    Spec("Rooms", ("room.1",)),
    Spec("Buildings", ("building.1",)),
    Spec("Music Genres", ("music_genre.1",)),
    Spec("Mythical Creatures", ("mythical_monster.1", "imaginary_being.1")),
    Spec("Emotions", ("emotion.1",)),
    Spec("Aircraft", ("aircraft.1",)),
    Spec("Units of Measure", ("unit_of_measurement.1",)),
    Spec("Currencies", ("monetary_unit.1",)),
    Spec("Religions", ("religion.2",)),
    Spec("Sciences", ("natural_science.1", "social_science.1")),
    Spec("Colors", ("chromatic_color.1", "achromatic_color.1")),
    Spec("Seafood", ("seafood.1",)),
    Spec("Meats", ("meat.1",)),
    Spec("Horses", ("horse.1",)),
    Spec("Monkeys and Apes", ("primate.2",)),
    Spec("Rodents", ("rodent.1",)),
    Spec("Beetles", ("beetle.1",)),
    Spec("Butterflies and Moths", ("butterfly.1", "moth.1")),
    Spec("Seabirds", ("seabird.1",)),
    Spec("Sharks", ("shark.1",)),
    Spec("Wines", ("wine.1",)),
    Spec("Liquors", ("liquor.1", "liqueur.1")),
    Spec("Islands", ("island.1",), only_instances=True, proper=True),
    Spec("Composers", ("composer.1",), only_instances=True, proper=True),
    Spec("Painters", ("painter.1",), only_instances=True, proper=True),
    Spec("Writers", ("writer.1",), only_instances=True, proper=True),
    Spec("Poets", ("poet.1",), only_instances=True, proper=True),
)


def clean(word: str, proper: bool) -> str:
    text = word.replace("_", " ").strip()
    text = re.sub(r"\([a-z]+\)$", "", text).strip()
    return text if proper else text.lower() if _plain_case(text) else text


def _plain_case(text: str) -> bool:
    """Lower-case a common noun unless a word in it is a name (Granny Smith, Swiss chard)."""
    return text[:1].islower() or (len(text.split()) == 1 and not text.isupper())


def fit(word: str, wordnet: WordNet, proper: bool) -> bool:
    """Whether a WordNet lemma makes a reasonable answer."""
    if len(word) > MAX_LENGTH or len(word.split()) > MAX_WORDS:
        return False
    if re.search(r"[0-9/&]", word) or (word.isupper() and len(word) > 1):
        return False
    if word.lower() in UNFIT or any(part in UNFIT for part in word.lower().split()):
        return False
    if not proper and wordnet.latin(word):
        return False
    if word.split(maxsplit=1)[0].lower() in LATIN_WORDS:
        return False
    return not word.lower().startswith(("genus ", "family ", "order ", "class "))


def generate(wordnet: WordNet, spec: Spec) -> list[str]:
    offsets: set[str] = set()
    for root in spec.roots:
        offsets |= wordnet.below(root, 99, spec.instances, spec.only_instances)
    for root in spec.exclude_roots:
        offsets -= {wordnet.sense(root)} | wordnet.below(root, 99, True, False)
    answers: set[str] = set()
    for offset in offsets:
        for lemma in wordnet.synsets[offset].words:
            word = clean(lemma, spec.proper)
            if word and fit(word, wordnet, spec.proper):
                answers.add(word)
    answers -= set(spec.drop)
    answers |= set(spec.add)
    return sorted(answers, key=lambda a: (a.lower(), a))


def countries(pycountry: Any) -> list[str]:
    names = set()
    for country in pycountry.countries:
        names.add(getattr(country, "common_name", None) or country.name)
    return sorted(name for name in names if "," not in name and "(" not in name)


def languages(pycountry: Any) -> list[str]:
    names = set()
    for language in pycountry.languages:
        if getattr(language, "alpha_2", None) and getattr(language, "type", "") == "L":
            name = language.name.split(" (")[0].split(";")[0]
            if "," not in name:
                names.add(name)
    return sorted(names)


def entry(
    title: str, answers: Iterable[str], source: str, licence: str, ignore_articles: bool = False
) -> dict[str, Any]:
    return {
        "title": title,
        "ignore_articles": ignore_articles,
        "source": source,
        "licence": licence,
        "answers": list(answers),
    }


def build() -> dict[str, Any]:
    wordnet = WordNet(WORDNET)
    categories = []
    for spec in SPECS:
        roots = ", ".join(spec.roots)
        kind = "instances of" if spec.only_instances else "hyponyms of"
        categories.append(
            entry(
                spec.title,
                generate(wordnet, spec),
                f"{WORDNET_SOURCE}: {kind} {roots}",
                WORDNET_LICENCE,
                spec.ignore_articles,
            )
        )
    pycountry: Any = importlib.import_module("pycountry")
    version = getattr(pycountry, "__version__", "")
    source = f"pycountry {version}".strip()
    categories.append(
        entry("Countries", countries(pycountry), f"{source}: ISO 3166-1", PYCOUNTRY_LICENCE, True)
    )
    categories.append(
        entry("Languages", languages(pycountry), f"{source}: ISO 639-3", PYCOUNTRY_LICENCE)
    )
    handwritten = json.loads(HANDWRITTEN.read_text(encoding="utf-8"))
    for category in handwritten["categories"]:
        categories.append(
            entry(
                category["title"],
                sorted(set(category["answers"]), key=lambda a: (a.lower(), a)),
                handwritten["source"],
                handwritten["licence"],
                category.get("ignore_articles", False),
            )
        )
    titles = [category["title"] for category in categories]
    repeated = {title for title in titles if titles.count(title) > 1}
    if repeated:
        raise SystemExit(f"categories named twice: {sorted(repeated)}")
    return {
        "about": (
            "Katootsie! categories for Clowder, built by engine/tools/build_katootsie.py from "
            "WordNet 3.0, pycountry and hand-written lists; each category names its source "
            "and licence. WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved."
        ),
        "categories": categories,
    }


def main(argv: list[str]) -> int:
    data = build()
    if "--print" in argv:
        sys.path.insert(0, str(HERE.parent.parent))
        from engine.games.katootsie.answers import LETTERS, fits_letter, key

        for category in data["categories"]:
            keys = [key(a) for a in category["answers"]]
            letters = [x for x in LETTERS if any(fits_letter(k, x) for k in keys)]
            print(f"{len(keys):5} {len(letters):3} {category['title']}")
        return 0
    OUTPUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(data['categories'])} categories to {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
