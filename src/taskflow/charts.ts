import { LENGTH_BINS } from "../effort/length";
import { nodeOrder } from "./flow";
import { END, START, type TaskFlow } from "./model";
import { TASK_LABELS } from "./taxonomy";

/**
 * Vega-Lite specs of a Task Flow comparison: pure functions of the flows
 * (data inlined), no rendering. Any Vega-Lite 5/6 renderer draws them.
 */
export type VegaLiteSpec = Record<string, unknown>;

export interface FlowSide {
  /** Shown in legends: "target", "benchmark" or a corpus name. */
  name: string;
  flow: TaskFlow;
}

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const SIDE_COLORS = ["#4c78a8", "#f58518"];

const shares = (counts: Record<string, number>): Record<string, number> => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(counts)) out[k] = total > 0 ? v / total : 0;
  return out;
};

const sideScale = (a: FlowSide, b: FlowSide) => ({ domain: [a.name, b.name], range: SIDE_COLORS });

/** P_L of both sides as grouped bars over the seven bins. */
export function lengthDistributionSpec(target: FlowSide, benchmark: FlowSide): VegaLiteSpec {
  const values = [target, benchmark].flatMap((s) => {
    const sh = shares(s.flow.lengths);
    return LENGTH_BINS.map((bin) => ({ side: s.name, bin, share: sh[bin] ?? 0, sessions: s.flow.lengths[bin] ?? 0 }));
  });
  return {
    $schema: SCHEMA,
    title: "Session length (user messages)",
    width: 360,
    height: 220,
    data: { values },
    mark: { type: "bar" },
    encoding: {
      x: {
        field: "bin",
        type: "ordinal",
        sort: [...LENGTH_BINS],
        title: "messages per session",
        axis: { labelAngle: 0 },
      },
      xOffset: { field: "side", sort: [target.name, benchmark.name] },
      y: { field: "share", type: "quantitative", title: "share of sessions", axis: { format: "%" } },
      color: { field: "side", type: "nominal", scale: sideScale(target, benchmark), title: null },
      tooltip: [{ field: "side" }, { field: "bin" }, { field: "sessions" }, { field: "share", format: ".1%" }],
    },
  };
}

/** P_T of both sides as grouped horizontal bars over the instantiable labels. */
export function taskTypeSharesSpec(target: FlowSide, benchmark: FlowSide): VegaLiteSpec {
  const labels = TASK_LABELS.filter((l) => l in target.flow.task_types || l in benchmark.flow.task_types);
  const values = [target, benchmark].flatMap((s) => {
    const sh = shares(s.flow.task_types);
    return labels.map((label) => ({
      side: s.name,
      label,
      share: sh[label] ?? 0,
      messages: s.flow.task_types[label] ?? 0,
    }));
  });
  return {
    $schema: SCHEMA,
    title: "Task types of retained messages",
    width: 360,
    height: { step: 9 },
    data: { values },
    mark: { type: "bar" },
    encoding: {
      y: { field: "label", type: "nominal", sort: labels, title: null },
      yOffset: { field: "side", sort: [target.name, benchmark.name] },
      x: { field: "share", type: "quantitative", title: "share of messages", axis: { format: "%" } },
      color: { field: "side", type: "nominal", scale: sideScale(target, benchmark), title: null },
      tooltip: [{ field: "side" }, { field: "label" }, { field: "messages" }, { field: "share", format: ".1%" }],
    },
  };
}

/** P_R of both sides as heat maps (from → to), one panel each. */
export function transitionHeatmapSpec(target: FlowSide, benchmark: FlowSide): VegaLiteSpec {
  const values = [target, benchmark].flatMap((s) => {
    const total = s.flow.transitions.reduce((a, t) => a + t.count, 0);
    return s.flow.transitions.map((t) => ({
      side: s.name,
      from: t.from,
      to: t.to,
      count: t.count,
      share: total > 0 ? t.count / total : 0,
    }));
  });
  const nodes = Array.from(new Set(values.flatMap((v) => [v.from, v.to]))).sort((a, b) => nodeOrder(a) - nodeOrder(b));
  const froms = nodes.filter((n) => n !== END);
  const tos = nodes.filter((n) => n !== START);
  return {
    $schema: SCHEMA,
    title: "Transitions between adjacent retained messages",
    data: { values },
    facet: { column: { field: "side", type: "nominal", sort: [target.name, benchmark.name], title: null } },
    spec: {
      width: { step: 16 },
      height: { step: 16 },
      mark: { type: "rect" },
      encoding: {
        x: { field: "to", type: "nominal", sort: tos, scale: { domain: tos }, title: "to", axis: { labelAngle: -45 } },
        y: { field: "from", type: "nominal", sort: froms, scale: { domain: froms }, title: "from" },
        color: {
          field: "share",
          type: "quantitative",
          scale: { scheme: "blues" },
          title: "share",
          legend: { format: "%" },
        },
        tooltip: [
          { field: "side" },
          { field: "from" },
          { field: "to" },
          { field: "count" },
          { field: "share", format: ".1%" },
        ],
      },
    },
  };
}

/**
 * The first `positions` user messages of every session as a flow diagram
 * (unfiltered, all 16 labels, as the paper's Sankey figures): a node per
 * (position, label) sized by sessions, a band per adjacent pair, and an
 * "(end)" node where sessions stop. Null when the flow has no sequences.
 */
export function flowDiagramSpec(side: FlowSide, positions = 5): VegaLiteSpec | null {
  const seqs = side.flow.sequences;
  if (!seqs || seqs.length === 0) return null;
  const ENDED = "(end)";
  const nodes = new Map<string, { pos: number; label: string; sessions: number }>();
  const links = new Map<string, { from: string; to: string; pos: number; sessions: number }>();
  const bump = <T extends { sessions: number }>(m: Map<string, T>, k: string, init: T, n: number) => {
    const cur = m.get(k);
    if (cur) cur.sessions += n;
    else m.set(k, { ...init, sessions: n });
  };
  for (const s of seqs) {
    const shown = s.labels.slice(0, positions);
    shown.forEach((label, i) => bump(nodes, `${i + 1}|${label}`, { pos: i + 1, label, sessions: 0 }, s.n));
    for (let i = 0; i < shown.length; i++) {
      const to = i + 1 < shown.length ? shown[i + 1] : s.labels.length === shown.length ? ENDED : null;
      if (to === null) continue;
      if (to === ENDED) bump(nodes, `${i + 2}|${ENDED}`, { pos: i + 2, label: ENDED, sessions: 0 }, s.n);
      bump(links, `${i + 1}|${shown[i]}|${to}`, { from: shown[i], to, pos: i + 1, sessions: 0 }, s.n);
    }
  }
  const order = [...TASK_LABELS, ENDED];
  const linkRows = Array.from(links.values()).flatMap((l, i) => [
    { link: i, pos: l.pos, label: l.from, sessions: l.sessions, edge: `${l.from} → ${l.to}` },
    { link: i, pos: l.pos + 1, label: l.to, sessions: l.sessions, edge: `${l.from} → ${l.to}` },
  ]);
  const y = {
    field: "label",
    type: "nominal",
    sort: order,
    scale: { domain: order.filter((l) => Array.from(nodes.values()).some((n) => n.label === l)) },
    title: null,
  };
  const x = {
    field: "pos",
    type: "quantitative",
    title: "user message",
    scale: { domain: [1, positions + 1] },
    axis: { tickMinStep: 1, format: "d" },
  };
  return {
    $schema: SCHEMA,
    title: `First ${positions} messages: ${side.name} (${side.flow.n_sessions} sessions, all labels)`,
    width: 420,
    height: 320,
    layer: [
      {
        data: { values: linkRows },
        mark: { type: "line", opacity: 0.35, color: "#888" },
        encoding: {
          x,
          y,
          detail: { field: "link" },
          strokeWidth: { field: "sessions", type: "quantitative", scale: { range: [0.5, 14] }, legend: null },
          tooltip: [{ field: "edge" }, { field: "sessions" }],
        },
      },
      {
        data: { values: Array.from(nodes.values()) },
        mark: { type: "circle", opacity: 0.9 },
        encoding: {
          x,
          y,
          size: { field: "sessions", type: "quantitative", title: "sessions" },
          color: { field: "label", type: "nominal", legend: null },
          tooltip: [{ field: "pos", title: "message" }, { field: "label" }, { field: "sessions" }],
        },
      },
    ],
  };
}

/** Every chart of the comparison, with a file-safe name. */
export function taskflowChartSpecs(
  target: FlowSide,
  benchmark: FlowSide,
  positions = 5,
): { name: string; title: string; spec: VegaLiteSpec }[] {
  const out = [
    { name: "taskflow-lengths", title: "Session length", spec: lengthDistributionSpec(target, benchmark) },
    { name: "taskflow-task-types", title: "Task types", spec: taskTypeSharesSpec(target, benchmark) },
    { name: "taskflow-transitions", title: "Transitions", spec: transitionHeatmapSpec(target, benchmark) },
  ];
  const ft = flowDiagramSpec(target, positions);
  const fb = flowDiagramSpec(benchmark, positions);
  if (ft)
    out.push({
      name: "taskflow-flow-target",
      title: `Flow of the first ${positions} messages: ${target.name}`,
      spec: ft,
    });
  if (fb)
    out.push({
      name: "taskflow-flow-benchmark",
      title: `Flow of the first ${positions} messages: ${benchmark.name}`,
      spec: fb,
    });
  return out;
}
