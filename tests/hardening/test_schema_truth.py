"""The OpenAPI schema says what the API answers (the schemathesis run checks every response's
status code and body against it; these are the cases it once got wrong)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The schema /api/schema/ serves (the same generator, without a request)."""
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_generates_without_a_warning(tmp_path: Any) -> None:
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))


def test_duplicates_list_their_candidates_as_an_array(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    for name in ("Flagged", "IscrittiDuplicate"):
        assert components[name]["properties"]["candidates"]["type"] == "array", name


def test_a_turn_recorded_without_a_user_is_documented_as_nullable(schema: dict[str, Any]) -> None:
    turn = next(c for c in schema["components"]["schemas"].values()
                if "recorded_by" in c.get("properties", {}))
    assert turn["properties"]["recorded_by"].get("nullable") is True


def test_every_operation_documents_its_error_answers(schema: dict[str, Any]) -> None:
    missing = []
    for path, item in schema["paths"].items():
        for method, op in item.items():
            codes = set(op["responses"])
            need = {"400", "401", "403", "404", "429"}
            if method in ("post", "put", "patch", "delete"):
                need |= {"409", "413"}
            if need - codes:
                missing.append(f"{method.upper()} {path}: {sorted(need - codes)}")
    assert missing == []


def test_an_unknown_api_path_is_a_json_404() -> None:
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
