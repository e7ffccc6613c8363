export { findSwechatFiles, transcriptIndex, type SwechatFiles } from "./paths";
export {
  openParquet,
  readColumns,
  readRows,
  rowGroupReader,
  pageLocations,
  RANGE_READ_BYTES,
  type ParquetPart,
  type Columns,
  type PageIndex,
} from "./parquet";
export { readSwechatMeta, type SwechatMeta } from "./tables";
export {
  planConversations,
  indexRowGroup,
  assemblePlan,
  isWhole,
  type ConversationPlan,
  type ConversationJob,
  type RowGroupIndex,
  type SessionSpan,
  type PlanOptions,
} from "./plan";
export { readJobRows, type JobRows } from "./rows";
export { sessionFromRows, ERROR_RESULT, type BuiltSession, type PromptLabels, type SessionContext } from "./parse";
export { editsFromInput, parseCodexPatch, SWECHAT_FILE_TOOLS, type EditsOutcome } from "./tool-edits";
export {
  spoolPatches,
  PatchReader,
  splitGitPatch,
  fingerprint,
  type FilePatch as SwechatFilePatch,
  type PatchRef,
  type PatchSpool,
  type SpooledPatch,
} from "./patches";
export {
  linkCheckpoints,
  makeUnitLinker,
  checkpointIdOf,
  type SwechatUnit,
  type LinkInput,
  type UnitLinker,
} from "./units";
export * from "./schema";
export { REAL_SCHEMA, toColumnValue, type ColumnType } from "./real-schema";
