"""A bot that plays spacetable's four games with random legal moves, over the bot API.

It shows how a program plays for an account (docs/bots.md): it reads its account's event
stream, accepts every challenge, and plays each game on that game's stream, choosing at
random among the moves the view offers and trying again when the server refuses one (it
says why, in a 400). Run it with a token of the scopes bot:play, challenge:read and
challenge:write (Settings, "Personal access tokens")::

    python examples/bots/random_bot.py --server http://127.0.0.1:8000 --token spt_...

or with the token in SPACETABLE_TOKEN. ``--seed`` makes its choices the same each run
(given the same opponent's moves); ``--games N`` stops it after N games; ``--upgrade``
makes the account a bot account first (for good: docs/bots.md). It needs httpx2
(``pip install httpx2``).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import sys
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx2

#: Random places tried for a card (those on another card skipped, not sent).
PLACE_TRIES = 200
#: Times a game's stream is opened again when it ends before the match (a restart).
REOPEN_TRIES = 30
#: Places sent for a card before the bot gives up on it.
PLACES_SENT = 8
#: Print each refused move (``--verbose``).
VERBOSE = False
#: How far apart two cards' middles are kept, in mm (a card is about 63 x 88).
CARD_MM = 110.0
#: The margin kept from the table's edges when placing a card, in mm.
EDGE_MM = 60.0


def lines(response: httpx2.Response) -> Iterator[dict[str, Any]]:
    """The JSON lines of a stream (the empty keep-alive lines skipped)."""
    for line in response.iter_lines():
        if line.strip():
            yield json.loads(line)


def read_into(
    response: httpx2.Response, incoming: queue.Queue[dict[str, Any] | BaseException | None]
) -> None:
    """Put each line of a stream into ``incoming``, then ``None`` at its end (or what
    broke it)."""
    try:
        for line in lines(response):
            incoming.put(line)
    except Exception as exc:  # handed to the reader of ``incoming``
        incoming.put(exc)
    else:
        incoming.put(None)


def version_of(said: dict[str, Any]) -> int:
    """The match's version a line or a state says (-1: none said)."""
    version = said.get("version")
    return version if isinstance(version, int) else -1


def drained(incoming: queue.Queue[Any]) -> list[Any]:
    """What ``incoming`` holds now, taken out in order (without waiting)."""
    out = []
    while True:
        try:
            out.append(incoming.get_nowait())
        except queue.Empty:
            return out


class Game:
    """One game the bot plays: its room, its view, its own random choices."""

    def __init__(self, client: httpx2.Client, room: str, rng: random.Random) -> None:
        self.client, self.room, self.rng = client, room, rng
        self.game = ""
        self.state: dict[str, Any] = {}
        #: Where the cards on the table are (x, y in mm): the view's, and each placed since.
        self.cards: list[tuple[float, float]] = []
        #: The match's version once the room took the bot's last move.
        self.moved = -1

    def post(self, what: str, body: dict[str, Any] | None = None) -> httpx2.Response:
        """``POST /api/bot/game/{room}/{what}``; a move carries a fresh idempotency key
        (sent again after a dropped connection, it would not act twice)."""
        url = f"/api/bot/game/{self.room}/{what}"
        if what == "move" and body is not None:
            body = {**body, "idempotency_key": uuid.UUID(int=self.rng.getrandbits(128)).hex}
        return self.client.post(url, json=body or {})

    def move(self, body: dict[str, Any]) -> str | None:
        """Send one move: ``None`` when the room took it, else its refusal in words."""
        answer = self.post("move", body)
        if answer.status_code == 429:  # over the limit: wait as long as it says
            seconds = answer.json()["ratelimit"]["seconds"]
            print(f"{self.room}: too many moves, waiting {seconds} s", flush=True)
            threading.Event().wait(seconds)
            return self.move(body)
        if answer.status_code == 200:  # the decisions of earlier versions are stale
            self.moved = max(self.moved, version_of(answer.json()))
            return None
        refusal = str(answer.json().get("error", answer.status_code))
        if VERBOSE:
            print(f"{self.room}: refused {body.get('type')}: {refusal}", flush=True)
        return refusal

    def play(self) -> None:
        """Read the game's stream to the match's end, acting at each ``decision``; a
        stream that ends before (the server restarting) is opened again."""
        for attempt in range(REOPEN_TRIES):
            if attempt:
                threading.Event().wait(1.0)
            try:
                if self.follow():
                    return
            except httpx2.HTTPError as exc:  # the server away a moment: again
                print(f"{self.room}: the stream broke ({exc}), opening it again", flush=True)

    def follow(self) -> bool:
        """Read the game's stream once: True when it ended with the match over.

        The stream is read on a thread of its own, and the bot acts on the newest
        ``decision`` only (:meth:`due`): while it was choosing (or waiting out a rate
        limit), the room went on, and the older decisions are stale (acting on each would
        send moves for positions long gone, even after the match's end)."""
        over = False
        with self.client.stream("GET", f"/api/bot/game/stream/{self.room}") as stream:
            if stream.status_code in (403, 404):  # not ours, or gone: nothing to play
                return True
            stream.raise_for_status()
            incoming: queue.Queue[dict[str, Any] | BaseException | None] = queue.Queue()
            threading.Thread(target=read_into, args=(stream, incoming), daemon=True).start()
            while (first := incoming.get()) is not None:
                decision: dict[str, Any] | None = None
                for line in [first, *drained(incoming)]:  # what came meanwhile, in order
                    if isinstance(line, BaseException):
                        raise line  # the stream broke: play() opens it again
                    if line is None:
                        return over
                    over = self.read(line) or over
                    decision = self.due(decision, line)
                if decision is not None and not over:
                    self.decide(decision["phase"])
        return over

    def due(self, decision: dict[str, Any] | None, line: dict[str, Any]) -> dict[str, Any] | None:
        """The ``decision`` to act on once ``line`` is read: ``line`` if it is one (unless
        it is older than the match the bot's last move left: stale), none once a state of
        a later version shows (the room tells a decision again after a state that needs
        one), else ``decision``."""
        if line["type"] == "decision":
            return line if version_of(line) >= self.moved else decision
        state = line.get("state") if line["type"] == "gameState" else None
        later = isinstance(state, dict) and version_of(state) > version_of(decision or {})
        return None if later else decision

    def read(self, line: dict[str, Any]) -> bool:
        """Take in one line of the game's stream: True once it says the match is over."""
        kind = line["type"]
        if kind == "gameFull":
            self.game, self.state = line["game"], line["state"] or {}
            print(f"{self.room}: playing {self.game} in seat {line['seat']}", flush=True)
            return bool(line["phase"] == "over")
        if kind == "gameState":
            self.state = line["state"] or self.state
            self.cards = [(c["x"], c["y"]) for c in self.state.get("table") or []]
            return bool(line["phase"] == "over")
        if kind == "placed":  # a card put down mid-round (no new state follows)
            self.cards.append((line["card"]["x"], line["card"]["y"]))
        elif kind in ("result", "battle"):  # (battle: the laser games' cards all down)
            print(f"{self.room}: over, winner {line['result'].get('winner')}", flush=True)
            return True
        return False

    def decide(self, phase: str) -> None:
        """One decision, by what the view shows."""
        if phase == "plot":
            self.plot()
        elif phase == "activation":
            self.activate()
        elif phase == "preparation":
            self.fleet()
        elif phase in ("fast", "deployment"):
            self.place()
        else:  # the cards froze ("stop"): the card in hand is kept out
            self.move({"type": "discard"})

    # -- the laser games: a card to place --------------------------------------------

    def place(self) -> None:
        """Put the card in hand somewhere on the table at random, again while refused for
        the place (the same refusal twice is not about the place: the round moved on)."""
        width, height = self.state.get("table_size_mm", [1200.0, 800.0])
        sent, last = 0, None
        for _ in range(PLACE_TRIES):
            if sent == PLACES_SENT:
                break  # refused each time
            x = self.rng.uniform(-width / 2 + EDGE_MM, width / 2 - EDGE_MM)
            y = self.rng.uniform(-height / 2 + EDGE_MM, height / 2 - EDGE_MM)
            if any(abs(x - cx) < CARD_MM and abs(y - cy) < CARD_MM for cx, cy in self.cards):
                continue  # on another card: the room would refuse it
            rotation = 15.0 * self.rng.randrange(24)
            card = {"type": "place", "x": round(x, 1), "y": round(y, 1), "rotation": rotation}
            sent += 1
            refusal = self.move(card)
            if refusal is None:
                self.cards.append((x, y))
                return
            if refusal == last:
                break
            last = refusal
        self.move({"type": "discard"})  # nowhere found: it may be past the stop

    def fleet(self) -> None:
        """Stellar Conflict: the race's ships in a random order, each taken while the
        fleet stays within the battle's credits (the catalog says each ship's cost; the
        Cargo and Flag ships, its ``role``, join by themselves); smaller while refused."""
        me = self.state.get("player")
        race = (self.state.get("players", {}).get(me) or {}).get("race")
        races = self.client.get("/api/games/stellar/races").json()
        catalog = self.client.get("/api/games/stellar/catalog").json()
        ships = [
            s for s in races.get(race, {}).get("ships", []) if "role" not in catalog.get(s, {})
        ]
        self.rng.shuffle(ships)
        left: int = self.state.get("credits", 0)
        fleet: list[str] = []
        for ship in ships:
            cost = catalog[ship].get("credits", 0)
            if cost <= left:
                fleet.append(ship)
                left -= cost
        while self.move({"type": "fleet", "ships": fleet}) is not None and fleet:
            fleet.pop()

    # -- Faster Than Light: a secret plot --------------------------------------------

    def plot(self) -> None:
        """An order for each of its pieces on the table: turn, sprint or (a ship) launch."""
        me = self.state.get("player")
        orders = []
        for piece in self.state.get("pieces", []):
            if piece.get("owner") != me or not piece.get("on_table", True):
                continue
            roll = self.rng.random()
            if roll < 0.45:
                orders.append(f"{piece['id']}:R{15 * self.rng.randint(-6, 6):+d}")
            elif roll < 0.9 or piece.get("kind") != "ship" or not piece.get("missiles"):
                orders.append(f"{piece['id']}:S{0.5 * self.rng.randint(2, 8):g}")
            else:
                orders.append(f"{piece['id']}:L")
        if self.move({"type": "plot", "orders": orders}) is not None:
            self.move({"type": "plot", "orders": []})  # refused: no orders, nothing moves

    # -- the hex fleet: its activated ship's next step --------------------------------

    def activate(self) -> None:
        """Move along a reachable path, fire at a ship in reach, or end the activation."""
        ship = (self.state.get("activation") or {}).get("ship")
        reach = self.state.get("reach") or []
        targets = [a["ship"] for a in self.state.get("aim") or [] if a.get("problem") is None]
        choices: list[dict[str, Any]] = []
        if reach and self.rng.random() < 0.7:
            choices.append({"type": "move", "ship": ship, "steps": self.rng.choice(reach)["steps"]})
        if targets:
            choices.append({"type": "fire", "ship": ship, "target": self.rng.choice(targets)})
        choices.append({"type": "done", "ship": ship})  # always allowed: the next ship's turn
        for action in choices:
            if self.move({"type": "act", "action": action}) is None:
                return


def accept_and_play(client: httpx2.Client, seed: int, games: int | None) -> None:
    """Read the event stream: accept each challenge, play each game on a thread of its
    own, stop after ``games`` games are over (``None``: never)."""
    started = finished = 0
    playing: list[threading.Thread] = []
    rooms: set[str] = set()

    def play(room: str) -> None:
        nonlocal started
        if room in rooms:  # (told twice: by the accept's answer and the stream)
            return
        rooms.add(room)
        rng = random.Random(seed * 1_000_003 + started)  # one draw a game, in order
        started += 1
        thread = threading.Thread(target=Game(client, room, rng).play, daemon=True)
        thread.start()
        playing.append(thread)

    with client.stream("GET", "/api/stream/event") as events:
        events.raise_for_status()
        for event in lines(events):
            kind = event["type"]
            if kind == "challenge":
                challenge = event["challenge"]
                answer = client.post(f"/api/challenges/{challenge['id']}/accept")
                print(f"challenge {challenge['id']}: accepted ({answer.status_code})", flush=True)
                if answer.status_code == 200:
                    play(answer.json()["room"])
            elif kind == "gameStart":
                play(event["room"])
            elif kind == "gameFinish":
                finished += 1
                if games is not None and finished >= games:
                    break
    for thread in playing:
        thread.join(timeout=30)


def main(argv: list[str] | None = None) -> int:
    """The bot's command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's URL")
    parser.add_argument("--token", default=os.environ.get("SPACETABLE_TOKEN"), help="spt_...")
    parser.add_argument("--seed", type=int, default=0, help="the seed of its random choices")
    parser.add_argument("--games", type=int, default=None, help="stop after this many games")
    parser.add_argument("--upgrade", action="store_true", help="make it a bot account first")
    parser.add_argument("--verbose", action="store_true", help="print each refused move")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    if not args.token:
        parser.error("give a token: --token spt_... or SPACETABLE_TOKEN")
    headers = {"Authorization": f"Bearer {args.token}"}
    timeout = httpx2.Timeout(30.0, read=None)  # the streams stay open
    with httpx2.Client(base_url=args.server, headers=headers, timeout=timeout) as client:
        me = client.get("/api/bot/account")
        if me.status_code != 200:
            print(f"the token is refused: {me.text}", file=sys.stderr)
            return 1
        print(f"playing as {me.json()['name']}", flush=True)
        if args.upgrade:
            upgraded = client.post("/api/bot/account/upgrade")
            print(f"upgrade: {upgraded.status_code} {upgraded.text}", flush=True)
        accept_and_play(client, args.seed, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
