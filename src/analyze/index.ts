import { existsSync } from "node:fs";
import { DiagnosticSink } from "../model";
import type { AnalysisRows } from "../tables";
import { analyzeEntireRepository } from "./analyze-entire";
import { analyzeTranscripts } from "./analyze-transcripts";

export * from "./analyze-entire";
export * from "./entire-session-job";
export * from "./parallel";
export * from "./analyze-transcripts";
export * from "./attribute-unit";
export * from "./pre-image-unit";
export * from "./read-transcript";
export * from "./session-rows";
export * from "./tool-category";
export * from "./unit-row";

export interface AnalyzeRequest {
  inputs: string[];
  /** The repository transcripts edited, when it is not an input itself. */
  repo?: string;
  idleLimitS?: number;
  /** Worker threads for per-session work (default: automatic; 1 runs inline). */
  threads?: number;
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface AnalyzeResult {
  rows: AnalysisRows;
  inputs: { path: string; kind: string }[];
  /** False when no input could be read at all (exit code 1). */
  readAnything: boolean;
}

/** Runs the attribution job over every input; each input's kind is found from its content. */
export async function analyze(request: AnalyzeRequest): Promise<AnalyzeResult> {
  const rows: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  const options = { idleLimitS: request.idleLimitS ?? 300, threads: request.threads, onProgress: request.onProgress };
  const inputs: { path: string; kind: string }[] = [];
  let readAnything = false;
  for (const path of request.inputs) {
    if (!existsSync(path)) {
      const sink = new DiagnosticSink("input", path);
      sink.error("input-missing", `${path} does not exist`);
      rows.diagnostics.push(...sink.rows);
      inputs.push({ path, kind: "missing" });
      continue;
    }
    if (await analyzeEntireRepository(path, options, rows)) {
      inputs.push({ path, kind: "entire-repository" });
      readAnything = true;
      continue;
    }
    const n = await analyzeTranscripts(path, request.repo ?? null, options, rows);
    inputs.push({ path, kind: n > 0 ? "claude-code-transcripts" : "unrecognised" });
    if (n > 0) readAnything = true;
    else {
      const sink = new DiagnosticSink("input", path);
      sink.error("input-unrecognised", `${path} is neither a git repository with Entire checkpoints nor a folder or file of Claude Code transcripts`);
      rows.diagnostics.push(...sink.rows);
    }
  }
  return { rows, inputs, readAnything };
}
