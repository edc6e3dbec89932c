// The leaderboard (the `leaderboard` method): each bot's rating with its 95% interval and
// games, and the skill figures per decision where the server measures them (extra columns,
// shown only when some bot has them). ?bot=NAME adds that bot's rating at every fit and its
// costliest decisions, each a link into the replay viewer at that step (a server table's), or
// at that hand, seat and action of its tournament table's replay (the viewer finds the step).

import { connect, h, num, param, setStatus } from "./common.js";

const SKILLS = [
  ["ev_loss_per_decision", "EV loss / decision"],
  ["per_100_rounds", "Result / 100 rounds"],
  ["adjusted_per_100_rounds", "Adjusted / 100 rounds"],
];

function whole(x) { return x === null || x === undefined ? "–" : Math.round(Number(x)).toString(); }
function interval(line) { return `${whole(line.low)} to ${whole(line.high)}`; }

function board(data) {
  const table = document.getElementById("board");
  const skills = SKILLS.filter(([key]) => data.bots.some((b) => b.skill && b.skill[key] !== null && b.skill[key] !== undefined));
  const head = table.querySelector("thead tr");
  for (const [, label] of skills) head.append(h("th", { scope: "col", class: "num" }, label));
  table.querySelector("tbody").replaceChildren(...data.bots.map((b) => h("tr", { "data-bot": b.name },
    h("td", { class: "num" }, b.tied ? `${b.rank}=` : String(b.rank)),
    h("th", { scope: "row" }, h("a", { href: `/leaderboard.html?bot=${encodeURIComponent(b.name)}` }, b.name)),
    h("td", { class: "num" }, whole(b.rating)), h("td", {}, interval(b)), h("td", { class: "num" }, num(b.games)),
    ...skills.map(([key]) => h("td", { class: "num" }, b.skill && b.skill[key] !== null ? Number(b.skill[key]).toFixed(3) : "–")))));
  table.hidden = data.bots.length === 0;
  document.getElementById("summary").textContent = data.fit
    ? `Fit ${data.fit}, after tournament ${data.tournament}: ${data.bots.length} bot(s).`
    : "No ratings yet: they are fit once a tournament has been played to its end.";
}

/** Where a costliest decision can be seen: a server table's replay at its step, or its
 * tournament table's replay at the hand, seat and action taken. */
export function decisionHref(d) {
  if (d.tournament !== undefined) {
    const [tourney, round, table] = d.table;
    const query = new URLSearchParams({ tournament: String(d.tournament), tourney: String(tourney),
      round: String(round), table: String(table), hand: String(d.round), seat: String(d.seat), taken: d.taken });
    return `/replay.html?${query}`;
  }
  const at = d.at === null || d.at === undefined ? "" : `&at=${num(d.at)}`;
  return `/replay.html?table=${num(d.table)}${at}`;
}

function decisionLink(d) {
  const text = d.tournament !== undefined
    ? `tournament ${num(d.tournament)}, tourney ${d.table[0]} round ${d.table[1]} table ${d.table[2]}, hand ${num(d.round)}, seat ${num(d.seat)}`
    : `table ${num(d.table)}, round ${num(d.round)}, seat ${num(d.seat)}`;
  return h("a", { href: decisionHref(d) }, text);
}

function bot(name, data) {
  const section = document.getElementById("bot");
  section.hidden = false;
  document.getElementById("bot-title").textContent = name;
  const fits = data.history ? data.history.fits : [];
  document.querySelector("#fits tbody").replaceChildren(...fits.map((f) => h("tr", {},
    h("td", { class: "num" }, num(f.fit)), h("td", { class: "num" }, h("a", { href: `/tournament.html?tournament=${num(f.tournament)}` }, num(f.tournament))),
    h("td", { class: "num" }, whole(f.rating)), h("td", {}, interval(f)), h("td", { class: "num" }, num(f.games)))));
  const line = data.bots.find((b) => b.name === name);
  const costliest = line && line.skill && line.skill.costliest ? line.skill.costliest : [];
  document.getElementById("costliest").replaceChildren(...(costliest.length
    ? costliest.map((d) => h("li", { "data-loss": String(d.loss) }, decisionLink(d),
      `: ${d.taken} (best ${d.best}) loses ${Number(d.loss).toFixed(3)}`))
    : [h("li", { class: "muted" }, "None measured: this server scores no decisions of this bot.")]));
}

async function main() {
  const rpc = await connect();
  const name = param("bot");
  try {
    const data = await rpc.call("leaderboard", name || null);
    board(data);
    if (name) bot(name, data);
    setStatus("");
  } catch (err) {
    setStatus(err.message, true);
  }
}

main();
