import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { FIXTURES_DIR } from "./helpers/corpus";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Every copied file has a row in ORIGIN.md naming its source and a licence whose text is in LICENSES/. */
test("every fixture file has its origin and licence written down", () => {
  const origin = readFileSync(join(FIXTURES_DIR, "ORIGIN.md"), "utf8");
  const rows = new Map<string, string>();
  for (const line of origin.split("\n")) {
    const row = /^\| `([^`]+)` \|.*\[[^\]]+\]\((LICENSES\/[^)]+)\) \|$/.exec(line);
    if (row) rows.set(row[1], row[2]);
  }
  const copied = filesUnder(FIXTURES_DIR)
    .map((file) => relative(FIXTURES_DIR, file))
    .filter((file) => file !== "ORIGIN.md" && !file.startsWith("LICENSES/"));
  assert.ok(copied.length > 10);
  for (const file of copied) {
    const licence = rows.get(file);
    assert.ok(licence, `${file} has no row in test/fixtures/ORIGIN.md`);
    assert.ok(existsSync(join(FIXTURES_DIR, licence)), `${file}: ${licence} is missing`);
  }
});
