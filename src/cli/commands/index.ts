import { registerAnalyzeCommand } from "./analyze";
import { registerExportCommand } from "./export";
import { registerReportCommand } from "./report";
import { registerTaskflowCommand } from "./taskflow";
import { registerSwebenchCommand } from "./swebench";
import { registerSummarizeCommand } from "./summarize";
import type { RegisterCommand } from "./types";

/** Every command of the CLI, in help order. One line per command file. */
export const COMMANDS: RegisterCommand[] = [
  registerAnalyzeCommand,
  registerSummarizeCommand,
  registerReportCommand,
  registerExportCommand,
  registerTaskflowCommand,
  registerSwebenchCommand,
];
