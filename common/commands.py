"""How a management command says a refused action: the one mapping of a ``DomainError`` for the
console. The command exits with ``common.errors.EXIT_CODE`` (2) and prints the one-line reason
(``DomainError.text``) in the language of the person at the console (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES`` or ``LANG``, when the project speaks it; else the project's default, Italian)."""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from common.errors import DomainError


def console_language() -> str:
    spoken = {code for code, _name in settings.LANGUAGES}
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        code = os.environ.get(variable, "").split(":")[0][:2].lower()
        if code in spoken:
            return code
    return str(settings.LANGUAGE_CODE)


class DomainCommand(BaseCommand):
    """A command whose services may refuse: the refusal exits with code 2 and one line."""

    def execute(self, *args: Any, **options: Any) -> Any:
        with translation.override(console_language()):
            try:
                return super().execute(*args, **options)
            except DomainError as exc:
                raise CommandError(exc.text, returncode=exc.exit_code) from None
