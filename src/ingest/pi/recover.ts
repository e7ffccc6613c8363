/**
 * Entries appended after a cut-off line. Pi appends each entry with
 * `appendFileSync(file, json + "\n")` (session-manager.ts `_persist`). When
 * the process dies in the middle of one, the file ends in half a line with no
 * newline (or in NUL bytes, on file systems that pad). `pi --continue` loads
 * the file skipping that line (`loadEntriesFromFile`) and appends its next
 * entry right after it: on the same line. That entry is whole; only the
 * cut-off part before it is lost (as it is for Pi).
 */
import type { JsonlRecord } from "../jsonl";

const ENTRY_START = '{"type":"';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The whole Pi entry a line ends with, after a cut-off start: the earliest `{"type":"` from which the rest parses. */
function entryAfterCut(line: string): Record<string, unknown> | null {
  for (let at = line.indexOf(ENTRY_START, 1); at > 0; at = line.indexOf(ENTRY_START, at + 1)) {
    let value: unknown;
    try {
      value = JSON.parse(line.slice(at));
    } catch {
      continue;
    }
    if (isObject(value) && typeof value.type === "string" && (value.type === "session" || typeof value.id === "string"))
      return value;
  }
  return null;
}

/**
 * Records recovered from the given lines (1-based, those the JSONL reader could not read), merged into
 * `records` in line order; returns the lines recovered.
 */
export function recoverEntriesAfterCuts(
  input: string | Uint8Array,
  records: JsonlRecord[],
  badLines: readonly number[],
): number[] {
  if (badLines.length === 0) return [];
  const lines = (typeof input === "string" ? input : new TextDecoder("utf-8").decode(input)).split("\n");
  const recovered: number[] = [];
  for (const n of badLines) {
    const raw = lines[n - 1];
    if (raw === undefined) continue;
    const value = entryAfterCut(
      raw
        .replace(/\u0000/g, "")
        .replace(/\r$/, "")
        .trimEnd(),
    );
    if (value === null) continue;
    let at = records.length;
    while (at > 0 && records[at - 1].line > n) at--;
    records.splice(at, 0, { line: n, value });
    recovered.push(n);
  }
  return recovered;
}
