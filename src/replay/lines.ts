/**
 * What counts as a line (metrics.md §2): text split on `\n`, a last line
 * without `\n` is a line, the empty text has none, a trailing `\r` is dropped
 * before lines are compared, and a file with a NUL byte in its first 8000
 * bytes (UTF-8) is binary and has no lines.
 */

const BINARY_PROBE = 8000;

export function isBinaryText(text: string): boolean {
  // metrics.md §2 counts bytes: UTF-8 takes at least one byte per UTF-16 unit, so a NUL at unit 8000 or
  // later is past byte 8000; before that, the encoded length of the text before it decides.
  const nul = text.indexOf("\u0000");
  if (nul < 0 || nul >= BINARY_PROBE) return false;
  return nul < BINARY_PROBE / 3 || Buffer.byteLength(text.slice(0, nul), "utf8") < BINARY_PROBE;
}

export function isBinaryBytes(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_PROBE);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Lines of a text for comparison (trailing `\r` removed); binary text has none. */
export function splitLines(text: string): string[] {
  if (text.length === 0 || isBinaryText(text)) return noLines();
  const lines = splitWithoutFinalNewline(text);
  if (text.indexOf("\r") === -1) return lines;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * `text.split("\n")` less the empty string after a final "\n". A loop, not
 * `split`: V8 (Node 20) answers a repeated split of an internalized string
 * from a cache with a "holey" array, and one holey line array among packed
 * ones made V8 throw away the optimized replay and diff code late in a run
 * (measured; the loop is as fast). Always a packed array of strings.
 */
export function splitWithoutFinalNewline(text: string): string[] {
  const lines: string[] = [];
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  let at = 0;
  for (;;) {
    const nl = text.indexOf("\n", at);
    if (nl === -1 || nl >= end) {
      lines.push(text.slice(at, end));
      return lines;
    }
    lines.push(text.slice(at, nl));
    at = nl + 1;
  }
}

/**
 * An empty line array of the same kind as a `split` result (V8 elements kind
 * "objects"; a `[]` literal is "small integers"). Code that reads line arrays
 * then meets one array shape, and V8 does not throw its optimized code away
 * at the first empty file of a run.
 */
export function noLines(): string[] {
  const lines = [""];
  lines.pop();
  return lines;
}

export function countLines(text: string): number {
  return splitLines(text).length;
}
