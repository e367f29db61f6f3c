"""Where the project's files live by default: one home for every default path.

Each is the default of a setting (``RULINGS_ARCHIVE_DIR``, ``RULINGS_INDEX_DIR``, ``RULINGS_MODEL``)
or of a command's option; the settings and commands read them from here.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ARCHIVE = REPO_ROOT / "rulings"
DEFAULT_INDEX = REPO_ROOT / "index"
DEFAULT_MODEL = REPO_ROOT / "models" / "multilingual-e5-small"
#: The fitted reranker and decline (``rulings calibrate`` writes it; search reads it).
CALIBRATION_FILE = REPO_ROOT / "indexer" / "search" / "calibration.json"
#: The question sets `rulings calibrate` fits on (relative to the repository): the shared dev
#: sets and the project's own.
DEFAULT_QUESTION_SETS = (
    "../shared/eval/dev.yaml",
    "../shared/eval/dev-outside.yaml",
    "bench/eval/own.yaml",
    "bench/eval/own-outside.yaml",
)
#: Rulebooks with table questions that `rulings calibrate` imports one at a time, to learn what
#: an uncurated ruling's scores mean (indexer.search.fit.books): the test rulebooks, our own words.
DEFAULT_BOOKS = REPO_ROOT / "tests" / "data" / "rulebooks"
