// Inline SVG drawn by hand (no library): elements in the SVG namespace and a bar chart.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element: s("rect", {x: 1, y: 2}, child, ...). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Round ticks for an axis over lo..hi, about `count` of them: a step of 1, 2 or 5 times
 * a power of ten, from the multiple of it at or below lo to the one at or above hi (the
 * axis then spans the ticks), as plotting libraries choose them. */
export function niceTicks(lo, hi, count = 4) {
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw);
  const first = Math.floor(lo / step + 1e-9), last = Math.ceil(hi / step - 1e-9);
  const ticks = [];
  for (let k = first; k <= last; k += 1) ticks.push(Number((k * step).toPrecision(12)));
  return ticks;
}

/**
 * Bars for `values` (numbers) labelled by `labels`, as an image whose text alternative is
 * `label`; each bar's count is its tooltip. Sized by its viewBox, so it scales to the page.
 */
export function barChart(labels, values, label, { width = 600, height = 160, every = 1 } = {}) {
  const peak = Math.max(1, ...values);
  const pad = 18;
  const step = (width - 4) / Math.max(1, values.length);
  const bars = values.map((v, i) => {
    const tall = ((height - pad - 4) * v) / peak;
    return s("rect", { x: (2 + i * step).toFixed(2), y: (height - pad - tall).toFixed(2),
      width: Math.max(1, step - 1).toFixed(2), height: tall.toFixed(2), class: "bar" },
    s("title", {}, `${labels[i]}: ${v}`));
  });
  const ticks = labels.map((text, i) => (i % every === 0
    ? s("text", { x: (2 + (i + 0.5) * step).toFixed(2), y: height - 4, "text-anchor": "middle" }, text)
    : null));
  return s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "bars" },
    s("line", { x1: 0, x2: width, y1: height - pad, y2: height - pad, class: "axis" }), bars, ticks);
}
