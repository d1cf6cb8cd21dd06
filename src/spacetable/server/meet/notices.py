"""The notifications (issue 70 item 1; docs/notifications.md): every event a player must
know about becomes a stored notification of his account, sent at once to his open pages
(the lobby socket's ``notification``) and to the devices where he allowed push
(``meet/push.py``).

The events: a round of a tournament of his is paired (``tournament_round``, with his
table or his bye: ``meet/tournaments.py``); a turn of his begins in a correspondence
game (``your_move``, with the hours it waits) or ran out (``ran_out``, with how many
more in a row lose the match), a correspondence match of his is over (``match_over``):
the rooms tell them (``rooms/correspondence.py``'s ``told``); a challenge to him
(``challenge``), his challenge accepted or declined with its reason (``challenge_accepted``,
``challenge_declined``): the challenges' messages tell them (:class:`TellingHub`).

A notification is stored as its kind and values; :func:`words` writes its title and text
in the reader's language when it is read (``GET /api/notifications``), pushed (the
language of the page that subscribed) or sent to a page (as a phrase the page writes in
its own). Storing runs on :data:`STORE_THREADS` threads of its own: the rooms never wait
on the database for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from typing import Any

from spacetable.i18n import ENGLISH, Translator, translator
from spacetable.i18n.phrase import Phrase, Value, phrase, phrase_n
from spacetable.registry import UnknownGame, game_for_ruleset
from spacetable.server.meet.hub import PlayerHub
from spacetable.server.meet.lobby_sockets import LobbyHub
from spacetable.server.meet.push import PushSender
from spacetable.server.protocol.lobby_messages import Challenge, ChallengeClosed
from spacetable.server.protocol.notice_messages import Notification
from spacetable.server.store.meetings import MeetingStore
from spacetable.server.store.notifications import Notice, NotificationStore

log = logging.getLogger(__name__)

#: The threads that store notifications.
STORE_THREADS = 2
#: What a declined challenge's reason says (the words the challenge toast shows).
DECLINED: dict[str, str] = {
    "generic": "I am not taking challenges just now.",
    "later": "This is not the right time for me: ask me again later.",
    "too_fast": "This is too fast for me: challenge me to a slower game.",
    "too_slow": "This is too slow for me: challenge me to a faster game.",
    "rated": "Send me a rated challenge instead.",
    "casual": "Send me a casual challenge instead.",
    "game": "I am not taking challenges to this game just now.",
}


def _game(params: dict[str, Any]) -> Value:
    """The game of a notification, by its title (translated where the catalogs have it)."""
    ruleset = str(params.get("ruleset") or params.get("game") or "")
    try:
        return Phrase(game_for_ruleset(ruleset).rules.title)
    except UnknownGame:
        return ruleset


def words(kind: str, params: dict[str, Any]) -> tuple[Phrase, Phrase]:
    """The title and the text of a notification of ``kind`` with ``params``."""
    game = _game(params)
    if kind == "your_move":
        hours = int(params.get("hours") or 0)
        return phrase("Your move"), phrase_n(
            "{game}: your move, {n} hour left.",
            "{game}: your move, {n} hours left.",
            hours,
            game=game,
        )
    if kind == "ran_out":
        left = int(params.get("left") or 0)
        turn = params.get("turn")
        title = phrase("A turn ran out")
        if left <= 0:
            return title, phrase("{game}: your turn ran out: the match is lost.", game=game)
        if isinstance(turn, int):
            return title, phrase_n(
                "{game}: your turn {turn} ran out: {n} more in a row loses the match.",
                "{game}: your turn {turn} ran out: {n} more in a row lose the match.",
                left,
                game=game,
                turn=turn,
            )
        return title, phrase_n(
            "{game}: your turn ran out: {n} more in a row loses the match.",
            "{game}: your turn ran out: {n} more in a row lose the match.",
            left,
            game=game,
        )
    if kind == "match_over":
        outcome = params.get("outcome")
        title = phrase("Match over")
        if outcome == "won":
            return title, phrase("{game}: the match is over: you won.", game=game)
        if outcome == "lost":
            return title, phrase("{game}: the match is over: you lost.", game=game)
        return title, phrase("{game}: the match is over: a draw.", game=game)
    name = str(params.get("name") or "")
    if kind == "challenge":
        return phrase("A challenge"), phrase(
            "{name} challenges you to a game of {game}.", name=name, game=game
        )
    if kind == "challenge_accepted":
        return phrase("Challenge accepted"), phrase(
            "{name} accepted your challenge to a game of {game}.", name=name, game=game
        )
    if kind == "challenge_declined":
        reason = DECLINED.get(str(params.get("reason")), DECLINED["generic"])
        return phrase("Challenge declined"), phrase(
            "{name} declined your challenge to a game of {game}: “{reason}”",
            name=name,
            game=game,
            reason=Phrase(reason),
        )
    if kind == "tournament_round":
        return _tournament_round(params)
    return phrase("Notification"), phrase("Something happened.")


def _tournament_round(params: dict[str, Any]) -> tuple[Phrase, Phrase]:
    """A round of a tournament of the player's was paired: his table, or his bye."""
    tournament = str(params.get("tournament") or "")
    round_ = int(params.get("round") or 0)
    title = phrase("A tournament round")
    if params.get("bye"):
        return title, phrase(
            "{tournament}: round {round} is paired: you have a bye.",
            tournament=tournament,
            round=round_,
        )
    return title, phrase(
        "{tournament}: round {round} is paired: you play at table {table}.",
        tournament=tournament,
        round=round_,
        table=int(params.get("table") or 0),
    )


def item(notice: Notice, tr: Translator = ENGLISH) -> dict[str, Any]:
    """A notification as ``GET /api/notifications`` lists it, in ``tr``'s language."""
    _, text = words(notice.kind, notice.params)
    return {
        "id": notice.id,
        "kind": notice.kind,
        "text": text.text(tr),
        "url": notice.url,
        "at": notice.at,
        "read": notice.read,
    }


def payload(notice: Notice, tr: Translator = ENGLISH) -> dict[str, Any]:
    """A notification as a push carries it (docs/notifications.md): ``kind``, ``title``,
    ``body``, ``url``, ``tag``."""
    title, text = words(notice.kind, notice.params)
    return {
        "kind": notice.kind,
        "title": title.text(tr),
        "body": text.text(tr),
        "url": notice.url,
        "tag": notice.tag,
    }


def _room_link(params: dict[str, Any]) -> tuple[str, str]:
    room = str(params.get("room") or "")
    return f"/rooms/{room}", f"room-{room}"


class Notices:
    """Stores the accounts' notifications in ``store`` and tells them: to their pages
    through ``hub`` (given at the application's start), to their devices through
    ``push`` (``None``: the server sends no push)."""

    def __init__(self, store: NotificationStore, push: PushSender | None = None) -> None:
        self.store = store
        self.push = push
        self.hub: PlayerHub | None = None
        self._threads = concurrent.futures.ThreadPoolExecutor(
            STORE_THREADS, thread_name_prefix="notices"
        )
        self._pending: set[asyncio.Future[Any]] = set()

    def told(self, account: str, kind: str, params: dict[str, Any]) -> None:
        """A correspondence room's news for ``account`` (``rooms/correspondence.py``'s
        ``Told``): a notification linking to the room, newer ones of the room replacing
        it on a device. Never waits."""
        url, tag = _room_link(params)
        self.tell(account, kind, params, url, tag)

    def tell(self, account: str, kind: str, params: dict[str, Any], url: str, tag: str) -> None:
        """Store a notification of ``kind`` for ``account`` and tell it (from the event
        loop; it never waits: the store's thread, then the hub and the push)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: a room driven by hand in a test
        future = asyncio.ensure_future(self._tell(loop, account, kind, params, url, tag))
        self._pending.add(future)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future[Any]) -> None:
        self._pending.discard(future)
        if not future.cancelled() and (error := future.exception()) is not None:
            log.error("a notification could not be stored", exc_info=error)

    async def _tell(
        self,
        loop: asyncio.AbstractEventLoop,
        account: str,
        kind: str,
        params: dict[str, Any],
        url: str,
        tag: str,
    ) -> None:
        notice = await loop.run_in_executor(
            self._threads, self.store.add, account, kind, params, url, tag
        )
        if notice is None:
            return  # no such account (any more)
        _, text = words(kind, params)
        if self.hub is not None:
            message = Notification(notice.id, kind, text.text(), text.to_json(), url, notice.at)
            await self.hub.send(account, message)
        if self.push is not None:
            self.push.push(account, lambda lang: payload(notice, translator(lang)), kind)

    async def settled(self) -> None:
        """Wait for the notifications under way (tests, and the server's stop)."""
        while self._pending:
            await asyncio.wait(set(self._pending))

    async def close(self) -> None:
        """Finish storing what is under way, then stop the threads."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=10)
        self._threads.shutdown(wait=False, cancel_futures=True)


class TellingHub(LobbyHub):
    """The lobby hub (``meet/lobby_sockets.py``), which also turns the challenges'
    messages into notifications (``meet/challenges.py`` sends them): ``challenge`` to the
    challenged player, ``challenge_closed`` accepted or declined to the challenger (whose
    challenge is read from :attr:`meetings` for the other's name and the game)."""

    #: Where the notifications go (given by the application; none: only the messages).
    notices: Notices | None = None
    #: The challenges, read for a closed one's players.
    meetings: MeetingStore | None = None

    async def send(self, key: str, message: object) -> None:
        """Send ``message`` to the player ``key``; a challenge's news is also stored."""
        await super().send(key, message)
        notices = self.notices
        if notices is None:
            return
        if isinstance(message, Challenge):
            view: dict[str, Any] = dict(message.challenge)
            params = {"name": view.get("from"), "ruleset": view.get("game"), "id": view.get("id")}
            notices.tell(key, "challenge", params, "/", f"challenge-{view.get('id')}")
        elif isinstance(message, ChallengeClosed) and message.status in ("accepted", "declined"):
            await self._closed(notices, key, message)

    async def _closed(self, notices: Notices, key: str, message: ChallengeClosed) -> None:
        if self.meetings is None:
            return
        challenge = await asyncio.to_thread(self.meetings.challenge, message.id)
        if challenge is None or challenge.from_key != key:
            return  # the challenged player's copy: he answered it himself
        params: dict[str, Any] = {"name": challenge.to_name, "ruleset": challenge.game}
        if message.status == "accepted":
            room = message.room or challenge.room or ""
            params["room"] = room
            notices.tell(key, "challenge_accepted", params, f"/rooms/{room}", f"room-{room}")
        else:
            params["reason"] = message.reason or "generic"
            notices.tell(key, "challenge_declined", params, "/", f"challenge-{message.id}")
