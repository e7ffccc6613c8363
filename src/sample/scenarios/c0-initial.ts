import type { SampleBuilder } from "../builder/sample-builder";
import { MAYA } from "../project/constants";
import { BYTES_TS, DURATION_TS, GITIGNORE, INDEX_TS, PACKAGE_JSON, README, TSCONFIG } from "../project/files";
import { at } from "../seeded/clock";

// C0: the project before anyone used an agent on it. No trailer, no unit.
export function c0Initial(b: SampleBuilder): void {
  const ws = b.ws;
  const put = (rel: string, content: string): void => {
    ws.files.set(rel, content);
  };
  put("package.json", PACKAGE_JSON);
  put("tsconfig.json", TSCONFIG);
  put(".gitignore", GITIGNORE);
  put("README.md", README);
  put("src/index.ts", INDEX_TS);
  put("src/bytes.ts", BYTES_TS);
  put("src/duration.ts", DURATION_TS);
  b.commit({
    name: "C0",
    subject: "Initial commit: bytes and duration helpers",
    author: MAYA,
    atMs: at("2026-01-05T08:12:40Z"),
    paths: [
      ".gitignore",
      "README.md",
      "package.json",
      "src/bytes.ts",
      "src/duration.ts",
      "src/index.ts",
      "tsconfig.json",
    ],
    scenarios: [],
    note: "base of the history; human only, no checkpoint",
  });
}
