import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { detectExportFormat } from "../../ingest/detect-export";
import { parseDataClawFile } from "../../ingest/dataclaw";
import { readEntireRepository } from "../../ingest/entire";
import { parseSpecStory } from "../../ingest/specstory";
import { parseSweAgentTrajectory } from "../../ingest/swe-agent";
import { DiagnosticSink } from "../../model";
import { aiderPrompts, isAiderChatHistory, isSpecStoryMarkdown, specStoryPrompts } from "./from-chat-logs";
import { sweAgentPrompts } from "./from-swe-agent";
import { type PromptSession, promptsFromTranscript } from "./from-transcript";

const SKIP_DIRS = new Set(["node_modules", ".git", "subagents", "tasks"]);

/**
 * Every session's user messages under one input: a git repository with
 * Entire checkpoints, a folder (walked: transcripts of any agent whose
 * prompts can be read, DataClaw exports, SpecStory and Aider logs, SWE-agent
 * trajectories), or one file. A session
 * stored several times (Entire keeps the whole transcript at every
 * checkpoint) is taken once, from the copy with the most messages.
 */
export async function readPromptSessions(path: string, diagnostics: DiagnosticSink["rows"]): Promise<PromptSession[]> {
  const sink = new DiagnosticSink("taskflow", path);
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    sink.error("input-missing", `${path} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    diagnostics.push(...sink.rows);
    return [];
  }
  let found: PromptSession[] = [];
  const entire = st.isDirectory() ? await readEntireRepository(path, sink, { commits: false }) : null;
  if (entire) {
    try {
      for (const cp of entire.checkpoints) {
        for (const s of cp.sessions) {
          const ref = `${cp.checkpoint_id}/${s.index}`;
          const bytes = await entire.readTranscript(cp.checkpoint_id, s.index);
          if (bytes === null) {
            sink.add("warning", "transcript-missing", `checkpoint ${ref}: no transcript stored`, null, {
              session_id: s.session_id,
            });
            continue;
          }
          const ssink = new DiagnosticSink("taskflow", ref, s.session_id);
          const got = promptsFromTranscript(bytes, ref, ssink);
          sink.rows.push(...ssink.rows);
          // Entire's metadata names the session; the transcript's own id may differ in form.
          if (got) found.push({ ...got, session_id: s.session_id, ref });
        }
      }
    } finally {
      await entire.close();
    }
  } else if (st.isDirectory()) {
    let skipped = 0;
    for (const file of walk(path)) {
      const got = readFileSessions(file, sink, false);
      if (got === null) skipped++;
      else found.push(...got);
    }
    if (skipped > 0)
      sink.info(
        "taskflow-files-skipped",
        `${skipped} file(s) under ${path} are not transcripts or chat logs whose prompts can be read`,
      );
  } else {
    found = readFileSessions(path, sink, true) ?? [];
  }
  diagnostics.push(...sink.rows);
  return longestCopies(found);
}

function readFileSessions(file: string, sink: DiagnosticSink, explicit: boolean): PromptSession[] | null {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    sink.add("error", "input-unreadable", `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`, null, {
      file,
    });
    return [];
  }
  if (file.endsWith(".md")) {
    const text = new TextDecoder().decode(bytes);
    const fsink = new DiagnosticSink("taskflow", file);
    let out: PromptSession[] | null = null;
    // The project's SpecStory adapter first; the prompt-only reader when it cannot read the file.
    const ssink = new DiagnosticSink("specstory", file);
    const spec = detectExportFormat(text) === "specstory" ? parseSpecStory({ text, file }, ssink) : null;
    if (spec) {
      fsink.rows.push(...ssink.rows);
      out = [
        {
          session_id: spec.session.session_id,
          format: "specstory",
          ref: file,
          messages: spec.session.turns.map((t) => t.text),
        },
      ];
    } else if (isSpecStoryMarkdown(text)) out = [specStoryPrompts(text, file, fsink)];
    else if (isAiderChatHistory(text)) out = aiderPrompts(text, file, fsink);
    sink.rows.push(...fsink.rows);
    if (out === null && explicit)
      sink.add("error", "input-unrecognised", `${file} is neither a SpecStory export nor an Aider chat history`, null, {
        file,
      });
    return out;
  }
  if (file.endsWith(".traj")) {
    // The project's SWE-agent adapter cuts the issue out of the instance template; the prompt-only reader is the fallback.
    const asink = new DiagnosticSink("swe-agent", file);
    const traj = parseSweAgentTrajectory({ text: bytes, file }, asink);
    if (traj) {
      sink.rows.push(...asink.rows);
      return [
        {
          session_id: traj.session.session_id,
          format: "swe-agent",
          ref: file,
          messages: traj.session.turns.map((t) => t.text),
        },
      ];
    }
    const fsink = new DiagnosticSink("taskflow", file);
    const got = sweAgentPrompts(new TextDecoder().decode(bytes), file, fsink);
    sink.rows.push(...fsink.rows);
    return got ? [got] : [];
  }
  if (!/\.(jsonl|json)(\.\d+)?$/.test(file) && !explicit) return null;
  if (detectExportFormat(bytes) === "dataclaw") {
    // A DataClaw export (conversations.jsonl, one of the paper's comparison corpora): one session per line.
    const dsink = new DiagnosticSink("dataclaw", file);
    const sessions = parseDataClawFile({ text: bytes, file }, dsink);
    sink.rows.push(...dsink.rows);
    return sessions.map((d, i) => ({
      session_id: d.session.session_id,
      format: "dataclaw",
      ref: `${file}#${i}`,
      messages: d.session.turns.map((t) => t.text),
    }));
  }
  const fsink = new DiagnosticSink("taskflow", file);
  const got = promptsFromTranscript(bytes, file, fsink);
  if (got === null && !explicit) return null;
  sink.rows.push(...fsink.rows);
  return got ? [got] : [];
}

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) yield* walk(p);
    } else if (e.isFile() && /\.(jsonl|json|md|traj)$/.test(e.name) && e.name !== "metadata.json") yield p;
  }
}

/** One copy per session id: the most messages, then the first by ref (deterministic). */
export function longestCopies(sessions: readonly PromptSession[]): PromptSession[] {
  const best = new Map<string, PromptSession>();
  for (const s of [...sessions].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0))) {
    const cur = best.get(s.session_id);
    if (!cur || s.messages.length > cur.messages.length) best.set(s.session_id, s);
  }
  return Array.from(best.values()).sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}
