/** Small text helpers shared by the transcript builder, the tools and the scenarios. */

export type Json = Record<string, unknown>;

/** A rough token count for simulated usage (about 3.7 characters per token). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 3.7);
}

/** A text from lines, each ended by `\n`. */
export function L(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

export function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

export function replaceOnce(text: string, oldString: string, newString: string): string {
  const i = text.indexOf(oldString);
  return text.slice(0, i) + newString + text.slice(i + oldString.length);
}

/** Claude Code's project folder name for a cwd (`/` and `.` become `-`). */
export function projectDirName(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}
