"""The room sockets' own frame reader (``sockets/client_frames.py``) against the general
parser of ``websockets``: whatever the client sends and however the network cuts it,
the messages and frames come out as the general parser alone reads them, in order."""

from __future__ import annotations

import random

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import SERVER, Protocol, State
from websockets.uri import parse_uri

from spacetable.server.sockets.client_frames import FrameReader
from spacetable.server.sockets.connection import text_frame

LIMIT = 64 * 1024


def _client() -> ClientProtocol:
    client = ClientProtocol(parse_uri("ws://example.test/ws/rooms/r"))
    client.state = State.OPEN
    return client


def _server() -> Protocol:
    server = Protocol(SERVER, state=State.OPEN, max_size=LIMIT)
    return server


def _frames(server: Protocol) -> list[Frame]:
    return [event for event in server.events_received() if isinstance(event, Frame)]


def _events(server: Protocol) -> list[tuple[str, bytes]]:
    return [(frame.opcode.name, bytes(frame.data)) for frame in _frames(server)]


def _read(reader: FrameReader, chunks: list[bytes]) -> list[tuple[str, bytes]]:
    """What the reader and the general parser behind it make of ``chunks``."""
    server = _server()
    seen: list[tuple[str, bytes]] = []
    for chunk in chunks:
        for kind, piece in reader.frames(chunk):
            if kind == "text":
                seen.append(("TEXT", piece))
            else:
                server.receive_data(piece)
                seen += _events(server)
    return seen


def _cut(stream: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted(rng.sample(range(1, len(stream)), k=min(len(stream) - 1, rng.randint(0, 40))))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]


def _plain_stream() -> bytes:
    """Poses, a pong, a ping, a message of 126-65,535 bytes: all plain."""
    client = _client()
    for i in range(30):
        client.send_text(f'{{"type":"pose","x":{i},"y":2.5,"rotation":90}}'.encode())
    client.send_pong(b"keepalive")
    client.send_text(b'{"type":"chat","text":"' + "é".encode() * 300 + b'"}')
    client.send_ping(b"")
    client.send_text(b"")
    client.send_text(b'{"type":"ready"}')
    return b"".join(client.data_to_send())


@pytest.mark.parametrize("seed", range(12))
def test_every_cut_of_plain_frames_reads_as_the_general_parser_reads_the_whole(seed: int) -> None:
    stream = _plain_stream()
    whole = _server()
    whole.receive_data(stream)
    expected = _events(whole)
    reader = FrameReader(LIMIT)
    assert _read(reader, _cut(stream, random.Random(seed))) == expected
    assert reader.plain  # nothing here needed the general parser for the rest
    assert [kind for kind, _ in expected].count("TEXT") == 33


@pytest.mark.parametrize("seed", range(6))
def test_a_fragmented_message_hands_the_rest_of_the_stream_to_the_general_parser(
    seed: int,
) -> None:
    client = _client()
    client.send_text(b'{"type":"ready"}')
    client.send_text(b'{"type":"chat",', fin=False)
    client.send_continuation(b'"text":"hi"}', fin=True)
    client.send_binary(b"\x00\x01")
    client.send_text(b'{"type":"pose"}')
    stream = b"".join(client.data_to_send())
    whole = _server()
    whole.receive_data(stream)
    reader = FrameReader(LIMIT)
    assert _read(reader, _cut(stream, random.Random(seed))) == _events(whole)
    assert not reader.plain


def test_a_message_over_the_limit_is_left_to_the_general_parser_which_refuses_it() -> None:
    client = _client()
    client.send_text(b'{"type":"ready"}')
    client.send_text(b"x" * 2000)
    stream = b"".join(client.data_to_send())
    reader = FrameReader(1000)
    pieces = list(reader.frames(stream))
    assert pieces[0] == ("text", b'{"type":"ready"}')
    assert pieces[1][0] == "rest" and len(pieces) == 2
    server = Protocol(SERVER, state=State.OPEN, max_size=1000)
    server.receive_data(pieces[1][1])
    assert server.parser_exc is not None  # refused (1009), as without the reader


def test_a_close_frame_is_a_frame_for_the_general_parser() -> None:
    client = _client()
    client.send_text(b"a")
    client.send_close(1000, "bye")
    stream = b"".join(client.data_to_send())
    pieces = list(FrameReader(LIMIT).frames(stream))
    assert [kind for kind, _ in pieces] == ["text", "frame"]
    server = _server()
    server.receive_data(pieces[1][1])
    assert [frame.opcode for frame in _frames(server)] == [Opcode.CLOSE]


def test_an_unmasked_frame_is_not_read_here() -> None:
    # A server-side frame (unmasked): a client must mask; the general parser says so.
    pieces = list(FrameReader(LIMIT).frames(b"\x81\x02hi"))
    assert pieces == [("rest", b"\x81\x02hi")]


def test_a_read_of_one_small_text_frame_is_taken_whole_and_nothing_else_is() -> None:
    client = _client()
    client.send_text(b'{"type":"pose","x":1,"y":2,"rotation":0}')
    one = b"".join(client.data_to_send())
    reader = FrameReader(LIMIT)
    assert reader.whole(one) == b'{"type":"pose","x":1,"y":2,"rotation":0}'
    assert reader.whole(one + one) is None  # two frames: frames() reads them
    assert reader.whole(one[:-1]) is None  # a part of one
    assert reader.whole(b"\x81\x02hi" + bytes(134)) is None  # unmasked, whatever follows
    client.send_text(b"x" * 130)  # a 16-bit length
    assert reader.whole(b"".join(client.data_to_send())) is None
    assert list(reader.frames(one[:3])) == []  # now something waits: whole() stands aside
    assert reader.whole(one) is None


@pytest.mark.parametrize("size", [0, 125, 126, 65_535, 65_536, 70_000])
def test_the_frames_sent_are_the_ones_websockets_would_write(size: int) -> None:
    text = b"a" * size
    assert text_frame(text) == Frame(Opcode.TEXT, text).serialize(mask=False, extensions=[])
