import { randomBytes } from 'node:crypto';
import type { CounterState, CounterStore, TakeRule } from '../limits/counter-store.js';
import { refusedUntil } from '../limits/counter-store.js';
import { MemoryCounterStore } from '../limits/memory-counter-store.js';
import { DeviceCookieSigner } from './device-cookie.js';

/**
 * Sign-in limits after OWASP's device-cookie scheme. A browser with a valid device cookie for the account
 * ("known device") is judged only by its own failures: after perAccount of them the cookie stops counting
 * as known for the rest of the window. Every other browser is judged by its address (perIp failures, any
 * accounts), its address for this account (perAccount failures), and, account-wide, by the failures of all
 * unknown browsers together: past perAccount, each further try has to wait twice as long as the one before.
 * So guessing from many addresses gets nowhere, and nobody can keep the owner's own browser out.
 *
 * Every admitted attempt counts at once and gives its count back if it succeeds: password checks take long
 * enough that counting afterwards would let a burst of parallel guesses all pass the limit together. Each
 * count is one atomic take in the counter store (memory, the database or Redis: decision 0017), which
 * refuses rather than counts past a limit, so the limits hold across processes and parallel requests alike.
 */
export type ThrottleLimits = { perIp: number; perAccount: number; windowMs: number };

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = { perIp: 20, perAccount: 10, windowMs: 15 * 60_000 };
/** Wrong two-factor codes an account may have in a day, whatever the window's limit. */
export const CODES_PER_DAY = 50;
/**
 * Wrong recovery codes an account may have in a day, on a counter of their own that wrong app codes do not
 * touch: someone with the password who spends the day's app codes does not take the recovery codes with
 * them. Small, as a right one is spent (about 79 random bits each: guessing is hopeless anyway).
 */
export const RECOVERY_CODES_PER_DAY = 10;
const DAY_MS = 24 * 3600_000;
/** The wait for unknown browsers after the account's perAccount-th failure; it doubles with each further one. */
const FIRST_UNKNOWN_BROWSER_DELAY_MS = 30_000;

export type SignInClient = {
  ip: string;
  /** The normalised email. */
  account: string;
  /** Only when the request carries a valid device cookie issued for this very account. */
  deviceId: string | null;
};

export type ThrottleReason = 'address' | 'address-and-account' | 'unknown-browsers';

export type SignInAttempt = {
  /** Let in by a valid device cookie for this account that is not locked; otherwise judged as unknown. */
  knownDevice: boolean;
  succeeded(): Promise<{ accountUnderAttack: boolean }>;
  failed(): Promise<{ unknownBrowsersThrottledNow: boolean; deviceLockedNow: boolean }>;
};

type Counted = { key: string; counter: CounterState };

export type CodeAdmission =
  | { allowed: true; succeeded(): Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

export type Admission =
  | { allowed: true; attempt: SignInAttempt }
  | { allowed: false; retryAfterSeconds: number; reason: ThrottleReason };

export class LoginThrottle {
  /** Signs and checks device cookies; keyed from the session keys in the app, at random in tests. */
  readonly deviceCookies: DeviceCookieSigner;
  private readonly limits: ThrottleLimits;
  private readonly now: () => number;
  private readonly counters: CounterStore;

  constructor(
    opts: {
      limits?: Partial<ThrottleLimits>;
      deviceKeys?: readonly Buffer[];
      now?: () => number;
      /** Shared by every process in a scaled-out store; this throttle's own memory otherwise. */
      counters?: CounterStore;
    } = {},
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...opts.limits };
    this.now = opts.now ?? Date.now;
    this.deviceCookies = new DeviceCookieSigner(opts.deviceKeys ?? [randomBytes(32)]);
    this.counters = opts.counters ?? new MemoryCounterStore();
  }

  /** Throws when the counter store cannot be reached: the caller refuses the sign-in (fails closed). */
  async admit(client: SignInClient): Promise<Admission> {
    const t = this.now();
    const { perIp, perAccount, windowMs } = this.limits;
    if (client.deviceId !== null) {
      const device = await this.counters.take(
        keys.device(client.deviceId),
        { limit: perAccount, windowMs },
        t,
      );
      // A locked device (perAccount misses of its own) is judged below like any unknown browser.
      if (device.taken) return this.knownDevice(client, client.deviceId);
    }
    // In the order of the refusal reasons; a refusal gives back what the earlier steps counted.
    const steps: Array<{ key: string; rule: TakeRule; reason: ThrottleReason }> = [
      { key: keys.ip(client.ip), rule: { limit: perIp, windowMs }, reason: 'address' },
      { key: keys.pair(client), rule: { limit: perAccount, windowMs }, reason: 'address-and-account' },
      {
        key: keys.account(client.account),
        rule: { limit: perAccount, windowMs, backoffMs: FIRST_UNKNOWN_BROWSER_DELAY_MS },
        reason: 'unknown-browsers',
      },
    ];
    const taken = await this.takeAll(steps, t);
    if ('refusedBy' in taken) return refused(taken.until, t, taken.refusedBy.reason);
    return { allowed: true, attempt: this.unknownBrowser(client, taken.counted) };
  }

  private unknownBrowser(client: SignInClient, counted: readonly Counted[]): SignInAttempt {
    const [ip, pair, account] = counted;
    return {
      knownDevice: false,
      succeeded: async () => {
        await Promise.all([
          ip && this.counters.refund(ip.key, ip.counter.resetAt),
          account && this.counters.refund(account.key, account.counter.resetAt),
          // This address has shown it knows the password; its earlier typos no longer count against it.
          pair && this.counters.remove(pair.key),
        ]);
        return { accountUnderAttack: await this.underAttack(client.account) };
      },
      failed: async () => ({
        unknownBrowsersThrottledNow: await this.counters.announce(
          keys.account(client.account),
          this.limits.perAccount,
          this.now(),
        ),
        deviceLockedNow: false,
      }),
    };
  }

  private knownDevice(client: SignInClient, deviceId: string): Admission {
    return {
      allowed: true,
      attempt: {
        knownDevice: true,
        succeeded: async () => {
          await this.counters.remove(keys.device(deviceId));
          return { accountUnderAttack: await this.underAttack(client.account) };
        },
        failed: async () => ({
          unknownBrowsersThrottledNow: false,
          deviceLockedNow: await this.counters.announce(
            keys.device(deviceId),
            this.limits.perAccount,
            this.now(),
          ),
        }),
      },
    };
  }

  /**
   * Two-factor codes are limited like passwords (decision 0032): perAccount wrong codes per window for the
   * account, from anywhere (whoever types them already has the password), and CODES_PER_DAY a day, so
   * that a steady trickle of guesses under the window's limit still gets nowhere (three codes are right
   * at any moment: 50 guesses a day find one about once in 18 years). Counted before the check and given
   * back when the code was right, as sign-ins are. Throws when the counters cannot be reached.
   *
   * So that someone with the password cannot use up the owner's daily codes, as with sign-ins: a browser
   * that has given this account's code before (`codeDevice`, from its device cookie) has the same two
   * limits of its own and meets the account's only once it has spent them; a recovery code is counted on
   * its own strict daily counter (RECOVERY_CODES_PER_DAY), which wrong app codes never touch.
   */
  async admitCode(
    adminId: number,
    opts: { kind?: 'code' | 'recovery'; codeDevice?: string | null } = {},
  ): Promise<CodeAdmission> {
    const t = this.now();
    const window = { limit: this.limits.perAccount, windowMs: this.limits.windowMs };
    if (opts.kind === 'recovery') {
      return this.admitSteps(
        [{ key: keys.recovery(adminId), rule: { limit: RECOVERY_CODES_PER_DAY, windowMs: DAY_MS } }],
        t,
      );
    }
    if (opts.codeDevice) {
      const device = await this.admitSteps(
        [
          { key: keys.codeDevice(opts.codeDevice), rule: window },
          { key: keys.codeDeviceDay(opts.codeDevice), rule: { limit: CODES_PER_DAY, windowMs: DAY_MS } },
        ],
        t,
      );
      // A known device past its own limits is judged by the account's, like any other browser.
      if (device.allowed) return device;
    }
    return this.admitSteps(
      [
        { key: keys.code(adminId), rule: window },
        { key: keys.codeDay(adminId), rule: { limit: CODES_PER_DAY, windowMs: DAY_MS } },
      ],
      t,
    );
  }

  private async admitSteps(
    steps: ReadonlyArray<{ key: string; rule: TakeRule }>,
    t: number,
  ): Promise<CodeAdmission> {
    const taken = await this.takeAll(steps, t);
    if ('refusedBy' in taken) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((taken.until - t) / 1000)) };
    }
    const { counted } = taken;
    return {
      allowed: true,
      succeeded: async () => {
        await Promise.all(counted.map((c) => this.counters.refund(c.key, c.counter.resetAt)));
      },
    };
  }

  /**
   * Takes each step's counter in order; the first that refuses gives back what the earlier ones counted,
   * and says until when it refuses.
   */
  private async takeAll<Step extends { key: string; rule: TakeRule }>(
    steps: readonly Step[],
    t: number,
  ): Promise<{ counted: Counted[] } | { refusedBy: Step; until: number }> {
    const counted: Counted[] = [];
    for (const step of steps) {
      const result = await this.counters.take(step.key, step.rule, t);
      if (!result.taken) {
        await Promise.all(counted.map((c) => this.counters.refund(c.key, c.counter.resetAt)));
        return { refusedBy: step, until: refusedUntil(result.counter, step.rule) };
      }
      counted.push({ key: step.key, counter: result.counter });
    }
    return { counted };
  }

  private async underAttack(account: string): Promise<boolean> {
    const c = await this.counters.peek(keys.account(account), this.now());
    return c !== null && c.count >= this.limits.perAccount;
  }
}

/** The throttle's counters in the shared store, apart from every other limit's. */
const keys = {
  ip: (ip: string) => `login:ip:${ip}`,
  pair: (client: SignInClient) => `login:pair:${client.account}\n${client.ip}`,
  account: (account: string) => `login:account:${account}`,
  device: (deviceId: string) => `login:device:${deviceId}`,
  code: (adminId: number) => `login:code:${adminId}`,
  codeDay: (adminId: number) => `login:code-day:${adminId}`,
  codeDevice: (deviceId: string) => `login:code-device:${deviceId}`,
  codeDeviceDay: (deviceId: string) => `login:code-device-day:${deviceId}`,
  recovery: (adminId: number) => `login:recovery-day:${adminId}`,
};

function refused(until: number, t: number, reason: ThrottleReason): Admission {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - t) / 1000)), reason };
}
