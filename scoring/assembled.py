"""The full standings API's body (every row, ``GET /api/scoring/tournaments/<slug>/standings/``)
assembled from the worker's stored pieces (``scoring.stored``) instead of rebuilt whole.

At 5,000 players the body is 3.2 MB of JSON; encoding it from the rows (exact decimals, every
cell) took a second or more, after every change. A row's entry never changes under its token, so
its JSON is encoded once per token (kept in this process) and a new head only encodes the rows it
names anew; what depends on the position (rank, shared, tie-break, pending corrections and their
labels) is a short tail joined to each row, from a handful of values encoded once. The whole body
is kept per head (its ``stamp``) and language: a new validator without new standings (a
confirmation commits before the worker stores) answers the same bytes at once.

The bytes are exactly what REST framework's renderer writes for ``selectors.standings`` (same
keys, same order, same exact numbers; ``tests/scoring/test_full_api.py`` compares them).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.utils.translation import get_language

from common.restjson import ExactJSONRenderer
from tournaments import labels

from . import selectors, stored

_RENDERER = ExactJSONRenderer()
KEEP_BODIES = 4  # whole bodies kept (a head and language each: the last ones asked)
KEEP_ROWS = 200_000  # row pieces kept by this process (forty 5,000-player events); then started afresh

_lock = threading.Lock()
_bodies: OrderedDict[tuple[int, str, str], bytes] = OrderedDict()
_rows: dict[tuple[int, int], tuple[int, bytes]] = {}  # (tournament, player) → (token, row's JSON without "}")


def encode(value: Any) -> bytes:
    """``value`` as the API writes it (compact, exact decimals, UTF-8)."""
    return _RENDERER.render(value) if value is not None else b"null"  # type: ignore[no-any-return]  # render(None) is b""


def full_body(tournament_id: int) -> bytes | None:
    """The full standings' JSON from the stored head and rows; None when the worker has stored
    none or a row is gone (the caller reads them whole: ``selectors.standings``)."""
    head = stored.read(tournament_id)
    if head is None:
        return None
    if time.time() - head.data.get("computed_at", 0) > selectors.CACHE_TTL:
        selectors.tell(selectors.stale_standings, tournament_id)  # as selectors._standings does
    key = (tournament_id, str(head.data.get("stamp")), get_language() or "")
    with _lock:
        body = _bodies.get(key)
        if body is not None:
            _bodies.move_to_end(key)
            return body
    pieces = _row_pieces(head)
    if pieces is None:
        return None
    body = _join(head, pieces)
    with _lock:
        _bodies[key] = body
        while len(_bodies) > KEEP_BODIES:
            _bodies.popitem(last=False)
    return body


def _row_pieces(head: stored.Head) -> list[bytes] | None:
    """Each row's JSON up to its per-position fields, in the head's order: encoded here only for
    the rows whose token this process has not seen."""
    tid, ids, tokens = head.tournament_id, head.ids, head.tokens
    with _lock:
        known = [_rows.get((tid, p)) for p in ids]
    todo = [i for i, k in enumerate(known) if k is None or k[0] != tokens[i]]
    if todo:
        keys = [stored.row_key(tid, ids[i], tokens[i]) for i in todo]
        found = stored.entries(keys)
        if len(found) < len(keys):
            return None  # evicted, or replaced since this head was read
        fresh = {i: (tokens[i], encode(found[k])[:-1]) for i, k in zip(todo, keys, strict=True)}
        with _lock:
            if len(_rows) + len(fresh) > KEEP_ROWS:
                _rows.clear()
            for i, piece in fresh.items():
                _rows[tid, ids[i]] = piece
                known[i] = piece
    return [k[1] for k in known]  # type: ignore[index]


def _memo(render: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    seen: dict[Any, bytes] = {}

    def get(value: Any) -> bytes:
        found = seen.get(value)
        if found is None:
            found = seen[value] = render(value)
        return found
    return get


def _join(head: stored.Head, pieces: list[bytes]) -> bytes:
    """``{**meta, "rows": [...], "chain_explained": {...}}`` (``selectors.standings``'s order),
    each row its piece and ``,"rank":…,"pending_correction_note":…}``."""
    shared, ties, pending, ranks = head.data["shared"], head.data["ties"], head.data["pending"], head.ranks
    tie = _memo(lambda code: b',"tiebreak":' + encode(code) + b',"pending_corrections":')
    label = _memo(lambda code: b',"tiebreak_label":' + encode(labels.metric(code)))
    games = _memo(lambda games: encode(list(games)))
    note = _memo(lambda games: b',"pending_correction_note":' + encode(selectors.correction_note(games)) + b"}")
    flag = (b',"shared":false', b',"shared":true')
    rows = []
    for i, piece in enumerate(pieces):
        waiting = tuple(pending.get(head.ids[i], ()))
        code = ties[i]
        rows.append(b"".join((piece, b',"rank":', str(ranks[i]).encode(), flag[bool(shared[i])], tie(code),
                              games(waiting), label(code), note(waiting))))
    top = selectors.label_meta({**head.meta, "rows": None})
    parts = [encode(k) + b":" + (b"[" + b",".join(rows) + b"]" if k == "rows" else encode(v)) for k, v in top.items()]
    return b"{" + b",".join(parts) + b"}"
