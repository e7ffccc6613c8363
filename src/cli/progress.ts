import cliProgress from "cli-progress";

export interface Progress {
  start(total: number, label: string): void;
  update(done: number, label?: string): void;
  stop(): void;
}

const silent: Progress = { start() {}, update() {}, stop() {} };

/** A progress bar on stderr when it is a terminal and the user did not ask for quiet; otherwise nothing. */
export function makeProgress(quiet: boolean): Progress {
  if (quiet || !process.stderr.isTTY || !process.stdout.isTTY) return silent;
  const bar = new cliProgress.SingleBar(
    { format: "{bar} {value}/{total} {label}", stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    start(total, label) {
      if (started) bar.setTotal(total);
      else bar.start(total, 0, { label });
      started = true;
    },
    update(done, label) {
      bar.update(done, label === undefined ? undefined : { label });
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
