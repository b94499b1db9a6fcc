/** Runs `work` while counting turns of the main thread's event loop: none means it held the thread. */
export async function countingTicks<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    ticks += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { result: await work(), ticks };
  } finally {
    running = false;
  }
}
