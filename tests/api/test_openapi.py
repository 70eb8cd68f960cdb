"""The OpenAPI document is typed (issue 13): the command body, every reply and every refusal."""

from __future__ import annotations

from app.rules import registry
from app.web.openapi import NOT_ON_THIS_ROUTE

ERROR = {"$ref": "#/components/schemas/ErrorReply"}


def _document(client) -> dict:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


def _api_operations(document: dict):
    for path, operations in document["paths"].items():
        if path.startswith("/api/"):
            for method, operation in operations.items():
                yield f"{method.upper()} {path}", operation


def test_the_command_body_is_a_union_of_every_command_on_type(client):
    document = _document(client)
    schemas = document["components"]["schemas"]
    body = document["paths"]["/api/campaigns/{campaign_id}/commands"]["post"]["requestBody"]
    assert body["required"] is True
    union = schemas[body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert union["discriminator"]["propertyName"] == "type"
    mapping = union["discriminator"]["mapping"]
    every = {t for key in registry.systems() for t in registry.game(key).commands} - NOT_ON_THIS_ROUTE
    assert set(mapping) == every
    assert sorted(option["$ref"] for option in union["oneOf"]) == sorted(mapping.values())
    for command_type, ref in mapping.items():
        model = schemas[ref.rsplit("/", 1)[1]]
        assert model["properties"]["type"]["enum"] == [command_type]
        assert "type" in model["required"]
    roll = schemas[mapping["generic.roll"].rsplit("/", 1)[1]]
    assert {"expression", "dice", "command_id", "hidden"} <= set(roll["properties"])
    assert roll["additionalProperties"] is False  # unknown fields are refused, as the server does


def test_every_api_route_declares_its_reply_and_its_refusals(client):
    document = _document(client)
    schemas = document["components"]["schemas"]
    assert schemas["ErrorReply"]["properties"]["detail"]["type"] == "string"
    assert schemas["ErrorReply"]["required"] == ["detail"]
    assert "rule" in schemas["ErrorReply"]["properties"]
    assert "HTTPValidationError" not in schemas  # FastAPI's array `detail` is not what the server sends
    for name, operation in _api_operations(document):
        replies = operation["responses"]
        ok = [status for status in replies if status.startswith("2")]
        assert len(ok) == 1, name
        if ok != ["204"]:
            content = replies[ok[0]].get("content", {})
            assert content, f"{name} does not say what it replies"
            for media in content.values():
                assert media["schema"] not in ({}, {"type": "object"}), name
                json_schema = media["schema"]
                if "$ref" not in json_schema and json_schema.get("type") == "array":
                    assert "$ref" in json_schema["items"], name
        refusals = {status: reply for status, reply in replies.items() if status.startswith("4")}
        if name != "GET /api/systems":
            assert {"413", "422", "429"} <= set(refusals), name
        for status, reply in refusals.items():
            assert reply["content"]["application/json"]["schema"] == ERROR, (name, status)
        if "{campaign_id}" in name and not name.endswith("/join") and not name.endswith("/watch"):
            assert {"401", "403", "404", "409"} <= set(refusals), name
    reads = dict(_api_operations(document))
    for name in ("POST /api/campaigns/{campaign_id}/assets", "POST /api/campaigns/import"):
        assert "400" in reads[name]["responses"], name


def test_system_is_one_of_the_registered_systems_and_the_refusal_is_unchanged(client):
    document = _document(client)
    system = document["components"]["schemas"]["CreateCampaign"]["properties"]["system"]
    assert system["enum"] == list(registry.systems())
    refused = client.post("/api/campaigns", json={"name": "x", "system": "chess"})
    assert refused.status_code == 422
    assert refused.json()["detail"].startswith("There is no game system 'chess'. Choose one of: generic")


def test_systems_reply_is_typed_and_still_lists_each_command_schema(client):
    document = _document(client)
    reply = document["paths"]["/api/systems"]["get"]["responses"]["200"]["content"]["application/json"]
    assert reply["schema"]["items"] == {"$ref": "#/components/schemas/SystemInfo"}
    systems = client.get("/api/systems").json()
    roll = next(c for c in systems[0]["commands"] if c["type"] == "generic.roll")
    assert roll["schema"]["properties"]["type"]["const"] == "generic.roll"


def test_a_view_reply_keeps_every_field_the_server_sends(client, table):
    """The typed envelope neither drops a system's own fields nor adds ones the view did not have."""
    ann = table.join("Ann")
    gm_view = table.view(table.gm)
    player_view = table.view(ann)
    assert "rulings" not in player_view and "scenes" not in player_view["map"]
    assert "system" not in gm_view  # the generic tabletop has no system part
    tote = type(table).create(client, system="tote")
    view = tote.view(tote.gm)
    assert {"system", "rulings"} <= set(view) and view["system"]["heroes"] == []
