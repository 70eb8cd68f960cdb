"""The game-system contract in named pieces; `app.rules.system` re-exports them all for older imports.

- `frozen`: the base of the contract's value objects.
- `viewer`: who is looking (`Viewer`) and who may see an event (audiences).
- `envelope`: events as deciders make them (`NewEvent`) and as stored (`Event`); reducer and describer types.
- `commands`: the command base, `Ctx`, `CommandSpec` and the keyword-based `command` rows of a table.
- `options`: what a viewer may do now (`Option`, `Band`) and pending choices (`Prompt`).
- `part`: `SystemPart`, one layer of a campaign's rules, and what its view hook is given (`ViewRequest`).
- `validation`: pydantic errors as sentences, and the JSON a command may hold.
"""
