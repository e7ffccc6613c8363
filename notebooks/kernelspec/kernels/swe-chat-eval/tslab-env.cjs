/**
 * What tslab needs to run this project's notebooks, shared by the Jupyter
 * kernel (kernel.cjs beside this file) and the headless runner
 * (scripts/run-notebooks.cjs), so both compile and load `src/` the same way.
 *
 * tslab 1.0.22 compiles cells and the local modules they import with its own
 * TypeScript 5.0 into CommonJS and loads the emitted JS from memory. Three
 * things in that path do not fit this project, and each is fixed here, not
 * in `src/`:
 *
 * 1. Compiler options (and directory watchers, see wrapTypeScript). tslab hard-codes node10 resolution and non-strict
 *    checks. Non-strict checking cannot narrow `{ ok: true } | { ok: false;
 *    reason }` by `if (!r.ok)`, and node10 resolution ignores package
 *    `exports` (hyparquet-writer's Node types). The project's tsconfig is
 *    strict with Bundler resolution, so the options in
 *    `notebooks/tsconfig.json` (a short allow-list below) are merged into
 *    tslab's own, by wrapping TypeScript's `createWatchCompilerHost`.
 * 2. Folder imports. tslab finds an emitted module by adding ".js" to the
 *    import path, so `import … from "./src"` and every `from "../model"`
 *    inside src miss `src/index.js`. Each emitted `<dir>/index.js` gets an
 *    alias `<dir>.js` that re-exports it (unless a real `<dir>.js` exists).
 * 3. ESM packages with top-level await (vega, through vega-canvas) cannot be
 *    `require()`d, and tslab turns every import, dynamic ones included, into
 *    `require()`. They are imported once here, before any cell runs, and
 *    `require("vega")` etc. then return those module namespaces.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

/** Options `notebooks/tsconfig.json` may set: checks and resolution only; tslab owns emit, paths and libs. */
const ALLOWED_OPTIONS = new Set([
  "strict",
  "strictNullChecks",
  "noImplicitAny",
  "strictFunctionTypes",
  "strictBindCallApply",
  "strictPropertyInitialization",
  "noImplicitThis",
  "useUnknownInCatchVariables",
  "alwaysStrict",
  "noImplicitOverride",
  "noFallthroughCasesInSwitch",
  "noUncheckedIndexedAccess",
  "moduleResolution",
  "customConditions",
]);

/** Packages loaded by `import()` up front because `require()` cannot load them. */
const ESM_PRELOADS = ["vega", "vega-lite"];

let installed = null;

/** The folder above `start` (inclusive) whose package.json names this project. */
function findProjectRoot(start) {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg)) {
      try {
        if (JSON.parse(fs.readFileSync(pkg, "utf8")).name === "swe-chat-eval") return dir;
      } catch {
        // not ours; keep looking
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`no swe-chat-eval package.json above ${start}`);
  }
}

/**
 * Reads this file's own `compilerOptions` (JSON without comments; `extends`
 * is for editors and `tsc -p notebooks`, not followed here) and rejects any
 * option outside the allow-list rather than ignoring it.
 */
function readExtraOptions(ts, tsconfigPath, root) {
  if (!fs.existsSync(tsconfigPath)) return {};
  const json = JSON.parse(fs.readFileSync(tsconfigPath, "utf8"));
  const raw = json.compilerOptions || {};
  const unknown = Object.keys(raw).filter((k) => !ALLOWED_OPTIONS.has(k));
  if (unknown.length > 0) {
    throw new Error(`${tsconfigPath}: tslab owns these options, remove them: ${unknown.join(", ")}`);
  }
  const { options, errors } = ts.convertCompilerOptionsFromJson(raw, root, tsconfigPath);
  if (errors.length > 0) {
    throw new Error(`${tsconfigPath}: ${errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, "\n")).join("; ")}`);
  }
  return options;
}

/**
 * Hands tslab a copy of its TypeScript module whose `createWatchCompilerHost`
 * merges `extra` into the options. The real module's exports are
 * non-configurable getters, so it cannot be patched in place; the copy goes
 * into the require cache before tslab's converter loads.
 */
function wrapTypeScript(tsPath, ts, extra) {
  const copy = {};
  for (const key of Object.keys(ts)) {
    Object.defineProperty(copy, key, { enumerable: true, configurable: true, get: () => ts[key] });
  }
  Object.defineProperty(copy, "createWatchCompilerHost", {
    enumerable: true,
    value: (rootFiles, options, system, ...rest) => {
      // No directory watchers: TypeScript uses them to retry failed module lookups when files
      // appear, and their debounce timer collides with tslab's single rebuild timer ("Unexpected
      // pending rebuildTimer" on the next cell whenever a file is created under the project while
      // a notebook runs). Edits to files already imported are still seen (file watchers stay).
      const quiet = Object.create(system);
      quiet.watchDirectory = () => ({ close() {} });
      return ts.createWatchCompilerHost(rootFiles, { ...options, ...extra }, quiet, ...rest);
    },
  });
  Object.defineProperty(copy, "getPreEmitDiagnosticsOfFiles", { enumerable: true, value: cachedPreEmitDiagnostics(ts) });
  require.cache[tsPath].exports = copy;
}

/**
 * tslab type-checks a cell together with every project file it imports,
 * on a new Program per cell, so each cell that imports `./src` re-checks
 * all of src (seconds, most of a notebook's run time). A project file's
 * diagnostics depend only on the files it can see, and cells and tslab's
 * declaration file are modules that no project file imports; so they are
 * kept while every file seen before is still the same SourceFile object
 * (TypeScript keeps the object while the file is unchanged on disk) and no
 * new global script (a non-module file) has appeared.
 */
function cachedPreEmitDiagnostics(ts) {
  const isCellFile = (name) => /\/__(tslab|prev)__\.(d\.)?ts$/.test(name);
  let seen = new Map();
  let cache = new Map();
  return (program, sourceFiles, cancellationToken) => {
    let valid = true;
    const current = new Map();
    for (const f of program.getSourceFiles()) {
      if (isCellFile(f.fileName)) continue;
      current.set(f.fileName, f);
      const before = seen.get(f.fileName);
      if (before ? before !== f : !ts.isExternalModule(f)) valid = false;
    }
    for (const name of seen.keys()) if (!current.has(name)) valid = false;
    if (!valid) cache = new Map();
    seen = current;
    const cells = sourceFiles.filter((f) => isCellFile(f.fileName));
    const diagnostics = [...ts.getPreEmitDiagnosticsOfFiles(program, cells, cancellationToken)];
    for (const file of sourceFiles) {
      if (isCellFile(file.fileName)) continue;
      let found = cache.get(file);
      if (!found) {
        found = [...program.getSyntacticDiagnostics(file, cancellationToken), ...program.getSemanticDiagnostics(file, cancellationToken)];
        if (ts.getEmitDeclarations(program.getCompilerOptions())) found.push(...program.getDeclarationDiagnostics(file, cancellationToken));
        cache.set(file, found);
      }
      diagnostics.push(...found);
    }
    return ts.sortAndDeduplicateDiagnostics(diagnostics);
  };
}

/** Adds `<dir>.js` → `<dir>/index.js` aliases to a conversion's side outputs (see 2. above). */
function withFolderAliases(result) {
  const outs = result.sideOutputs;
  if (!outs || outs.length === 0) return result;
  const have = new Set(outs.map((o) => o.path));
  const aliases = [];
  for (const out of outs) {
    if (path.posix.basename(out.path) !== "index.js") continue;
    const dir = path.posix.dirname(out.path);
    const alias = `${dir}.js`;
    if (have.has(alias) || fs.existsSync(alias) || fs.existsSync(`${dir}.ts`)) continue;
    have.add(alias);
    aliases.push({ path: alias, data: `module.exports = require(${JSON.stringify(`./${path.posix.basename(dir)}/index.js`)});\n` });
  }
  return aliases.length === 0 ? result : { ...result, sideOutputs: outs.concat(aliases) };
}

/** Serves preloaded ESM namespaces to `require(name)` (see 3. above). */
function hookRequire(preloaded) {
  const original = Module._load;
  Module._load = function (request, parent, isMain) {
    if (Object.prototype.hasOwnProperty.call(preloaded, request)) return preloaded[request];
    return original.call(this, request, parent, isMain);
  };
}

/**
 * Installs the three fixes (once per process) and returns the project root
 * and tslab's modules resolved from it. Call before tslab creates a
 * converter; the process's working directory should be the project root
 * (tslab compiles only files under it).
 */
async function setupTslab(start = process.cwd()) {
  if (installed) return installed;
  const root = findProjectRoot(start);
  const fromRoot = Module.createRequire(path.join(root, "package.json"));
  const tslabDir = path.dirname(fromRoot.resolve("tslab/package.json"));
  const fromTslab = Module.createRequire(path.join(tslabDir, "package.json"));
  const tsPath = fromTslab.resolve("@tslab/typescript-for-tslab");
  const ts = fromTslab(tsPath);
  const tsconfig = path.join(root, "notebooks", "tsconfig.json");
  wrapTypeScript(tsPath, ts, readExtraOptions(ts, tsconfig, root));

  const converter = fromTslab("./dist/converter.js");
  const createConverter = converter.createConverter;
  converter.createConverter = (options) => {
    const conv = createConverter(options);
    const convert = conv.convert;
    conv.convert = (prevDecl, src) => withFolderAliases(convert.call(conv, prevDecl, src));
    return conv;
  };

  const preloaded = {};
  for (const name of ESM_PRELOADS) {
    const entry = fromRoot.resolve(name);
    preloaded[name] = await import(require("node:url").pathToFileURL(entry).href);
  }
  hookRequire(preloaded);

  installed = {
    root,
    tslabDir,
    converter: fromTslab("./dist/converter.js"),
    executor: fromTslab("./dist/executor.js"),
    jupyter: fromTslab("./dist/jupyter.js"),
    main: fromTslab("./dist/main.js"),
    typescriptVersion: ts.version,
  };
  return installed;
}

module.exports = { setupTslab, findProjectRoot, withFolderAliases };
