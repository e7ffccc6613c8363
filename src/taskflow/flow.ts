import { LENGTH_BINS, lengthBin } from "../effort/length";
import {
  END,
  type LabelledSession,
  type SequenceCount,
  START,
  TASKFLOW_FORMAT_VERSION,
  TASKFLOW_KIND,
  type TaskFlow,
  type TransitionCount,
} from "./model";
import { NON_INSTANTIABLE_LABELS, TASK_LABELS, type TaskLabel } from "./taxonomy";

export interface TaskFlowOptions {
  /** Corpus filter: keep sessions with at least this many user messages (before label filtering). Default 1: keep all. */
  minMessages?: number;
  /** Labels dropped before P_T and P_R (default greeting, meta-question, other). */
  nonInstantiable?: readonly TaskLabel[];
  /**
   * A kept session whose messages are all excluded: "start-end" (default)
   * adds the edge START→END, the literal reading of "START and END edges
   * around each filtered sequence"; "skip" leaves it out of P_R (it stays in
   * P_L either way).
   */
  allExcluded?: "start-end" | "skip";
  name?: string | null;
  /** Keep the unfiltered sequences (default true): the bootstrap and the flow diagram need them. */
  keepSequences?: boolean;
}

export interface ResolvedFlowOptions {
  minMessages: number;
  nonInstantiable: readonly TaskLabel[];
  allExcluded: "start-end" | "skip";
}

export function resolveFlowOptions(o: TaskFlowOptions = {}): ResolvedFlowOptions {
  const minMessages = o.minMessages ?? 1;
  if (!Number.isInteger(minMessages) || minMessages < 1)
    throw new RangeError(`minMessages must be a whole number ≥ 1, got ${minMessages}`);
  return {
    minMessages,
    nonInstantiable: o.nonInstantiable ?? NON_INSTANTIABLE_LABELS,
    allExcluded: o.allExcluded ?? "start-end",
  };
}

/** The key of a transition in count maps. */
export const edgeKey = (from: string, to: string): string => `${from}\u2192${to}`;
export const splitEdgeKey = (key: string): [string, string] => {
  const i = key.indexOf("\u2192");
  return [key.slice(0, i), key.slice(i + 1)];
};

/** What one session adds to each distribution; null when the corpus filter leaves it out. */
export interface SessionParts {
  bin: string;
  types: TaskLabel[];
  edges: string[];
}

export function sessionParts(labels: readonly TaskLabel[], o: ResolvedFlowOptions): SessionParts | null {
  if (labels.length === 0 || labels.length < o.minMessages) return null;
  // Length is counted before label filtering: the paper's ≥3 target has no mass below 3.
  const bin = lengthBin(labels.length);
  const types = labels.filter((l) => !o.nonInstantiable.includes(l));
  const edges: string[] = [];
  if (types.length > 0 || o.allExcluded === "start-end") {
    // Excluded messages are skipped, so their retained neighbours become adjacent.
    const seq = [START, ...types, END];
    for (let i = 0; i + 1 < seq.length; i++) edges.push(edgeKey(seq[i], seq[i + 1]));
  }
  return { bin, types, edges };
}

/** Builds the Task Flow (as counts) of labelled sessions. */
export function buildTaskFlow(sessions: readonly LabelledSession[], options: TaskFlowOptions = {}): TaskFlow {
  const o = resolveFlowOptions(options);
  const lengths: Record<string, number> = {};
  for (const b of LENGTH_BINS) lengths[b] = 0;
  const types: Record<string, number> = {};
  for (const l of TASK_LABELS) if (!o.nonInstantiable.includes(l)) types[l] = 0;
  const edges = new Map<string, number>();
  const sequences = new Map<string, SequenceCount>();
  let nEmpty = 0;
  let nSessions = 0;
  let nMessages = 0;
  let nRetained = 0;
  for (const s of sessions) {
    if (s.labels.length === 0) {
      nEmpty++;
      continue;
    }
    const parts = sessionParts(s.labels, o);
    if (parts === null) continue;
    nSessions++;
    nMessages += s.labels.length;
    nRetained += parts.types.length;
    lengths[parts.bin]++;
    for (const t of parts.types) types[t]++;
    for (const e of parts.edges) edges.set(e, (edges.get(e) ?? 0) + 1);
    const key = s.labels.join(",");
    const seq = sequences.get(key);
    if (seq) seq.n++;
    else sequences.set(key, { labels: [...s.labels], n: 1 });
  }
  const flow: TaskFlow = {
    kind: TASKFLOW_KIND,
    format_version: TASKFLOW_FORMAT_VERSION,
    name: options.name ?? null,
    min_messages: o.minMessages,
    non_instantiable: [...o.nonInstantiable],
    all_excluded: o.allExcluded,
    n_sessions_in: sessions.length,
    n_empty: nEmpty,
    n_sessions: nSessions,
    n_messages: nMessages,
    n_retained_messages: nRetained,
    lengths,
    task_types: types,
    transitions: toTransitions(edges),
  };
  if (options.keepSequences !== false) {
    flow.sequences = Array.from(sequences.values()).sort(
      (a, b) => b.n - a.n || cmp(a.labels.join(","), b.labels.join(",")),
    );
  }
  return flow;
}

/** Transition counts as sorted rows: START first, END last, labels in taxonomy order. */
export function toTransitions(edges: ReadonlyMap<string, number>): TransitionCount[] {
  const rows: TransitionCount[] = [];
  for (const [k, count] of edges) {
    if (count <= 0) continue;
    const [from, to] = splitEdgeKey(k);
    rows.push({ from, to, count });
  }
  return rows.sort(
    (a, b) =>
      nodeOrder(a.from) - nodeOrder(b.from) || nodeOrder(a.to) - nodeOrder(b.to) || cmp(a.from + a.to, b.from + b.to),
  );
}

/** START, the 16 labels in taxonomy order, END, then anything else. */
export function nodeOrder(node: string): number {
  if (node === START) return -1;
  if (node === END) return TASK_LABELS.length;
  const i = (TASK_LABELS as readonly string[]).indexOf(node);
  return i < 0 ? TASK_LABELS.length + 1 : i;
}

/** The three distributions as count maps keyed by bin, label and `from→to`. */
export function flowCounts(flow: TaskFlow): { L: Map<string, number>; T: Map<string, number>; R: Map<string, number> } {
  const L = new Map(Object.entries(flow.lengths));
  const T = new Map(Object.entries(flow.task_types));
  const R = new Map<string, number>();
  for (const t of flow.transitions) R.set(edgeKey(t.from, t.to), (R.get(edgeKey(t.from, t.to)) ?? 0) + t.count);
  return { L, T, R };
}

/** Counts divided by their total (an empty map when the total is 0). */
export function toShares(counts: ReadonlyMap<string, number> | Record<string, number>): Map<string, number> {
  const entries = counts instanceof Map ? Array.from(counts.entries()) : Object.entries(counts);
  const total = entries.reduce((s, [, v]) => s + v, 0);
  const out = new Map<string, number>();
  if (total <= 0) return out;
  for (const [k, v] of entries) out.set(k, v / total);
  return out;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
