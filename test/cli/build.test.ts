/**
 * The CLI's compiled form (bin/build.mjs): the bin runs dist/<stamp>/, rebuilt whenever a file under src/ changes,
 * and gives the same tables as the TypeScript sources run through tsx; processes starting at once share one build.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is compiled)
import { ENTRIES, ensureBuild, sourceStamp } from "../../bin/build.mjs";

/** A package root whose src/ holds the entry points, each exporting its own name. */
function tinyPackage(): string {
  const root = mkdtempSync(join(tmpdir(), "sce-build-"));
  for (const entry of ENTRIES as string[]) {
    mkdirSync(join(root, "src", dirname(entry)), { recursive: true });
    writeFileSync(
      join(root, "src", entry),
      `import { shared } from "../shared";\nexport const name: string = shared("${entry}");\n`,
    );
  }
  writeFileSync(join(root, "src", "shared.ts"), "export const shared = (s: string): string => `v1 ${s}`;\n");
  return root;
}

test("a build per source stamp: unchanged sources reuse it, an edited file gives a new stamp and a new build", async () => {
  const root = tinyPackage();
  const first: string = await ensureBuild(root);
  assert.equal(first, join(root, "dist", sourceStamp(root)));
  const main = await import(join(first, "cli", "main.js"));
  assert.equal(main.name, "v1 cli/main.ts");
  assert.equal(await ensureBuild(root), first, "rebuilt without a change");
  // An edit of the same size one second later: the mtime alone changes the stamp.
  writeFileSync(join(root, "src", "shared.ts"), "export const shared = (s: string): string => `v2 ${s}`;\n");
  const later = new Date(Date.now() + 1000);
  utimesSync(join(root, "src", "shared.ts"), later, later);
  const second: string = await ensureBuild(root);
  assert.notEqual(second, first);
  assert.equal((await import(join(second, "analyze", "swechat-job.js"))).name, "v2 analyze/swechat-job.ts");
  assert.deepEqual(readdirSync(join(root, "dist")), [sourceStamp(root)], "the older build is removed");
  rmSync(root, { recursive: true, force: true });
});

test("four processes building at once end with one complete build, each given its path", async () => {
  const root = tinyPackage();
  const build = join(process.cwd(), "bin", "build.mjs");
  const script = `import(${JSON.stringify(build)}).then((m) => m.ensureBuild(${JSON.stringify(root)})).then((p) => process.stdout.write(p))`;
  const outputs = await Promise.all(
    [1, 2, 3, 4].map(
      () =>
        new Promise<string>((done, fail) => {
          const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
          let out = "";
          child.stdout.on("data", (d) => {
            out += d;
          });
          child.on("exit", (code) => (code === 0 ? done(out) : fail(new Error(`exit ${code}`))));
        }),
    ),
  );
  assert.deepEqual(new Set(outputs), new Set([join(root, "dist", sourceStamp(root))]));
  assert.deepEqual(readdirSync(join(root, "dist")), [sourceStamp(root)], "no temporary folder left");
  rmSync(root, { recursive: true, force: true });
});

test("the compiled CLI and the TypeScript sources write the same tables, on worker threads too", () => {
  const tables = (env: Record<string, string>) => {
    const out = mkdtempSync(join(tmpdir(), "sce-build-out-"));
    const run = spawnSync(
      process.execPath,
      ["bin/swe-chat-eval.js", "analyze", "--out", out, "--quiet", "--threads", "2"],
      { encoding: "utf8", env: { ...process.env, ...env } },
    );
    assert.equal(run.status, 0, run.stderr);
    const read = (n: string) => readFileSync(join(out, `${n}.json`), "utf8");
    const result = ["units", "group_units", "sessions", "tool_calls", "line_ranges"].map(read);
    rmSync(out, { recursive: true, force: true });
    return result;
  };
  assert.deepEqual(tables({}), tables({ SWE_CHAT_EVAL_NO_BUILD: "1" }));
});
