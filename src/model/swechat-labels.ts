import { z } from "zod";

/**
 * SWE-chat's own LLM labels (research/swe-chat.md §3), as closed sets: the
 * dataset's `prompt_intent` and `prompt_pushback` on user prompts and
 * `user_persona` on sessions. A value outside these sets is a diagnostic
 * where it is read, never a silent drop.
 */
export const PROMPT_INTENTS = [
  "create new code",
  "refactor",
  "debug",
  "understand",
  "connect",
  "git",
  "test",
  "other",
] as const;
export const promptIntentSchema = z.enum(PROMPT_INTENTS);
export type PromptIntent = z.infer<typeof promptIntentSchema>;

/** Pushback kinds as SWE-chat names them; `non_pushback` is the label of every other prompt. */
export const PUSHBACK_KINDS = [
  "correction",
  "rejection",
  "failure_report",
  "pacing_complaint",
  "takeover",
  "requirement_change",
] as const;
export const PROMPT_PUSHBACK = [...PUSHBACK_KINDS, "non_pushback"] as const;
export const promptPushbackSchema = z.enum(PROMPT_PUSHBACK);
export type PromptPushback = z.infer<typeof promptPushbackSchema>;
export type PushbackKind = (typeof PUSHBACK_KINDS)[number];

export const USER_PERSONAS = ["Expert Nitpicker", "Vague Requester", "Mind Changer", "Other"] as const;
export const userPersonaSchema = z.enum(USER_PERSONAS);
export type UserPersona = z.infer<typeof userPersonaSchema>;

/** Kept when it is one of `allowed` (as written, after trimming); else null and counted as unknown by the caller. */
export function closedLabel<T extends string>(
  allowed: readonly T[],
  value: unknown,
): { label: T | null; unknown: boolean } {
  // Rows come from untrusted files: a missing column reads as undefined, a wrong type is named, not thrown on.
  if (typeof value !== "string") return { label: null, unknown: value !== null && value !== undefined };
  if (value.trim() === "") return { label: null, unknown: false };
  const v = value.trim();
  return (allowed as readonly string[]).includes(v)
    ? { label: v as T, unknown: false }
    : { label: null, unknown: true };
}

/** `session_success` is stored as a string ("0"–"100"): its number, or null (and unknown) when it is not a score in [0, 100]. */
export function successScore(value: unknown): { score: number | null; unknown: boolean } {
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === ""))
    return { score: null, unknown: false };
  if (typeof value !== "string" && typeof value !== "number") return { score: null, unknown: true };
  const n = typeof value === "number" ? value : Number(value.trim());
  return Number.isFinite(n) && n >= 0 && n <= 100 ? { score: n, unknown: false } : { score: null, unknown: true };
}
