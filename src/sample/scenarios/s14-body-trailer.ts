import type { SampleBuilder } from "../builder/sample-builder";
import { TOM } from "../project/constants";
import { at } from "../seeded/clock";
import { checkpointId } from "../seeded/ids";

// Scenario 14: a squash-merge style message that quotes
// `Entire-Checkpoint: <scenario 1's id>` in its body, not in the trailer
// block: not a link (git's trailer parser returns nothing). Human only.
export function s14BodyTrailer(b: SampleBuilder): void {
  const ws = b.ws;
  ws.change(
    "README.md",
    "Small formatting helpers for command-line tools.",
    "Small, dependency-free formatting helpers for command-line tools.",
  );
  b.commit({
    name: "C15",
    subject: "Docs polish (#14)",
    body: `* Mention that the helpers have no dependencies\n\nEntire-Checkpoint: ${checkpointId("s01")}\n\n* Reword the README intro line`,
    author: TOM,
    atMs: at("2026-01-28T17:20:05Z"),
    paths: ["README.md"],
    scenarios: [14],
    note: "Entire-Checkpoint text in the body, not a trailer: no link",
  });
}
