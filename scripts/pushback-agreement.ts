/**
 * Agreement of the pushback rule classifier (src/signals) with a SWE-chat
 * release's own `prompt_pushback` labels: per label precision and recall,
 * as a Markdown table (the README's). With no path it runs on the bundled
 * sample's SWE-chat-shaped tables, whose labels were given by hand.
 *
 *   npx tsx scripts/pushback-agreement.ts [DATASET_DIR] [--show-misses]
 */
import { analyzeSwechatDataset } from "../src/analyze/analyze-swechat";
import type { AnalysisRows } from "../src/model";
import { ensureSampleCorpus } from "../src/sample";
import { classifyPushback } from "../src/signals";
import { pushbackAgreement, pushbackAgreementMarkdown } from "../src/taskflow";

process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
});

const args = process.argv.slice(2);
const path = args.find((a) => !a.startsWith("--")) ?? null;

async function main(): Promise<void> {
  const dataset = path ?? (await ensureSampleCorpus()).sweChatDir;
  const out: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  if (!(await analyzeSwechatDataset(dataset, { idleLimitS: 300 }, out))) {
    process.stderr.write(`${dataset}: no SWE-chat table found\n`);
    process.exit(1);
  }
  const prompts = out.prompts ?? [];
  const labelled = prompts.filter((p) => p.prompt_pushback);
  const a = pushbackAgreement(prompts);
  process.stdout.write(
    `Pushback rules against the dataset's prompt_pushback (${path === null ? "the bundled sample" : "the given release"}): ${labelled.length} labelled prompts of ${prompts.length}.\n\n`,
  );
  process.stdout.write(pushbackAgreementMarkdown(a).replace("| label | gold |", "| label | dataset |"));
  if (args.includes("--show-misses")) {
    for (const p of labelled) {
      const got = classifyPushback(p.text);
      if (got.label !== p.prompt_pushback)
        process.stdout.write(
          `\n- ${p.prompt_pushback} → ${got.label} (${got.rule}): ${JSON.stringify(p.text.slice(0, 120))}`,
        );
    }
    process.stdout.write("\n");
  }
}

void main();
