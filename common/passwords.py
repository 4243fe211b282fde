"""The password validators' messages in the page's language.

Django 5.2 reworded the minimum-length message ("at least %d characters") and its Italian
catalogue still translates only the old wording, so an Italian page showed it in English next to
the other validators' Italian lines. This validator says it with the project's own catalogue.
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it must contain at least %(min_length)d character.",
            "This password is too short: it must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
