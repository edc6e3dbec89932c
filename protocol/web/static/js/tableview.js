// A table as the live page and the replay page draw it: a game whose plugin brings a view
// of its table (blackjack, baccarat and Three Card Poker draw cards on a felt; each game's
// view.js, served at /games/<game>/ and listed in /games/index.json) by that view, any other
// game as its seats and its events' own words; every event also as a line of the log. The live page feeds it table.watch's events as they come, the
// replay page a finished table's events from the history, one step at a time.

import { gamesIndex, h, num, seedText } from "./common.js";

/** The games' own views, by game name (loadViews fills it); a view has update, apply,
 * describe and render, and `ownRounds` when its events say when a round starts. */
const VIEWS = {};

/** Load every game's table view the server lists, once, before a table is shown. A view
 * that fails to load is left out: its game's tables show as event lists. */
export async function loadViews() {
  const { views } = await gamesIndex();
  await Promise.all(Object.entries(views).map(async ([game, href]) => {
    if (VIEWS[game]) return;
    try {
      VIEWS[game] = (await import(href)).default;
    } catch (err) {
      console.warn(`the ${game} table view did not load: ${err.message}`);
    }
  }));
}

const MAX_LOG = 400;

export class TableView {
  constructor() {
    this.info = null;
    this.cards = null;
    this.dirty = false;
    this.round = null;
    this.log = document.getElementById("log");
    this.applied = 0;  // events applied since the view started (or was reset)
    this.latest = null;  // the round of the latest event: the round in play
    this.onRound = null;  // called as a new round starts (the live page refreshes its info)
  }

  /** Start again from nothing (the replay page going back). */
  reset() {
    this.info = null;
    this.cards = null;
    this.round = null;
    this.applied = 0;
    this.latest = null;
    delete document.body.dataset.drawn;  // a drawing from before is no longer what is shown
    this.log.replaceChildren();
  }

  /** The table's info (table.watch, table.status or a history record): summary and seats. */
  show(info) {
    this.info = info;
    document.getElementById("title").textContent = `Table ${num(info.table)}`;
    this.summarize();
    const View = VIEWS[info.game];
    if (View) {
      if (!this.cards) {
        this.cards = new View(info);
        document.querySelector("#dealer h2").textContent = this.cards.title || "Dealer";
      }
      this.cards.update(info);
      document.getElementById("felt").hidden = false;
    } else {
      document.getElementById("plain-seats-section").hidden = false;
      const rows = info.seats.map((s, i) => h("tr", {},
        h("td", {}, `Seat ${s.seat}`), h("td", {}, s.player || s.kind), h("td", { class: "num" }, num(info.chips[i]))));
      document.querySelector("#plain-seats tbody").replaceChildren(...rows);
    }
    this.redraw();
  }

  /** The rounds played, from the table's info and from the events seen since: the info
   * is sent as the table starts and ends, the events come all along (a round's number is
   * in each of its events, so the rounds before it are played). */
  played() {
    const played = Number(this.info.played ?? 0);
    if (this.info.state === "finished" || this.latest === null) return played;
    return Math.max(played, this.latest - 1);
  }

  summarize() {
    const info = this.info;
    const played = this.played();
    const now = info.state === "playing" && this.latest !== null && this.latest > played
      ? `, round ${this.latest} in play` : "";
    const rounds = info.rounds === null || info.rounds === undefined
      ? `${played} played${now}` : `${played} of ${num(info.rounds)} rounds played${now}`;
    const decks = info.rules && info.rules.decks ? `, ${info.rules.decks} deck(s)` : "";
    const text =
      `${info.game}, ${info.rule_set || "custom rules"}${decks}; ${seedText(info)}; ${rounds}`;
    const summary = document.getElementById("summary");
    if (summary.textContent !== text) summary.textContent = text;
  }

  /** Apply one event and say it in the log (`quiet`: apply only, for a fast replay). */
  event(e, quiet = false) {
    let text = null;
    if (e.round !== undefined && e.round !== null && Number(e.round) !== this.latest) {
      this.latest = Number(e.round);
      if (this.info) this.summarize();
      if (this.onRound) this.onRound(this.latest);
    }
    const ownRounds = this.cards !== null && this.cards.ownRounds;
    if (!ownRounds && e.round !== undefined && num(e.round) !== this.round) {
      this.round = num(e.round);  // a heading per round, unless the game's events say it
      if (!quiet) this.say(`Round ${this.round}`, "round");
    }
    if (this.cards) {
      if (!quiet) text = this.cards.describe(e);
      this.cards.apply(e);
    } else if (!quiet) {
      // the table's own record of each action (`action`) is left out: the game's events say
      // the same in its words, as `croupier play --game` leaves it out
      text = e.kind === "round" || e.kind === "action" ? null : e.text || e.kind;
    }
    if (text) this.say(text, e.kind);
    this.applied += 1;
    this.redraw();
    return text;
  }

  say(text, kind) {
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    this.log.append(h("li", { class: `ev-${kind}` }, text));  // not a page class (.dealer)
    while (this.log.childElementCount > MAX_LOG) this.log.firstElementChild.remove();
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }

  /** Draw the felt in the next animation frame (at most once a frame); a game without
   * cards is drawn as it goes. Either way body[data-drawn] then says how many events the
   * drawing shows, the condition a test (or anything else) can wait for. */
  redraw() {
    if (!this.cards) {
      this.drawn();
      return;
    }
    if (this.dirty) return;
    this.dirty = true;
    requestAnimationFrame(() => {
      this.dirty = false;
      if (this.cards) this.cards.render(document.getElementById("dealer-hand"), document.getElementById("seats"));
      this.drawn();
    });
  }

  drawn() {
    document.body.dataset.drawn = String(this.applied);
  }
}
