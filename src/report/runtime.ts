import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { scriptForInline } from "./escape";

/**
 * The package's root folder: the bin sets SWE_CHAT_EVAL_ROOT; tests and
 * notebooks run from the repository root. (No `import.meta` here: notebooks
 * compile src to CommonJS.)
 */
export function packageRoot(): string {
  return process.env.SWE_CHAT_EVAL_ROOT ?? process.cwd();
}

const BUNDLES = [
  { name: "vega", file: "vega.min.js" },
  { name: "vega-lite", file: "vega-lite.min.js" },
  { name: "vega-embed", file: "vega-embed.min.js" },
] as const;

let cached: { name: string; code: string }[] | null = null;

const INTERPRETER_IMPORT = "import { ascending, isString, DisallowedObjectProperties } from 'vega-util';";
const INTERPRETER_EXPORT = "export { expression as expressionInterpreter };";

/**
 * vega-interpreter as a classic script: Vega otherwise compiles every
 * expression with \`Function\`, which a Content-Security-Policy without
 * 'unsafe-eval' blocks. The package ships only an ES module whose one import
 * (three vega-util functions) the vega bundle exposes on \`window.vega\`; the
 * import and export lines are rewritten, and if either is not found exactly
 * (a new version) this throws rather than inline something untested.
 */
function interpreterScript(source: string): string {
  if (
    !source.startsWith(INTERPRETER_IMPORT) ||
    source.split(INTERPRETER_EXPORT).length !== 2 ||
    /\bimport\s*[({]|^\s*import\s/m.test(source.slice(INTERPRETER_IMPORT.length))
  ) {
    throw new Error(
      "vega-interpreter's build does not have the expected single import and export: update src/report/runtime.ts",
    );
  }
  const body = source
    .slice(INTERPRETER_IMPORT.length)
    .replace(INTERPRETER_EXPORT, "window.vegaExpressionInterpreter = expression;");
  return `(function () {\n"use strict";\nvar ascending = vega.ascending, isString = vega.isString, DisallowedObjectProperties = vega.DisallowedObjectProperties;\n${body}\n})();`;
}

/**
 * The UMD bundles of vega, vega-lite and vega-embed, and vega-interpreter
 * (see above), ready to inline in `<script>` elements, in load order. `require.resolve("vega/package.json")` is not allowed
 * (the packages' `exports` do not list it), so each package's main entry is
 * resolved and its `build/` folder read.
 */
export function vegaRuntime(root: string = packageRoot()): { name: string; code: string }[] {
  if (cached) return cached;
  const require = createRequire(join(root, "package.json"));
  cached = BUNDLES.map(({ name, file }) => {
    const entry = require.resolve(name);
    let dir = dirname(entry);
    while (!dir.endsWith("build") && dirname(dir) !== dir) dir = dirname(dir);
    return { name, code: scriptForInline(readFileSync(join(dir, file), "utf8")) };
  });
  const interpreter = require.resolve("vega-interpreter", { paths: [dirname(require.resolve("vega"))] });
  cached.splice(1, 0, {
    name: "vega-interpreter",
    code: scriptForInline(interpreterScript(readFileSync(interpreter, "utf8"))),
  });
  return cached;
}
