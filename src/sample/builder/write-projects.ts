import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sumUsage } from "../claude-code/message";
import { projectDirName } from "../text";
import type { SampleSession } from "../types";
import type { SessionHandle } from "./session-handle";

/** Write the transcripts into the Claude Code projects folder. */
export function writeProjects(handles: SessionHandle[], projectsDir: string): SampleSession[] {
  return handles.map((h) => {
    const t = h.t;
    const projectDir = projectDirName(h.cwd);
    let transcript: string | null = null;
    const subPaths: string[] = [];
    if (!h.lost) {
      transcript = join(projectsDir, projectDir, `${h.sessionId}.jsonl`);
      mkdirSync(dirname(transcript), { recursive: true });
      writeFileSync(transcript, t.jsonl());
      for (const sub of t.subagents) {
        const p = join(projectsDir, projectDir, h.sessionId, "subagents", `agent-${sub.agentId}.jsonl`);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, sub.records.map((r) => `${JSON.stringify(r)}\n`).join(""));
        subPaths.push(p);
      }
    }
    const timed = t.records.filter((r) => typeof r.timestamp === "string").map((r) => r.timestamp as string);
    return {
      key: h.key,
      scenarios: h.scenarios,
      session_id: h.sessionId,
      entire_session_id: h.entireSessionId,
      agent_label: h.agentLabel,
      format: "claude-code",
      claude_code_version: t.o.version,
      models: t.models.slice(),
      subagent_models: t.subModels.slice(),
      cwd: h.cwd,
      project_dir: projectDir,
      branch: h.branch,
      transcript,
      subagent_transcripts: subPaths,
      record_count: t.records.length,
      record_types: t.types(),
      subagent_record_counts: t.subagents.map((s) => s.records.length),
      prompts: h.prompts,
      checkpoints: h.checkpoints.slice(),
      usage: sumUsage(t.calls),
      subagent_usage: t.subCalls.length > 0 ? sumUsage(t.subCalls) : null,
      started_at: h.startedAt,
      ended_at: timed.length > 0 ? timed[timed.length - 1] : h.startedAt,
    };
  });
}
