// /tournaments and /tournaments/{id} (issue 71 item 4). The list: running, upcoming and
// finished tournaments, and for a logged-in player the form that makes one (he directs
// it). A tournament's page: its standings with Buchholz and Sonneborn-Berger (a player's
// opponents round by round on demand), its pairings by round with their rooms and
// results, Join/Withdraw, and the director's Start and Pair the next round. The page asks
// the server again every 15 s while it is open (GET /api/tournaments/{id}).

import { t, tn } from "../shell/i18n.js";
import { $, clear, el, fetchJSON, postJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";
import { account } from "../shell/account.js";
import { gameList } from "../games/index.js";
import { showCrosstable, showDirector } from "./tournament_director.js";

/** The games' titles by key (the keys stand in until they come). */
let titles = new Map();
/** The games whose tables the photo referee reads (a table's page offers a photo). */
let photoGames = new Set();

const STATUS = () => ({ upcoming: t("upcoming"), running: t("running"), finished: t("finished") });

function facts(tour) {
  const game = titles.get(tour.game) || tour.game;
  const venue = tour.venue === "board" ? t("over the board") : t("online");
  const round = tour.status === "upcoming"
    ? t("{rounds} rounds", { rounds: tour.rounds })
    : t("round {round} of {rounds}", { round: tour.round, rounds: tour.rounds });
  const starts = new Date(tour.starts_at * 1000).toLocaleString(document.documentElement.lang || undefined);
  return [game, venue, round, STATUS()[tour.status], t("directed by {name}", { name: tour.director }), starts].join(" · ");
}

async function showList() {
  const lists = await fetchJSON("/api/tournaments");
  for (const status of ["running", "upcoming", "finished"]) {
    const list = clear($(`#${status}`));
    for (const tour of lists[status]) {
      const link = el("a", { href: `/tournaments/${encodeURIComponent(tour.id)}`, text: tour.name });
      link.setAttribute("translate", "no");
      list.append(el("li", {}, link, el("div", { class: "muted", text: facts(tour) })));
    }
    if (!lists[status].length) list.append(el("li", { class: "muted", text: t("none") }));
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const body = {
    name: form.name.value,
    game: form.game.value,
    seats: Number(form.seats.value),
    rounds: Number(form.rounds.value),
    venue: form.venue.value,
    rated: form.rated.checked,
    turn_hours: form.pace.value ? Number(form.pace.value) : null,
  };
  if (form.starts.value) body.starts_at = new Date(form.starts.value).getTime() / 1000;
  try {
    const made = await postJSON("/api/tournaments", body);
    location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
  } catch (error) {
    showError($("#tournaments-error"), errorText(error));
  }
}

async function listPage() {
  if (account) {
    const select = $("#t-game");
    for (const [key, title] of titles) select.append(el("option", { value: key, text: title }));
    $("#create-form").hidden = false;
    $("#create-form").addEventListener("submit", create);
  } else {
    $("#create-login").hidden = false;
  }
  await showList();
}

const points = (value) => (Math.round(value * 100) / 100).toString();

/** One round of a player's tie-breaks in words. */
function partText(part) {
  return t("round {round}: {opponents} ({score}), {points} points; Buchholz {buchholz}, Sonneborn-Berger {sb}", {
    round: part.round,
    opponents: part.opponents.length ? part.opponents.join(", ") : t("bye"),
    score: points(part.opponent_score),
    points: points(part.points),
    buchholz: points(part.buchholz),
    sb: points(part.sonneborn_berger),
  });
}

/** A player's line and, on demand, his opponents round by round (`parts`). */
function standingRows(player) {
  const who = el("button", { type: "button", class: "link", "aria-expanded": "false", text: player.name });
  who.setAttribute("translate", "no");
  const cells = [String(player.rank), null, points(player.score),
    points(player.tiebreaks.buchholz), points(player.tiebreaks.sonneborn_berger)];
  const row = el("tr", { dataset: { name: player.name } },
    el("td", { class: "num", text: cells[0] }),
    el("td", {}, who, player.withdrawn ? el("span", { class: "muted", text: ` (${t("withdrawn")})` }) : ""),
    ...cells.slice(2).map((text) => el("td", { class: "num", text })));
  const parts = el("tr", { class: "parts", hidden: true },
    el("td", { colspan: "5", text: (player.parts || []).map(partText).join("; ") || t("no games yet") }));
  parts.hidden = true;
  who.addEventListener("click", () => {
    parts.hidden = !parts.hidden;
    who.setAttribute("aria-expanded", String(!parts.hidden));
  });
  return [row, parts];
}

function tablePath(id, round, table) {
  return `/tournaments/${encodeURIComponent(id)}/tables/${round}/${table}`;
}

/** The players of a table who did not report its result (who accept it). */
function othersOf(pairing) {
  const by = (pairing.report && pairing.report.by || "").toLowerCase();
  return pairing.seats.filter((name) => name.toLowerCase() !== by).join(", ");
}

function result(pairing) {
  if (pairing.bye) return t("bye");
  if (pairing.result == null && pairing.report && pairing.report.disputed_by) {
    return t("disputed: for the director");
  }
  if (pairing.result == null && pairing.report && pairing.report.photo) {
    return t("{result} from {by}'s photo, waiting for {name} to accept it", {
      result: pairing.report.result, by: pairing.report.by, name: othersOf(pairing) });
  }
  if (pairing.result == null && pairing.report) return t("reported, to confirm");
  if (pairing.result == null) return t("playing");
  const shown = Array.isArray(pairing.result) ? pairing.result.join(" / ") : String(pairing.result);
  const forfeit = pairing.source === "forfeit" || pairing.source === "absent";
  return forfeit ? t("{result} by forfeit", { result: shown }) : shown;
}

/** A table's photo (a thumbnail, linked to the whole photo) and the battle the referee
 * resolved from it; for a player of the table who did not report it, Accept and Dispute. */
function photoOf(tour, pairing) {
  const report = pairing.report;
  if (!report || !report.photo) return "";
  const image = el("img", { src: report.photo, alt: t("The photo of the table"), loading: "lazy" });
  const box = el("div", { class: "pairing-photo" },
    el("a", { href: report.photo, target: "_blank", class: "photo-thumb" }, image),
    el("a", { href: report.battle, target: "_blank", class: "battle-link", text: t("the battle") }));
  const seated = account && pairing.seats.some((name) => name.toLowerCase() === account.toLowerCase());
  const mine = account && report.by.toLowerCase() === account.toLowerCase();
  if (pairing.result == null && seated && !mine && !report.disputed_by) {
    const path = `/api/tournaments/${encodeURIComponent(tour.id)}/tables/${pairing.round}/${pairing.table}`;
    const step = (name) => async (event) => {
      event.target.disabled = true;
      try {
        await postJSON(`${path}/${name}`, {});
        $("#tournament-error").hidden = true;
        await showTournament(tour.id);
      } catch (error) {
        showError($("#tournament-error"), errorText(error));
        event.target.disabled = false;
      }
    };
    box.append(el("span", { class: "tournament-actions" },
      el("button", { type: "button", class: "accept", text: t("Accept"), on: { click: step("confirm") } }),
      el("button", { type: "button", class: "secondary dispute", text: t("Dispute it"), on: { click: step("dispute") } })));
  }
  return box;
}

/** Each over-the-board table's code, by "round/table" (the director's, for printing). */
let codes = new Map();

function pairingsOf(tour) {
  const box = clear($("#pairings"));
  const rounds = [...new Set(tour.pairings.map((pairing) => pairing.round))].sort((a, b) => b - a);
  for (const round of rounds) {
    const body = el("tbody");
    for (const pairing of tour.pairings.filter((p) => p.round === round)) {
      const seats = el("td", { text: pairing.seats.join(" – ") });
      seats.setAttribute("translate", "no");
      const room = pairing.room
        ? el("a", { href: `/rooms/${encodeURIComponent(pairing.room)}`, text: t("room") })
        : tour.venue === "board" && !pairing.bye
          ? el("a", { href: tablePath(tour.id, pairing.round, pairing.table), class: "table-link", text: t("table's page") })
          : "";
      const code = codes.get(`${pairing.round}/${pairing.table}`);
      const coded = code ? t("code {code}", { code }) : "";
      body.append(el("tr", { dataset: { table: String(pairing.table) } },
        el("td", { text: String(pairing.table) }), seats, el("td", { text: result(pairing) }),
        el("td", {}, room, coded ? el("span", { class: "table-code", text: coded }) : "", photoOf(tour, pairing))));
    }
    box.append(el("h3", { text: t("Round {round}", { round }) }),
      el("div", { class: "table-scroll" }, el("table", { class: "pairings", dataset: { round: String(round) } },
        el("thead", {}, el("tr", {}, el("th", { text: t("Table") }), el("th", { text: t("Players") }),
          el("th", { text: t("Result") }), el("th"))), body)));
  }
  $("#no-pairings").hidden = rounds.length > 0;
}

async function showTournament(id) {
  const tour = await fetchJSON(`/api/tournaments/${encodeURIComponent(id)}`);
  $("#tournament-name").textContent = tour.name;
  $("#tournament-facts").textContent = facts(tour);
  const body = clear($("#standings tbody"));
  for (const player of tour.players) body.append(...standingRows(player));
  $("#no-players").hidden = tour.players.length > 0;
  const director = account && tour.director.toLowerCase() === account.toLowerCase();
  if (director && tour.venue === "board" && tour.pairings.length) {
    const listed = await fetchJSON(`/api/tournaments/${encodeURIComponent(id)}/codes`);
    codes = new Map(listed.tables.map((entry) => [`${entry.round}/${entry.table}`, entry.code]));
  }
  pairingsOf(tour);
  const me = account && tour.players.find((p) => p.name.toLowerCase() === account.toLowerCase());
  $("#print").hidden = !director || tour.venue !== "board";
  $("#join").hidden = !account || Boolean(me && !me.withdrawn) || tour.status === "finished";
  $("#withdraw").hidden = !me || me.withdrawn || tour.status === "finished";
  $("#start").hidden = !director || tour.status !== "upcoming";
  $("#pair").hidden = !director || tour.status !== "running" || tour.round >= tour.rounds;
  showCrosstable(tour);
  showDirector(tour, director, () => showTournament(id));
}

function action(id, button, path, question = null) {
  $(button).addEventListener("click", async () => {
    if (question && !window.confirm(question())) return;
    $(button).disabled = true;
    try {
      await postJSON(`/api/tournaments/${encodeURIComponent(id)}/${path}`, {});
      $("#tournament-error").hidden = true;
      await showTournament(id);
    } catch (error) {
      showError($("#tournament-error"), errorText(error));
    } finally {
      $(button).disabled = false;
    }
  });
}

async function tournamentPage(id) {
  const asks = {
    "#start": () => t("Start the tournament? Round 1 is paired at once; nobody may join after half the rounds."),
    "#pair": () => t("Pair the next round now?"),
  };
  for (const [button, path] of [["#join", "join"], ["#withdraw", "withdraw"], ["#start", "start"], ["#pair", "pair"]]) {
    action(id, button, path, asks[button]);
  }
  $("#print").addEventListener("click", () => window.print());
  await showTournament(id);
  setInterval(() => {
    if (!document.hidden) showTournament(id).catch(() => {});
  }, 15000);
}

/** The results a table of two may report, with the players' names. */
function resultChoices(seats) {
  if (seats.length !== 2) return [];
  return [
    ["1-0", t("{name} won", { name: seats[0] })],
    ["0-1", t("{name} won", { name: seats[1] })],
    ["1/2-1/2", t("a draw")],
  ];
}

async function showTable(id, round, number) {
  const tour = await fetchJSON(`/api/tournaments/${encodeURIComponent(id)}`);
  const pairing = tour.pairings.find((p) => p.round === round && p.table === number);
  $("#table-heading").textContent = t("{name}: round {round}, table {table}", { name: tour.name, round, table: number });
  $("#table-back").href = `/tournaments/${encodeURIComponent(id)}`;
  if (!pairing) throw new Error(t("round {round} has no table {table}", { round, table: number }));
  $("#table-players").textContent = pairing.seats.join(" – ");
  const select = $("#table-result");
  if (!select.options.length) {
    for (const [value, words] of resultChoices(pairing.seats)) select.append(el("option", { value, text: words }));
  }
  const report = pairing.report;
  const mine = account && pairing.seats.some((name) => name.toLowerCase() === account.toLowerCase());
  let state = t("No result yet.");
  if (pairing.result != null) state = t("Result recorded: {result}", { result: result(pairing) });
  else if (report && report.disputed_by) state = t("{name} disputes the result {by} reported: the director settles it.", { name: report.disputed_by, by: report.by });
  else if (report && report.photo) state = t("{by} reported {result} from a photo: waiting for {name} to accept it.", { by: report.by, result: report.result, name: othersOf(pairing) });
  else if (report) state = t("{by} reported: {result}. The other player confirms it.", { by: report.by, result: Array.isArray(report.result) ? report.result.join(" / ") : String(report.result) });
  $("#table-state").textContent = state;
  showTablePhoto(report);
  const open = pairing.result == null && mine;
  const reportedByMe = report && account && report.by.toLowerCase() === account.toLowerCase();
  $("#report-form").hidden = !open || Boolean(report && !reportedByMe) || pairing.seats.length !== 2;
  $("#confirm-box").hidden = !open || !report || reportedByMe || Boolean(report.disputed_by);
  // A photo's report is accepted without the code: the player is logged in at the table.
  const byPhoto = Boolean(report && report.photo);
  $("#confirm").textContent = byPhoto ? t("Accept") : t("Confirm");
  $("#photo-box").hidden = !open || Boolean(report && !reportedByMe) || !photoGames.has(tour.game);
  $("#code-box").hidden = $("#report-form").hidden && ($("#confirm-box").hidden || byPhoto);
  $("#code-heading").hidden = $("#photo-box").hidden || $("#report-form").hidden;
  $("#photo-heading").textContent = byPhoto ? t("Send another photo") : t("Settle it from a photo");
  // The photo's colours take the seats in the printed decks' order (http/tournament_photo.py).
  const colours = [t("red"), t("blue"), t("green"), t("purple")];
  const seated = pairing.seats.map((name, i) => t("{name}: {colour}", { name, colour: colours[i] }));
  $("#photo-colours").textContent = t("Colours on the photo: {seats}.", { seats: seated.join(" · ") });
}

/** The table's photo and its battle, once a photo reported the result. */
function showTablePhoto(report) {
  const shown = Boolean(report && report.photo);
  $("#photo-shown").hidden = !shown;
  if (!shown) return;
  if ($("#photo-link").getAttribute("href") !== report.photo) {
    // (Each photo's address is its own: a new photo, a new address.)
    $("#photo-link").href = report.photo;
    $("#photo-thumb").src = report.photo;
    $("#battle-link").href = report.battle;
  }
  $("#photo-calls").textContent = report.close_calls
    ? tn("{n} close call: check it by eye", "{n} close calls: check them by eye", report.close_calls, { n: report.close_calls })
    : "";
}

/** A photo's type as sent (a phone may give none): JPEG unless PNG or WebP. */
function photoType(file) {
  return ["image/jpeg", "image/png", "image/webp"].includes(file.type) ? file.type : "image/jpeg";
}

/** Send the chosen photo: the referee reads it and the table's report follows. */
async function sendPhoto(path, file, done) {
  $("#photo-busy").hidden = false;
  $("#photo-box").setAttribute("aria-busy", "true");
  try {
    await fetchJSON(`${path}/photo`, { method: "POST", headers: { "Content-Type": photoType(file) }, body: file });
    $("#table-error").hidden = true;
    await done();
  } catch (error) {
    showError($("#table-error"), errorText(error));
  } finally {
    $("#photo-busy").hidden = true;
    $("#photo-box").removeAttribute("aria-busy");
  }
}

async function tablePage(id, round, number) {
  const path = `/api/tournaments/${encodeURIComponent(id)}/tables/${round}/${number}`;
  const run = (step, body) => async () => {
    try {
      await postJSON(`${path}/${step}`, body());
      $("#table-error").hidden = true;
      await showTable(id, round, number);
    } catch (error) {
      showError($("#table-error"), errorText(error));
    }
  };
  const code = () => $("#table-code").value.trim();
  $("#report-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run("report", () => ({ code: code(), result: $("#table-result").value }))();
  });
  $("#confirm").addEventListener("click", run("confirm", () => ({ code: code() })));
  $("#photo-file").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    event.target.value = "";
    if (file) await sendPhoto(path, file, () => showTable(id, round, number));
  });
  $("#dispute").addEventListener("click", run("dispute", () => ({ code: code() })));
  await showTable(id, round, number);
  setInterval(() => {
    if (!document.hidden) showTable(id, round, number).catch(() => {});
  }, 15000);
}

async function main() {
  try {
    const listed = await gameList();
    titles = new Map(listed.map((game) => [game.key, game.title]));
    photoGames = new Set(listed.filter((game) => game.photos).map((game) => game.key));
  } catch {
    // The keys stand for the titles.
  }
  const [, , id, tables, round, table] = location.pathname.split("/");
  try {
    if (tables === "tables") await tablePage(decodeURIComponent(id), Number(round), Number(table));
    else if (id) await tournamentPage(decodeURIComponent(id));
    else await listPage();
  } catch (error) {
    const box = tables ? "#table-error" : id ? "#tournament-error" : "#tournaments-error";
    showError($(box), errorText(error));
  }
}

main();
