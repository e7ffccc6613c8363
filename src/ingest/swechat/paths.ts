/**
 * Finding a SWE-chat dataset on disk, by content: every `.parquet` file under
 * the folder (a few levels deep, so both `conversations.parquet` at the root
 * and Hugging Face's `data/<table>/train-0000n-of-0000m.parquet` shards are
 * found) is opened, and its schema says which table it is (SIGNATURES). A
 * table may be split over several files; they are read in path order.
 * Raw transcripts are `transcripts/<session_id>.jsonl` (Gemini: `.json`).
 */
import { closeSync, existsSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { DiagnosticSink } from "../../model";
import { openParquet, type ParquetPart } from "./parquet";
import { SIGNATURES, type SwechatTable, TABLES } from "./schema";
import { openRegularFile, specialFileKind, specialFileMessage } from "../read-regular";

export interface SwechatFiles {
  root: string;
  tables: Record<SwechatTable, ParquetPart[]>;
  /** The `transcripts/` folder, when there is one. */
  transcriptsDir: string | null;
}

const MAX_DEPTH = 4;
const SKIP_DIRS = new Set(["node_modules", ".git", "transcripts", ".cache"]);

/** The dataset's tables, or null when no Parquet file under `path` has a SWE-chat table's schema. */
export async function findSwechatFiles(path: string, sink: DiagnosticSink): Promise<SwechatFiles | null> {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return null;
  }
  if (!isDir) return null;
  const candidates: string[] = [];
  collect(path, 0, candidates, sink);
  if (candidates.length === 0) return null;

  const tables = Object.fromEntries(TABLES.map((t) => [t, [] as ParquetPart[]])) as Record<SwechatTable, ParquetPart[]>;
  const unrecognised: string[] = [];
  for (const file of candidates.sort()) {
    if (!hasParquetMagic(file)) {
      unrecognised.push(file);
      continue;
    }
    let part: ParquetPart;
    try {
      part = await openParquet(file);
    } catch (e) {
      sink.warn(
        "swechat-parquet-unreadable",
        `${relative(path, file)}: not readable as Parquet (${e instanceof Error ? e.message : String(e)})`,
      );
      continue;
    }
    const table = TABLES.find((t) => SIGNATURES[t].every((c) => part.columns.has(c)));
    if (table) tables[table].push(part);
    else {
      unrecognised.push(file);
      await part.close();
    }
  }
  const found = TABLES.filter((t) => tables[t].length > 0);
  if (found.length === 0) return null;
  for (const file of unrecognised)
    sink.info("swechat-file-ignored", `${relative(path, file)} has no SWE-chat table's columns: ignored`);
  const transcriptsDir = join(path, "transcripts");
  return {
    root: path,
    tables,
    transcriptsDir: existsSync(transcriptsDir) && statSync(transcriptsDir).isDirectory() ? transcriptsDir : null,
  };
}

function collect(dir: string, depth: number, out: string[], sink: DiagnosticSink): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < MAX_DEPTH && !SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) collect(full, depth + 1, out, sink);
    } else if (e.isFile() && e.name.endsWith(".parquet")) out.push(full);
    else if (e.name.endsWith(".parquet") && !e.isSymbolicLink()) {
      sink.add("warning", "swechat-special-file", specialFileMessage(specialFileKind(e) ?? "a special file"), null, {
        file: full,
      });
    }
  }
}

/** `PAR1` at both ends. */
function hasParquetMagic(file: string): boolean {
  let fd: number | null = null;
  try {
    const size = statSync(file).size;
    if (size < 12) return false;
    fd = openRegularFile(file);
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    readSync(fd, tail, 0, 4, size - 4);
    return head.toString("latin1") === "PAR1" && tail.toString("latin1") === "PAR1";
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Whether `path` (resolved through links) lies inside the folder `rootReal` (already a real path). */
function insideFolder(path: string, rootReal: string): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  const rel = relative(rootReal, real);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * The raw transcript of each session: `transcripts/<id>.jsonl` or `.json`,
 * or the path `session_logs.transcript_path` names (relative to the
 * dataset root or to `transcripts/`). Listed once, so a lookup costs no I/O.
 * A path the table names, and a link in `transcripts/`, is confined to the
 * dataset folder: one that leads outside it (`../`, a link out) is not opened
 * (`swechat-transcript-path-outside`): a dataset is untrusted input and
 * must not make the tool read the user's other files.
 */
export function transcriptIndex(
  files: SwechatFiles,
  logPaths: ReadonlyMap<string, string | null>,
  sink?: DiagnosticSink,
): Map<string, string> {
  const out = new Map<string, string>();
  let rootReal: string;
  try {
    rootReal = realpathSync(files.root);
  } catch {
    return out;
  }
  if (files.transcriptsDir !== null) {
    for (const entry of readdirSync(files.transcriptsDir, { withFileTypes: true })) {
      const m = /^(.+)\.(jsonl|json)$/.exec(entry.name);
      if (!m || out.has(m[1])) continue;
      const path = join(files.transcriptsDir, entry.name);
      // A link in transcripts/ is followed only when it stays in the dataset (it could name the user's own logs).
      if (entry.isSymbolicLink() && !insideFolder(path, rootReal)) {
        const message = `transcripts/${entry.name} is a link that leads outside the dataset folder: not opened`;
        sink?.add("warning", "swechat-transcript-path-outside", message, null, { file: path });
        continue;
      }
      out.set(m[1], path);
    }
  }
  for (const [sessionId, p] of logPaths) {
    if (!p || out.has(sessionId)) continue;
    let outside = false;
    for (const candidate of [join(files.root, p), files.transcriptsDir ? join(files.transcriptsDir, p) : null]) {
      if (!candidate || !existsSync(candidate)) continue;
      if (!insideFolder(candidate, rootReal)) {
        outside = true;
        continue;
      }
      if (statSync(candidate).isFile()) {
        out.set(sessionId, candidate);
        outside = false;
        break;
      }
    }
    if (outside) {
      const message = `session_logs.transcript_path ${JSON.stringify(p.slice(0, 300))} of session ${sessionId} leads outside the dataset folder: not opened`;
      sink?.add("warning", "swechat-transcript-path-outside", message, null, { session_id: sessionId });
    }
  }
  return out;
}
