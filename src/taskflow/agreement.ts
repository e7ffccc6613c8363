import { TASK_LABELS, type TaskLabel } from "./taxonomy";

export interface LabelAgreement<L extends string = TaskLabel> {
  label: L;
  /** Gold messages with this label. */
  support: number;
  /** Messages the classifier gave this label. */
  predicted: number;
  /** Both. */
  correct: number;
  /** correct / predicted; null when never predicted. */
  precision: number | null;
  /** correct / support; null when absent from the gold set. */
  recall: number | null;
}

export interface Agreement<L extends string = TaskLabel> {
  n: number;
  correct: number;
  accuracy: number | null;
  labels: LabelAgreement<L>[];
  /** gold → predicted → count. */
  confusion: Record<string, Record<string, number>>;
}

/** Per-label precision and recall and overall accuracy of predicted against gold labels. */
export function measureAgreement(pairs: readonly { gold: TaskLabel; predicted: TaskLabel }[]): Agreement {
  return measureAgreementOver(TASK_LABELS, pairs);
}

/** measureAgreement over any closed label set (rows in the order of `labels`). */
export function measureAgreementOver<L extends string>(
  all: readonly L[],
  pairs: readonly { gold: L; predicted: L }[],
): Agreement<L> {
  const confusion: Record<string, Record<string, number>> = {};
  let correct = 0;
  for (const { gold, predicted } of pairs) {
    confusion[gold] ??= {};
    confusion[gold][predicted] = (confusion[gold][predicted] ?? 0) + 1;
    if (gold === predicted) correct++;
  }
  const labels = all.map((label): LabelAgreement<L> => {
    const support = pairs.filter((p) => p.gold === label).length;
    const predicted = pairs.filter((p) => p.predicted === label).length;
    const ok = pairs.filter((p) => p.gold === label && p.predicted === label).length;
    return {
      label,
      support,
      predicted,
      correct: ok,
      precision: predicted > 0 ? ok / predicted : null,
      recall: support > 0 ? ok / support : null,
    };
  });
  return { n: pairs.length, correct, accuracy: pairs.length > 0 ? correct / pairs.length : null, labels, confusion };
}

const pct = (v: number | null) => (v === null ? "–" : `${(100 * v).toFixed(1)}%`);

/** The agreement as a Markdown table (labels absent from both sides are left out). */
export function agreementMarkdown<L extends string>(a: Agreement<L>): string {
  const rows = a.labels.filter((l) => l.support > 0 || l.predicted > 0);
  const lines = [
    "| label | gold | predicted | correct | precision | recall |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (l) => `| ${l.label} | ${l.support} | ${l.predicted} | ${l.correct} | ${pct(l.precision)} | ${pct(l.recall)} |`,
    ),
    `| **all** | **${a.n}** | | **${a.correct}** | | **accuracy ${pct(a.accuracy)}** |`,
  ];
  return lines.join("\n") + "\n";
}
