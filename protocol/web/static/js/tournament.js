// A live tournament: watch it (tournament.watch) and redraw at every tournament.status:
// progress, the standings with their 95% intervals (the live view's after each booked
// round, then the result's), the tables of the round in play, and each bot's chip curve
// (mean chips over the runs after every round) as an inline SVG line chart. A finished
// tournament the server no longer holds is drawn from its history (history.tournament):
// its settings, entries and final standings; the tables and chip curves were live only.

import { connect, h, num, param, seedText, setStatus } from "./common.js";
import { niceTicks, s } from "./svg.js";

const COLOURS = 8;  // curve colours c0..c7 in style.css

function fixed(x) { return x === null || x === undefined ? "–" : Number(x).toFixed(1); }

/** The interval as a bar on a shared scale, its numbers as text beside it. */
function intervalCell(line, lo, hi) {
  const text = line.low === null ? "one run: no interval" : `${fixed(line.low)} to ${fixed(line.high)}`;
  if (line.low === null || hi <= lo) return h("td", {}, text);
  const x = (v) => (100 * (v - lo)) / (hi - lo);
  const svg = s("svg", { viewBox: "0 0 100 10", class: "interval", "aria-hidden": "true", preserveAspectRatio: "none" },
    s("line", { x1: x(line.low), x2: x(line.high), y1: 5, y2: 5, class: "span" }),
    s("circle", { cx: x(line.mean), cy: 5, r: 2.2, class: "mean" }));
  return h("td", {}, h("div", { class: "interval-cell" }, svg, h("span", {}, text)));
}

function standings(lines) {
  const tbody = document.querySelector("#standings tbody");
  document.getElementById("no-standings").hidden = lines.length > 0;
  document.getElementById("standings").hidden = lines.length === 0;
  const ends = lines.flatMap((l) => (l.low === null ? [l.mean] : [l.low, l.high]));
  const lo = Math.min(...ends), hi = Math.max(...ends);
  tbody.replaceChildren(...lines.map((line) => h("tr", { "data-bot": line.name },
    h("td", { class: "num" }, line.tied ? `${line.rank}=` : String(line.rank)), h("th", { scope: "row" }, line.name),
    h("td", { class: "num" }, fixed(line.mean)), intervalCell(line, lo, hi),
    h("td", { class: "num wide" }, num(line.hands)), h("td", { class: "num wide" }, num(line.broke)),
    h("td", { class: "num wide" }, num(line.disqualified)), h("td", {}, unseparated(line, lines.length)))));
}

/** The bots this one is not yet told apart from at 95% (paired over the runs). */
function unseparated(line, bots) {
  const names = line.unseparated || [];
  if (!names.length) return "–";
  if (bots > 2 && names.length === bots - 1) return "all others";
  return names.join(", ");
}

function tables(live, info) {
  const list = document.getElementById("tables");
  if (!live || !live.tables.length) {
    list.replaceChildren(h("li", { class: "muted" }, info.state === "playing" ? "Between rounds." : "None."));
    return;
  }
  const items = live.tables.map((t) => h("li", {}, `Run ${t.tourney}, table ${t.table}: `,
    t.bots.map((bot, i) => `${bot} (${num(t.chips[i])})`).join(", ")));
  const more = live.tables_in_round - live.tables.length;
  if (more > 0) items.push(h("li", { class: "muted" }, `and ${more} more table(s)`));
  list.replaceChildren(h("li", { class: "round" }, `Round ${live.round}: ${live.tables_in_round} table(s)`), ...items);
}

/** One polyline per bot over rounds 0..R, on a chart sized by its viewBox. */
function curves(live, rounds) {
  const box = document.getElementById("curves");
  const legend = document.getElementById("legend");
  if (!live) { box.replaceChildren(); legend.replaceChildren(); return; }
  const W = 640, H = 260, L = 48, B = 22, T = 8, R = 8;
  const all = live.curves.flatMap((c) => c.chips).filter((v) => v !== null && v !== undefined);
  if (!all.length) all.push(0);
  // round ticks spanning the data (not the data's own lowest, middle and highest values)
  const ticks = niceTicks(Math.min(...all), Math.max(...all));
  const lo = ticks[0], hi = ticks[ticks.length - 1];
  const x = (i) => L + ((W - L - R) * i) / Math.max(1, rounds);
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo);
  const grid = ticks.map((v) => [
    s("line", { x1: L, x2: W - R, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: "grid" }),
    s("text", { x: L - 4, y: (y(v) + 4).toFixed(1), "text-anchor": "end", class: "tick" }, String(v))]);
  const axis = s("text", { x: (W + L) / 2, y: H - 4, "text-anchor": "middle" }, `round (0 to ${rounds})`);
  const lines = live.curves.map((c, i) => s("polyline", {
    class: `curve c${i % COLOURS}`, "data-bot": c.name,
    points: c.chips.map((v, r) => `${x(r).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
  }, s("title", {}, `${c.name}: ${c.chips.map(fixed).join(", ")}`)));
  const about = live.curves.map((c) => `${c.name} from ${fixed(c.chips[0])} to ${fixed(c.chips[c.chips.length - 1])}`).join("; ");
  box.replaceChildren(s("svg", { viewBox: `0 0 ${W} ${H}`, class: "curves", role: "img",
    "aria-label": `mean chips after each of ${live.curves[0] ? live.curves[0].chips.length - 1 : 0} round(s): ${about}` },
  grid, axis, lines));
  legend.replaceChildren(...live.curves.map((c, i) => h("li", {},
    h("span", { class: `swatch c${i % COLOURS}`, "aria-hidden": "true" }),
    `${c.name}: ${fixed(c.chips[c.chips.length - 1])}`)));
}

let updates = 0;

function show(info) {
  updates += 1;
  document.body.dataset.updates = String(updates);
  const id = num(info.tournament);
  document.getElementById("title").textContent = `Tournament ${id}`;
  document.title = `croupier: tournament ${id}`;
  const st = info.settings || {};
  document.getElementById("summary").textContent =
    `${info.game ?? ""}, ${info.rule_set || "custom rules"}; ${seedText(info)}; ` +
    `${num(st.tourneys)} run(s) of ${num(st.rounds)} round(s) of ${num(st.hands)} hand(s); ` +
    `entries: ${info.entries.map((e) => (e.kind === "tcp" && !e.joined ? `${e.name} (free seat)` : e.name)).join(", ")}`;
  const state = info.state === "finished" ? `Finished: ${info.reason || ""}`
    : info.state === "waiting" ? "Waiting for its TCP bots to join" : "Playing";
  setStatus(state);
  const done = Number(info.progress.done), total = Number(info.progress.total);
  const bar = document.getElementById("progress");
  bar.max = total || 1;
  bar.value = done;
  bar.textContent = `${done} of ${total}`;
  document.getElementById("progress-text").textContent = `${done} of ${total} run-rounds played`;
  const live = info.live;
  const lines = info.result ? info.result.standings : live ? live.standings : [];
  standings(lines);
  tables(live, info);
  curves(live, Number(st.rounds) || 1);
}

async function main() {
  const id = param("tournament");
  if (!id || !/^\d+$/.test(id)) {
    setStatus("No tournament given: open one from the lobby.", true);
    return;
  }
  const tournament = BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : BigInt(id);
  const rpc = await connect();
  rpc.on("tournament.status", (params) => { if (num(params[0]) === id) show(params[1]); });
  try {
    show(await rpc.call("tournament.watch", tournament));
    return;
  } catch (err) {
    if (!(err.error && err.error.name === "unknown-name")) {
      setStatus(err.error && err.error.message ? err.error.message : err.message, true);
      return;
    }
  }
  // one the server no longer holds (it keeps the last 16 finished): its history's record
  try {
    show(await rpc.call("history.tournament", tournament));
  } catch (err) {
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
    return;
  }
  document.getElementById("from-history").hidden = false;
}

main();
