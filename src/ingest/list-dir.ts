/**
 * One folder's entries for the transcript walkers, following symbolic links
 * (a researcher's log folder often links to `~/.claude/projects` or to
 * another disk): a link counts as what it points at. A broken link and a link
 * back to a folder already being walked (a cycle) are reported, not followed.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DiagnosticSink } from "../model";

export interface ListedEntry {
  name: string;
  path: string;
  kind: "file" | "dir";
}

/**
 * The entries of `dir` sorted by name, or null when it cannot be listed
 * (`<source>-path-unreadable`). `walking` holds the real paths of the
 * folders above, to stop at a link cycle (`<source>-path-cycle`).
 */
export function listDir(dir: string, source: string, sink: DiagnosticSink | undefined, walking: Set<string>): ListedEntry[] | null {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    sink?.add("warning", `${source}-path-unreadable`, `cannot list: ${e instanceof Error ? e.message : String(e)}`, null, { file: dir });
    return null;
  }
  const out: ListedEntry[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    let kind: ListedEntry["kind"] | null = entry.isDirectory() ? "dir" : entry.isFile() ? "file" : null;
    if (entry.isSymbolicLink()) {
      try {
        const target = statSync(path);
        kind = target.isDirectory() ? "dir" : target.isFile() ? "file" : null;
      } catch (e) {
        sink?.add("warning", `${source}-path-unreadable`, `a broken link: ${e instanceof Error ? e.message : String(e)}`, null, { file: path });
        continue;
      }
      if (kind === "dir" && walking.has(realPathOf(path))) {
        sink?.add("warning", `${source}-path-cycle`, "a link back to a folder above it: not followed", null, { file: path });
        continue;
      }
    }
    if (kind !== null) out.push({ name: entry.name, path, kind });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The real path of a file or folder (itself when it cannot be resolved): a folder's goes in `walking` while its entries are walked. */
export function realPathOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
