"""Several ``spacetable serve`` processes as one site (docs/scaling.md, issue 21).

Each process keeps its rooms in memory as before (one asyncio task per room, the only
writer of its state); Redis holds what the processes share: which process owns each room
(an ownership lock, renewed by its owner), what each process's lobby lists, and the page
each room shows. :mod:`.node` talks to Redis; :mod:`.relay` carries a room socket that
reached another process to the room's owner.
"""
