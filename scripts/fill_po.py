"""Fill empty msgstr entries of a .po file from a JSON dict {msgid: translation}.

    .venv/bin/python scripts/fill_po.py locale/it/LC_MESSAGES/django.po translations.json

A maintenance helper: translators may equally edit the .po file by hand. Entries already
translated are left alone; msgmerge's fuzzy guesses are emptied and filled afresh.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def fill(po_path: Path, table: dict[str, str]) -> int:
    blocks = po_path.read_text(encoding="utf-8").split("\n\n")
    filled = 0
    for n, block in enumerate(blocks):
        block = blocks[n] = _drop_fuzzy_guess(block)
        if "msgid_plural" in block:
            filled += _fill_plural(blocks, n, table)
            continue
        match = re.search(r'^msgid ((?:".*"\n?)+)^msgstr ""\s*$', block + "\n", re.M)
        if not match:
            continue
        msgid = "".join(json.loads(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', match.group(1)))
        if msgid and msgid in table:
            head = block[: block.rindex('msgstr ""')]
            blocks[n] = head + "msgstr " + quote(table[msgid])
            filled += 1
    po_path.write_text("\n\n".join(blocks), encoding="utf-8")
    return filled


def _drop_fuzzy_guess(block: str) -> str:
    """msgmerge pre-fills a new string with the translation of a similar old one and flags it
    fuzzy: that guess is nearly always wrong, so it is emptied to be translated afresh."""
    if not re.search(r"^#,.*\bfuzzy\b", block, re.M) or 'msgid ""\nmsgstr ""\n"Project' in block:
        return block
    block = re.sub(r"^#\|.*\n?", "", block, flags=re.M)
    block = re.sub(r"^#, fuzzy\n", "", block, flags=re.M)
    block = re.sub(r", fuzzy", "", block)
    block = re.sub(r'^(msgstr(?:\[\d\])?) ".*"(\n".*")*', r'\1 ""', block, flags=re.M)
    return block


def _fill_plural(blocks: list[str], n: int, table: dict[str, str]) -> int:
    """Plural entries take a list [singular, plural] in the table."""
    block = blocks[n]
    match = re.search(r'^msgid (".*")$', block, re.M)
    if not match or 'msgstr[0] ""' not in block:
        return 0
    forms = table.get(json.loads(match.group(1)))
    if not isinstance(forms, list):
        return 0
    for i, form in enumerate(forms):
        block = block.replace(f'msgstr[{i}] ""', f"msgstr[{i}] {quote(form)}")
    blocks[n] = block
    return 1


if __name__ == "__main__":
    po, source = Path(sys.argv[1]), Path(sys.argv[2])
    print(fill(po, json.loads(source.read_text(encoding="utf-8"))), "entries filled")
