"""Italian is the default language and must be complete; English is the source language.

A string added to a template or to Python code without its Italian translation fails here, so
no screen ever shows a half-translated page.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.po import read_po

ROOT = Path(__file__).resolve().parents[2]
ITALIAN_PO = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"
# every package of the project (each app, common/, config/, the engine the apps import) and the
# templates: a new app is extracted without being listed here
SOURCES = (*sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"),
           "templates")


def test_every_italian_entry_is_translated_and_not_fuzzy() -> None:
    entries = read_po(ITALIAN_PO)
    assert len(entries) > 50
    missing = [e.msgid for e in entries if not e.translated]
    fuzzy = [e.msgid for e in entries if e.fuzzy]
    assert not missing, f"{len(missing)} untranslated: {missing[:20]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy: {fuzzy[:20]}"


def test_compiled_catalogue_matches_the_po_file() -> None:
    import gettext

    catalogue = gettext.GNUTranslations(ITALIAN_PO.with_suffix(".mo").open("rb"))
    stale = [
        e.msgid for e in read_po(ITALIAN_PO)
        if not e.msgid_plural and not e.msgctxt and catalogue.gettext(e.msgid) != e.msgstr[0]
    ]
    assert not stale, f".mo is stale (run scripts/translations.sh): {stale[:10]}"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext (xgettext)")
def test_every_source_string_has_an_italian_entry(tmp_path: Path) -> None:
    """Extract the strings afresh in a copy of the sources and compare with the .po file."""
    for name in (*SOURCES, "manage.py"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    (tmp_path / "locale").mkdir()
    result = subprocess.run(
        [sys.executable, "-c",
         "import os, sys, django; sys.path.insert(0, os.getcwd());"
         "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings';"
         "from django.conf import settings; django.setup();"
         "settings.LOCALE_PATHS = [os.path.join(os.getcwd(), 'locale')];"
         "from django.core.management import call_command;"
         "call_command('makemessages', locale=['it'], verbosity=0, no_obsolete=True,"
         " ignore_patterns=['.venv/*', 'tests/*'])"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DEBUG": "true"},
    )
    assert result.returncode == 0, result.stderr
    fresh = {(e.msgctxt, e.msgid) for e in read_po(tmp_path / "locale/it/LC_MESSAGES/django.po")}
    ours = {(e.msgctxt, e.msgid) for e in read_po(ITALIAN_PO)}
    absent = sorted(m for _, m in fresh - ours)
    assert not absent, f"{len(absent)} strings without an Italian entry: {absent[:20]}"


def test_italian_speaks_to_people_without_assuming_their_gender() -> None:
    """Players, referees and organizers are women and men: a greeting or a "you are …" in the
    masculine (Benvenuto, sei entrato) reads wrong to half of them."""
    import re

    # "il benvenuto" is the noun ("Ti diamo il benvenuto"), neutral
    # "tu sei partito", "dagli questo link", "finisce con lui": a person addressed or named by a
    # masculine form
    gendered = re.compile(r"(?<!il )\bbenvenut[oa]\b|\bsei (entrat|pront|sicur|stat|registrat|iscritt|conness|partit)"
                          r"[oa]\b|\bdagli (questo|il|un)\b|\bcon lui\b", re.I)
    found = [s for e in read_po(ITALIAN_PO) for s in e.msgstr if gendered.search(s)]
    assert not found, found
