"""The rooms: a :class:`~spacetable.server.rooms.room.Room` and its parts (seats, lobby,
chat, manners, the match and its pacing, bots, news, the journal), the clock rooms keep
time with, and the :class:`~spacetable.server.rooms.directory.RoomDirectory` that creates,
finds and rebuilds them. A room talks to its players through the sockets' connections
(:mod:`spacetable.server.sockets`) and stores itself in :mod:`spacetable.server.store`."""
