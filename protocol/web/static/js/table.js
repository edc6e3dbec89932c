// A live table: watch it (table.watch) and draw every event as it comes (tableview.js). A
// finished table cannot be watched: it shows its final info and a link to its replay.

import { connect, h, num, param, setStatus } from "./common.js";
import { TableView, loadViews } from "./tableview.js";

function stateText(info) {
  if (info.state === "finished") return `Finished: ${info.reason || ""}`;
  return info.state === "waiting" ? "Waiting for players" : "Playing";
}

const REFRESH_MS = 1000;
const LAST_EVENTS = 1000;  // history's largest page: more than a round of any game

/** For a game without a view of its own, whose events need not say a seat's chips: ask
 * table.info as rounds start, at most once a second (and once more after the last), so
 * the seats' chips follow the table rather than stay as they were when the page opened. */
function refresher(rpc, view, tableId) {
  let timer = null;
  let again = false;
  const ask = async () => {
    timer = setTimeout(() => { timer = null; if (again) { again = false; ask(); } }, REFRESH_MS);
    try {
      const info = await rpc.call("table.info", tableId);
      if (view.info && view.info.state !== "finished") show(view, info);  // never back from finished
    } catch (err) {
      // the table.status at the end says the rest
    }
  };
  return () => {
    if (view.cards || (view.info && view.info.state === "finished")) return;
    if (timer === null) ask();
    else again = true;
  };
}

function show(view, info) {
  view.show(info);
  document.title = `croupier: table ${num(info.table)}`;
  setStatus(stateText(info));
  if (info.state === "finished") {
    document.getElementById("replay-link").replaceChildren(
      h("a", { href: `/replay.html?table=${num(info.table)}` }, "Replay this table step by step"));
  }
}

async function main() {
  const id = param("table");
  if (!id || !/^\d+$/.test(id)) {
    setStatus("No table given: open a table from the lobby.", true);
    return;
  }
  const tableId = BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : BigInt(id);
  await loadViews();  // before any event comes
  const view = new TableView();
  const rpc = await connect();
  view.onRound = refresher(rpc, view, tableId);
  const ours = (params) => num(params[0]) === id;
  rpc.on("table.event", (params) => { if (ours(params)) view.event(params[1]); });
  rpc.on("table.status", (params) => { if (ours(params)) show(view, params[1]); });
  try {
    show(view, await rpc.call("table.watch", tableId));
  } catch (err) {
    let info;
    try {
      info = await rpc.call("table.info", tableId);  // a finished table cannot be watched
    } catch (again) {
      setStatus(again.message, true);
      return;
    }
    show(view, info);
    await lastRound(rpc, view, tableId, info);
  }
}

/** A table that finished before the page opened: its last round from the server's history
 * (the last events, from the start of their last round), drawn on the felt and said in the
 * log, then its final info again (the chips the table ended with). Without a history
 * (`--data :memory:`) the page shows the final info only. */
async function lastRound(rpc, view, tableId, info) {
  let events;
  try {
    const record = await rpc.call("history.table", tableId);
    const total = Number(record.events);
    const from = Math.max(0, total - LAST_EVENTS);
    events = total ? await rpc.call("history.events", tableId, from, LAST_EVENTS) : [];
  } catch (err) {
    return;  // no history: the final info is all there is
  }
  const last = events.length ? events[events.length - 1].round : undefined;
  if (last === undefined || last === null) return;
  const start = events.findIndex((e) => e.round !== undefined && num(e.round) === num(last));
  for (const e of events.slice(start)) view.event(e);
  show(view, info);
}

main();
