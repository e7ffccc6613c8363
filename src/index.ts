/**
 * The public API a notebook or a script imports.
 *
 * @example
 * import { analyzeToTables, summarizeUnits } from "swe-chat-eval";
 * const { tables, rows } = await analyzeToTables({ inputs: ["path/to/repo"] });
 * tables.units.groupby("coding_mode").count().print();
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyze, type AnalyzeRequest, type AnalyzeResult } from "./analyze";
import { type AnalysisRows, type AnalysisTables, toTables } from "./tables";
import { TABLE_NAMES } from "./model";

export * from "./model";
export * from "./tables";
export { analyze, type AnalyzeRequest, type AnalyzeResult } from "./analyze";
export { attributeAtCommit } from "./attribution/at-commit";
export * from "./attribution/rates";
export * from "./signals";
export * from "./effort";
export { ensureSampleCorpus, type SampleCorpus, writeSampleSwebenchRuns, type SampleSwebenchRuns } from "./sample";
export * from "./taskflow";
// Both feature modules name their chart spec type VegaLiteSpec; the namespaces keep them apart.
export * as taskflow from "./taskflow";
export * as charts from "./charts";
export {
  renderReport,
  writeReportTo,
  swechatPaperFigures,
  figureLine,
  hasSwechatLabels,
  type PaperFigure,
} from "./report";
export * as swebench from "./swebench";
export {
  evaluateRuns,
  classifyReport,
  classifyInstance,
  recomputeResolved,
  mcnemarExact,
  pairedBootstrap,
  compareRuns,
  KNOWN_SUBSETS,
  INSTANCE_CLASSES,
} from "./swebench";

/** Runs `analyze` and returns its rows as Arquero tables with the contract's columns. */
export async function analyzeToTables(request: AnalyzeRequest): Promise<AnalyzeResult & { tables: AnalysisTables }> {
  const result = await analyze(request);
  return { ...result, tables: toTables(result.rows) };
}

/** Loads the tables an earlier `swe-chat-eval analyze --out DIR` wrote (its `<table>.json` files). */
export function readTables(dir: string): { rows: AnalysisRows; tables: AnalysisTables } {
  const rows = {} as AnalysisRows;
  for (const name of TABLE_NAMES) {
    // A folder written before a table existed (group_units, say) reads it as empty.
    const file = join(dir, `${name}.json`);
    (rows as unknown as Record<string, unknown[]>)[name] = existsSync(file)
      ? JSON.parse(readFileSync(file, "utf8"))
      : [];
  }
  return { rows, tables: toTables(rows) };
}
