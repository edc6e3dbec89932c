// The lobby's finished tables or tournaments, from the server's history (history.tables or
// history.tournaments with state "finished"), newest first, a page at a time with previous
// and next buttons. The address keeps the page (?tables-page=N, ?tournaments-page=N, and
// ?per=M rows a page), so a page can be linked to. The first page follows the server at
// every refresh; a later page stays as it was when it was opened, so its rows do not slide
// along while someone reads them (the next or previous button fetches again). A server
// with no journal (--data :memory:) has no history: the list is then the finished ones the
// server still holds in memory (table.list's last 64, tournament.list's last 16), unpaged.

import { h, labelCells, num, param, setText } from "./common.js";

export const PER_PAGE = 20;
const MAX_PER_PAGE = 100;  // rows a page at most (the history gives up to 1000)

function whole(text, fallback, lo, hi) {
  const n = Number.parseInt(text ?? "", 10);
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : fallback;
}

/** When it finished (Unix seconds), in the reader's time zone; "" if unknown. */
export function finishedAt(seconds) {
  return seconds === null || seconds === undefined ? "" : new Date(Number(seconds) * 1000).toLocaleString();
}

export class FinishedList {
  /**
   * `what`: "tables" or "tournaments" (the history method, the section #finished-WHAT and
   * the address's WHAT-page); `row(info, fromHistory)` draws one as a <tr>.
   */
  constructor(rpc, what, row) {
    this.rpc = rpc;
    this.what = what;
    this.row = row;
    this.section = document.getElementById(`finished-${what}`);
    this.page = whole(param(`${what}-page`), 1, 1, Number.MAX_SAFE_INTEGER);
    this.per = whole(param("per"), PER_PAGE, 1, MAX_PER_PAGE);
    this.total = 0;
    this.history = true;  // until the server says it keeps none
    this.loaded = false;
    this.asked = 0;  // the latest load asked (an older answer is dropped)
    this.prev = this.section.querySelector("button.prev");
    this.next = this.section.querySelector("button.next");
    this.prev.addEventListener("click", () => this.go(this.page - 1));
    this.next.addEventListener("click", () => this.go(this.page + 1));
  }

  get pages() { return Math.max(1, Math.ceil(this.total / this.per)); }

  /** At each lobby refresh: `held` are the finished ones the server holds in memory. */
  async refresh(held) {
    if (!this.history) {
      this.fill(held, false);
      return;
    }
    if (this.loaded && this.page > 1) return;
    await this.load();
  }

  /** Open page `page` (1 is the newest) and keep it in the address. */
  async go(page) {
    this.page = Math.max(1, Math.min(this.pages, page));
    const query = new URLSearchParams(location.search);
    if (this.page > 1) query.set(`${this.what}-page`, String(this.page));
    else query.delete(`${this.what}-page`);
    const search = query.toString();
    history.replaceState(null, "", search ? `?${search}` : location.pathname);
    await this.load();
  }

  async load() {
    const mine = ++this.asked;
    let answer;
    try {
      answer = await this.rpc.call(`history.${this.what}`, null, "finished", null, this.per,
        (this.page - 1) * this.per);
    } catch (err) {
      if (mine !== this.asked) return;
      if (!(err.error && err.error.name === "bad-input")) throw err;
      this.history = false;  // no journal: say so once, then show what the server holds
      this.section.querySelector(".note").textContent =
        `${err.error.message}: these are the last finished ones the server still holds.`;
      this.section.querySelector(".pager").hidden = true;
      return;
    }
    if (mine !== this.asked) return;
    this.total = Number(answer.total);
    if (answer[this.what].length === 0 && this.total > 0 && this.page > this.pages) {
      await this.go(this.pages);  // a page past the end (pruned, or a stale link)
      return;
    }
    this.loaded = true;
    this.fill(answer[this.what], true);
  }

  fill(rows, fromHistory) {
    const tbody = this.section.querySelector("tbody");
    tbody.replaceChildren(...rows.map((info) => this.row(info, fromHistory)));
    labelCells(this.section.querySelector("table"));
    this.section.querySelector("table").hidden = rows.length === 0;
    this.section.querySelector(".empty").hidden = rows.length !== 0;
    if (fromHistory) this.pager(rows.length);
    // what a test (or a script) can wait for: the page drawn and how many there are
    this.section.dataset.page = String(fromHistory ? this.page : 1);
    this.section.dataset.total = String(fromHistory ? this.total : rows.length);
  }

  pager(shown) {
    const first = (this.page - 1) * this.per + 1;
    const name = this.what === "tables" ? "table(s)" : "tournament(s)";
    setText(this.section.querySelector(".where"), shown === 0 ? ""
      : `${first} to ${first + shown - 1} of ${this.total} ${name}, newest first (page ${this.page} of ${this.pages})`);
    const focused = document.activeElement;
    this.prev.disabled = this.page <= 1;
    this.next.disabled = this.page >= this.pages;
    this.section.querySelector(".pager").hidden = this.total <= this.per && this.page === 1;
    // a button that became disabled under the keyboard hands its focus to the other one
    if (focused === this.prev && this.prev.disabled && !this.next.disabled) this.next.focus();
    if (focused === this.next && this.next.disabled && !this.prev.disabled) this.prev.focus();
  }
}

/** The entries of a tournament (its bots' names) as one line. */
export function entriesText(info) {
  return (info.entries || []).map((e) => e.name || e.kind).join(", ");
}

/** A row of the finished tables: its replay (from the history) or its final page. */
export function finishedTableRow(info, fromHistory, seatsText) {
  const id = num(info.table);
  const link = fromHistory
    ? h("a", { href: `/replay.html?table=${id}`, "aria-label": `replay table ${id}` }, `Table ${id}`)
    : h("a", { href: `/table.html?table=${id}` }, `Table ${id}`);
  return h("tr", { "data-table": id },
    h("td", {}, link),
    h("td", {}, info.game),
    h("td", { class: "wide" }, info.rule_set || ""),
    h("td", { class: "wide" }, info.reason || ""),
    h("td", {}, seatsText(info)),
    h("td", { class: "num" }, num(info.played)),
    h("td", { class: "wide" }, finishedAt(info.finished)));
}

/** A row of the finished tournaments, linked to the tournament's page (its standings). */
export function finishedTournamentRow(info) {
  const id = num(info.tournament);
  const progress = info.progress ? `${num(info.progress.done)} / ${num(info.progress.total)}` : "";
  return h("tr", { "data-tournament": id },
    h("td", {}, h("a", { href: `/tournament.html?tournament=${id}` }, `Tournament ${id}`)),
    h("td", {}, info.game ?? ""),
    h("td", { class: "wide" }, info.reason || ""),
    h("td", { class: "num" }, progress),
    h("td", { class: "wide" }, entriesText(info)),
    h("td", { class: "wide" }, finishedAt(info.finished)));
}
