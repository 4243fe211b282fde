"""The API's stability rule, checked (docs/api.md "Stability").

Every operation, and every field a client reads or sends, stays; a renamed or removed one is
first marked deprecated in the OpenAPI schema and kept for at least one release. The contract as
promised is ``docs/api-contract.json``: for each operation (``GET /api/tournaments/{slug}/``)
the names a client can use, as paths (``query: q``, ``request: seed``,
``response: tables[].seats[].player``), and since which version each deprecated one carries its
mark. :func:`broken_promises` compares the schema the code generates with it: a name that is
gone fails unless it was marked deprecated in an earlier version than the project's current
one (a release has carried the mark since). New names are welcome and only wait for the next
refresh (``python manage.py api_contract --write``), so work that adds fields never breaks it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from django.conf import settings

CONTRACT = Path(settings.BASE_DIR) / "docs" / "api-contract.json"
REFRESH = "python manage.py api_contract --write"
METHODS = ("get", "put", "post", "patch", "delete")

# Names of one operation: {"response: tables[].number": deprecated?}
Names = dict[str, bool]


def project_version() -> str:
    """The version being developed (pyproject.toml): it moves on at each release."""
    with (Path(settings.BASE_DIR) / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def generated_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


def _walk(node: dict[str, Any], components: dict[str, Any], prefix: str, deprecated: bool,
          out: Names, seen: frozenset[str] = frozenset()) -> None:
    """Every property reachable from ``node``, as ``a.b[].c``, with its deprecation (inherited:
    the fields of a deprecated field go with it)."""
    ref = node.get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[-1]
        if name in seen:  # a recursive schema: its fields are named once
            return
        node, seen = components.get(name, {}), seen | {name}
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in node.get(key, []):
            _walk(sub, components, prefix, deprecated, out, seen)
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        _walk(node["items"], components, prefix + "[]", deprecated, out, seen)
    for name, prop in node.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        gone = deprecated or bool(prop.get("deprecated"))
        out[path] = out.get(path, True) and gone
        _walk(prop, components, path, gone, out, seen)


def _body(content: dict[str, Any]) -> dict[str, Any] | None:
    for media in ("application/json", *content):
        if media in content and "schema" in content[media]:
            return content[media]["schema"]  # type: ignore[no-any-return]
    return None


def _operation_names(op: dict[str, Any], components: dict[str, Any]) -> Names:
    names: Names = {}
    for param in op.get("parameters", []):
        if param.get("in") == "query":
            names[f"query: {param['name']}"] = bool(param.get("deprecated"))
    parts: list[tuple[str, dict[str, Any] | None]] = [
        ("request", _body(op.get("requestBody", {}).get("content", {})))]
    parts += [("response", _body(answer.get("content", {})))
              for status, answer in op.get("responses", {}).items() if str(status).startswith("2")]
    for kind, schema in parts:
        if schema is not None:
            fields: Names = {}
            _walk(schema, components, "", False, fields)
            names.update({f"{kind}: {path}": gone for path, gone in fields.items()})
    return names


def operations(schema: dict[str, Any]) -> dict[str, tuple[bool, Names]]:
    """Each operation of the schema: whether it is deprecated, and its names."""
    components = schema.get("components", {}).get("schemas", {})
    found = {}
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                op = item[method]
                found[f"{method.upper()} {path}"] = (bool(op.get("deprecated")),
                                                     _operation_names(op, components))
    return found


def load_contract(path: Path | None = None) -> dict[str, Any]:
    path = path or CONTRACT
    return json.loads(path.read_text()) if path.exists() else {"operations": {}}  # type: ignore[no-any-return]


def _gone_too_early(what: str, since: str | None, version: str) -> str | None:
    """Why ``what`` may not be gone yet, or None when a release has carried its mark."""
    if since is None:
        return f"{what} is gone without being marked deprecated first"
    if since == version:
        return f"{what} is gone, but it was marked deprecated in this version ({version}): a release must carry the mark first"
    return None


def broken_promises(contract: dict[str, Any], current: dict[str, tuple[bool, Names]],
                    version: str) -> list[str]:
    """What the contract promised and the schema no longer has, too early: one line each."""
    broken = []
    for key, promised in contract["operations"].items():
        if key not in current:
            why = _gone_too_early("the operation", promised.get("deprecated_since"), version)
            broken += [f"{key}: {why}"] if why else []
            continue
        names = current[key][1]
        marks = promised.get("deprecated", {})
        for name in promised.get("names", []):
            why = None if name in names else _gone_too_early(name, marks.get(name), version)
            broken += [f"{key}: {why}"] if why else []
    return broken


def explain(broken: list[str], version: str) -> str:
    return "\n".join([
        "The API dropped what its clients use (docs/api.md \"Stability\"):",
        *(f"  - {line}" for line in broken),
        "A renamed or removed field or operation stays, marked deprecated in the schema, for at "
        "least one release. Put it back (an old name beside the new one, with the same value), "
        "mark it deprecated (drf-spectacular: @extend_schema_serializer(deprecate_fields=[...]) "
        "on the serializer, deprecated=True on a parameter, @extend_schema(deprecated=True) on an "
        "operation), add a line under \"Deprecated\" in CHANGELOG.md's \"Unreleased\", and run "
        f"`{REFRESH}`. It may go once a release has carried the mark (the contract says since "
        f"which version; this is {version}).",
    ])


def refreshed(contract: dict[str, Any], current: dict[str, tuple[bool, Names]],
              version: str) -> dict[str, Any]:
    """The contract as the code stands: every name it has now; a deprecation keeps the version
    it was first recorded in."""
    ops: dict[str, Any] = {}
    for key in sorted(current):
        deprecated_op, names = current[key]
        before = contract["operations"].get(key, {})
        entry: dict[str, Any] = {"names": sorted(names)}
        marks = {n: before.get("deprecated", {}).get(n, version) for n, gone in names.items() if gone}
        if marks:
            entry["deprecated"] = dict(sorted(marks.items()))
        if deprecated_op:
            entry["deprecated_since"] = before.get("deprecated_since", version)
        ops[key] = entry
    return {"about": f"The API's contract (docs/api.md \"Stability\"); refresh: {REFRESH}",
            "operations": ops}


def dump(contract: dict[str, Any]) -> str:
    return json.dumps(contract, indent=1, ensure_ascii=False) + "\n"


def new_names(contract: dict[str, Any], current: dict[str, tuple[bool, Names]]) -> int:
    """How many operations and names the code has that the contract does not record yet."""
    count = 0
    for key, (_dep, names) in current.items():
        known = set(contract["operations"].get(key, {}).get("names", []))
        count += len(set(names) - known) + (key not in contract["operations"])
    return count
