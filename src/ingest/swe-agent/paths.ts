/**
 * Finding SWE-agent trajectories on disk: `trajectories/<user>/<run>/<instance_id>/<instance_id>.traj`
 * in SWE-agent 1.x, `<run>/<instance_id>.traj` in v0. Recognised by content
 * (`detectExportFormat`), so a renamed file is still found and a `.traj` that
 * is not a trajectory is not.
 */
import type { DiagnosticSink } from "../../model";
import { findExportFiles } from "../detect-export";
import { parseSweAgentTrajectory, type SweAgentTrajectory } from "./parse";
import { readRegularFile } from "../read-regular";

/** Trajectory files at a path (a file, or a folder searched recursively), sorted. */
export function findSweAgentTrajectories(path: string, sink?: DiagnosticSink): string[] {
  return findExportFiles(path, sink)
    .filter((f) => f.format === "swe-agent")
    .map((f) => f.file);
}

/** Reads and parses one trajectory; null (with a diagnostic) when it cannot be used. */
export function readSweAgentTrajectory(file: string, sink: DiagnosticSink): SweAgentTrajectory | null {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file);
  } catch (e) {
    sink.error("swe-agent-unreadable", `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  return parseSweAgentTrajectory({ text: bytes, file }, sink);
}
