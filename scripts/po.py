"""A small reader of gettext .po files (for the translation checks; no dependency)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str = ""
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


def read_po(path: Path) -> list[Entry]:
    """Entries of a .po file, without the header entry (empty msgid)."""
    entries: list[Entry] = []
    entry, key = Entry(), None

    def finish() -> None:
        nonlocal entry
        if entry.msgid:
            entries.append(entry)
        entry = Entry()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#,"):
            if entry.msgid or entry.msgstr:  # flags open a new entry
                finish()
            entry.flags |= {f.strip() for f in line[2:].split(",")}
        elif not line or line.startswith("#"):
            continue
        elif line.startswith('"'):  # continuation of the previous keyword's string
            value = ast.literal_eval(line)
            if key == "msgstr":
                entry.msgstr[-1] += value
            elif key is not None:
                setattr(entry, key, getattr(entry, key) + value)
        else:
            word, _, rest = line.partition(" ")
            value = ast.literal_eval(rest)
            if word in ("msgctxt", "msgid") and (entry.msgid or entry.msgstr):
                finish()
            if word.startswith("msgstr"):
                entry.msgstr.append(value)
                key = "msgstr"
            else:
                setattr(entry, word, value)
                key = word
    finish()
    return entries
