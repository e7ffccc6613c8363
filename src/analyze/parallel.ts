/**
 * A small worker-thread pool for per-session jobs: `mapInWorkers` streams
 * jobs from an (async) iterable through N workers and hands the results back
 * in job order.
 *
 * - Memory stays flat however many jobs there are: at most `maxInFlight` jobs
 *   are dispatched and not yet delivered, inputs are dropped once sent, and
 *   with `onResult` results are delivered and not kept.
 * - Output is deterministic: results come back in job order whatever the
 *   thread count (a reorder buffer bounded by `maxInFlight`).
 * - `threads` 0 or 1 runs every job inline on the calling thread (for
 *   comparison, and where workers are not wanted).
 *
 * The worker module is a file that exports the job function (by default
 * `runJob(input)`, sync or async). Inputs and outputs cross threads by
 * structured clone, so keep both small: paths in, a row of numbers out.
 *
 * TypeScript worker modules: a worker thread does not inherit tsx's loader
 * on Node 20 (tsx registers its hooks on the main thread only, and
 * `execArgv: ["--import", "tsx"]` on a Worker does nothing there; checked on
 * Node 20.20 with tsx 4.23). So for a `.ts` module each worker first calls
 * `register()` of tsx's ESM API (`tsx/esm/api`), found from the worker
 * module's folder upwards, then from `process.cwd()`, then the tsx that runs
 * this process, before importing the module.
 *
 * No `import.meta` here (notebooks compile `src` to CommonJS): the caller
 * gives the worker module's path; a relative path is taken relative to
 * `process.cwd()`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

export interface MapInWorkersOptions<I, O> {
  /** Worker threads; 0 or 1 runs the jobs inline on this thread. */
  threads: number;
  /** Called once per job, in job order. When given, results are not kept (the returned array is empty) unless `collect` is true. */
  onResult?: (result: O, index: number) => void | Promise<void>;
  /** Keep and return all results (default: only when there is no `onResult`). */
  collect?: boolean;
  /** Name of the job function the worker module exports. Default `runJob`. */
  exportName?: string;
  /** Jobs dispatched but not yet delivered, at most (default 16 per thread; each worker has at most 8 queued and reports results 4 at a time). Bounds memory (inputs and finished rows waiting for an earlier one) and the reorder buffer. */
  maxInFlight?: number;
  /** The job function itself, for inline runs (skips importing the module; needed where dynamic `import()` of a .ts file is unavailable, e.g. code compiled to CommonJS). */
  run?: (input: I) => O | Promise<O>;
  /** Extra Node options for the workers. Default: none (see the note on tsx above). */
  execArgv?: string[];
  /** Where tsx's ESM API is: a path or file URL; `false` never loads tsx; default: looked up for `.ts` modules. */
  tsx?: string | false;
  /** Called once, when every worker has loaded the job module (inline: when the module is loaded). Jobs already go to the first worker up before then; a caller that times the run can hold its jobs back until this. */
  onReady?: () => void;
  /**
   * Jobs one thread (each worker, or the calling thread inline) runs at once, interleaved where they await
   * (default 1): for jobs that wait on another process (git), so that one job's wait is another's turn to
   * compute. Results still come back in job order; each running job holds its own input in memory.
   */
  concurrency?: number;
  /** Per-worker V8 heap limits (MB), passed to `new Worker`. */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

interface WorkerReply {
  kind: "ready" | "results" | "error" | "fatal";
  results?: { seq: number; output: unknown }[];
  seq?: number;
  error?: string;
}

/**
 * Source of every worker: load the module (through tsx when needed), then
 * answer `{seq, input}` messages. Jobs waiting at the worker are taken
 * synchronously (`receiveMessageOnPort`) and results go back `batch` at a
 * time (or when no job is waiting, or when a result has waited 50 ms): one
 * message and one wake-up of the main thread per batch of short jobs instead
 * of per job (measured: a few % of a 2-thread run), while slow jobs still
 * report as they finish.
 */
const BOOTSTRAP = `
const { parentPort, workerData, receiveMessageOnPort } = require("node:worker_threads");
(async () => {
  if (workerData.tsx) {
    const api = await import(workerData.tsx);
    api.register();
  }
  const mod = await import(workerData.module);
  const fn = mod[workerData.exportName] ?? (mod.default && mod.default[workerData.exportName]);
  if (typeof fn !== "function") throw new Error("the worker module " + workerData.module + " exports no function " + workerData.exportName);
  const queue = [];
  let active = 0;
  let closing = false;
  let results = [];
  let sentAt = performance.now();
  const send = () => {
    if (results.length > 0) parentPort.postMessage({ kind: "results", results });
    results = [];
    sentAt = performance.now();
  };
  const finished = () => {
    active--;
    // A full batch, or a result held for long enough (slow jobs report one by one, for progress bars).
    if (results.length >= workerData.batch || performance.now() - sentAt > 50) send();
    take();
  };
  const start = (msg) => {
    active++;
    Promise.resolve()
      .then(() => fn(msg.input))
      .then(
        (output) => {
          results.push({ seq: msg.seq, output });
          finished();
        },
        (e) => {
          send();
          parentPort.postMessage({ kind: "error", seq: msg.seq, error: e && e.stack ? String(e.stack) : String(e) });
          finished();
        },
      );
  };
  // Up to workerData.concurrency jobs at once: one job's waits (for git) are another's turn to compute.
  const take = () => {
    for (let m = receiveMessageOnPort(parentPort); m !== undefined; m = receiveMessageOnPort(parentPort)) queue.push(m.message);
    while (active < workerData.concurrency && queue.length > 0) {
      const msg = queue.shift();
      if (msg === null) closing = true;
      else start(msg);
    }
    if (active > 0 || queue.length > 0) return;
    send();
    if (closing) parentPort.close();
  };
  parentPort.on("message", (msg) => {
    queue.push(msg);
    take();
  });
  parentPort.postMessage({ kind: "ready" });
})().catch((e) => parentPort.postMessage({ kind: "fatal", error: e && e.stack ? String(e.stack) : String(e) }));
`;

/**
 * Runs `workerModule`'s job function on every job, on `threads` worker
 * threads, and returns the results in job order (see the module comment).
 * A job that throws rejects the whole call (the workers are stopped); make
 * the job function catch what it wants to report as data.
 */
export async function mapInWorkers<I, O>(
  jobs: AsyncIterable<I> | Iterable<I>,
  workerModule: string,
  options: MapInWorkersOptions<I, O>,
): Promise<O[]> {
  const modulePath = isAbsolute(workerModule) ? workerModule : resolve(process.cwd(), workerModule);
  const collect = options.collect ?? options.onResult === undefined;
  const results: O[] = [];
  const exportName = options.exportName ?? "runJob";
  const deliver = async (output: O, index: number): Promise<void> => {
    if (collect) results.push(output);
    if (options.onResult) await options.onResult(output, index);
  };

  if (options.threads <= 1) {
    let fn = options.run;
    if (fn === undefined) {
      // A plain absolute path (not a file URL) on POSIX, so that code compiled to CommonJS, where `import()` becomes `require()`, loads it too.
      const mod = (await import(process.platform === "win32" ? pathToFileURL(modulePath).href : modulePath)) as Record<
        string,
        unknown
      >;
      const f = mod[exportName];
      if (typeof f !== "function") throw new Error(`the worker module ${modulePath} exports no function ${exportName}`);
      fn = f as (input: I) => O | Promise<O>;
    }
    options.onReady?.();
    const run = fn;
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    let index = 0;
    const running: Promise<O>[] = [];
    for await (const job of jobs) {
      const output = Promise.resolve().then(() => run(job));
      // Awaited in turn below; a later job's failure must not count as unhandled while an earlier one runs.
      output.catch(() => undefined);
      running.push(output);
      if (running.length >= concurrency) await deliver(await running.shift()!, index++);
    }
    while (running.length > 0) await deliver(await running.shift()!, index++);
    return results;
  }

  const threads = Math.floor(options.threads);
  const maxInFlight = Math.max(options.maxInFlight ?? threads * 16, threads);
  // Jobs queued at one worker: a few, so that it never waits for the main thread between jobs
  // (it reports every `batch` results, while the other half of its queue keeps it busy);
  // the rest of the window lets the others run ahead of one slow job.
  const perWorker = Math.min(8, Math.max(1, Math.ceil(maxInFlight / threads)));
  const batch = Math.max(1, Math.floor(perWorker / 2));
  const tsx =
    options.tsx === false
      ? null
      : options.tsx !== undefined
        ? toUrl(options.tsx)
        : /\.[cm]?tsx?$/.test(modulePath)
          ? findTsxApi(modulePath)
          : null;
  if (/\.[cm]?tsx?$/.test(modulePath) && tsx === null && options.tsx !== false) {
    throw new Error(
      `the worker module ${modulePath} is TypeScript but tsx (tsx/esm/api) was not found from its folder or from ${process.cwd()}`,
    );
  }
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const workerData = { module: pathToFileURL(modulePath).href, exportName, tsx, batch, concurrency };

  return new Promise<O[]>((resolvePromise, rejectPromise) => {
    const iterator: AsyncIterator<I> | Iterator<I> =
      Symbol.asyncIterator in jobs
        ? (jobs as AsyncIterable<I>)[Symbol.asyncIterator]()
        : (jobs as Iterable<I>)[Symbol.iterator]();
    const workers: { w: Worker; busy: number; ready: boolean }[] = [];
    /** Finished results waiting for the ones before them. */
    const done = new Map<number, O>();
    let nextSeq = 0; // next job index to dispatch
    let nextDeliver = 0; // next job index to hand to onResult
    let exhausted = false;
    let pulling = false;
    let delivering = false;
    let failed = false;
    let finished = false;

    const fail = (error: unknown): void => {
      if (failed || finished) return;
      failed = true;
      for (const x of workers) void x.w.terminate();
      rejectPromise(error instanceof Error ? error : new Error(String(error)));
    };

    const maybeFinish = (): void => {
      if (finished || failed || !exhausted || nextDeliver < nextSeq || delivering) return;
      finished = true;
      for (const x of workers) x.w.postMessage(null);
      // Let workers exit on their own; terminate stragglers.
      Promise.all(workers.map((x) => x.w.terminate())).then(
        () => resolvePromise(results),
        () => resolvePromise(results),
      );
    };

    const flush = async (): Promise<void> => {
      if (delivering) return;
      delivering = true;
      try {
        while (done.has(nextDeliver)) {
          const out = done.get(nextDeliver)!;
          done.delete(nextDeliver);
          await deliver(out, nextDeliver);
          nextDeliver++;
        }
      } catch (e) {
        fail(e);
        return;
      } finally {
        delivering = false;
      }
      pump();
      maybeFinish();
    };

    /** Dispatches jobs while a worker is free and the window allows. */
    const pump = (): void => {
      if (pulling || exhausted || failed) return;
      const target = workers.filter((x) => x.ready).sort((a, b) => a.busy - b.busy)[0];
      if (target === undefined || target.busy >= perWorker || nextSeq - nextDeliver >= maxInFlight) return;
      pulling = true;
      Promise.resolve(iterator.next()).then(
        (step) => {
          pulling = false;
          if (failed) return;
          if (step.done) {
            exhausted = true;
            maybeFinish();
            return;
          }
          const free = workers.filter((x) => x.ready).sort((a, b) => a.busy - b.busy)[0];
          free.busy++;
          free.w.postMessage({ seq: nextSeq++, input: step.value });
          pump();
        },
        (e) => {
          pulling = false;
          fail(e);
        },
      );
    };

    for (let i = 0; i < threads; i++) {
      const w = new Worker(BOOTSTRAP, {
        eval: true,
        workerData,
        execArgv: options.execArgv ?? [],
        ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      });
      const slot = { w, busy: 0, ready: false };
      workers.push(slot);
      w.on("message", (msg: WorkerReply) => {
        if (msg.kind === "ready") {
          slot.ready = true;
          if (workers.every((x) => x.ready)) options.onReady?.();
          pump();
        } else if (msg.kind === "results") {
          for (const r of msg.results!) {
            slot.busy--;
            done.set(r.seq, r.output as O);
          }
          void flush();
          pump();
        } else if (msg.kind === "error") {
          fail(new Error(`job ${msg.seq} failed in a worker: ${msg.error}`));
        } else fail(new Error(`worker failed to start: ${msg.error}`));
      });
      w.on("error", fail);
      w.on("exit", (code) => {
        if (!finished && !failed) fail(new Error(`a worker exited early (code ${code})`));
      });
    }
  });
}

function toUrl(p: string): string {
  return p.startsWith("file:") ? p : pathToFileURL(resolve(p)).href;
}

/**
 * tsx's ESM API entry (package.json exports "./esm/api" → import): from the
 * module's folder up, then from the cwd up, then the tsx this process was
 * started with (its loader is in `process.execArgv` under `tsx file.ts`).
 */
function findTsxApi(modulePath: string): string | null {
  const starts = [dirname(modulePath), process.cwd()];
  for (const a of process.execArgv) {
    const m = /^(?:file:\/\/)?(.*\/node_modules\/tsx)\//.exec(a);
    if (m) starts.push(dirname(dirname(decodeURIComponent(m[1]))));
  }
  for (const start of starts) {
    let dir = start;
    for (;;) {
      const pkg = join(dir, "node_modules", "tsx", "package.json");
      if (existsSync(pkg)) {
        try {
          const json = JSON.parse(readFileSync(pkg, "utf8")) as { exports?: Record<string, unknown> };
          const entry = json.exports?.["./esm/api"] as { import?: string | { default?: string } } | undefined;
          const rel = typeof entry?.import === "string" ? entry.import : entry?.import?.default;
          if (rel) return pathToFileURL(join(dir, "node_modules", "tsx", rel)).href;
        } catch {
          // try further up
        }
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return null;
}
