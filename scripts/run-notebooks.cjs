#!/usr/bin/env node
/**
 * Runs the tslab notebooks headless, top to bottom, the way the project's
 * Jupyter kernel would (tslab's own converter and executor, with the fixes
 * of notebooks/kernelspec/kernels/swe-chat-eval/tslab-env.cjs), and writes
 * each executed notebook back with its outputs so a reader sees results on
 * GitHub.
 *
 *   node scripts/run-notebooks.cjs [NOTEBOOK.ipynb ...] [--out DIR] [--check] [--timeout S] [--verbose]
 *
 * - No notebook named: every `notebooks/*.ipynb`, in name order.
 * - Stops at the first failing cell: prints the notebook, the cell and the
 *   error, writes nothing for that notebook, exits 1.
 * - `--out DIR` writes the executed notebooks into DIR instead of over the
 *   inputs; `--check` writes nothing and exits 1 when an executed notebook
 *   differs from the file on disk (its committed outputs are stale);
 *   `--verbose` prints each cell's time on stderr (never into the notebook).
 * - Outputs are deterministic: execution counts are 1, 2, 3…, there are no
 *   timings or dates in them, and the JSON is written with sorted keys.
 *   (What a cell prints is its own business: the notebooks print no paths
 *   or clocks.)
 *
 * CommonJS run by plain `node`, not tsx: tsx's require hook would load
 * `./src` itself and hide import failures that the real kernel would hit.
 * Exit codes: 0 all ran, 1 a cell failed or --check found a difference,
 * 2 usage error.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const util = require("node:util");
const { setupTslab, findProjectRoot } = require("../notebooks/kernelspec/kernels/swe-chat-eval/tslab-env.cjs");

const USAGE =
  "usage: node scripts/run-notebooks.cjs [NOTEBOOK.ipynb ...] [--out DIR] [--check] [--timeout SECONDS] [--verbose]";

function parseArgs(argv) {
  const args = { notebooks: [], out: null, check: false, timeoutS: 600, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") args.out = argv[++i];
    else if (a === "--check") args.check = true;
    else if (a === "--verbose") args.verbose = true;
    else if (a === "--timeout") args.timeoutS = Number(argv[++i]);
    else if (a === "--help" || a === "-h") args.help = true;
    else if (a.startsWith("-")) throw new UsageError(`unknown option ${a}`);
    else args.notebooks.push(a);
  }
  if (args.out === undefined) throw new UsageError("--out needs a folder");
  if (!(args.timeoutS > 0)) throw new UsageError("--timeout needs a positive number of seconds");
  if (args.out && args.check) throw new UsageError("--out and --check exclude each other");
  return args;
}

class UsageError extends Error {}

/** nbformat keeps multi-line text as a list of lines, each but the last ending in "\n". */
function toLines(text) {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}
const fromLines = (v) => (Array.isArray(v) ? v.join("") : String(v ?? ""));

/** JSON with sorted keys, one-space indent and a final newline (what Jupyter writes). */
function stableJson(value) {
  const sort = (v) => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === "object") {
      const out = {};
      for (const k of Object.keys(v).sort()) out[k] = sort(v[k]);
      return out;
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 1)}\n`;
}

/** A display bundle as nbformat stores it: text mimetypes as lines, JSON mimetypes as objects. */
function displayOutput(data, metadata) {
  const out = {};
  for (const [mime, value] of Object.entries(data)) {
    out[mime] = typeof value === "string" && !/json$/.test(mime) ? toLines(value) : value;
  }
  return { output_type: "display_data", data: out, metadata: metadata || {} };
}

/**
 * Collects one cell's outputs: stdout/stderr writes (console.log inside the
 * cell and the value of its last expression) as stream outputs, merged when
 * consecutive, and display data from `tslab.display`.
 */
class CellOutputs {
  constructor() {
    this.outputs = [];
    this.displayIds = new Map();
  }
  stream(name, text) {
    if (text === "") return;
    const last = this.outputs[this.outputs.length - 1];
    if (last && last.output_type === "stream" && last.name === name) last.text += text;
    else this.outputs.push({ output_type: "stream", name, text });
  }
  display(message, update) {
    const out = displayOutput(message.data, message.metadata);
    const id = message.transient?.display_id;
    if (id && update && this.displayIds.has(id)) {
      this.outputs[this.displayIds.get(id)] = out;
      return;
    }
    if (id) this.displayIds.set(id, this.outputs.length);
    this.outputs.push(out);
  }
  /** The outputs in nbformat shape. */
  finish() {
    return this.outputs.map((o) => (o.output_type === "stream" ? { ...o, text: toLines(o.text) } : o));
  }
  text(name) {
    return this.outputs
      .filter((o) => o.output_type === "stream" && o.name === name)
      .map((o) => o.text)
      .join("");
  }
}

/**
 * One TypeScript converter for the whole run (compiling `src` once is most of
 * the cost) and a fresh executor per notebook, so every notebook starts with
 * no variables and fresh instances of the project's modules. tslab keeps the
 * compiled project files in the executor, and the converter emits each file
 * only once, so a new executor is first handed every file emitted so far.
 */
function makeConverterSet(env) {
  const node = env.converter.createConverter({ isJS: false, isBrowser: false });
  const emitted = new Map();
  let replayPending = false;
  const wrapped = {
    convert(prevDecl, src) {
      const result = node.convert(prevDecl, src);
      for (const out of result.sideOutputs || []) emitted.set(out.path, out);
      if (replayPending && result.diagnostics.length === 0) {
        replayPending = false;
        const fresh = new Set((result.sideOutputs || []).map((o) => o.path));
        const earlier = [...emitted.values()].filter((o) => !fresh.has(o.path));
        return { ...result, sideOutputs: earlier.concat(result.sideOutputs || []) };
      }
      return result;
    },
    inspect: (...a) => node.inspect(...a),
    complete: (...a) => node.complete(...a),
    addModule: (...a) => node.addModule(...a),
    close: () => node.close(),
  };
  return {
    set: {
      node: wrapped,
      get browser() {
        throw new Error("browser-mode cells are not supported by the headless runner");
      },
      close: () => node.close(),
    },
    newNotebook() {
      replayPending = emitted.size > 0;
    },
  };
}

/** Runs `fn` with process.stdout/stderr writes going to `outputs` (as tslab's kernel does). */
async function capturing(outputs, fn) {
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const sink = (name) => (chunk, encoding, callback) => {
    outputs.stream(
      name,
      typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8"),
    );
    const cb = typeof encoding === "function" ? encoding : callback;
    if (typeof cb === "function") cb();
    return true;
  };
  process.stdout.write = sink("stdout");
  process.stderr.write = sink("stderr");
  try {
    return await fn();
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
  }
}

/** Executes every code cell of one notebook; returns the executed notebook or the failure. */
async function runNotebook(env, converters, notebook, { timeoutS, onCell }) {
  converters.newNotebook();
  let current = null;
  const executor = env.executor.createExecutor(env.root, converters.set, {
    log: (...a) => current.stream("stdout", `${util.format(...a)}\n`),
    error: (...a) => current.stream("stderr", `${util.format(...a)}\n`),
  });
  env.jupyter.lastWriteDisplayData = (message, update) => current.display(message, update);
  let rejection = null;
  const onRejection = (reason) => {
    rejection = reason;
  };
  process.on("unhandledRejection", onRejection);
  const cells = notebook.cells.map((c) => ({ ...c }));
  let count = 0;
  try {
    for (let index = 0; index < cells.length; index++) {
      const cell = cells[index];
      if (cell.cell_type !== "code") continue;
      const source = fromLines(cell.source);
      current = new CellOutputs();
      count++;
      const t0 = Date.now();
      let timer;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutS * 1000);
      });
      const outputs = current;
      const ok = await capturing(outputs, () => Promise.race([executor.execute(source), timeout]));
      clearTimeout(timer);
      // Let callbacks the cell queued (a rejected promise nobody awaited) report before judging it.
      await new Promise((resolve) => setImmediate(resolve));
      if (rejection !== null) outputs.stream("stderr", `unhandled rejection: ${util.inspect(rejection)}\n`);
      if (ok === "timeout") outputs.stream("stderr", `the cell did not finish within ${timeoutS} s\n`);
      const failed = ok !== true || rejection !== null;
      if (onCell) onCell(count, Date.now() - t0, failed);
      cell.execution_count = count;
      cell.outputs = outputs.finish();
      if (cell.metadata?.execution) {
        const { execution, ...rest } = cell.metadata;
        cell.metadata = rest;
      }
      if (failed) {
        return {
          ok: false,
          index,
          count,
          source,
          error: outputs.text("stderr") || "the cell failed without a message",
        };
      }
    }
  } finally {
    process.off("unhandledRejection", onRejection);
    env.jupyter.lastWriteDisplayData = null;
    executor.reset();
  }
  return { ok: true, notebook: { ...notebook, cells }, cells: count };
}

function listNotebooks(root, named) {
  if (named.length > 0) return named.map((p) => path.resolve(p));
  const dir = path.join(root, "notebooks");
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ipynb"))
    .sort()
    .map((f) => path.join(dir, f));
}

async function main(argv) {
  let args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const root = findProjectRoot(__dirname);
  const files = listNotebooks(root, args.notebooks);
  const missing = files.filter((f) => !fs.existsSync(f));
  if (missing.length > 0) {
    process.stderr.write(`no such notebook: ${missing.join(", ")}\n`);
    return 2;
  }
  // tslab compiles only files under its working directory: the project root.
  process.chdir(root);
  const started = Date.now();
  const env = await setupTslab(root);
  const converters = makeConverterSet(env);
  let stale = 0;
  try {
    for (const file of files) {
      const shown = path.relative(root, file) || file;
      const t0 = Date.now();
      const original = fs.readFileSync(file, "utf8");
      const onCell = args.verbose
        ? (n, ms, failed) =>
            process.stderr.write(`  [${n}] ${failed ? "failed" : "ok"} in ${(ms / 1000).toFixed(2)} s\n`)
        : null;
      const result = await runNotebook(env, converters, JSON.parse(original), { timeoutS: args.timeoutS, onCell });
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      if (!result.ok) {
        process.stderr.write(
          `\n${shown}: cell ${result.index + 1} (code cell [${result.count}]) failed after ${seconds} s\n` +
            `--- cell source ---\n${result.source}\n--- error ---\n${result.error.trimEnd()}\n`,
        );
        return 1;
      }
      const text = stableJson(result.notebook);
      if (args.check) {
        const same = text === original;
        if (!same) stale++;
        process.stdout.write(
          `${shown}: ${result.cells} code cells ran in ${seconds} s; outputs ${same ? "match the file" : "DIFFER from the file"}\n`,
        );
        continue;
      }
      const target = args.out ? path.join(path.resolve(args.out), path.basename(file)) : file;
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, text);
      process.stdout.write(
        `${shown}: ${result.cells} code cells ran in ${seconds} s → ${path.relative(root, target) || target}\n`,
      );
    }
  } finally {
    converters.set.close();
  }
  process.stdout.write(`${files.length} notebook(s) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (stale > 0) {
    process.stderr.write(`${stale} notebook(s) have stale outputs: run \`npm run notebooks\` and commit them\n`);
    return 1;
  }
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    // Exit explicitly: a notebook may leave handles open (a git process, a timer).
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error?.stack ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}

module.exports = { main, stableJson, toLines };
