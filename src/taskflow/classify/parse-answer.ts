import { TASK_LABELS, type TaskLabel, normaliseLabel } from "../taxonomy";

export interface ParsedAnswer<L extends string = TaskLabel> {
  label: L | null;
  /** True when the structured answer was missing or malformed and the label came from the tolerant parse. */
  fallback: boolean;
  reason: string;
}

/**
 * The label in a chat-completions response body. First the structured
 * answer (`{"task_type": "…"}` in the message content); failing that, the
 * first JSON object in the content that names a task_type, then the first
 * label word in the text ("BUG-FIX", "new feature" …). A refusal or an
 * answer naming no label gives null.
 */
export function parseLabelAnswer(body: string): ParsedAnswer {
  return parseAnswer(body, "task_type", TASK_LABELS, normaliseLabel);
}

/** The same reading for any closed label set answered in the JSON field `field` (see parseLabelAnswer). */
export function parseAnswer<L extends string>(
  body: string,
  field: string,
  labels: readonly L[],
  normalise: (raw: string) => L | null,
): ParsedAnswer<L> {
  let content: unknown;
  try {
    const o = JSON.parse(body) as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] };
    const m = o.choices?.[0]?.message;
    if (typeof m?.refusal === "string" && m.refusal !== "")
      return { label: null, fallback: true, reason: `refusal: ${m.refusal.slice(0, 80)}` };
    content = m?.content;
  } catch {
    return { label: null, fallback: true, reason: "the response body is not JSON" };
  }
  if (Array.isArray(content)) content = content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("");
  if (typeof content !== "string") return { label: null, fallback: true, reason: "no message content" };
  try {
    const a = JSON.parse(content) as Record<string, unknown> | null;
    if (typeof a?.[field] === "string") {
      const l = normalise(a[field] as string);
      if (l) return { label: l, fallback: false, reason: "structured" };
    }
  } catch {
    // not the structured answer: read it tolerantly below
  }
  const obj = content.match(new RegExp(`\\{[^{}]*"${field}"\\s*:\\s*"([^"]+)"[^{}]*\\}`));
  if (obj) {
    const l = normalise(obj[1]);
    if (l) return { label: l, fallback: true, reason: "JSON object inside the text" };
  }
  const lower = content.toLowerCase();
  let best: { at: number; label: L } | null = null;
  for (const label of labels) {
    // "bug-fix" is also written "bug fix" or "bug_fix"; a word boundary keeps "tests" out of "latest".
    const re = new RegExp(`(^|[^a-z-])${label.toLowerCase().replace(/[-_ ]/g, "[-_ ]")}(?![a-z-])`);
    const m = re.exec(lower);
    if (m && (best === null || m.index < best.at)) best = { at: m.index, label };
  }
  if (best) return { label: best.label, fallback: true, reason: "label word in the text" };
  return { label: null, fallback: true, reason: `no label in ${JSON.stringify(content.slice(0, 60))}` };
}
