"""These tests read refusals in English, the source language: Italian (the default) is
checked by tests/foundation/test_translations.py and the browser tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english(settings) -> Iterator[None]:  # type: ignore[no-untyped-def]
    settings.LANGUAGE_CODE = "en"  # pages requested without Accept-Language
    with translation.override("en"):  # services called directly
        yield
