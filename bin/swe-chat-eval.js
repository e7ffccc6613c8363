#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx compiles on load.
import { register } from "tsx/esm/api";
register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
