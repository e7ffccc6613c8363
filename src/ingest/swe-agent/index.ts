export {
  parseSweAgentTrajectory,
  instanceIdFromFile,
  repoOfInstance,
  type SweAgentTrajectory,
  type SweAgentModelStats,
  type SweAgentInput,
} from "./parse";
export { findSweAgentTrajectories, readSweAgentTrajectory } from "./paths";
export {
  commandFromAction,
  commandFromFunction,
  shellWords,
  sweAgentCategory,
  isFileCommand,
  type SweCommand,
} from "./commands";
export { windowsOf, FileViews, type FileWindow } from "./file-view";
export { splitUnifiedDiff, normaliseNewlines, type FileDiff } from "./submission";
export * as sweAgentSchema from "./schema";
