// The randomizer page: spec text (or a name) and a seed, dealt on the server by
// randomizer.open and randomizer.draw (what `croupier randomize` deals from the same seed),
// counted here as engine/randomizer_stats.py counts them (`croupier stats`): frequency,
// repeats, the pooled interval histogram with its mean, variance and percentiles, and an
// interval histogram per piece. The address holds the spec, seed and count.

import { connect, h, num, setStatus } from "./common.js";
import { barChart } from "./svg.js";

const DRAW = 100000;       // the server's max_draw per call
const MAX_N = 1000000;
const SHOWN = 1000;        // pieces written out
const PERCENTILES = [50, 90, 99];
const HISTOGRAM_BARS = 30; // intervals drawn one by one; longer ones share a last bar

const form = document.getElementById("spec-form");

/** The statistics of `pieces` as randomizer_stats.py defines them, plus per-piece intervals. */
export function stats(pieces, symbols) {
  const counts = new Map(symbols.map((x) => [x, 0]));
  const last = new Map();
  const pooled = new Map();
  const each = new Map(symbols.map((x) => [x, new Map()]));
  pieces.forEach((piece, i) => {
    counts.set(piece, (counts.get(piece) || 0) + 1);
    const j = last.get(piece);
    if (j !== undefined) {
      const d = i - j;
      pooled.set(d, (pooled.get(d) || 0) + 1);
      if (!each.has(piece)) each.set(piece, new Map());
      each.get(piece).set(d, (each.get(piece).get(d) || 0) + 1);
    }
    last.set(piece, i);
  });
  return { pieces: pieces.length, counts, repeats: pooled.get(1) || 0, interval: intervalStats(pooled), each };
}

/** Count, mean, population variance, nearest-rank percentiles and max of a histogram. */
export function intervalStats(histogram) {
  const keys = [...histogram.keys()].sort((a, b) => a - b);
  const count = keys.reduce((t, k) => t + histogram.get(k), 0);
  if (!count) return { count: 0, mean: null, variance: null, percentiles: {}, max: null, histogram };
  const mean = keys.reduce((t, k) => t + k * histogram.get(k), 0) / count;
  const variance = keys.reduce((t, k) => t + histogram.get(k) * (k - mean) ** 2, 0) / count;
  const percentiles = {};
  for (const p of PERCENTILES) {
    const rank = Math.max(1, Math.ceil((p * count) / 100));
    let seen = 0;
    for (const k of keys) {
      seen += histogram.get(k);
      if (seen >= rank) { percentiles[p] = k; break; }
    }
  }
  return { count, mean, variance, percentiles, max: keys[keys.length - 1], histogram };
}

function share(x, total) { return total ? `${((100 * x) / total).toFixed(4)}%` : ""; }

/** The histogram's bars: intervals 1..30 one by one, longer ones together as ">30". */
function bars(histogram) {
  const top = Math.min(HISTOGRAM_BARS, Math.max(0, ...histogram.keys()));
  const labels = [];
  const values = [];
  for (let k = 1; k <= top; k += 1) { labels.push(String(k)); values.push(histogram.get(k) || 0); }
  let tail = 0;
  for (const [k, v] of histogram) if (k > HISTOGRAM_BARS) tail += v;
  if (tail) { labels.push(`>${HISTOGRAM_BARS}`); values.push(tail); }
  return [labels, values];
}

function histogramText(histogram) {
  const [labels, values] = bars(histogram);
  return labels.map((l, i) => `${l}: ${values[i]}`).join(", ");
}

function show(spec, seed, pieces, symbols) {
  const st = stats(pieces, symbols);
  document.getElementById("results").hidden = false;
  document.getElementById("pieces-title").textContent =
    pieces.length > SHOWN ? `The first ${SHOWN} of ${pieces.length} pieces` : `${pieces.length} pieces`;
  document.getElementById("pieces").textContent = pieces.slice(0, SHOWN).join(" ");
  const top = Math.max(1, ...st.counts.values());
  document.querySelector("#counts tbody").replaceChildren(...[...st.counts].map(([x, c]) =>
    h("tr", { "data-symbol": x }, h("th", { scope: "row" }, x), h("td", { class: "num" }, String(c)),
      h("td", { class: "num" }, share(c, st.pieces)),
      h("td", { class: "wide" }, h("span", { class: "meter", "aria-hidden": "true" }, "#".repeat(Math.round((40 * c) / top)))))));
  const iv = st.interval;
  const lines = [`${spec}: ${st.pieces} pieces, seed ${num(seed)}.`,
    `Repeats of the previous piece: ${st.repeats} (${share(st.repeats, st.pieces - 1)}).`];
  if (iv.count) {
    const pct = PERCENTILES.map((p) => `p${p} ${iv.percentiles[p]}`).join(", ");
    lines.push(`Interval between copies: mean ${iv.mean.toFixed(4)}, variance ${iv.variance.toFixed(4)}, ${pct}, max ${iv.max} (longest gap ${iv.max - 1} pieces).`);
  }
  const summary = document.getElementById("summary");
  summary.textContent = lines.join(" ");
  summary.dataset.stats = JSON.stringify({
    pieces: st.pieces, counts: Object.fromEntries(st.counts), repeats: st.repeats,
    interval: { count: iv.count, mean: iv.mean, variance: iv.variance, max: iv.max,
      percentiles: Object.fromEntries(Object.entries(iv.percentiles).map(([p, v]) => [p, v])),
      histogram: Object.fromEntries(iv.histogram) },
    each: Object.fromEntries([...st.each].map(([x, m]) => [x, Object.fromEntries(m)])),
  });
  const [labels, values] = bars(iv.histogram);
  document.getElementById("pooled").replaceChildren(iv.count
    ? barChart(labels, values, `interval histogram of all pieces: ${histogramText(iv.histogram)}`, { every: labels.length > 20 ? 2 : 1 })
    : h("p", { class: "muted" }, "No piece came twice: no interval."));
  document.getElementById("per-symbol").replaceChildren(...[...st.each].map(([x, m]) => {
    const one = intervalStats(m);
    const [l, v] = bars(m);
    const about = one.count ? `${one.count} intervals, mean ${one.mean.toFixed(2)}, max ${one.max}` : "no interval";
    return h("figure", { "data-symbol": x },
      one.count ? barChart(l, v, `interval histogram of ${x}: ${histogramText(m)}`, { width: 300, height: 110, every: 5 }) : null,
      h("figcaption", {}, h("strong", {}, x), ` ${about}`));
  }));
}

async function deal(rpc) {
  const spec = form.elements.spec.value.trim();
  const seedText = form.elements.seed.value.trim();
  const n = Math.max(1, Math.min(MAX_N, Math.floor(Number(form.elements.n.value) || 1000)));
  if (!spec) { setStatus("Give a randomizer's name or spec text.", true); return; }
  if (seedText && !/^\d+$/.test(seedText)) { setStatus("A seed is a whole number from 0 to 2**64-1.", true); return; }
  const seed = seedText ? (BigInt(seedText) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seedText) : BigInt(seedText)) : null;
  setStatus("Dealing…");
  let opened;
  try {
    opened = await rpc.call("randomizer.open", spec, seed);
  } catch (err) {
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
    return;
  }
  try {
    const pieces = [];
    while (pieces.length < n) {
      const chunk = await rpc.call("randomizer.draw", opened.stream, Math.min(DRAW, n - pieces.length));
      for (const piece of chunk) pieces.push(piece);
    }
    form.elements.seed.value = num(opened.seed);
    history.replaceState(null, "", `?${new URLSearchParams({ spec, seed: num(opened.seed), n: String(n) })}`);
    show(spec, opened.seed, pieces, opened.symbols);
    setStatus(`Dealt ${n} pieces of ${spec} from seed ${num(opened.seed)}.`);
  } catch (err) {
    setStatus(err.error && err.error.message ? err.error.message : err.message, true);
  } finally {
    rpc.call("randomizer.close", opened.stream).catch(() => {});
  }
}

async function main() {
  const rpc = await connect();
  const known = await rpc.call("randomizers");
  const names = document.getElementById("names");
  names.append(...known.randomizers.map((r) => h("option", { value: r.name, title: r.summary }, r.name)));
  names.addEventListener("change", () => { if (names.value) form.elements.spec.value = names.value; });
  form.addEventListener("submit", (event) => { event.preventDefault(); deal(rpc); });
  const params = new URLSearchParams(location.search);
  form.elements.spec.value = params.get("spec") || "7-bag";
  if (params.get("seed")) form.elements.seed.value = params.get("seed");
  if (params.get("n")) form.elements.n.value = params.get("n");
  await deal(rpc);
}

main();
