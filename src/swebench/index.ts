/**
 * SWE-bench runs: strict resolution, subsets, cost, and comparing systems
 * (metrics.md §8). See README.md beside this file for the formats read.
 */
export * from "./grade";
export * from "./subsets";
export * from "./rows";
export { detectSwebenchKind, detectRecordsKind, type SwebenchFileKind } from "./detect";
export {
  readSwebenchFile,
  readInstanceList,
  classifyText,
  type SwebenchFile,
  type DatasetInstance,
  type PredictionRecord,
  type TrajStats,
} from "./read-file";
export { groupRunFiles, type RunInput, type RunGroup } from "./group-files";
export { buildRun, type RunEvidence, type InstanceRecord, type GradedBy } from "./build-run";
export { chooseSubset, type SubsetRequest } from "./choose-subset";
export { toRunRows, type RunRows } from "./to-rows";
export { summarizeSystems } from "./summarize-systems";
export { evaluateRuns, type EvaluateRequest, type EvaluateOutcome, type SwebenchResult } from "./evaluate";
export {
  compareRuns,
  mcnemarExact,
  pairedBootstrap,
  pairTable,
  type Comparison,
  type PairTable,
  type BreakdownRow,
  type CompareOptions,
} from "./compare";
export * from "./charts";
export * as swebenchSchema from "./schema";
