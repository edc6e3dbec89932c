// A live table: watch it (table.watch) and draw every event as it comes (tableview.js). A
// finished table cannot be watched: it shows its final info and a link to its replay.

import { connect, h, num, param, setStatus } from "./common.js";
import { TableView, loadViews } from "./tableview.js";

function stateText(info) {
  if (info.state === "finished") return `Finished: ${info.reason || ""}`;
  return info.state === "waiting" ? "Waiting for players" : "Playing";
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
  const ours = (params) => num(params[0]) === id;
  rpc.on("table.event", (params) => { if (ours(params)) view.event(params[1]); });
  rpc.on("table.status", (params) => { if (ours(params)) show(view, params[1]); });
  try {
    show(view, await rpc.call("table.watch", tableId));
  } catch (err) {
    try {
      show(view, await rpc.call("table.info", tableId));  // a finished table cannot be watched
    } catch (again) {
      setStatus(again.message, true);
    }
  }
}

main();
