"""What a room's sockets carry: the protocol's messages, a socket's connection as a room
sees it (its outbox and frames), its message rate limits, and the state patches sent
instead of whole states. The uvicorn websocket protocol that reads the sockets and hands
their messages to the rooms sits above the rooms (:mod:`spacetable.server.http.ws_protocol`)."""
