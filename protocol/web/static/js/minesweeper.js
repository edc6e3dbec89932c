// The Minesweeper analyser: a board pasted as text or marked cell by cell, solved on the
// server by the `minesweeper` solver (`solve`, as `croupier solve minesweeper` does), drawn
// as a heat map of each covered cell's exact mine probability, with the certain mines, the
// certain safe cells and the best guess marked. The text and the cells stay in step.

import { connect, h, setStatus } from "./common.js";

const KINDS = ["?", "0", "1", "2", "3", "4", "5", "6", "7", "8", "X"];
const KIND_NAMES = { "?": "covered", X: "flagged" };
const SOLVE_DELAY_MS = 250;

const text = document.getElementById("board-text");
const minesInput = document.getElementById("mines");
const body = document.querySelector("#board tbody");
let grid = [];          // rows of "?", "0"-"8" or "X"
let solution = null;    // the solver's answer for `grid`, or null
let focus = [0, 0];     // the cell with the grid's one tab stop
let asked = 0;          // the latest solve asked (older answers are dropped)
let timer = null;

/** The board text as the solver reads it, or null when it is not a board (the server says why). */
export function parseBoard(source) {
  const rows = [];
  for (const raw of source.split(/\r?\n/)) {
    const line = raw.replace(/[ \t]/g, "");
    if (!line || line.startsWith("#")) continue;
    const row = [];
    for (const c of line) {
      if (c === "?") row.push("?");
      else if (c === ".") row.push("0");
      else if (/^[0-8]$/.test(c)) row.push(c);
      else if (c === "X" || c === "x" || c === "*") row.push("X");
      else return null;
    }
    rows.push(row);
  }
  if (!rows.length || rows.some((r) => r.length !== rows[0].length)) return null;
  return rows;
}

function boardText() { return grid.map((row) => row.join("")).join("\n"); }

/** A probability in percent to four significant digits ("10.26%", "0.003846%"). */
function pct(p) { return `${Number((100 * p).toPrecision(4))}%`; }

/** The cell's whole percentage, never rounding a chance to 0 or 100 (as the CLI prints it). */
function whole(p) {
  const value = Math.round(100 * p);
  return value === 0 ? "<1" : value === 100 ? ">99" : String(value);
}

/** What a screen reader and the hover text say about a cell. */
function cellText(r, c) {
  const kind = grid[r][c];
  const where = `row ${r + 1}, column ${c + 1}`;
  if (kind === "X") return `${where}: flagged mine`;
  if (kind !== "?") return `${where}: revealed ${kind}`;
  if (!solution) return `${where}: covered`;
  const p = solution.probabilities[r][c];
  const exact = solution.exact[r][c];
  const guess = solution.best_guess;
  const best = guess && guess.row === r && guess.col === c ? ", the best guess" : "";
  if (p === null) return `${where}: covered, mine probability unknown (give the number of mines)${best}`;
  if (p === 1) return `${where}: covered, certainly a mine`;
  if (p === 0) return `${where}: covered, certainly safe`;
  return `${where}: covered, mine probability ${exact} = ${pct(p)}${best}`;
}

function cellElement(r, c) {
  const kind = grid[r][c];
  const label = cellText(r, c);
  const td = h("td", { tabindex: r === focus[0] && c === focus[1] ? 0 : -1, title: label,
    "aria-label": label, "data-row": r, "data-col": c });
  if (kind === "X") { td.className = "flag"; td.textContent = "\u2691"; return td; }
  if (kind !== "?") { td.className = `open n${kind}`; td.textContent = kind === "0" ? "" : kind; return td; }
  td.className = "covered";
  const p = solution ? solution.probabilities[r][c] : null;
  if (p === null || p === undefined) return td;
  td.dataset.p = String(p);
  td.dataset.exact = solution.exact[r][c];
  td.style.setProperty("--p", String(p));
  td.classList.add("heat");
  const guess = solution.best_guess;
  if (p === 1) { td.classList.add("mine"); td.textContent = "\u2731"; }
  else if (p === 0) { td.classList.add("safe"); td.textContent = "\u2713"; }
  else td.textContent = whole(p);
  if (guess && guess.row === r && guess.col === c) {
    td.classList.add("best");
    td.textContent = `\u2605${td.textContent}`;
  }
  return td;
}

function render() {
  body.replaceChildren(...grid.map((row, r) => h("tr", {}, row.map((_, c) => cellElement(r, c)))));
}

function summary() {
  const out = document.getElementById("summary");
  if (!solution) { out.textContent = ""; return; }
  const s = solution;
  const parts = [`${s.width}×${s.height}${s.mines === null ? "" : `, ${s.mines} mines`}`,
    `${s.certain_mines.length} certain mine(s)`, `${s.certain_safes.length} certain safe cell(s)`,
    `${s.placements} placement(s)`];
  let best = "";
  if (s.certain_safes.length) best = "Best move: open a certain safe cell (✓).";
  else if (s.best_guess) {
    const g = s.best_guess;
    best = `Best guess: row ${g.row + 1}, column ${g.col + 1}` +
      (g.exact === null ? " (probability unknown)" : `, mine probability ${g.exact} = ${pct(g.probability)}`) + ".";
  }
  out.textContent = `${parts.join("; ")}. ${best}`;
}

async function solve(rpc) {
  const mine = ++asked;
  const problem = { board: text.value };
  const total = minesInput.value.trim();
  if (total !== "") problem.mines = Number(total);
  setStatus("Analysing…");
  try {
    const answer = await rpc.call("solve", "minesweeper", problem);
    if (mine !== asked) return;
    solution = answer;
    setStatus("Analysed.");
  } catch (err) {
    if (mine !== asked) return;
    solution = null;
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
  }
  summary();
  render();
}

function later(rpc) {
  asked += 1;  // the board changed: an answer still on its way is for the old one
  clearTimeout(timer);
  timer = setTimeout(() => solve(rpc), SOLVE_DELAY_MS);
}

/** Mark cell (r, c) as `kind`, keep the text in step and solve again. */
function mark(rpc, r, c, kind) {
  grid[r][c] = kind;
  text.value = boardText();
  solution = null;
  render();
  body.querySelector(`td[data-row="${r}"][data-col="${c}"]`).focus();
  later(rpc);
}

function brushKind() {
  const chosen = document.querySelector("input[name=brush]:checked");
  return chosen ? chosen.value : "?";
}

function setUp(rpc) {
  const brush = document.getElementById("brush");
  brush.append(...KINDS.map((k) => h("label", { class: "check" },
    h("input", { type: "radio", name: "brush", value: k, checked: k === "0" }),
    ` ${KIND_NAMES[k] || k}`)));
  text.addEventListener("input", () => {
    const parsed = parseBoard(text.value);
    if (parsed) { grid = parsed; focus = [0, 0]; showSize(); }
    later(rpc);
  });
  minesInput.addEventListener("input", () => later(rpc));
  document.getElementById("board-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    solve(rpc);
  });
  document.getElementById("size-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const width = Math.max(1, Math.min(60, Number(f.width.value) || 8));
    const height = Math.max(1, Math.min(60, Number(f.height.value) || 8));
    grid = Array.from({ length: height }, () => Array(width).fill("?"));
    text.value = boardText();
    focus = [0, 0];
    solution = null;
    render();
    later(rpc);
  });
  body.addEventListener("click", (event) => {
    const td = event.target.closest("td");
    if (!td) return;
    const r = Number(td.dataset.row), c = Number(td.dataset.col);
    const kind = brushKind();
    focus = [r, c];
    mark(rpc, r, c, grid[r][c] === kind ? "?" : kind);  // a second click covers it again
  });
  body.addEventListener("focusin", (event) => {
    const td = event.target.closest("td");
    if (!td) return;
    focus = [Number(td.dataset.row), Number(td.dataset.col)];
    body.querySelectorAll("td[tabindex='0']").forEach((x) => { if (x !== td) x.tabIndex = -1; });
    td.tabIndex = 0;
    document.getElementById("cell-info").textContent = td.title;
  });
  body.addEventListener("mouseover", (event) => {
    const td = event.target.closest("td");
    if (td) document.getElementById("cell-info").textContent = td.title;
  });
  body.addEventListener("keydown", (event) => keyboard(rpc, event));
}

function keyboard(rpc, event) {
  const td = event.target.closest("td");
  if (!td) return;
  const r = Number(td.dataset.row), c = Number(td.dataset.col);
  const moves = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
    Home: [r, 0], End: [r, grid[r].length - 1] };
  const to = moves[event.key];
  if (to) {
    event.preventDefault();
    const next = body.querySelector(`td[data-row="${to[0]}"][data-col="${to[1]}"]`);
    if (next) next.focus();
    return;
  }
  let kind = null;
  if (event.key === "Enter" || event.key === " ") kind = brushKind();
  else if (/^[0-8]$/.test(event.key)) kind = event.key;
  else if (event.key === ".") kind = "0";
  else if (/^[xX*]$/.test(event.key)) kind = "X";
  else if (event.key === "?" || event.key === "Delete" || event.key === "Backspace") kind = "?";
  if (kind === null) return;
  event.preventDefault();
  focus = [r, c];
  mark(rpc, r, c, kind);
}

/** The width and height fields say the board's size (a board pasted, or the example the
 * page opens with), so "New covered board" starts from the board shown. */
function showSize() {
  const f = document.getElementById("size-form").elements;
  f.width.value = String(grid[0].length);
  f.height.value = String(grid.length);
}

const EXAMPLE = "??????\n?2111?\n?1..1?\n?1..2?\n??????";

async function main() {
  const rpc = await connect();
  setUp(rpc);
  const given = new URLSearchParams(location.search).get("board");
  text.value = given || EXAMPLE;
  grid = parseBoard(text.value) || [["?"]];
  showSize();
  render();
  await solve(rpc);
}

main();
