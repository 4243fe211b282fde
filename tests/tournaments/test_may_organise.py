""""May organise this tournament" is one check (tournaments.permissions.is_organizer): the page
decorator, the API permission, the templates, the services' refusal and the workbook import all
give the same answer for every kind of visitor, and no second copy of the rule comes back."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, Group

from common.errors import PermissionDeniedError
from tests.factories.tournaments import (
    ClubFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.clubs import FEDERATION_GROUP
from tournaments.models import ClubRole
from tournaments.permissions import has_role, is_organizer, organises_any, require_organizer
from tournaments.templatetags.tournament_nav import organizer_of
from workbook.views import may_import

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def visitors(db: Any) -> dict[str, Any]:
    club, other_club = ClubFactory(), ClubFactory()
    tournament = TournamentFactory(club=club)
    elsewhere = TournamentFactory(club=other_club)
    people = {name: UserFactory(username=name) for name in (
        "organizer", "referee", "club_admin", "club_admin_other", "organizer_other", "federation", "nobody")}
    TournamentRoleFactory(tournament=tournament, user=people["organizer"], role="organizer")
    TournamentRoleFactory(tournament=tournament, user=people["referee"], role="referee")
    TournamentRoleFactory(tournament=elsewhere, user=people["organizer_other"], role="organizer")
    ClubRole.objects.create(club=club, user=people["club_admin"])
    ClubRole.objects.create(club=other_club, user=people["club_admin_other"])
    people["federation"].groups.add(Group.objects.get_or_create(name=FEDERATION_GROUP)[0])
    people["superuser"] = UserFactory(username="root", is_superuser=True)
    people["anonymous"] = AnonymousUser()
    return {"tournament": tournament, "people": people}


ORGANISE = {"organizer", "club_admin", "superuser"}


def test_every_way_of_asking_gives_the_same_answer(visitors: dict[str, Any]) -> None:
    tournament = visitors["tournament"]
    for name, user in visitors["people"].items():
        expected = name in ORGANISE
        assert is_organizer(user, tournament) is expected, name
        assert has_role(user, tournament, "organizer") is expected, name
        assert organizer_of(user, tournament) is expected, name
        if expected:
            require_organizer(user, tournament)
        else:
            with pytest.raises(PermissionDeniedError) as refused:
                require_organizer(user, tournament)
            assert refused.value.rule == "ROLE" and refused.value.status_code == 403


def test_who_organises_some_tournament_may_import_workbooks(visitors: dict[str, Any]) -> None:
    organisers = {"organizer", "club_admin", "club_admin_other", "organizer_other", "superuser"}
    for name, user in visitors["people"].items():
        assert organises_any(user) is (name in organisers), name
        assert may_import(user) is (name in organisers), name


def test_no_second_copy_of_the_organiser_rule() -> None:
    """Role lookups that decide who organises live in tournaments/permissions.py (and the club
    admin's in tournaments/clubs.py); everything else asks them."""
    rule = re.compile(r"Role\.(ORGANIZER|ADMIN)[^\n]*\.exists\(\)|def \w*require_organi[sz]er|def \w*may_organi[sz]e")
    allowed = {"tournaments/permissions.py", "tournaments/clubs.py"}
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("tournaments", "tables", "scoring", "clubs", "workbook", "history", "seasons", "publishing", "config")
             for path in (ROOT / folder).rglob("*.py") if str(path.relative_to(ROOT)) not in allowed
             for n, line in enumerate(path.read_text().splitlines(), 1) if rule.search(line)]
    assert found == []
