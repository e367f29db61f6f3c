"""Records written back as readable YAML, atomically."""

from __future__ import annotations

from pathlib import Path

import yaml

from indexer.archive.schema import Ruling
from indexer.files import write_atomic
from indexer.paths import DEFAULT_ARCHIVE


class _Dumper(yaml.SafeDumper):
    """Readable YAML: long texts as folded blocks, keys in schema order."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # Folded blocks keep long rulings readable in review; plain style would re-wrap them anyway.
    if len(value) > 80 and "\n" not in value and value == value.strip() and "  " not in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=">")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str_representer)


def record_to_yaml(rec: Ruling) -> str:
    data = rec.model_dump(mode="json", exclude_defaults=True)
    # Always keep the fields that say what a record is, even when empty.
    ordered = {k: data[k] for k in ("id", "game", "kind", "lang")}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    return yaml.dump(ordered, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=96)


def record_path(record_id: str, root: Path = DEFAULT_ARCHIVE) -> Path:
    """Where a record's file lives in an archive."""
    return root / "records" / f"{record_id}.yaml"


def write_record(rec: Ruling, root: Path = DEFAULT_ARCHIVE) -> Path:
    path = record_path(rec.id, root)
    write_atomic(path, record_to_yaml(rec))
    return path
