import assert from "node:assert/strict";
import { test } from "node:test";
import * as vega from "vega";
// biome-ignore lint/suspicious/noTsIgnore: a @ts-expect-error would fail where the types do resolve
// @ts-ignore vega-lite ships no types under every resolution
import * as vl from "vega-lite";
import {
  bootstrapTfas,
  buildTaskFlow,
  compareTaskFlows,
  flowDiagramSpec,
  taskflowChartSpecs,
  taskflowSectionHtml,
  type LabelledSession,
  type TaskLabel,
} from "../../src/taskflow";

const s = (id: string, ...labels: TaskLabel[]): LabelledSession => ({ session_id: id, labels });
const target = {
  name: "target",
  flow: buildTaskFlow([
    s("t1", "bug-fix", "explain", "bug-fix"),
    s("t2", "new-feature", "greeting", "question", "new-feature"),
  ]),
};
const benchmark = {
  name: "benchmark",
  flow: buildTaskFlow([s("b1", "new-feature", "new-feature", "new-feature"), s("b2", "bug-fix", "bug-fix", "explain")]),
};

const data = (spec: Record<string, any>): Record<string, any>[] => spec.data?.values ?? [];

test("every chart spec compiles with Vega-Lite and renders to SVG with Vega", async () => {
  const specs = taskflowChartSpecs(target, benchmark);
  assert.deepEqual(
    specs.map((x) => x.name),
    [
      "taskflow-lengths",
      "taskflow-task-types",
      "taskflow-transitions",
      "taskflow-flow-target",
      "taskflow-flow-benchmark",
    ],
  );
  for (const { name, spec } of specs) {
    const compiled = vl.compile(spec as never).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: "none" });
    const svg = await view.toSVG();
    assert.match(svg, /^<svg/, name);
    view.finalize();
  }
});

test("the chart data are the flows' shares: lengths and task types side by side, transitions per side", () => {
  const [lengths, types, transitions] = taskflowChartSpecs(target, benchmark).map((x) => x.spec);
  // Seven bins per side; target {3: ½, 4: ½}, benchmark {3: 1}.
  assert.equal(data(lengths).length, 14);
  const share = (rows: Record<string, any>[], side: string, key: string, field: string) =>
    rows.find((r) => r.side === side && r[field] === key)?.share;
  assert.deepEqual(
    [
      share(data(lengths), "target", "3", "bin"),
      share(data(lengths), "target", "4", "bin"),
      share(data(lengths), "benchmark", "3", "bin"),
    ],
    [0.5, 0.5, 1],
  );
  // 13 retained labels per side; question is ⅙ of the target's retained messages and absent from the benchmark.
  assert.equal(data(types).length, 26);
  assert.deepEqual(
    [share(data(types), "target", "question", "label"), share(data(types), "benchmark", "question", "label")],
    [1 / 6, 0],
  );
  // 8 target edges of ⅛ each and 7 distinct benchmark edges.
  assert.equal(data(transitions).filter((r) => r.side === "target").length, 8);
  assert.equal(data(transitions).filter((r) => r.side === "benchmark").length, 7);
});

test("the flow diagram of the first messages keeps every label (unfiltered) and marks where sessions end", () => {
  const spec = flowDiagramSpec(target)!;
  const nodes: Record<string, any>[] = (spec.layer as any[])[1].data.values;
  // t2's greeting is kept at message 2 (the diagram is unfiltered, as the paper's Sankeys).
  assert.ok(nodes.some((n) => n.pos === 2 && n.label === "greeting" && n.sessions === 1));
  // t1 ends after message 3, t2 after message 4.
  assert.ok(nodes.some((n) => n.pos === 4 && n.label === "(end)" && n.sessions === 1));
  assert.ok(nodes.some((n) => n.pos === 5 && n.label === "(end)" && n.sessions === 1));
  // A flow saved without sequences has no diagram.
  assert.equal(flowDiagramSpec({ name: "x", flow: { ...target.flow, sequences: undefined } }), null);
});

test("the report section escapes names and embeds specs safely inside <script>", () => {
  const evil = { name: '<img src=x onerror="alert(1)">', flow: target.flow };
  const html = taskflowSectionHtml({
    target: { ...evil, path: null },
    benchmark: { ...benchmark, path: null },
    comparison: compareTaskFlows(evil.flow, benchmark.flow),
    ci: bootstrapTfas(evil.flow, benchmark.flow, { replicates: 10 }),
  });
  assert.ok(!html.includes("<img"));
  assert.ok(html.includes("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"));
  // Inside the inline JSON, "<" is \u003c, so no "</script" or tag can open there.
  for (const m of html.matchAll(/<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/g))
    assert.ok(!m[1].includes("<"));
  assert.match(html, /67\.8/);
});
