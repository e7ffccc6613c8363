export * from "./bootstrap";
export * from "./from-rows";
export * from "./read-tables";
export * from "./summarize";
export * from "./swechat-paper";
export * from "./to-files";
export * from "./to-parquet";
