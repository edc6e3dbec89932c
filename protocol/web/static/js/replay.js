// A finished table's replay: its record and events from the server's history
// (history.table, history.events page by page), stepped through with buttons, a slider or
// the keyboard, drawn by the live page's view (tableview.js). Going back replays from the
// start (an event's state depends on all before it); the address keeps the step (&at=K).

import { connect, h, num, param, setStatus } from "./common.js";
import { TableView, loadViews } from "./tableview.js";

const PAGE = 1000;         // history's largest page
const MAX_EVENTS = 500000;
const PLAY_MS = 450;

class Replay {
  constructor(record, events) {
    this.record = record;
    this.events = events;
    this.view = new TableView();
    this.at = 0;  // events applied
    this.rounds = events.map((e, i) => (e.kind === "round" ? i : -1)).filter((i) => i >= 0);
    this.timer = null;
    this.start();
  }

  /** The table as it was before its first event: its seats and starting chips. */
  start() {
    this.view.reset();
    this.view.show({ ...this.record, state: "playing", rounds: null });
    this.at = 0;
  }

  /** Go to step `k` (0: nothing applied, N: every event). */
  go(k) {
    const to = Math.max(0, Math.min(this.events.length, k));
    if (to < this.at) this.start();
    let text = null;
    const loud = Math.max(this.at, to - 400);  // earlier steps only rebuild the state
    for (; this.at < to; this.at += 1) text = this.view.event(this.events[this.at], this.at < loud) || text;
    this.redrawControls(to > 0 ? this.events[to - 1] : null);
  }

  /** The step just after the next (or previous) round's first event; the end or the start. */
  roundStart(direction) {
    const starts = this.rounds.map((i) => i + 1);
    if (direction > 0) return starts.find((k) => k > this.at) ?? this.events.length;
    const before = starts.filter((k) => k < this.at);
    return before.length ? before[before.length - 1] : 0;
  }

  redrawControls(last) {
    const n = this.events.length;
    document.getElementById("scrub").max = String(n);
    document.getElementById("scrub").value = String(this.at);
    const round = last && last.round !== undefined ? `, round ${num(last.round)}` : "";
    document.getElementById("where").textContent = `${this.at} of ${n}${round}`;
    document.getElementById("scrub").setAttribute("aria-valuetext", `event ${this.at} of ${n}${round}`);
    const lastLine = this.view.log.lastElementChild;
    document.getElementById("now").textContent = this.at && lastLine ? lastLine.textContent : "Before the first event.";
    for (const id of ["first", "prev", "prev-round"]) document.getElementById(id).disabled = this.at === 0;
    for (const id of ["last", "next", "next-round"]) document.getElementById(id).disabled = this.at === n;
    const query = new URLSearchParams(location.search);
    query.set("at", String(this.at));
    history.replaceState(null, "", `?${query}`);
  }

  play() {
    const button = document.getElementById("play");
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    } else {
      if (this.at === this.events.length) this.go(0);
      this.timer = setInterval(() => {
        this.go(this.at + 1);
        if (this.at === this.events.length) this.play();
      }, PLAY_MS);
    }
    const playing = this.timer !== null;
    button.textContent = playing ? "❚❚ pause" : "▶ play";
    button.setAttribute("aria-label", playing ? "pause" : "play");
  }
}

function wire(replay) {
  const actions = {
    first: () => replay.go(0),
    "prev-round": () => replay.go(replay.roundStart(-1)),
    prev: () => replay.go(replay.at - 1),
    next: () => replay.go(replay.at + 1),
    "next-round": () => replay.go(replay.roundStart(1)),
    last: () => replay.go(replay.events.length),
    play: () => replay.play(),
  };
  for (const [id, act] of Object.entries(actions)) document.getElementById(id).addEventListener("click", act);
  document.getElementById("scrub").addEventListener("input", (event) => replay.go(Number(event.target.value)));
  const keys = { ArrowLeft: "prev", ArrowRight: "next", PageUp: "prev-round", PageDown: "next-round",
    Home: "first", End: "last", p: "play" };
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    const id = keys[event.key];
    if (!id) return;
    event.preventDefault();
    actions[id]();
  });
}

async function load(rpc, table) {
  const record = await rpc.call("history.table", table);
  const events = [];
  for (;;) {
    const page = await rpc.call("history.events", table, events.length, PAGE);
    for (const e of page) events.push(e);
    if (page.length < PAGE || events.length >= MAX_EVENTS) break;
    setStatus(`Loading the events: ${events.length}…`);
  }
  return [record, events];
}

async function main() {
  const id = param("table");
  if (!id || !/^\d+$/.test(id)) {
    setStatus("No table given: open a finished table from the lobby.", true);
    return;
  }
  const table = BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : BigInt(id);
  await loadViews();
  const rpc = await connect();
  let record, events;
  try {
    [record, events] = await load(rpc, table);
  } catch (err) {
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
    return;
  }
  document.title = `croupier: replay of table ${num(record.table)}`;
  const finished = record.state === "finished" ? `finished: ${record.reason || ""}` : `${record.state} (its settled rounds so far)`;
  setStatus(`${events.length} events, ${num(record.played)} round(s); ${finished}`);
  if (record.state !== "finished") {
    document.getElementById("live-link").replaceChildren(h("a", { href: `/table.html?table=${id}` }, "Watch it live"));
  }
  const replay = new Replay(record, events);
  document.getElementById("controls").hidden = false;
  document.getElementById("keys-help").hidden = false;
  wire(replay);
  replay.go(Number(param("at")) || 0);
}

main();
