// What every page shares: building elements, the status line, connecting to the server.

import { Rpc } from "./rpc.js";

/** An element: h("td", {class: "num"}, "12", child, ...); attributes set as given. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Say `text` in the page's status line (role=status); `error` marks it as a problem. The
 * same text again is not written, so a screen reader does not say it again. */
export function setStatus(text, error = false) {
  const status = document.getElementById("status");
  if (!status) return;
  setText(status, text);
  status.classList.toggle("error", error);
}

/** Set an element's text only when it changes (a live region speaks at every write). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Connect to the server as a watcher; the status line says when the connection is lost. */
export async function connect() {
  const rpc = new Rpc();
  try {
    await rpc.connect();
  } catch (err) {
    setStatus(`Cannot reach the croupier server: ${err.message}`, true);
    throw err;
  }
  rpc.onclose = () => setStatus("The connection to the server closed; reload the page to reconnect.", true);
  return rpc;
}

/** Name each body cell of `table` after its column's heading (data-label), which a phone's
 * layout of the lobby's lists shows before the cell (style.css). */
export function labelCells(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.cells].forEach((cell, i) => { if (names[i]) cell.dataset.label = names[i]; });
  }
}

/** An integer (Number or BigInt) as text. */
export function num(x) {
  return x === null || x === undefined ? "" : x.toString();
}

/** A table's or tournament's seed as the page shows it: hidden while it plays (only a
 * commitment to it is public, see docs/protocol.md), the seed once it finished. */
export function seedText(info) {
  if (info.seed !== null && info.seed !== undefined) return `seed ${num(info.seed)}`;
  return info.commit ? `seed hidden until it finishes (commitment ${info.commit.slice(0, 16)}…)`
    : "seed hidden until it finishes";
}

/** The query parameter `name` of this page's address, or null. */
export function param(name) {
  return new URLSearchParams(location.search).get(name);
}

let index = null;

/** What the server's games bring to the page (/games/index.json): `views` (game -> the
 * address of its table view) and `pages` (each game's own pages: title and address). */
export function gamesIndex() {
  if (index === null) {
    index = fetch("/games/index.json")
      .then((response) => (response.ok ? response.json() : { views: {}, pages: [] }))
      .catch(() => ({ views: {}, pages: [] }));
  }
  return index;
}

/** Add the games' own pages (blackjack's strategy chart, ...) to the pages menu. */
async function addGamePages() {
  const nav = document.querySelector('nav[aria-label="pages"]');
  if (!nav) return;
  const { pages } = await gamesIndex();
  const links = pages.map((p) => h("a", { href: p.href, "aria-current": p.href === location.pathname ? "page" : null }, p.title));
  nav.children[0].after(...links);  // after the lobby, before the solvers' pages
  nav.dataset.games = "added";
}

addGamePages();

