/**
 * Sign-in attempt limits, kept in memory (one process; a shared store replaces this when the store scales
 * out). Per client IP it counts every attempt; per account it counts failures, so guessing one admin's
 * password from many addresses is slowed too. Windows are fixed: simple and enough at these rates.
 */
export type ThrottleLimits = { perIp: number; perAccount: number; windowMs: number };

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = { perIp: 20, perAccount: 10, windowMs: 15 * 60_000 };
const MAX_TRACKED = 50_000;

type Counter = { count: number; resetAt: number };

export class LoginThrottle {
  private readonly ips = new Map<string, Counter>();
  private readonly accounts = new Map<string, Counter>();

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when the attempt may go ahead. Counts the attempt per IP. */
  attempt(ip: string, account: string): number {
    const t = this.now();
    const ipCounter = this.bump(this.ips, ip, t);
    const accountCounter = this.current(this.accounts, account, t);
    const blockedUntil = Math.max(
      ipCounter.count > this.limits.perIp ? ipCounter.resetAt : 0,
      accountCounter && accountCounter.count >= this.limits.perAccount ? accountCounter.resetAt : 0,
    );
    return blockedUntil > t ? Math.ceil((blockedUntil - t) / 1000) : 0;
  }

  failed(account: string): { lockedNow: boolean } {
    const counter = this.bump(this.accounts, account, this.now());
    return { lockedNow: counter.count === this.limits.perAccount };
  }

  succeeded(account: string): void {
    this.accounts.delete(account);
  }

  private current(map: Map<string, Counter>, key: string, t: number): Counter | null {
    const c = map.get(key);
    if (!c || c.resetAt <= t) return null;
    return c;
  }

  private bump(map: Map<string, Counter>, key: string, t: number): Counter {
    let c = this.current(map, key, t);
    if (!c) {
      if (map.size >= MAX_TRACKED) this.prune(map, t);
      c = { count: 0, resetAt: t + this.limits.windowMs };
      map.set(key, c);
    }
    c.count += 1;
    return c;
  }

  private prune(map: Map<string, Counter>, t: number): void {
    for (const [k, c] of map) if (c.resetAt <= t) map.delete(k);
    // Still full (an attack from very many addresses): forget the oldest rather than grow without bound.
    const excess = map.size - MAX_TRACKED + 1;
    if (excess > 0) for (const k of [...map.keys()].slice(0, excess)) map.delete(k);
  }
}
