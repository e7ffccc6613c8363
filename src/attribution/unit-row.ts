import { agentAuthoredPct, codeSurvivalRate, codingEfficiency, codingMode } from "./rates";
import type { CheckpointSession, UnitFileRow, UnitRow } from "../model";
import type { UnitAttribution } from "./replay-unit";

export interface UnitIdentity {
  session_id: string;
  commit_sha: string;
  checkpoint_id: string | null;
  repo: string;
  agent: string | null;
  model: string | null;
  method: UnitRow["method"];
  ambiguity: UnitRow["ambiguity"];
  numstat_additions: number | null;
  entire: CheckpointSession["initial_attribution"];
}

/** A `units` row from the counts (null when the unit could not be computed) and Entire's own numbers. */
export function toUnitRow(id: UnitIdentity, counts: UnitAttribution | null): UnitRow {
  const authored = counts ? agentAuthoredPct(counts.agent_lines_survived, counts.total_committed_lines) : null;
  return {
    session_id: id.session_id,
    commit_sha: id.commit_sha,
    checkpoint_id: id.checkpoint_id,
    repo: id.repo,
    agent: id.agent,
    model: id.model,
    method: counts ? id.method : null,
    ambiguity: id.ambiguity,
    agent_lines_produced: counts?.agent_lines_produced ?? null,
    agent_lines_final: counts?.agent_lines_final ?? null,
    agent_lines_survived: counts?.agent_lines_survived ?? null,
    human_lines: counts?.human_lines ?? null,
    outside_lines: counts?.outside_lines ?? null,
    total_committed_lines: counts?.total_committed_lines ?? null,
    numstat_additions: id.numstat_additions,
    code_survival_rate: counts ? codeSurvivalRate(counts.agent_lines_survived, counts.agent_lines_final) : null,
    coding_efficiency: counts ? codingEfficiency(counts.agent_lines_survived, counts.agent_lines_produced) : null,
    agent_authored_pct: authored,
    coding_mode: counts ? codingMode(authored) : null,
    unreplayable_calls: counts?.unreplayable_calls ?? null,
    outside_changes: counts?.outside_changes ?? null,
    entire_agent_lines: id.entire?.agent_lines ?? null,
    entire_total_committed: id.entire?.total_committed ?? null,
    entire_agent_percentage: id.entire?.agent_percentage ?? null,
  };
}

/** The per-file counts behind a computed unit, as `unit_files` rows. */
export function toUnitFileRows(
  id: Pick<UnitIdentity, "session_id" | "commit_sha">,
  counts: UnitAttribution | null,
): UnitFileRow[] {
  return (counts?.files ?? []).map((f) => ({
    session_id: id.session_id,
    commit_sha: id.commit_sha,
    path: f.path,
    agent_lines_produced: f.produced,
    agent_lines_final: f.final,
    agent_lines_survived: f.survived,
    human_lines: f.human,
    outside_lines: f.outside,
    total_committed_lines: f.committed,
  }));
}
