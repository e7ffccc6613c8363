import { ClaudeLog, writeResult } from "./claude-log";

/** The sharded folder of a checkpoint id on the checkpoints branch: `ab/cdef…`. */
export const checkpointFolder = (id: string): string => `${id.slice(0, 2)}/${id.slice(2)}`;

/** One checkpoint with one session folder (`0/`): the root metadata, the session's `metadata.json` text as given, and its transcript files by name. */
export function oneSessionCheckpoint(
  id: string,
  sessionMetadata: string,
  transcripts: Record<string, string>,
): Record<string, string> {
  const f = checkpointFolder(id);
  const out: Record<string, string> = {
    [`${f}/metadata.json`]: JSON.stringify({
      checkpoint_id: id,
      strategy: "manual-commit",
      sessions: [{ metadata: `/${f}/0/metadata.json` }],
    }),
    [`${f}/0/metadata.json`]: sessionMetadata,
  };
  for (const [name, text] of Object.entries(transcripts)) out[`${f}/0/${name}`] = text;
  return out;
}

/** A Claude Code 2.x transcript in which the agent Writes one new file `path` (relative to `root`) with `content`. */
export function claudeWriteTranscript(sessionId: string, root: string, path: string, content: string): string {
  return new ClaudeLog({ sessionId, cwd: root })
    .prompt(`create ${path}`)
    .call("toolu_1", "Write", { file_path: `${root}/${path}`, content })
    .result("toolu_1", writeResult(`${root}/${path}`, content, null))
    .text();
}

/** A checkpoint with one Claude Code session folder whose metadata names the checkpoint, the session and the agent. */
export function claudeCheckpoint(id: string, sessionId: string, transcript: string): Record<string, string> {
  return oneSessionCheckpoint(id, JSON.stringify({ checkpoint_id: id, session_id: sessionId, agent: "Claude Code" }), {
    "full.jsonl": transcript,
  });
}
