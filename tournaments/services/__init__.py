"""Every write of the tournaments app: clubs, players, tournaments, registrations, check-ins,
roles and private links. Pages, the REST API, the CSV import and the demo all call these.

Each function takes the acting user (``actor``), checks it through ``permissions`` and records
an audit entry (``audit.record``). Bad input raises ``DomainError(message, field=, rule=)``;
a missing role raises ``PermissionDeniedError``. Rule codes used here (besides the rule ids of docs/rules.md):
``ROLE`` (not allowed), ``STATUS`` (not in this tournament status), ``CAPACITY``,
``DUPLICATE``, ``CSV`` (file format), ``GAME`` (no such game), ``REQUIRED``.

One module per concept: ``guards`` (who may write), ``tournament``, ``clubs``, ``players``,
``registration``, ``checkin``, ``staff`` (roles and private links) and ``csv_files``. Every public
name is importable from here (``from tournaments.services import register``).
"""

from .checkin import bulk_checkin, carry_over_checkins, set_checked_in, toggle_checkin
from .clubs import club_name, get_or_create_club, name_organising_club
from .csv_files import (
    CSV_COLUMNS,
    NATIONAL_ID_HEADERS,
    CsvImport,
    CsvImportError,
    RowProblem,
    export_csv,
    export_rows,
    import_csv,
    import_csv_rows,
)
from .guards import require_organizer, require_referee
from .players import PlayerData, find_player, player_for, set_national_id
from .registration import promote, register, registration_snapshot, waitlist_position, withdraw
from .staff import add_role, create_link, remove_role, revoke_link
from .tournament import (
    EDITABLE_FIELDS,
    TIME_RE,
    change_status,
    create_tournament,
    tournament_snapshot,
    update_tournament,
)

__all__ = [
    "export_rows",
    "require_organizer",
    "require_referee",
    "TIME_RE",
    "EDITABLE_FIELDS",
    "tournament_snapshot",
    "create_tournament",
    "update_tournament",
    "change_status",
    "get_or_create_club",
    "name_organising_club",
    "club_name",
    "PlayerData",
    "find_player",
    "player_for",
    "set_national_id",
    "registration_snapshot",
    "register",
    "waitlist_position",
    "withdraw",
    "promote",
    "set_checked_in",
    "toggle_checkin",
    "carry_over_checkins",
    "bulk_checkin",
    "add_role",
    "remove_role",
    "create_link",
    "revoke_link",
    "CSV_COLUMNS",
    "NATIONAL_ID_HEADERS",
    "CsvImport",
    "CsvImportError",
    "RowProblem",
    "export_csv",
    "import_csv",
    "import_csv_rows",
]
