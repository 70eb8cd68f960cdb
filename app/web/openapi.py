"""The typed /openapi.json: the command body as a union of every system's commands, told apart by `type`.

The server still reads a command as raw JSON through the game's own table (so its refusals stay the
sentences they are); this only declares that body, from the very models the tables parse with.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import FastAPI
from pydantic.json_schema import models_json_schema

from app.rules import registry
from app.rules.system import Command

COMMANDS_PATH = "/api/campaigns/{campaign_id}/commands"
# Made only by the server's own code (an upload's `map.asset.add`, a deletion's `map.asset.remove`): every
# client route refuses them, so the union leaves them out.
NOT_ON_THIS_ROUTE = frozenset(
    spec.type for key in registry.systems() for spec in registry.game(key).commands.values() if spec.internal
)
REF = "#/components/schemas/{model}"
BODY = "Command"  # the union's own name in the document


def command_models() -> dict[str, type[Command]]:
    """Every command type any registered system takes, with its model (the shared layers once)."""
    found: dict[str, type[Command]] = {}
    for key in registry.systems():
        for spec in registry.game(key).commands.values():
            if spec.type not in NOT_ON_THIS_ROUTE:
                found.setdefault(spec.type, spec.model)
    return dict(sorted(found.items()))


def schema_name(command_type: str) -> str:
    """`generic.pool.adjust` -> `GenericPoolAdjustCommand`."""
    words = re.split(r"[._\-]", command_type)
    return "".join(word[:1].upper() + word[1:] for word in words if word) + "Command"


def command_schemas() -> tuple[dict[str, Any], dict[str, Any]]:
    """(the body's schema: a oneOf with a discriminator on `type`, the component schemas it refers to)."""
    models = command_models()
    refs, top = models_json_schema([(model, "validation") for model in models.values()], ref_template=REF)
    defs: dict[str, Any] = top.get("$defs", {})
    renames: dict[str, str] = {}
    for command_type, model in models.items():
        old = refs[(model, "validation")]["$ref"].rsplit("/", 1)[1]
        renames[old] = schema_name(command_type)
    text = json.dumps(defs)
    for old, new in renames.items():
        text = text.replace(f'"{REF.format(model=old)}"', f'"{REF.format(model=new)}"')
    defs = {renames.get(name, name): schema for name, schema in json.loads(text).items()}
    mapping = {}
    for command_type in models:
        name = schema_name(command_type)
        schema = defs[name]
        schema["title"] = name  # generators name their classes after it: one name per command
        # The discriminator must be present and name exactly this command.
        schema["properties"]["type"] = {"type": "string", "const": command_type, "enum": [command_type]}
        schema["required"] = ["type", *[f for f in schema.get("required", []) if f != "type"]]
        mapping[command_type] = REF.format(model=name)
    body = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    return body, defs


def install(app: FastAPI) -> None:
    """Make app.openapi() declare the command body as the union of every command model."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = plain()
            body, defs = command_schemas()
            components = document.setdefault("components", {}).setdefault("schemas", {})
            for name, schema in defs.items():
                if name in components and components[name] != schema:
                    raise RuntimeError(
                        f"Two different schemas are both named {name} in the OpenAPI document."
                    )
                components[name] = schema
            components[BODY] = {
                **body,
                "title": BODY,
                "description": "One command: its `type` picks which, and with it the fields it takes.",
            }
            operation = document["paths"][COMMANDS_PATH]["post"]
            operation["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": REF.format(model=BODY)}}},
            }
            _optional_bodies(document)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _optional_bodies(document: dict[str, Any]) -> None:
    """A body that may be left out is `required: false` in OpenAPI, not a union with null."""
    for operations in document["paths"].values():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            options = content.get("schema", {}).get("anyOf", [])
            refs = [option for option in options if "$ref" in option]
            if len(options) == 2 and len(refs) == 1 and {"type": "null"} in options:
                content["schema"] = refs[0]
                operation["requestBody"]["required"] = False
