// The lobby: the server's tables and tournaments (running first, then the recently
// finished), refreshed every 2 seconds with table.list and tournament.list (both quick
// calls), and while the page is hidden not at all.

import { connect, h, num, setStatus } from "./common.js";

const REFRESH_MS = 2000;
const ORDER = { playing: 0, waiting: 1, finished: 2 };

function byState(a, b, id) {
  const d = (ORDER[a.state] ?? 3) - (ORDER[b.state] ?? 3);
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
    h("td", {}, h("a", { href: `/table.html?table=${id}` }, `Table ${id}`),
      info.state === "finished" ? [" · ", h("a", { href: `/replay.html?table=${id}`, "aria-label": `replay table ${id}` }, "replay")] : null),
    h("td", {}, info.game),
    h("td", {}, info.rule_set || ""),
    h("td", {}, info.state + (info.state === "finished" && info.reason ? `: ${info.reason}` : "")),
    h("td", {}, seatsText(info)),
    h("td", { class: "num wide" }, rounds));
}

function tournamentRow(info) {
  const id = num(info.tournament);
  const progress = info.progress ? `${num(info.progress.done)} / ${num(info.progress.total)}` : "";
  const entries = (info.entries || []).map((e) => e.name || e.kind).join(", ");
  return h("tr", { "data-tournament": id },
    h("td", {}, h("a", { href: `/tournament.html?tournament=${id}` }, `Tournament ${id}`)),
    h("td", {}, info.game || "blackjack"),
    h("td", {}, info.state),
    h("td", { class: "num" }, progress),
    h("td", { class: "wide" }, entries));
}

function fill(tableId, emptyId, rows) {
  document.querySelector(`#${tableId} tbody`).replaceChildren(...rows);
  document.getElementById(tableId).hidden = rows.length === 0;
  document.getElementById(emptyId).hidden = rows.length !== 0;
}

async function refresh(rpc) {
  const [tables, tournaments] = await Promise.all([rpc.call("table.list"), rpc.call("tournament.list")]);
  tables.sort((a, b) => byState(a, b, "table"));
  tournaments.sort((a, b) => byState(a, b, "tournament"));
  fill("tables", "no-tables", tables.map(tableRow));
  fill("tournaments", "no-tournaments", tournaments.map(tournamentRow));
  const open = tables.filter((t) => t.state !== "finished").length;
  setStatus(`${open} open table(s), ${tables.length - open} finished; updated ${new Date().toLocaleTimeString()}`);
}

async function main() {
  const rpc = await connect();
  const tick = async () => {
    if (!document.hidden) {
      try { await refresh(rpc); } catch (err) { setStatus(err.message, true); }
    }
    setTimeout(tick, REFRESH_MS);
  };
  await tick();
}

main();
