"""What docs/protocol.md says of each message a page sends: the fields, when it may be
sent and what it does, by ``type`` (the page's table is generated from these and the models
of :mod:`~spacetable.server.protocol.client_messages`: ``spacetable protocol docs``). A
client message the server accepts with no entry here, or a field of its model that its
entry does not document (in the model's order), fails tests/server/protocol."""

from __future__ import annotations

from typing import NamedTuple


class ClientDoc(NamedTuple):
    """One client message in words: its ``fields`` (each field's words, by its name, in
    the model's order; none for a message of no field), ``when`` it may be sent, its
    ``effect``."""

    fields: dict[str, str]
    when: str
    effect: str

    def said(self) -> str:
        """The fields in words, as the page's table says them: each name (its words)."""
        return ", ".join(f"`{name}` ({words})" for name, words in self.fields.items())


#: Each client message's words, by type, the games' own (``fleet``, ``race``) included.
CLIENT_DOCS: dict[str, ClientDoc] = {
    "join": ClientDoc(
        (
            {
                "name": "the name to sit under (a socket with a session cookie: its account's)",
                "seat": "the seat asked for; null: the first free",
                "tab": "optional: an id the page keeps while its tab lives",
            }
        ),
        "lobby",
        (
            "take a seat; answered by `welcome` with your seat and `token`. Two players may"
            " ask for one name: the second gets `name (2)`, which `welcome.player` tells. A"
            " socket opened with a session cookie sits under its account's name (`name` is "
            "not used), and takes back the seat its account already holds in the room "
            "instead of a second one; a guest who asks for a registered player's name sits "
            "as `name (guest)`"
        ),
    ),
    "rejoin": ClientDoc(
        {
            "token": "the seat's token, as `welcome` gave it",
            "tab": "optional, as in `join`",
        },
        "any time",
        (
            "take back the seat the token holds (reload, lost connection), from the bot "
            "standing in for you too, while the match it plays runs or after it. When "
            "another tab (a connection that named another `tab`) holds the seat, this "
            "connection watches instead: `welcome` as a spectator with `elsewhere`"
        ),
    ),
    "watch": ClientDoc(
        {},
        "any time",
        (
            "watch as a spectator; a seated player leaves his seat as if his socket had "
            "closed (the abandon timer starts)"
        ),
    ),
    "leave": ClientDoc(
        {},
        "seated",
        (
            "give the seat up: it is freed in the lobby; in a match a bot stands in "
            "(`stand_in`) and the token takes the seat back with `rejoin`"
        ),
    ),
    "bot": ClientDoc(
        (
            {
                "seat": "the empty seat to fill",
                "level": (
                    "the game's `bot_levels` (laser games `beginner`, `random`, `easy`, "
                    "`medium`, `hard`; Faster Than Light `random`, `greedy`, `easy`, `medium`, "
                    "`hard`); null: the game's default"
                ),
            }
        ),
        "lobby, the host",
        (
            "put a bot in an empty seat; an unknown level gets an `error` naming the "
            "levels, anyone but the host one saying only the host seats bots (a guest would"
            " fill the seat kept for a friend)"
        ),
    ),
    "ready": ClientDoc(
        {
            "ready": "bool: ready, or no longer",
        },
        "lobby, seated",
        "the match starts when every seat is taken and every human is ready",
    ),
    "fleet": ClientDoc(
        {
            "ships": "up to 40 ship keys of your race, without the Cargo and Flag ships",
        },
        "Stellar Conflict, preparation",
        (
            "choose your fleet, at most the battle's credits; final once accepted "
            "(everyone's next `state` shows you have chosen, never what). Refused "
            "(`refused`, `action` `fleet`) over budget, with another race's ship, twice, or"
            " after the preparation"
        ),
    ),
    "pose": ClientDoc(
        {
            "x": "the card's centre, mm",
            "y": "the card's centre, mm",
            "rotation": "degrees",
        },
        "fast round / deployment",
        (
            "where your card in hand is now; send about 10 per second (a browser's page "
            "does, and glides the others' hands between their poses), on the room's pose "
            "pulse when you know it (see `poses`)"
        ),
    ),
    "place": ClientDoc(
        {
            "x": "where it lands, mm",
            "y": "where it lands, mm",
            "rotation": "degrees",
        },
        "fast round / deployment",
        ("put your card in hand on the table; answered by `placed` (to all) or `refused` (to you)"),
    ),
    "drop": ClientDoc(
        {
            "x": "where it falls, mm",
            "y": "where it falls, mm",
            "rotation": "degrees",
        },
        "after stop or the countdown",
        "let your frozen card fall there",
    ),
    "discard": ClientDoc(
        {},
        "after stop or the countdown",
        "keep your frozen card out of the game",
    ),
    "plot": ClientDoc(
        (
            {
                "orders": (
                    'up to 64 `"piece:order"` texts, the order as the rulebook writes it '
                    '(`"red:R+45"`, `"red:R–45"`, `"red-m1:S2.5"`, `"red:L"`)'  # noqa: RUF001 (the rulebook writes an en dash)
                ),
            }
        ),
        "Faster Than Light, your ship in play, before the turn resolves",
        (
            "your secret orders for this turn; replaces a plot you sent. A second order for"
            " one piece is kept and ignored when the turn resolves (ruling F3). Refused "
            "(`refused`, `action` `plot`) naming the piece and the order: a malformed or "
            "illegal order, another player's piece, a piece not on the table"
        ),
    ),
    "draft": ClientDoc(
        {
            "orders": "as in `plot`",
        },
        "Faster Than Light, your ship in play, before the turn resolves",
        (
            "the plot you are writing, not sent: the client sends it whenever it changes. "
            "Kept secret (never in any message) and never stored; if the plot timer runs "
            "out before you `plot`, the last draft holding orders is plotted for you at the"
            " deadline (a `plot` action in the match's log, so it replays). Refused like a "
            "`plot` (`refused`, `action` `draft`), keeping the draft before"
        ),
    ),
    "unplot": ClientDoc(
        {},
        "Faster Than Light, after your `plot`, before the last one is in",
        "take your plot back",
    ),
    "act": ClientDoc(
        (
            {
                "action": (
                    "one action of a game played a move at a time, its JSON without `player` "
                    'and `t` (the server adds them). Hex fleet: `{"type": "move", "ship", '
                    '"steps"}` (`F` a hex ahead, `L` / `R` a turn of one side), `{"type": '
                    '"shields", "ship"}`, `{"type": "hail", "ship", "target"}`, `{"type": '
                    '"fire", "ship", "target"}`, `{"type": "jump", "ship", "returns_on"}` (a '
                    'later turn, or 0 to leave the battle), `{"type": "return", "ship", "q", '
                    '"r", "facing"}`, `{"type": "done", "ship"}`, `{"type": "undo", "ship"}` '
                    "(take back the last move: only inside the open activation, until a card is "
                    "turned; docs/rulings.md H14)"
                ),
            }
        ),
        "hex fleet, your ship activated",
        (
            "one action; answered by `acted` (to all) or `refused` (to you, `action` `act`,"
            " naming the problem: not your ship, not the active one, out of range or arc, "
            "too many steps, a second salvo this activation, an unknown type or a missing "
            "field). Up to 12 fields"
        ),
    ),
    "rematch": ClientDoc(
        {},
        "match over, seated",
        (
            "ask for a rematch, or accept one: the others see your seat's `rematch` in the "
            "next `room`; a new match with the same seats starts once every human has asked"
        ),
    ),
    "decline_rematch": ClientDoc(
        {},
        "match over, seated, another player asked",
        (
            "turn the rematch down: every ask is forgotten and everyone gets "
            "`rematch_declined`. Refused (`error`) for a spectator, or when nobody else "
            "asked"
        ),
    ),
    "free_seat": ClientDoc(
        {
            "seat": "the bot's seat to free",
        },
        "lobby, the host",
        (
            "take the bot out of `seat` so that a person can sit there. Refused (`error`, "
            "naming why) for anyone but the host, a seat that is not a bot's, after the "
            "match started"
        ),
    ),
    "race": ClientDoc(
        {
            "race": "`wiss`, `vak`, `hexai`, `tetrakori`",
        },
        "Stellar Conflict, lobby, seated",
        (
            "play that race in your own seat (the room's creator only made the first choice"
            " of every seat): the room's `options.races` change for everyone in the next "
            "`room`. Refused (`error`, naming why): another game, a spectator, after the "
            "match started, an unknown race, a race another seat plays"
        ),
    ),
    "resign": ClientDoc(
        {},
        "seated, in a match",
        (
            "resign. Two seats: the match ends, the other wins (`result` with `ending` "
            "`resigned`). Three or four: a bot plays the seat on to the end (rulings M2), "
            "everyone is told (`resigned`), you watch. Refused (`error`) to a spectator "
            '("spectators cannot resign: take a seat first") and outside a match'
        ),
    ),
    "forsake": ClientDoc(
        {},
        "a socket opened with a session cookie",
        (
            "the account leaves the room for good, as a deleted account does (sent by a "
            "cluster's process deleting the account to the room's owner, docs/accounts.md):"
            " the match being played is resigned (as `resign`), every seat of the account "
            "is freed (nobody takes it back, neither by token nor by account; a match over "
            "offers no rematch), the socket watches as a guest's; answered `forsaken` "
            "(`resigned`: the matches resigned) once stored. Refused (`error`) without a "
            "session"
        ),
    ),
    "offer_draw": ClientDoc(
        {},
        "seated, in a match",
        (
            "offer a draw. Each bot answers at once by rulings M3 (`draw_declined` with "
            "`bot` true); then every other human gets `draw_offer`. With nobody left to "
            "ask, the match ends drawn (`ending` `agreed_draw`). One offer at a time; after"
            " a decline, not again before the next action of the match"
        ),
    ),
    "answer_draw": ClientDoc(
        {
            "accept": "bool: accept, or decline",
        },
        "seated, a draw offered by another",
        (
            "accept (the match ends drawn once every other human has) or decline "
            "(`draw_declined` to all)"
        ),
    ),
    "absence": ClientDoc(
        {
            "seat": "the absent player's seat",
            "choice": "`wait`, `bot`, `claim`",
        },
        "seated, another seat's player away past `--grace-seconds`",
        (
            "what to do about him: `wait` (no bot takes his seat by itself), `bot` (a bot "
            "stands in until he is back), `claim` the win (two seats only; `ending` "
            "`claimed`). Refused naming why: your own seat, a seat whose player is not "
            'away, the grace not over ("wait N s more")'
        ),
    ),
    "ping": ClientDoc(
        {},
        "any time",
        "answered by `pong`",
    ),
    "watch_online": ClientDoc(
        {},
        "on the lobby socket (`/ws/lobby`), any time",
        "answered by `online`, then `online` again whenever who is online changes",
    ),
    "resync": ClientDoc(
        {},
        "any time, on a socket opened with `?patches=1`",
        (
            "send me the whole `state` again (a `state_patch` did not start from mine: see "
            "Sending what changed); nothing outside a match"
        ),
    ),
    "chat": ClientDoc(
        {
            "text": "at most 200 characters after trimming, never empty; or null, with `quick`",
            "quick": (
                "a quick message's id (`gg`, `wp`, `oops`, `thinking`, `rematch`); or null, "
                "with `text` (exactly one of the two)"
            ),
            "channel": (
                "`players` or `spectators`; null: `players` for a player, `spectators` for a "
                "spectator"
            ),
        },
        "any time",
        "say it in the room's chat (see Chat); refusals are `error`s starting with `chat:`",
    ),
    "open_chat": ClientDoc(
        {
            "open": "bool: open, or close",
        },
        "seated",
        "read (and write in) the spectators' chat for your seat, or close it (see Chat); "
        "answered by `chat_history`",
    ),
}
