export * from "./bootstrap";
export * from "./from-rows";
export * from "./summarize";
export * from "./to-files";
export * from "./to-parquet";
export * from "./lines";
export * from "./export-lines";
