import {
  allows,
  type CounterState,
  type CounterStore,
  type TakeResult,
  type TakeRule,
} from './counter-store.js';

type Entry = CounterState & { announcedWindow: number };

const MAX_TRACKED = 50_000;

/**
 * Counters in this process's memory: right for one process (SQLite mode, where the data folder's lock
 * allows no second one) and as fast as before. Each step runs synchronously, so it is atomic here too.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly map = new Map<string, Entry>();

  async take(key: string, rule: TakeRule, now: number): Promise<TakeResult> {
    const current = this.current(key, now);
    if (current && !allows(current, rule, now)) return { taken: false, counter: snapshot(current) };
    const entry = current ?? this.start(key, rule.windowMs, now);
    entry.count += 1;
    entry.lastAt = now;
    return { taken: true, counter: snapshot(entry) };
  }

  async peek(key: string, now: number): Promise<CounterState | null> {
    const current = this.current(key, now);
    return current ? snapshot(current) : null;
  }

  async refund(key: string, resetAt: number): Promise<void> {
    const entry = this.map.get(key);
    if (entry && entry.resetAt === resetAt) entry.count = Math.max(0, entry.count - 1);
  }

  async remove(key: string): Promise<void> {
    this.map.delete(key);
  }

  async announce(key: string, limit: number, now: number): Promise<boolean> {
    const entry = this.current(key, now);
    if (!entry || entry.count < limit || entry.announcedWindow === entry.resetAt) return false;
    entry.announcedWindow = entry.resetAt;
    return true;
  }

  async prune(now: number): Promise<number> {
    return this.dropExpired(now);
  }

  async close(): Promise<void> {
    this.map.clear();
  }

  private dropExpired(now: number): number {
    let pruned = 0;
    for (const [k, e] of this.map) {
      if (e.resetAt <= now) {
        this.map.delete(k);
        pruned += 1;
      }
    }
    return pruned;
  }

  private current(key: string, now: number): Entry | null {
    const entry = this.map.get(key);
    return entry && entry.resetAt > now ? entry : null;
  }

  private start(key: string, windowMs: number, now: number): Entry {
    if (this.map.size >= MAX_TRACKED) {
      this.dropExpired(now);
      // Still full (an attack from very many addresses): forget the oldest rather than grow without bound.
      const excess = this.map.size - MAX_TRACKED + 1;
      if (excess > 0) for (const k of [...this.map.keys()].slice(0, excess)) this.map.delete(k);
    }
    const entry: Entry = { count: 0, resetAt: now + windowMs, lastAt: now, announcedWindow: 0 };
    this.map.set(key, entry);
    return entry;
  }
}

function snapshot(e: Entry): CounterState {
  return { count: e.count, resetAt: e.resetAt, lastAt: e.lastAt };
}
