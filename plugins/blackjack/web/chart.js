// The blackjack strategy chart for any rule set: the rules' options in a form, solved on
// the server by the blackjack solver (`solve`), drawn as the terminal draws it (a colour per
// action) with every cell's EVs on hover or focus. The page's address holds the rules
// (chart.html?rules=vegas-s17&decks=2), so a chart can be linked to.

import { connect, h, setStatus } from "/js/common.js";

const SECTIONS = [["hard", "Hard totals"], ["soft", "Soft totals"], ["pairs", "Pairs"]];
const CHECKS = ["double_after_split", "resplit_aces", "hit_split_aces", "peek"];
const FIELDS = ["decks", "dealer", "double", "max_split_hands", "surrender", "blackjack_pays", ...CHECKS];
const ACTION_ORDER = ["stand", "hit", "double", "split", "surrender"];

const form = document.getElementById("rules");
let ruleSets = new Map();

function fillForm(rules) {
  for (const name of FIELDS) {
    const field = form.elements[name];
    if (!field || !(name in rules)) continue;
    if (CHECKS.includes(name)) field.checked = Boolean(rules[name]);
    else field.value = rules[name] === null ? "inf" : String(rules[name]);
  }
}

function formRules() {
  const base = { ...ruleSets.get(form.elements.rules.value) };
  for (const name of FIELDS) {
    const field = form.elements[name];
    if (CHECKS.includes(name)) base[name] = field.checked;
    else if (name === "decks") base.decks = /^inf/i.test(field.value.trim()) ? null : Number(field.value);
    else if (name === "max_split_hands") base[name] = Number(field.value);
    else base[name] = field.value.trim();
  }
  return base;
}

function evText(section, row, up, letters, values) {
  const hand = section === "pairs" ? `pair of ${row.split(",")[0]}s` : `${section} ${row}`;
  const evs = ACTION_ORDER.filter((a) => values && a in values)
    .map((a) => `${a} ${values[a] >= 0 ? "+" : "\u2212"}${Math.abs(values[a]).toFixed(4)}`);
  return `${hand} against ${up}: ${letters}${evs.length ? ` (${evs.join(", ")})` : ""}`;
}

function chartTable(chart, section, caption) {
  const values = (chart.values || {})[section] || {};
  const head = h("tr", {}, h("th", { scope: "col" }, "hand"), chart.upcards.map((up) => h("th", { scope: "col" }, up)));
  const rows = Object.entries(chart[section]).map(([row, letters]) =>
    h("tr", {}, h("th", { scope: "row" }, row),
      letters.map((letter, col) => {
        const text = evText(section, row, chart.upcards[col], letter, (values[row] || [])[col]);
        return h("td", {
          class: letter[0], tabindex: -1, title: text, "aria-label": text,
          "data-section": section, "data-row": row, "data-col": chart.upcards[col],
        }, letter);
      })));
  return h("table", { class: "chart", "data-section": section },
    h("caption", {}, caption), h("thead", {}, head), h("tbody", {}, rows));
}

function showEvs(cell) {
  document.getElementById("evs").textContent = cell.getAttribute("title");
}

/** Arrow keys move between cells of a chart (one tab stop per chart), Home/End along a row. */
function keyboard(table) {
  const cells = () => [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")]);
  const first = table.querySelector("td");
  if (first) first.tabIndex = 0;
  table.addEventListener("keydown", (event) => {
    const grid = cells();
    const cell = event.target.closest("td");
    if (!cell) return;
    const r = grid.findIndex((row) => row.includes(cell));
    const c = grid[r].indexOf(cell);
    const moves = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
      Home: [r, 0], End: [r, grid[r].length - 1] };
    const to = moves[event.key];
    if (!to) return;
    const next = grid[to[0]] && grid[to[0]][to[1]];
    event.preventDefault();
    if (!next) return;
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  table.addEventListener("focusin", (event) => { if (event.target.matches("td")) showEvs(event.target); });
  table.addEventListener("mouseover", (event) => { if (event.target.matches("td")) showEvs(event.target); });
}

function pct(x) { return `${(100 * x).toFixed(4)}%`; }

function show(solution) {
  const chart = solution.chart;
  const charts = document.getElementById("charts");
  charts.replaceChildren(...SECTIONS.map(([section, caption]) => chartTable(chart, section, caption)));
  charts.querySelectorAll("table.chart").forEach(keyboard);
  document.getElementById("legend").hidden = false;
  const edge = solution.house_edge;
  document.getElementById("edge").textContent = edge
    ? `House edge ${pct(edge.total_dependent)} playing this chart (${edge.total_dependent_chart}); ${pct(edge.composition_dependent)} with composition-dependent play.`
    : "";
}

async function solve(rpc) {
  const rules = formRules();
  const query = new URLSearchParams({ rules: form.elements.rules.value });
  const defaults = ruleSets.get(form.elements.rules.value);
  for (const name of FIELDS) {
    if (rules[name] !== defaults[name]) query.set(name, rules[name] === null ? "inf" : String(rules[name]));
  }
  history.replaceState(null, "", `?${query}`);
  setStatus("Solving…");
  document.getElementById("charts").setAttribute("aria-busy", "true");
  try {
    const solution = await rpc.call("solve", "blackjack", { rules, objective: "ev", td_chart: "actual", chart: true });
    show(solution);
    setStatus(`Solved: ${describe(solution.rules)}${solution.note ? `. ${solution.note}` : ""}`);
  } catch (err) {
    setStatus(err.message, true);
  } finally {
    document.getElementById("charts").removeAttribute("aria-busy");
  }
}

function describe(r) {
  const decks = r.decks === null ? "infinite deck" : `${r.decks} deck(s)`;
  return `${decks}, ${r.dealer.toUpperCase()}, double ${r.double}, ${r.double_after_split ? "DAS" : "no DAS"}, ` +
    `split to ${r.max_split_hands}, surrender ${r.surrender}, blackjack pays ${r.blackjack_pays}, ${r.peek ? "peek" : "no peek"}`;
}

async function main() {
  const rpc = await connect();
  const sets = await rpc.call("rule_sets");
  ruleSets = new Map(sets.map((s) => [s.name, s.rules]));
  const select = form.elements.rules;
  select.replaceChildren(...sets.map((s) => h("option", { value: s.name, title: s.summary }, s.name)));
  const params = new URLSearchParams(location.search);
  select.value = ruleSets.has(params.get("rules")) ? params.get("rules") : ruleSets.has("vegas-s17") ? "vegas-s17" : sets[0].name;
  fillForm(ruleSets.get(select.value));
  const overrides = {};
  for (const name of FIELDS) {
    if (!params.has(name)) continue;
    const value = params.get(name);
    overrides[name] = CHECKS.includes(name) ? value === "true" : name === "decks" && /^inf/i.test(value) ? null : value;
  }
  fillForm(overrides);
  select.addEventListener("change", () => fillForm(ruleSets.get(select.value)));
  form.addEventListener("submit", (event) => { event.preventDefault(); solve(rpc); });
  await solve(rpc);
}

main();
