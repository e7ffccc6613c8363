/**
 * The masking rule applied to whole analysis tables, once, before anything
 * is written: every string cell of every table (prompts, tool calls' files,
 * repositories, branches, messages, ids) goes through `maskSecrets`. Ids are
 * masked too: the rule is a pure function, so an id masked in one table is
 * masked the same way in every other and joins still hold.
 */
import { z } from "zod";
import { cachedText, maskSecrets } from "./mask-secrets";
import type { AnalysisRows } from "./rows";

/** What was done with credential-looking text: masked (the default) or kept (`--keep-secrets`). */
export const secretsPolicySchema = z.enum(["masked", "kept"]);
export type SecretsPolicy = z.infer<typeof secretsPolicySchema>;

/** Row sets that came out of `maskAnalysisRows`: writers given one do not mask it again. */
const MASKED = new WeakSet<object>();

/** A copy of the row's string fields masked; the row itself when none changes (almost none do). */
function maskRow<T extends object>(row: T, mask: (s: string) => string): T {
  let copy: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== "string") continue;
    const masked = mask(value);
    if (masked !== value) (copy ??= { ...(row as Record<string, unknown>) })[key] = masked;
  }
  return (copy ?? row) as T;
}

/** One table's rows with their string cells masked (rows that change are copied): for tables outside AnalysisRows (SWE-bench, taskflow). */
export function maskTable<T>(rows: readonly T[], mask: (s: string) => string = cachedText(maskSecrets)): T[] {
  return rows.map((row) => (row !== null && typeof row === "object" ? maskRow(row, mask) : row));
}

/** Every table's string cells masked (a new object; the input is not changed). */
export function maskAnalysisRows<R extends AnalysisRows>(rows: R): R {
  if (MASKED.has(rows)) return rows;
  const mask = cachedText(maskSecrets);
  const out: Record<string, unknown> = {};
  for (const [name, table] of Object.entries(rows)) out[name] = Array.isArray(table) ? maskTable(table, mask) : table;
  MASKED.add(out);
  return out as R;
}

/** The rows as the policy wants them written: masked unless the user asked to keep secrets. */
export function rowsForOutput<R extends AnalysisRows>(rows: R, policy: SecretsPolicy = "masked"): R {
  return policy === "kept" ? rows : maskAnalysisRows(rows);
}

/** Whether `rows` already went through `maskAnalysisRows`. */
export function isMasked(rows: object): boolean {
  return MASKED.has(rows);
}
