import { z } from "zod";

/**
 * The 16 task types of SWE-TaskFlow (arXiv 2610.09633, App. A), in the
 * paper's order, with its definitions verbatim. Each user message gets
 * exactly one.
 */
export const TASK_LABELS = [
  "tests",
  "bug-fix",
  "new-feature",
  "generate-docs",
  "refactor",
  "transformation",
  "debug",
  "planning",
  "explain",
  "question",
  "meta-question",
  "code-review",
  "execute",
  "data-analysis",
  "greeting",
  "other",
] as const;

export const taskLabelSchema = z.enum(TASK_LABELS);
export type TaskLabel = z.infer<typeof taskLabelSchema>;

export const LABEL_DEFINITIONS: Record<TaskLabel, string> = {
  tests: "Write or extend test coverage. Fixing an existing failing test belongs to bug-fix or debug.",
  "bug-fix": "Fix an existing error, bug, or exception. A bare stack trace defaults to a fix.",
  "new-feature": "Add new functionality.",
  "generate-docs": "Write documentation, comments, or README files.",
  refactor: "Improve same-language code structure without changing behavior.",
  transformation: "Convert code between formats, languages, library versions, or paradigms.",
  debug: "Investigate why something fails without fixing it.",
  planning: "Plan a change, design an approach, or evaluate a plan or specification.",
  explain: "Explain how specific code in the user's project works.",
  question: "Ask a general programming, framework, library, or tool question.",
  "meta-question": "Ask about the assistant, IDE, quota, billing, or environment.",
  "code-review": "Review specific changes for style, correctness, or performance.",
  execute: "Run a command, build, test, query, deployment, or external action.",
  "data-analysis": "Analyze data or build and interpret queries, charts, or metrics.",
  greeting: "Provide no programming content beyond a greeting, ping, or meaningless input.",
  other: "Provide residual non-programming content such as thanks or feedback.",
};

/**
 * Labels a benchmark cannot instantiate as a task (App. C step 3): they are
 * dropped before P_T and P_R are built. A new label must be placed on one
 * side of this line explicitly.
 */
export const NON_INSTANTIABLE_LABELS: readonly TaskLabel[] = ["greeting", "meta-question", "other"];

/** The 13 labels that enter P_T and P_R, in taxonomy order. */
export const INSTANTIABLE_LABELS: readonly TaskLabel[] = TASK_LABELS.filter(
  (l) => !NON_INSTANTIABLE_LABELS.includes(l),
);

export function isTaskLabel(value: unknown): value is TaskLabel {
  return typeof value === "string" && (TASK_LABELS as readonly string[]).includes(value);
}

export function isInstantiable(
  label: TaskLabel,
  nonInstantiable: readonly string[] = NON_INSTANTIABLE_LABELS,
): boolean {
  return !nonInstantiable.includes(label);
}

/**
 * Reads a label written loosely ("Bug fix", "BUG_FIX", " new feature ") as
 * one of the 16, or null. Used by every label source so a CSV or a model's
 * answer in the paper's capitals still lands on the taxonomy.
 */
export function normaliseLabel(value: string): TaskLabel | null {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");
  if (isTaskLabel(key)) return key;
  const squashed = key.replace(/-/g, "");
  for (const l of TASK_LABELS) if (l.replace(/-/g, "") === squashed) return l;
  return null;
}

/** The paper's task-type instruction for the classifier, verbatim. */
export const CLASSIFIER_INSTRUCTION =
  "Classify the primary intent of a developer message from a coding-assistant session. Assign exactly one task_type. " +
  "Focus on what the user asks the assistant to do, not on the topic, language, or solution. " +
  "If the message contains several requests, choose the dominant actionable intent. " +
  "Use only one label from the supplied taxonomy and return the requested structured output.";

/** The taxonomy as the classifier sees it: one `label: definition` line each. */
export function taxonomyText(): string {
  return TASK_LABELS.map((l) => `- ${l}: ${LABEL_DEFINITIONS[l]}`).join("\n");
}
