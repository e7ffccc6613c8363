import { LENGTH_BINS } from "../effort/length";
import type { DiagnosticSink } from "../model";
import { TASKFLOW_FORMAT_VERSION, TASKFLOW_KIND, type TaskFlow, taskFlowSchema } from "./model";

/**
 * A Task Flow saved as JSON, so a target measured once can be published and
 * reused (the paper's App. C step 4). It holds counts (shares are derived),
 * the corpus filter and excluded labels it was built with, and a format
 * version. `sequences` (distinct label sequences with their session counts)
 * lets a reader bootstrap it and draw its flow diagram; leave them out to
 * publish counts only.
 */
export function toSavedTaskFlow(flow: TaskFlow, options: { sequences?: boolean } = {}): string {
  const out: TaskFlow = { ...flow };
  if (options.sequences === false) delete out.sequences;
  return JSON.stringify(out, null, 2) + "\n";
}

/** True when the text is a saved Task Flow (by content: its `kind`). */
export function isSavedTaskFlowText(text: string): boolean {
  const head = text.slice(0, 400);
  return /^\s*\{/.test(head) && head.includes(`"${TASKFLOW_KIND}"`);
}

/** Reads a saved Task Flow; null (with a diagnostic) when it is not one or does not add up. */
export function readSavedTaskFlow(text: string, file: string, sink: DiagnosticSink): TaskFlow | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    sink.error("taskflow-saved-unreadable", `${file}: not JSON (${e instanceof Error ? e.message : String(e)})`);
    return null;
  }
  const version = (raw as { format_version?: unknown })?.format_version;
  if (typeof version === "number" && version > TASKFLOW_FORMAT_VERSION) {
    sink.error(
      "taskflow-saved-version",
      `${file}: format_version ${version} is newer than this reader (${TASKFLOW_FORMAT_VERSION})`,
    );
    return null;
  }
  const parsed = taskFlowSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    sink.error(
      "taskflow-saved-invalid",
      `${file}: not a saved Task Flow: ${first ? `${first.path.join(".")}: ${first.message}` : "invalid"}`,
    );
    return null;
  }
  const flow = parsed.data;
  const problems = checkTaskFlow(flow);
  if (problems.length > 0) {
    sink.error("taskflow-saved-inconsistent", `${file}: the counts do not add up: ${problems.join("; ")}`);
    return null;
  }
  return flow;
}

/** The invariants of a Task Flow's counts (empty when they hold). */
export function checkTaskFlow(flow: TaskFlow): string[] {
  const problems: string[] = [];
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const lengthTotal = sum(Object.values(flow.lengths));
  if (lengthTotal !== flow.n_sessions)
    problems.push(`length counts sum to ${lengthTotal}, n_sessions is ${flow.n_sessions}`);
  for (const k of Object.keys(flow.lengths))
    if (!(LENGTH_BINS as readonly string[]).includes(k)) problems.push(`unknown length bin ${JSON.stringify(k)}`);
  const typeTotal = sum(Object.values(flow.task_types));
  if (typeTotal !== flow.n_retained_messages)
    problems.push(`task-type counts sum to ${typeTotal}, n_retained_messages is ${flow.n_retained_messages}`);
  for (const l of flow.non_instantiable)
    if ((flow.task_types[l] ?? 0) > 0) problems.push(`excluded label ${l} has task-type counts`);
  const starts = sum(flow.transitions.filter((t) => t.from === "START").map((t) => t.count));
  const ends = sum(flow.transitions.filter((t) => t.to === "END").map((t) => t.count));
  if (starts !== ends) problems.push(`${starts} START edges but ${ends} END edges`);
  if (starts > flow.n_sessions) problems.push(`${starts} START edges for ${flow.n_sessions} sessions`);
  if (flow.sequences) {
    const n = sum(flow.sequences.map((s) => s.n));
    if (n !== flow.n_sessions) problems.push(`sequences hold ${n} sessions, n_sessions is ${flow.n_sessions}`);
  }
  return problems;
}
