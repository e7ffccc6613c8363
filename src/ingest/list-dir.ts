/**
 * One folder's entries for the transcript walkers, following symbolic links
 * (a researcher's log folder often links to `~/.claude/projects` or to
 * another disk): a link counts as what it points at. A broken link and a link
 * back to a folder already being walked (a cycle) are reported, not followed.
 * Folders are walked by real path: a folder reached twice in one walk (links
 * that fan out to the same folder) is listed once, so a walk is linear in the
 * folders on disk, never in the paths to them. Special files (FIFOs, sockets,
 * devices, links to them) are reported, never opened.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DiagnosticSink } from "../model";
import { specialFileKind, specialFileMessage } from "./read-regular";

export interface ListedEntry {
  name: string;
  path: string;
  kind: "file" | "dir";
}

/** The folders one walk has listed (real path → the path it was first reached by), kept beside the walk's `walking` set. */
const listedByWalk = new WeakMap<Set<string>, Map<string, string>>();

/**
 * The entries of `dir` sorted by name, or null when it cannot be listed
 * (`<source>-path-unreadable`). `walking` holds the real paths of the
 * folders above, to stop at a link cycle (`<source>-path-cycle`); it also
 * names the walk, so a folder another path of the same walk already reached
 * is left out (`<source>-same-folder`, info). Special files are left out
 * with `<source>-special-file`.
 */
export function listDir(
  dir: string,
  source: string,
  sink: DiagnosticSink | undefined,
  walking: Set<string>,
): ListedEntry[] | null {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    sink?.add(
      "warning",
      `${source}-path-unreadable`,
      `cannot list: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file: dir },
    );
    return null;
  }
  let listed = listedByWalk.get(walking);
  if (!listed) listedByWalk.set(walking, (listed = new Map()));
  const dirReal = realPathOf(dir);
  if (!listed.has(dirReal)) listed.set(dirReal, dir);
  const out: ListedEntry[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    const kind = entryKind(entry, path, source, sink);
    if (kind === null) continue;
    if (kind === "dir") {
      // A plain folder's real path follows from its parent's; only links need resolving.
      const real = entry.isSymbolicLink() ? realPathOf(path) : join(dirReal, entry.name);
      if (walking.has(real)) {
        sink?.add("warning", `${source}-path-cycle`, "a link back to a folder above it: not followed", null, {
          file: path,
        });
        continue;
      }
      const first = listed.get(real);
      if (first !== undefined) {
        sink?.add(
          "info",
          `${source}-same-folder`,
          `the same folder as ${first} (reached through a link): walked once`,
          null,
          { file: path },
        );
        continue;
      }
      listed.set(real, path);
    }
    out.push({ name: entry.name, path, kind });
  }
  return out;
}

/** A file or a folder (a link counts as what it points at); null, reported, for a broken link or a special file. */
function entryKind(
  entry: Dirent,
  path: string,
  source: string,
  sink: DiagnosticSink | undefined,
): ListedEntry["kind"] | null {
  let stat: Parameters<typeof specialFileKind>[0] = entry;
  if (entry.isSymbolicLink()) {
    try {
      stat = statSync(path);
    } catch (e) {
      sink?.add(
        "warning",
        `${source}-path-unreadable`,
        `a broken link: ${e instanceof Error ? e.message : String(e)}`,
        null,
        { file: path },
      );
      return null;
    }
  }
  if (stat.isDirectory()) return "dir";
  if (stat.isFile()) return "file";
  const kind = specialFileKind(stat) ?? "a special file";
  const what = `${kind}${entry.isSymbolicLink() ? " (through a link)" : ""}`;
  sink?.add("warning", `${source}-special-file`, specialFileMessage(what), null, { file: path });
  return null;
}

/** The real path of a file or folder (itself when it cannot be resolved): a folder's goes in `walking` while its entries are walked. */
export function realPathOf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
