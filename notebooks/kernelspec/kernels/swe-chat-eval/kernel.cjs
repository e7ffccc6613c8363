/**
 * The Jupyter kernel for this project's notebooks: tslab, started in the
 * project root (tslab compiles only files under its working directory, and
 * Jupyter would start it in the notebook's folder), with the fixes of
 * tslab-env.cjs installed. kernel.json runs it as
 * `node {resource_dir}/kernel.cjs --config-path {connection_file}`.
 */
"use strict";
const path = require("node:path");
const { findProjectRoot } = require("./tslab-env.cjs");

async function main(argv) {
  const at = argv.indexOf("--config-path");
  const configPath = at >= 0 ? argv[at + 1] : undefined;
  if (!configPath) throw new Error("usage: kernel.cjs --config-path CONNECTION_FILE");
  // From this file when Jupyter runs it in place (JUPYTER_PATH=notebooks/kernelspec); from the
  // notebook's folder when `jupyter kernelspec install` copied it elsewhere.
  let root;
  try {
    root = findProjectRoot(__dirname);
  } catch {
    root = findProjectRoot(process.cwd());
  }
  process.chdir(root);
  // The repository's copy of the fixes, which a copied kernelspec may lag behind.
  const { setupTslab } = require(path.join(root, "notebooks", "kernelspec", "kernels", "swe-chat-eval", "tslab-env.cjs"));
  const env = await setupTslab(root);
  // enableFindLocal: false, because the tslab found from the root is already the one loaded here.
  env.main.startKernel({ configPath, enableFindLocal: false, jsKernel: false, globalVersion: "" });
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
