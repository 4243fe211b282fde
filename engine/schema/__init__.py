"""JSON Schema (draft 2020-12) of the game record, shipped with the engine."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def record_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__name__).joinpath("record.schema.json").read_text("utf-8"))
    return data
