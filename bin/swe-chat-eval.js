#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx compiles on load.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";
// Worker threads load src/ by path: tell the library where the package is.
process.env.SWE_CHAT_EVAL_ROOT ??= fileURLToPath(new URL("..", import.meta.url));
register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
