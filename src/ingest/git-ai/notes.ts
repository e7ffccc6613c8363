/**
 * Reads a git-ai authorship note (`authorship/3.0.0`, formats.md §11.1): file paths (quoted when they hold
 * spaces), each followed by `  <key> <ranges>` lines (1-based, `1-4,9,12-20`), then `---` and the JSON
 * metadata. Used on the corpus notes and on the notes `export git-ai` writes.
 */
import { z } from "zod";

export const gitAiMetadataSchema = z.object({
  schema_version: z.string(),
  git_ai_version: z.string().optional(),
  base_commit_sha: z.string(),
  prompts: z.record(z.string(), z.unknown()).default({}),
  humans: z.record(z.string(), z.object({ author: z.string() })).optional(),
  sessions: z
    .record(
      z.string(),
      z
        .object({ agent_id: z.object({ tool: z.string(), id: z.string(), model: z.string().nullable().optional() }) })
        .passthrough(),
    )
    .optional(),
});
export type GitAiMetadata = z.infer<typeof gitAiMetadataSchema>;

export interface GitAiAttestation {
  file: string;
  key: string;
  /** Inclusive 1-based line ranges, in the note's order. */
  ranges: [number, number][];
}

export type GitAiNote =
  | { ok: true; attestations: GitAiAttestation[]; metadata: GitAiMetadata }
  | { ok: false; reason: string };

export function parseGitAiNote(text: string): GitAiNote {
  const split = text.search(/^---\s*$/m);
  if (split < 0) return { ok: false, reason: "no `---` line between the attestations and the metadata" };
  const attestations: GitAiAttestation[] = [];
  let file: string | null = null;
  for (const line of text.slice(0, split).split("\n")) {
    if (line.trim() === "") continue;
    if (!line.startsWith("  ")) {
      file = line.startsWith('"') && line.endsWith('"') ? JSON.parse(line) : line;
      continue;
    }
    const m = /^ {2}(\S+) (\S+)$/.exec(line);
    if (file === null || m === null) return { ok: false, reason: `unreadable attestation line: ${line.slice(0, 80)}` };
    const ranges: [number, number][] = [];
    for (const part of m[2].split(",")) {
      const r = /^(\d+)(?:-(\d+))?$/.exec(part);
      if (r === null) return { ok: false, reason: `unreadable range ${part} in ${file}` };
      ranges.push([Number(r[1]), Number(r[2] ?? r[1])]);
    }
    attestations.push({ file, key: m[1], ranges });
  }
  let json: unknown;
  try {
    json = JSON.parse(text.slice(split).replace(/^---\s*/, ""));
  } catch (e) {
    return { ok: false, reason: `metadata is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const metadata = gitAiMetadataSchema.safeParse(json);
  if (!metadata.success) return { ok: false, reason: `metadata: ${metadata.error.issues[0]?.message ?? "invalid"}` };
  return { ok: true, attestations, metadata: metadata.data };
}
