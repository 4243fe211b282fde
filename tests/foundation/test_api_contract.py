"""The API keeps its contract (docs/api.md "Stability"): a field or operation that clients used
may go only after a release has carried its deprecation mark; additions never break the check.
The contract is docs/api-contract.json, refreshed by ``python manage.py api_contract --write``."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from config import api_contract

TABLE = "GET /api/tournaments/{slug}/games/{number}/tables/{table}/"


@pytest.fixture(scope="module")
def current() -> dict[str, Any]:
    return api_contract.operations(api_contract.generated_schema())


def _without(current: dict[str, Any], op: str, *names: str) -> dict[str, Any]:
    changed = copy.deepcopy(current)
    for name in names:
        del changed[op][1][name]
    return changed


def test_the_api_keeps_the_committed_contract(current: dict[str, Any]) -> None:
    version = api_contract.project_version()
    broken = api_contract.broken_promises(api_contract.load_contract(), current, version)
    assert not broken, api_contract.explain(broken, version)


def test_the_contract_names_what_clients_of_the_tables_api_read(current: dict[str, Any]) -> None:
    promised = api_contract.load_contract()["operations"][TABLE]
    assert {"response: seats[].player", "response: seats[].player_name",
            "response: seats[].player_id", "response: seats[].club"} <= set(promised["names"])
    assert set(promised["deprecated"]) == {"response: seats[].player_id", "response: seats[].club"}


def test_a_dropped_field_fails_and_says_what_to_do(current: dict[str, Any]) -> None:
    contract = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    broken = api_contract.broken_promises(
        contract, _without(current, TABLE, "response: seats[].player_name"), "0.1.0")
    assert broken == [f"{TABLE}: response: seats[].player_name is gone without being marked "
                      "deprecated first"]
    message = api_contract.explain(broken, "0.1.0")
    assert "deprecate_fields" in message and "CHANGELOG.md" in message
    assert api_contract.REFRESH in message


def test_a_renamed_field_fails_for_its_old_name(current: dict[str, Any]) -> None:
    contract = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    renamed = _without(current, TABLE, "response: seats[].colour")
    renamed[TABLE][1]["response: seats[].color"] = False
    assert api_contract.broken_promises(contract, renamed, "0.1.0") == [
        f"{TABLE}: response: seats[].colour is gone without being marked deprecated first"]


def test_added_fields_and_operations_never_fail(current: dict[str, Any]) -> None:
    contract = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    grown = copy.deepcopy(current)
    grown[TABLE][1]["response: seats[].nickname"] = False
    grown["GET /api/new-things/"] = (False, {"response: []id": False})
    assert api_contract.broken_promises(contract, grown, "0.1.0") == []
    assert api_contract.new_names(contract, grown) == 3  # a field, an operation and its field


def test_a_deprecated_field_may_go_once_a_release_carried_the_mark(current: dict[str, Any]) -> None:
    contract = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    assert contract["operations"][TABLE]["deprecated"]["response: seats[].player_id"] == "0.1.0"
    gone = _without(current, TABLE, "response: seats[].player_id")
    [line] = api_contract.broken_promises(contract, gone, "0.1.0")
    assert "marked deprecated in this version (0.1.0)" in line
    assert api_contract.broken_promises(contract, gone, "0.2.0") == []


def test_a_dropped_operation_fails_unless_deprecated_in_an_earlier_release(current: dict[str, Any]) -> None:
    contract = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    gone = {k: v for k, v in current.items() if k != TABLE}
    assert api_contract.broken_promises(contract, gone, "0.1.0") == [
        f"{TABLE}: the operation is gone without being marked deprecated first"]
    marked = copy.deepcopy(current)
    marked[TABLE] = (True, marked[TABLE][1])
    contract = api_contract.refreshed(contract, marked, "0.1.0")
    assert contract["operations"][TABLE]["deprecated_since"] == "0.1.0"
    assert api_contract.broken_promises(contract, gone, "0.2.0") == []


def test_a_refresh_keeps_the_version_a_deprecation_was_first_recorded_in(current: dict[str, Any]) -> None:
    first = api_contract.refreshed({"operations": {}}, current, "0.1.0")
    later = api_contract.refreshed(first, current, "0.2.0")
    assert later["operations"][TABLE]["deprecated"]["response: seats[].club"] == "0.1.0"


def test_fields_of_a_deprecated_field_are_deprecated_with_it() -> None:
    schema = {"paths": {"/x/": {"get": {"responses": {"200": {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/A"}}}}}}}},
        "components": {"schemas": {
            "A": {"properties": {"old": {"allOf": [{"$ref": "#/components/schemas/B"}], "deprecated": True},
                                 "items": {"type": "array", "items": {"$ref": "#/components/schemas/A"}}}},
            "B": {"properties": {"inner": {"type": "string"}}}}}}
    [(deprecated, names)] = api_contract.operations(schema).values()
    assert names == {"response: old": True, "response: old.inner": True, "response: items": False}


def test_the_command_refreshes_and_refuses_to_record_a_broken_promise(
    current: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "api-contract.json"
    monkeypatch.setattr(api_contract, "CONTRACT", path)
    call_command("api_contract", "--write", stdout=StringIO())
    written = json.loads(path.read_text())
    assert written["operations"][TABLE]["names"] == sorted(current[TABLE][1])
    promised = copy.deepcopy(written)
    promised["operations"][TABLE]["names"].append("response: seats[].shirt")
    path.write_text(api_contract.dump(promised))
    with pytest.raises(CommandError, match=r"seats\[\]\.shirt is gone") as refused:
        call_command("api_contract", "--write", stdout=StringIO())
    assert refused.value.returncode == 2
    assert json.loads(path.read_text()) == promised  # nothing recorded
