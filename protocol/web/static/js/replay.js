// A finished table's replay: its record and events from the server's history
// (history.table, history.events page by page), stepped through with buttons, a slider or
// the keyboard, drawn by the live page's view (tableview.js). Going back replays from the
// start (an event's state depends on all before it); the address keeps the step (&at=K).
// A finished tournament's table (?tournament=T&tourney=A&round=B&table=C) comes from
// history.tournament_table and history.tournament_events, which deal it again from its seed
// and its tcp seats' recorded answers; &hand=H&seat=S&taken=K opens at that seat's first
// action of hand H that took K (a costliest decision's link), or else at the hand's start.

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

/** The table to replay: a server table's id, or a tournament table's place. */
function which() {
  const t = param("tournament");
  if (t !== null) {
    const place = ["tourney", "round", "table"].map((k) => param(k));
    if (![t, ...place].every((x) => x && /^\d+$/.test(x))) return null;
    return { calls: ["history.tournament_table", "history.tournament_events"], args: [t, ...place].map(Number) };
  }
  const id = param("table");
  if (!id || !/^\d+$/.test(id)) return null;
  const table = BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : BigInt(id);
  return { calls: ["history.table", "history.events"], args: [table] };
}

/** The step of a tournament table's decision: its seat's first action of the hand that
 * took `taken` (the step after it), else the hand's first event; null: no such hand. */
export function stepOf(events, hand, seat, taken) {
  let first = null;
  for (let i = 0; i < events.length; i += 1) {
    const e = events[i];
    if (Number(e.round) !== hand) continue;
    if (first === null) first = i + 1;
    if (e.kind === "action" && Number(e.seat) === seat && e.action && e.action.kind === taken) return i + 1;
  }
  return first;
}

async function load(rpc, target) {
  const [recordCall, eventsCall] = target.calls;
  const record = await rpc.call(recordCall, ...target.args);
  const events = [];
  for (;;) {
    const page = await rpc.call(eventsCall, ...target.args, events.length, PAGE);
    for (const e of page) events.push(e);
    if (page.length < PAGE || events.length >= MAX_EVENTS) break;
    setStatus(`Loading the events: ${events.length}…`);
  }
  return [record, events];
}

async function main() {
  const target = which();
  if (target === null) {
    setStatus("No table given: open a finished table from the lobby.", true);
    return;
  }
  await loadViews();
  const rpc = await connect();
  let record, events;
  try {
    [record, events] = await load(rpc, target);
  } catch (err) {
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
    return;
  }
  if (record.tournament !== undefined) {  // a tournament table: its place for its name
    record.table = `${record.table.join(".")} of tournament ${num(record.tournament)}`;
  }
  document.title = `croupier: replay of table ${num(record.table)}`;
  const finished = record.state === "finished" ? `finished: ${record.reason || ""}` : `${record.state} (its settled rounds so far)`;
  setStatus(`${events.length} events, ${num(record.played)} round(s); ${finished}`);
  if (record.state !== "finished") {
    document.getElementById("live-link").replaceChildren(h("a", { href: `/table.html?table=${param("table")}` }, "Watch it live"));
  }
  const replay = new Replay(record, events);
  document.getElementById("controls").hidden = false;
  document.getElementById("keys-help").hidden = false;
  wire(replay);
  let at = Number(param("at")) || 0;
  if (param("at") === null && param("hand") !== null) {
    at = stepOf(events, Number(param("hand")), Number(param("seat")), param("taken")) || 0;
  }
  replay.go(at);
}

main();
