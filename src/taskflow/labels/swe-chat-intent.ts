import type { TaskLabel } from "../taxonomy";

/**
 * SWE-chat's own `prompt_intent` (an LLM label on `user_prompt` rows of
 * `conversations.parquet`, 8 values) mapped onto the 16 task types.
 *
 * APPROXIMATE: the two taxonomies cut intent differently, so a flow built
 * from mapped labels is a rough picture, not the paper's classification.
 * Re-classify the prompt text (rules or LLM) when it matters; the `note`
 * says where each mapping loses information.
 */
export interface IntentMapping {
  intent: string;
  label: TaskLabel;
  note: string;
}

export const SWE_CHAT_INTENT_MAP: readonly IntentMapping[] = [
  { intent: "create new code", label: "new-feature", note: "also covers tests and docs written from scratch" },
  { intent: "refactor", label: "refactor", note: "may include transformation (language or version changes)" },
  {
    intent: "debug",
    label: "bug-fix",
    note: "SWE-chat's debug spans investigating and fixing; the taxonomy's debug is investigation without a fix",
  },
  { intent: "understand", label: "explain", note: "general (not project) questions would be question" },
  {
    intent: "connect",
    label: "execute",
    note: "meaning not documented (integrations, services, setup?); the closest is an external action — least certain row",
  },
  { intent: "git", label: "execute", note: "git operations are commands run on the user's behalf" },
  { intent: "test", label: "tests", note: "may include running tests (execute) or fixing failing ones (bug-fix)" },
  { intent: "other", label: "other", note: "" },
];

/** The taxonomy label of a SWE-chat `prompt_intent` value, or null for a value not in the table. */
export function fromSweChatIntent(intent: string): TaskLabel | null {
  const key = intent.trim().toLowerCase().replace(/[_-]+/g, " ");
  return SWE_CHAT_INTENT_MAP.find((m) => m.intent === key)?.label ?? null;
}
