export * from "./lines";
export * from "./line-diff";
export * from "./file-state";
export * from "./apply-edit";
export * from "./paths";
export * from "./replay-edits";
