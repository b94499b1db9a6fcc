/**
 * Runs `task` every `intervalMs` (first after `firstDelayMs`) on an unref'd timer, one run at a time;
 * failures go to `onError`. Returns the stop function (app close calls it).
 */
export function startPeriodic(
  task: () => Promise<unknown>,
  opts: { intervalMs: number; firstDelayMs: number; onError: (error: unknown) => void },
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const run = () => {
    task()
      .catch(opts.onError)
      .finally(() => schedule(opts.intervalMs));
  };
  schedule(opts.firstDelayMs);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
