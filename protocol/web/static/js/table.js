// A live table: watch it (table.watch) and draw every event as it comes. Blackjack is drawn
// as cards on a felt with seats, bets and chips; any other game as its seats and a list of
// its events' own words (each event's `text`).

import { BlackjackTable } from "./blackjack.js";
import { connect, h, num, param, setStatus } from "./common.js";

const MAX_LOG = 400;

class Page {
  constructor(id) {
    this.id = id;
    this.info = null;
    this.blackjack = null;
    this.dirty = false;
    this.round = null;
    this.log = document.getElementById("log");
  }

  show(info) {
    this.info = info;
    document.getElementById("title").textContent = `Table ${num(info.table)}`;
    document.title = `croupier: table ${num(info.table)}`;
    const rounds = info.rounds === null ? `${num(info.played)} played` : `${num(info.played)} of ${num(info.rounds)} rounds`;
    const decks = info.rules && info.rules.decks ? `, ${info.rules.decks} deck(s)` : "";
    document.getElementById("summary").textContent =
      `${info.game}, ${info.rule_set || "custom rules"}${decks}; seed ${num(info.seed)}; ${rounds}`;
    const state = info.state === "finished" ? `Finished: ${info.reason || ""}` : info.state === "waiting" ? "Waiting for players" : "Playing";
    setStatus(state);
    if (info.game === "blackjack") {
      if (!this.blackjack) this.blackjack = new BlackjackTable(info);
      this.blackjack.update(info);
      document.getElementById("felt").hidden = false;
    } else {
      document.getElementById("plain-seats-section").hidden = false;
      const rows = info.seats.map((s, i) => h("tr", {},
        h("td", {}, `Seat ${s.seat}`), h("td", {}, s.player || s.kind), h("td", { class: "num" }, num(info.chips[i]))));
      document.querySelector("#plain-seats tbody").replaceChildren(...rows);
    }
    this.redraw();
  }

  event(e) {
    let text;
    if (this.blackjack) {
      text = this.blackjack.describe(e);
      this.blackjack.apply(e);
    } else {
      if (e.round !== undefined && num(e.round) !== this.round) {  // a heading per round
        this.round = num(e.round);
        this.say(`Round ${this.round}`, "round");
      }
      text = e.kind === "round" ? null : e.text || e.kind;
    }
    if (text) this.say(text, e.kind);
    this.redraw();
  }

  say(text, kind) {
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    this.log.append(h("li", { class: kind }, text));
    while (this.log.childElementCount > MAX_LOG) this.log.firstElementChild.remove();
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }

  redraw() {
    if (this.dirty || !this.blackjack) return;
    this.dirty = true;
    requestAnimationFrame(() => {
      this.dirty = false;
      this.blackjack.render(document.getElementById("dealer-hand"), document.getElementById("seats"));
    });
  }
}

async function main() {
  const id = param("table");
  if (!id || !/^\d+$/.test(id)) {
    setStatus("No table given: open a table from the lobby.", true);
    return;
  }
  const tableId = BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : BigInt(id);
  const page = new Page(tableId);
  const rpc = await connect();
  const ours = (params) => num(params[0]) === id;
  rpc.on("table.event", (params) => { if (ours(params)) page.event(params[1]); });
  rpc.on("table.status", (params) => { if (ours(params)) page.show(params[1]); });
  try {
    page.show(await rpc.call("table.watch", tableId));
  } catch (err) {
    try {
      page.show(await rpc.call("table.info", tableId));  // a finished table cannot be watched
    } catch (again) {
      setStatus(again.message, true);
    }
  }
}

main();
