// The lobby: the server's open tables and running tournaments, refreshed every 2 seconds
// with table.list and tournament.list (both quick calls), and while the page is hidden not
// at all; below them the finished ones from the server's history, a page at a time
// (finished.js), each table linked to its replay and each tournament to its page.

import { connect, h, labelCells, num, setStatus } from "./common.js";
import { FinishedList, entriesText, finishedTableRow, finishedTournamentRow } from "./finished.js";

const REFRESH_MS = 2000;
const SLOW_MS = 10000;
const SLOW = Symbol("slow");
const ORDER = { playing: 0, waiting: 1 };

function byState(a, b, id) {
  const d = (ORDER[a.state] ?? 2) - (ORDER[b.state] ?? 2);
  if (d) return d;
  return Number(b[id]) - Number(a[id]);  // newest first
}

function seatsText(info) {
  return info.seats.map((s) => (s.kind === "free" ? "free" : s.player || s.kind)).join(", ");
}

function tableRow(info) {
  const id = num(info.table);
  const rounds = info.rounds === null ? `${num(info.played)}` : `${num(info.played)} of ${num(info.rounds)}`;
  return h("tr", { "data-table": id },
    h("td", {}, h("a", { href: `/table.html?table=${id}` }, `Table ${id}`)),
    h("td", {}, info.game),
    h("td", {}, info.rule_set || ""),
    h("td", {}, info.state),
    h("td", {}, seatsText(info)),
    h("td", { class: "num wide" }, rounds));
}

function tournamentRow(info) {
  const id = num(info.tournament);
  const progress = info.progress ? `${num(info.progress.done)} / ${num(info.progress.total)}` : "";
  return h("tr", { "data-tournament": id },
    h("td", {}, h("a", { href: `/tournament.html?tournament=${id}` }, `Tournament ${id}`)),
    h("td", {}, info.game ?? ""),
    h("td", {}, info.state),
    h("td", { class: "num" }, progress),
    h("td", { class: "wide" }, entriesText(info)));
}

function fill(tableId, emptyId, rows) {
  document.querySelector(`#${tableId} tbody`).replaceChildren(...rows);
  labelCells(document.getElementById(tableId));
  document.getElementById(tableId).hidden = rows.length === 0;
  document.getElementById(emptyId).hidden = rows.length !== 0;
}

let shown = 0;  // the newest refresh whose lists the page shows

async function refresh(rpc, finishedTables, finishedTournaments, generation) {
  const [tables, tournaments] = await Promise.all([rpc.call("table.list"), rpc.call("tournament.list")]);
  if (generation < shown) return;  // a late answer, after a newer one was shown
  shown = generation;
  const open = tables.filter((t) => t.state !== "finished").sort((a, b) => byState(a, b, "table"));
  const running = tournaments.filter((t) => t.state !== "finished").sort((a, b) => byState(a, b, "tournament"));
  const newest = (id) => (a, b) => Number(b[id]) - Number(a[id]);
  fill("tables", "no-tables", open.map(tableRow));
  fill("tournaments", "no-tournaments", running.map(tournamentRow));
  await Promise.all([
    finishedTables.refresh(tables.filter((t) => t.state === "finished").sort(newest("table"))),
    finishedTournaments.refresh(tournaments.filter((t) => t.state === "finished").sort(newest("tournament"))),
  ]);
  // the status line is a live region: it changes (and is spoken) only when the counts do;
  // the time of the last refresh is beside it, not in it
  setStatus(`${open.length} open table(s), ${running.length} running tournament(s), ` +
    `${finishedTables.section.dataset.total} finished table(s).`);
  document.getElementById("updated").textContent = `Updated ${new Date().toLocaleTimeString()}.`;
}

async function main() {
  const rpc = await connect();
  const finishedTables = new FinishedList(rpc, "tables",
    (info, fromHistory) => finishedTableRow(info, fromHistory, seatsText));
  const finishedTournaments = new FinishedList(rpc, "tournaments", finishedTournamentRow);
  // a refresh the server is slow to answer is not waited for beyond SLOW_MS: the page says
  // so and goes on ticking, and the lists catch up as soon as the server answers
  let generation = 0;
  const tick = async () => {
    if (!document.hidden) {
      generation += 1;
      const done = refresh(rpc, finishedTables, finishedTournaments, generation)
        .catch((err) => setStatus(err.message, true));
      let late;
      const slow = new Promise((resolve) => { late = setTimeout(() => resolve(SLOW), SLOW_MS); });
      if ((await Promise.race([done, slow])) === SLOW) {
        setStatus("The server is slow to answer; still waiting for it.", true);
      }
      clearTimeout(late);
    }
    setTimeout(tick, REFRESH_MS);
  };
  await tick();
}

main();
