/**
 * The HTML report: Handlebars templates (templates/), one self-contained
 * index page with the Vega runtime inlined, per-session pages, and the
 * figures. Everything from a transcript is treated as untrusted text.
 */
export * from "./blame";
export * from "./bounded-text";
export * from "./build-charts";
export * from "./escape";
export * from "./index-page";
export * from "./line-text";
export * from "./method-notes";
export * from "./render-report";
export * from "./rows";
export * from "./runtime";
export * from "./session-pages";
export * from "./templates";
export * from "./swechat-figures";
