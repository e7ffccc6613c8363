/**
 * What counts as a line (metrics.md §2): text split on `\n`, a last line
 * without `\n` is a line, the empty text has none, a trailing `\r` is dropped
 * before lines are compared, and a file with a NUL byte in its first 8000
 * characters is binary and has no lines.
 */

const BINARY_PROBE = 8000;

export function isBinaryText(text: string): boolean {
  const probe = text.length > BINARY_PROBE ? text.slice(0, BINARY_PROBE) : text;
  return probe.includes("\u0000");
}

export function isBinaryBytes(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_PROBE);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Lines of a text for comparison (trailing `\r` removed); binary text has none. */
export function splitLines(text: string): string[] {
  if (text.length === 0 || isBinaryText(text)) return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (text.indexOf("\r") === -1) return lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}

export function countLines(text: string): number {
  return splitLines(text).length;
}
