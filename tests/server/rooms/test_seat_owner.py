"""A room's :class:`~spacetable.server.rooms.seats.Seat` is changed by its own methods only
(issue 68 item 5): the lobby, the bots, the manners, the farewells and the lookups ask the
seat (``seat.seat_person(...)``, ``seat.went_away(...)``, ``seat.bot_takes_over(...)``...)
and never assign its fields, so that a seat is never left half changed (a bot standing in
without its level, a person seated without a token) and what goes with what is written once.

The test reads the server's source: outside ``rooms/seats.py``, no assignment (``=``,
``+=``, ``del``, ``setattr``) to an attribute named as one of Seat's fields, and no change
of a ``connections`` set but the room's own, unless its object is one :data:`NOT_SEATS`
names (the same attribute name on another kind of object). It fails on the tree before
the seat had its methods (the bots' ``take_over``, the farewells' ``_leave``, the lobby).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import spacetable.server
from spacetable.server.rooms.seats import Seat

SERVER = Path(spacetable.server.__file__).resolve().parent
#: The seat's owner: the one module that writes a seat's fields.
OWNER = "rooms/seats.py"
FIELDS = frozenset(field.name for field in dataclasses.fields(Seat))
#: The methods that change a set in place.
SET_CHANGES = frozenset(
    {"add", "discard", "remove", "clear", "pop", "update", "difference_update"}
    | {"intersection_update", "symmetric_difference_update"}
)
#: Objects, by module and as written, that are no seat though an attribute of theirs has a
#: seat field's name: what each is.
NOT_SEATS: dict[tuple[str, str], str] = {
    ("http/ws_protocol.py", "self.game"): "the socket's room connection (its account)",
    ("rooms/bot_seat.py", "self.connection"): "a bot's room connection (its token's account)",
    ("rooms/farewell.py", "connection"): "a socket's Connection (its session's account)",
    ("rooms/lobby.py", "self._room"): "the room itself (the room's connections)",
}


def _targets(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions ``node`` assigns to or deletes, tuples unpacked."""
    if isinstance(node, ast.Assign | ast.Delete):
        stack = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        stack = [node.target]
    else:
        return
    while stack:
        target = stack.pop()
        if isinstance(target, ast.Tuple | ast.List):
            stack.extend(target.elts)
        elif isinstance(target, ast.Starred):
            stack.append(target.value)
        else:
            yield target


def seat_writes(module: str, source: str) -> list[str]:
    """The places of ``source`` (the module ``module``, as ``rooms/lobby.py``) that write
    what may be a seat's field, as ``module:line: expression``."""
    found = []

    def note(base: ast.expr, what: str, line: int) -> None:
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            return  # an object's own attribute (a seat's own are written in its module)
        if (module, ast.unparse(base)) not in NOT_SEATS:
            found.append(f"{module}:{line}: {what}")

    for node in ast.walk(ast.parse(source)):
        for target in _targets(node):
            if isinstance(target, ast.Attribute) and target.attr in FIELDS:
                note(target.value, ast.unparse(target), target.lineno)
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2:
            name = node.args[1]
            if not isinstance(name, ast.Constant) or name.value in FIELDS:
                note(node.args[0], ast.unparse(node), node.lineno)
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in SET_CHANGES
            and isinstance(func.value, ast.Attribute)
            and func.value.attr == "connections"
        ):
            note(func.value.value, ast.unparse(node.func), node.lineno)
    return found


def _modules() -> Iterator[tuple[str, str]]:
    for path in sorted(SERVER.rglob("*.py")):
        module = path.relative_to(SERVER).as_posix()
        if module != OWNER:
            yield module, path.read_text("utf-8")


def test_no_module_but_the_seat_s_own_writes_a_seat_s_fields() -> None:
    found = [place for module, source in _modules() for place in seat_writes(module, source)]
    assert found == [], (
        "a seat's fields are written by its methods only (rooms/seats.py): ask the seat "
        "(add a method there if none says it), or name an object that is no seat in "
        "NOT_SEATS:\n" + "\n".join(found)
    )


def test_each_object_named_no_seat_is_still_written_to() -> None:
    """An entry of NOT_SEATS nothing needs any more goes (the list only shrinks)."""
    sources = dict(_modules())
    for module, base in NOT_SEATS:
        tree = ast.parse(sources[module])
        bases = {
            ast.unparse(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and (node.attr in FIELDS or node.attr in SET_CHANGES)
        }
        assert base in bases, f"{module}: {base} is no longer there: drop it from NOT_SEATS"


def test_the_check_sees_a_seat_written_however_it_is_reached() -> None:
    """What the parts wrote before the seat had its methods (the bots, the farewells, the
    lobby) is found, through a list or a tuple too; reading a seat, or a room's own
    connections, is not."""
    source = """
def take_over(seat, humans, room, connection, self):
    seat.kind, seat.level, seat.stand_in = "bot", level, stand_in
    seat.absences += 1
    humans[0].host = True
    room.seats[1].ready = ready
    seat.connections.clear()
    setattr(seat, "token", None)
    del seat.bot
    name = seat.name
    self.name = name
    room.connections.add(connection)
    connection.seat = None
"""
    found = seat_writes("rooms/bots.py", source)
    assert sorted(place.split(": ", 1)[1] for place in found) == sorted(
        [
            "seat.kind",
            "seat.level",
            "seat.stand_in",
            "seat.absences",
            "humans[0].host",
            "room.seats[1].ready",
            "seat.bot",
            "seat.connections.clear",
            "setattr(seat, 'token', None)",
            "room.connections.add",
        ]
    )
