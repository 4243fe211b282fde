"""JSON in and out of the REST API: exact decimals out, a key given twice refused in.

Kept apart from ``common.api`` because REST framework reads these classes from the settings
while its views module is being imported: this module must not import ``rest_framework.views``.
"""

from __future__ import annotations

import codecs
import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.utils import encoders

from engine import ExactEncoderMixin


class ExactJSONEncoder(ExactEncoderMixin, encoders.JSONEncoder):
    """DRF's encoder (dates, lazy strings…) writing Decimals as the exact JSON numbers they spell
    (a score of 7.2875 is ``7.2875`` in every response, never through a binary float)."""


class ExactJSONRenderer(JSONRenderer):
    encoder_class = ExactJSONEncoder


class _Pairs(dict):  # type: ignore[type-arg]
    """A JSON object that remembers the keys it was given more than once."""

    repeated: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    out = _Pairs()
    out.repeated = []
    for key, value in pairs:
        if key in out and key not in out.repeated:
            out.repeated.append(key)
        out[key] = value
    return out


def _first_repeat(value: Any, path: str = "") -> tuple[str, list[str]] | None:
    if isinstance(value, _Pairs) and value.repeated:
        return path or "non_field_errors", value.repeated
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        found = _first_repeat(child, key if not path else f"{path}.{key}" if isinstance(key, str) else path)
        if found:
            return found
    return None


class StrictJSONParser(JSONParser):
    """JSON in, with a key given twice in one object refused (HTTP 400 naming the field, e.g.
    ``owners``) instead of silently keeping the last value: ``{"owners": {"Alaska": 1, "Alaska": 2}}``
    would otherwise give Alaska to seat 2 without a word."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", "utf-8")
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        found = _first_repeat(data)
        if found is not None:
            field, keys = found
            raise ParseError({field: [f"repeated key {', '.join(map(repr, keys))}: give each key once"],
                              "rule": "FORMAT"})
        return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
