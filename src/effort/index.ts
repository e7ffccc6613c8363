export * from "./price-table";
export * from "./prices";
export * from "./cost";
export * from "./tokens";
export * from "./time";
export * from "./length";
export * from "./per-line";
