"""The websocket protocol declared once, both ways: every message a page sends
(:mod:`~spacetable.server.protocol.client_messages`, pydantic models validated at the
boundary) and every message the server sends
(:mod:`~spacetable.server.protocol.server_messages`, ``@tagged`` records written by
:func:`~spacetable.server.protocol.server_messages.wire`). The JSON Schema
(:mod:`~spacetable.server.protocol.schema`, ``spacetable protocol schema``) and the message
tables of docs/protocol.md (:mod:`~spacetable.server.protocol.docs`,
``spacetable protocol docs``) are generated from them."""
