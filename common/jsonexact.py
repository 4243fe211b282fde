"""JSON model fields that hold scores: every number exact (engine.exact)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from engine import ExactEncoderMixin


class ExactModelJSONEncoder(ExactEncoderMixin, DjangoJSONEncoder):
    """For JSON model fields holding scores: Decimals stored as exact JSON numbers."""


class ExactJSONDecoder(json.JSONDecoder):
    """For JSON model fields holding scores: non-integral numbers read back as Decimals."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("parse_float", Decimal)
        super().__init__(*args, **kwargs)
