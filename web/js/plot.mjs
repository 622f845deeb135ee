// The live loss plot of the playground and of the lessons' cells: every series a script logs with
// borch_webgpu.log(name, value), drawn on a canvas (our own code, no chart library): axes with round
// ticks, one colour per series, a legend, linear or log y. Redraws at most once per animation frame;
// saves itself as PNG.
//
//   const plot = new LossPlot(canvas, { onChange });
//   plot.add("loss", step, value); plot.clear(); plot.setLogScale(true);
//   plot.pointCount(); plot.nonFiniteCount(); plot.toPNG() -> "data:image/png;base64,..."
// A NaN or infinite value is never dropped silently: it is marked at its step on the frame's edge
// (NaN and +inf at the top, -inf at the bottom) and counted in the legend; plot.marks lists them.

const COLORS = ["#c2410c", "#2563eb", "#15803d", "#9333ea", "#0891b2", "#be185d", "#854d0e", "#475569"];
const FONT = "12px system-ui, -apple-system, 'Segoe UI', sans-serif";

// Round tick values (1, 2, 5 x 10^k) covering [lo, hi], about n of them.
function niceTicks(lo, hi, n = 5) {
  if (!(hi > lo)) { const d = Math.abs(lo) * 0.1 || 1; lo -= d; hi += d; }
  const raw = (hi - lo) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return { ticks, lo: Math.min(lo, ticks[0] ?? lo), hi: Math.max(hi, ticks[ticks.length - 1] ?? hi) };
}

function fmt(v) {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(1).replace("e+", "e");
  return String(Number(v.toPrecision(4)));
}

export class LossPlot {
  constructor(canvas, { onChange = () => {} } = {}) {
    this.canvas = canvas;
    this.onChange = onChange;
    this.series = new Map();       // name -> {color, steps: [], values: []}
    this.logScale = false;
    this.marks = [];               // the NaN / inf markers last drawn
    this.pending = false;
    new ResizeObserver(() => this.draw()).observe(canvas);
    this.draw();
  }

  add(name, step, value) {
    let s = this.series.get(name);
    if (!s) {
      s = { color: COLORS[this.series.size % COLORS.length], steps: [], values: [] };
      this.series.set(name, s);
    }
    s.steps.push(step);
    s.values.push(value);
    this.schedule();
  }

  clear() {
    this.series.clear();
    this.schedule();
  }

  setLogScale(on) {
    this.logScale = !!on;
    this.schedule();
  }

  nonFiniteCount() {
    let n = 0;
    for (const s of this.series.values()) n += s.values.filter((v) => !Number.isFinite(v)).length;
    return n;
  }

  pointCount() {
    let n = 0;
    for (const s of this.series.values()) n += s.steps.length;
    return n;
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.draw(); this.onChange(this); });
  }

  // Draws on this.canvas at the device pixel ratio, or on another canvas (toPNG) at `scale`.
  draw(target = this.canvas, scale = window.devicePixelRatio || 1, width = this.canvas.clientWidth,
       height = this.canvas.clientHeight) {
    if (!width || !height) return;
    target.width = Math.round(width * scale);
    target.height = Math.round(height * scale);
    const g = target.getContext("2d");
    g.setTransform(scale, 0, 0, scale, 0, 0);
    g.fillStyle = "#fff";
    g.fillRect(0, 0, width, height);
    g.font = FONT;
    const useLog = this.logScale;
    const yOf = (v) => (useLog ? Math.log10(v) : v);

    // data ranges (non-finite values, and values <= 0 on a log axis, are not drawn)
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const s of this.series.values()) {
      for (let i = 0; i < s.steps.length; i++) {
        const v = s.values[i];
        x0 = Math.min(x0, s.steps[i]); x1 = Math.max(x1, s.steps[i]);   // a NaN's step is on the x axis too
        if (!Number.isFinite(v) || (useLog && v <= 0)) continue;
        y0 = Math.min(y0, yOf(v)); y1 = Math.max(y1, yOf(v));
      }
    }
    const empty = !Number.isFinite(x0);
    if (empty) { x0 = 0; x1 = 10; y0 = 0; y1 = 1; }
    if (!Number.isFinite(y0)) { y0 = 0; y1 = 1; }   // only NaN / inf so far
    if (x1 === x0) x1 = x0 + 1;
    if (!(y1 - y0 > 1e-12 * Math.max(1, Math.abs(y0)))) {   // one value (or all equal)
      const d = useLog ? 0.05 : (Math.abs(y0) * 0.1 || 1);
      y0 -= d; y1 += d;
    }
    const pad = (y1 - y0) * 0.05;    // keep the curve off the frame
    y0 -= pad; y1 += pad;
    const xt = niceTicks(x0, x1, Math.max(2, Math.floor(width / 90)));
    const yt = useLog ? logTicks(y0, y1) : niceTicks(y0, y1, Math.max(2, Math.floor(height / 45)));
    const ylabels = yt.ticks.map((t) => (useLog ? fmt(Math.pow(10, t)) : fmt(t)));
    const left = 12 + Math.max(...ylabels.map((l) => g.measureText(l).width), 10);
    const box = { l: left, r: width - 12, t: 12, b: height - 40 };
    const X = (s) => box.l + (s - xt.lo) / (xt.hi - xt.lo || 1) * (box.r - box.l);
    const Y = (v) => box.b - (v - yt.lo) / (yt.hi - yt.lo || 1) * (box.b - box.t);

    // grid and tick labels
    g.strokeStyle = "#eef0f3"; g.lineWidth = 1; g.fillStyle = "#5b6470";
    g.textAlign = "right"; g.textBaseline = "middle";
    yt.ticks.forEach((t, i) => {
      const y = Math.round(Y(t)) + 0.5;
      g.beginPath(); g.moveTo(box.l, y); g.lineTo(box.r, y); g.stroke();
      g.fillText(ylabels[i], box.l - 6, y);
    });
    g.textAlign = "center"; g.textBaseline = "top";
    for (const t of xt.ticks) {
      const x = Math.round(X(t)) + 0.5;
      g.beginPath(); g.moveTo(x, box.t); g.lineTo(x, box.b); g.stroke();
      const label = fmt(t), half = g.measureText(label).width / 2;
      g.fillText(label, Math.min(Math.max(x, half + 2), width - half - 2), box.b + 6);
    }
    g.strokeStyle = "#cbd2da";
    g.strokeRect(box.l + 0.5, box.t + 0.5, box.r - box.l, box.b - box.t);

    if (empty) {
      g.fillStyle = "#94a3b8"; g.textAlign = "center"; g.textBaseline = "middle";
      g.fillText("borch_webgpu.log(\"loss\", value) in a script plots here", (box.l + box.r) / 2, (box.t + box.b) / 2);
      return;
    }

    // the series: a line, thinned to about two points per pixel; single points as dots
    g.save();
    g.beginPath(); g.rect(box.l, box.t, box.r - box.l, box.b - box.t); g.clip();
    for (const s of this.series.values()) {
      const n = s.steps.length;
      const stride = Math.max(1, Math.floor(n / ((box.r - box.l) * 2)));
      g.strokeStyle = s.color; g.fillStyle = s.color; g.lineWidth = 1.6; g.lineJoin = "round";
      g.beginPath();
      let pen = false, drawn = 0;
      const visit = (i) => {
        const v = s.values[i];
        if (!Number.isFinite(v) || (useLog && v <= 0)) { pen = false; return; }
        const x = X(s.steps[i]), y = Y(yOf(v));
        if (pen) g.lineTo(x, y); else g.moveTo(x, y);
        pen = true; drawn++;
      };
      for (let i = 0; i < n; i += stride) visit(i);
      if ((n - 1) % stride) visit(n - 1);   // always end at the latest value
      g.stroke();
      if (n <= 40) {
        for (let i = 0; i < n; i++) {
          const v = s.values[i];
          if (!Number.isFinite(v) || (useLog && v <= 0)) continue;
          g.beginPath(); g.arc(X(s.steps[i]), Y(yOf(v)), drawn === 1 ? 3 : 2, 0, 2 * Math.PI); g.fill();
        }
      }
    }
    // NaN and infinities: a marker at the step, on the top edge (NaN, +inf) or the bottom edge (-inf)
    this.marks = [];
    g.textAlign = "center";
    for (const [name, s] of this.series.entries()) {
      g.strokeStyle = s.color; g.fillStyle = s.color; g.lineWidth = 1.5;
      for (let i = 0; i < s.steps.length; i++) {
        const v = s.values[i];
        if (Number.isFinite(v)) continue;
        const kind = Number.isNaN(v) ? "NaN" : v > 0 ? "inf" : "-inf";
        const x = X(s.steps[i]), top = kind !== "-inf", y = top ? box.t + 5 : box.b - 5;
        g.beginPath(); g.moveTo(x - 4, y - 4); g.lineTo(x + 4, y + 4); g.moveTo(x + 4, y - 4); g.lineTo(x - 4, y + 4); g.stroke();
        g.textBaseline = top ? "top" : "bottom";
        if (this.marks.length < 20) g.fillText(kind, x, top ? y + 6 : y - 6);
        this.marks.push({ name, step: s.steps[i], kind, x, y });
      }
    }
    g.restore();

    // legend: top right, each series with its latest value (and how many values were NaN or inf)
    const rows = [...this.series.entries()].map(([name, s]) => {
      const last = s.values[s.values.length - 1];
      const bad = s.values.filter((v) => !Number.isFinite(v)).length;
      return { name, color: s.color, text: `${name}  ${fmt(last)}${bad ? `  (${bad} NaN/inf)` : ""}` };
    });
    const w = Math.max(...rows.map((r) => g.measureText(r.text).width)) + 30;
    const h = rows.length * 18 + 8;
    const lx = box.r - w - 8, ly = box.t + 8;
    g.fillStyle = "rgba(255,255,255,0.9)"; g.strokeStyle = "#e3e6ea";
    g.fillRect(lx, ly, w, h); g.strokeRect(lx + 0.5, ly + 0.5, w, h);
    g.textAlign = "left"; g.textBaseline = "middle";
    rows.forEach((r, i) => {
      const y = ly + 13 + i * 18;
      g.fillStyle = r.color; g.fillRect(lx + 8, y - 2, 14, 4);
      g.fillStyle = "#1b1f24"; g.fillText(r.text, lx + 28, y);
    });
    g.textAlign = "center"; g.textBaseline = "bottom"; g.fillStyle = "#94a3b8";
    g.fillText("step", (box.l + box.r) / 2, height - 2);
  }

  // A PNG of the plot at twice its on-screen size, as a data URL.
  toPNG() {
    const c = document.createElement("canvas");
    this.draw(c, 2);
    return c.toDataURL("image/png");
  }
}

// Ticks of a log10 axis (values are exponents): the whole powers of ten inside [lo, hi] when there
// are at least two, else round values (0.5, 1, 1.5, ...) placed on the log axis.
function logTicks(lo, hi) {
  let ticks = [];
  const stepE = Math.max(1, Math.ceil((hi - lo) / 6));
  for (let e = Math.ceil(lo); e <= Math.floor(hi); e += stepE) ticks.push(e);
  if (ticks.length < 2) {
    ticks = niceTicks(Math.pow(10, lo), Math.pow(10, hi), 6).ticks
      .filter((v) => v > 0).map(Math.log10).filter((e) => e >= lo && e <= hi);
  }
  return { ticks, lo, hi };
}
