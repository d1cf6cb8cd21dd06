// A tournament's page, its parts beside the standings and pairings (tournaments.js draws
// those; issue 71 items 4 and 5): the crosstable (each player, by starting number, round
// by round: his opponents' numbers, his seat, his points) and the director's tools:
// the printed pairings and standings (PDFs), correcting a table's result and removing a
// player, each asked again before it is done. The standings PDF is everyone's.

import { t } from "../shell/i18n.js";
import { $, clear, el, postJSON, showError } from "../shell/dom.js";
import { errorText } from "../shell/phrase.js";

const points = (value) => {
  if (value === 0.5) return "½";
  return (Math.round(value * 100) / 100).toString();
};

/** A pairing's cell of the crosstable for the player `name` (`numbers`: by name). */
function cell(pairing, name, numbers) {
  if (pairing.bye) {
    const got = pairing.source === "bye" ? 1 : 0.5;
    return { text: `${t("bye")} ${points(got)}`, title: t("a bye: {points} without a game", { points: points(got) }) };
  }
  const seat = pairing.seats.indexOf(name);
  const others = pairing.seats.filter((other) => other !== name).map((other) => numbers.get(other));
  const got = pairing.points ? points(pairing.points[seat]) : "…";
  const forfeit = pairing.source === "forfeit" || pairing.source === "absent" ? t("f") : "";
  return {
    text: `${others.join("+")} · ${seat + 1} · ${got}${forfeit}`,
    title: t("against {opponents}, seat {seat}: {points}", {
      opponents: pairing.seats.filter((other) => other !== name).join(", "),
      seat: seat + 1,
      points: pairing.points ? got : t("playing"),
    }) + (forfeit ? ` (${t("forfeit")})` : ""),
  };
}

/** The crosstable, under the standings: one line per player in the standings' order. */
export function showCrosstable(tour) {
  const box = $("#crosstable");
  const rounds = Math.max(0, ...tour.pairings.map((pairing) => pairing.round));
  $("#crosstable-section").hidden = rounds === 0;
  if (!rounds) return;
  const numbers = new Map(tour.players.map((player) => [player.name, player.number]));
  const head = el("tr", {}, el("th", { class: "num", text: "#" }), el("th", { class: "num", text: t("No.") }),
    el("th", { text: t("Player") }), el("th", { class: "num", text: t("Rating") }),
    ...Array.from({ length: rounds }, (_, i) => el("th", { text: t("R{round}", { round: i + 1 }) })),
    el("th", { class: "num", text: t("Points") }));
  const body = el("tbody");
  for (const player of tour.players) {
    const who = el("td", { text: player.name });
    who.setAttribute("translate", "no");
    const row = el("tr", { dataset: { name: player.name } },
      el("td", { class: "num", text: String(player.rank) }), el("td", { class: "num", text: String(player.number) }), who,
      el("td", { class: "num", text: player.rating ? String(player.rating) : "–" }));
    for (let round = 1; round <= rounds; round++) {
      const pairing = tour.pairings.find((p) => p.round === round && p.seats.includes(player.name));
      const shown = pairing ? cell(pairing, player.name, numbers) : { text: "", title: "" };
      row.append(el("td", { class: "round", dataset: { round: String(round) }, title: shown.title, text: shown.text }));
    }
    row.append(el("td", { class: "num", text: points(player.score) }));
    body.append(row);
  }
  box.replaceChildren(el("thead", {}, head), body);
}

/** The results a director may record at a table of `seats` seats. */
function resultChoices(seats) {
  if (seats === 2) return [["1-0", "1-0"], ["0-1", "0-1"], ["1/2-1/2", "½-½"]];
  return [];
}

let wired = false;

/** The director's tools (hidden for anyone else); `refresh` draws the page again. */
export function showDirector(tour, director, refresh) {
  const id = encodeURIComponent(tour.id);
  $("#standings-pdf").href = `/api/tournaments/${id}/standings.pdf`;
  $("#director-tools").hidden = !director;
  if (!director) return;
  const paired = tour.round > 0;
  $("#pairings-pdf").hidden = !paired;
  $("#pairings-pdf").href = `/api/tournaments/${id}/pairings.pdf?round=${tour.round}`;
  $("#pairings-pdf").textContent = t("Pairings of round {round} (PDF)", { round: tour.round });
  const tables = tour.pairings.filter((p) => !p.bye);
  $("#correct-form").hidden = !tables.length;
  const table = $("#correct-table");
  const was = table.value;
  clear(table);
  for (const p of [...tables].sort((a, b) => b.round - a.round || a.table - b.table)) {
    table.append(el("option", { value: `${p.round}/${p.table}`, text: t("round {round}, table {table}: {players}", { round: p.round, table: p.table, players: p.seats.join(" – ") }) }));
  }
  if ([...table.options].some((option) => option.value === was)) table.value = was;
  const places = $("#correct-places");
  const choices = resultChoices(tour.seats);
  $("#correct-result").hidden = !choices.length;
  places.hidden = choices.length > 0;
  if (!$("#correct-result").options.length) {
    for (const [value, words] of choices) $("#correct-result").append(el("option", { value, text: words }));
  }
  const player = $("#remove-player");
  const kept = player.value;
  clear(player);
  for (const p of tour.players.filter((p) => !p.withdrawn)) player.append(el("option", { value: p.name, text: p.name }));
  if ([...player.options].some((option) => option.value === kept)) player.value = kept;
  $("#remove-form").hidden = !player.options.length || tour.status === "finished";
  if (wired) return;
  wired = true;
  const run = async (path, body, question) => {
    if (!window.confirm(question)) return;
    try {
      await postJSON(`/api/tournaments/${id}/${path}`, body);
      $("#tournament-error").hidden = true;
      await refresh();
    } catch (error) {
      showError($("#tournament-error"), errorText(error));
    }
  };
  $("#correct-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const [round, number] = table.value.split("/").map(Number);
    const result = choices.length ? $("#correct-result").value : places.value.split(/[\s,/]+/).filter(Boolean).map(Number);
    const shown = Array.isArray(result) ? result.join(", ") : $("#correct-result").selectedOptions[0].text;
    run("results", { round, table: number, result },
      t("Record {result} at table {table} of round {round}?", { result: shown, table: number, round }));
  });
  $("#remove-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = player.value;
    run("remove", { name }, t("Remove {name} from the tournament? His games stand; he is not paired again.", { name }));
  });
}
