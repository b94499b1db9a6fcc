import { randomBytes } from 'node:crypto';
import { DeviceCookieSigner } from './device-cookie.js';
import { announceOnce, refund, type WindowCounter, WindowCounters } from './window-counters.js';

/**
 * Sign-in limits after OWASP's device-cookie scheme. A browser with a valid device cookie for the account
 * ("known device") is judged only by its own failures: after perAccount of them the cookie stops counting
 * as known for the rest of the window. Every other browser is judged by its address (perIp failures, any
 * accounts), its address for this account (perAccount failures), and, account-wide, by the failures of all
 * unknown browsers together: past perAccount, each further try has to wait twice as long as the one before.
 * So guessing from many addresses gets nowhere, and nobody can keep the owner's own browser out.
 *
 * Every admitted attempt counts at once and gives its count back if it succeeds: password checks take long
 * enough that counting afterwards would let a burst of parallel guesses all pass the limit together.
 */
export type ThrottleLimits = { perIp: number; perAccount: number; windowMs: number };

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = { perIp: 20, perAccount: 10, windowMs: 15 * 60_000 };
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
  succeeded(): { accountUnderAttack: boolean };
  failed(): { unknownBrowsersThrottledNow: boolean; deviceLockedNow: boolean };
};

export type Admission =
  | { allowed: true; attempt: SignInAttempt }
  | { allowed: false; retryAfterSeconds: number; reason: ThrottleReason };

export class LoginThrottle {
  /** Signs and checks device cookies; keyed from the session keys in the app, at random in tests. */
  readonly deviceCookies: DeviceCookieSigner;
  private readonly limits: ThrottleLimits;
  private readonly now: () => number;
  private readonly ips: WindowCounters;
  private readonly pairs: WindowCounters;
  private readonly accounts: WindowCounters;
  private readonly devices: WindowCounters;

  constructor(
    opts: { limits?: Partial<ThrottleLimits>; deviceKeys?: readonly Buffer[]; now?: () => number } = {},
  ) {
    this.limits = { ...DEFAULT_LOGIN_LIMITS, ...opts.limits };
    this.now = opts.now ?? Date.now;
    this.deviceCookies = new DeviceCookieSigner(opts.deviceKeys ?? [randomBytes(32)]);
    this.ips = new WindowCounters(this.limits.windowMs);
    this.pairs = new WindowCounters(this.limits.windowMs);
    this.accounts = new WindowCounters(this.limits.windowMs);
    this.devices = new WindowCounters(this.limits.windowMs);
  }

  admit(client: SignInClient): Admission {
    const t = this.now();
    if (client.deviceId !== null) {
      const device = this.devices.get(client.deviceId, t);
      if (!device || device.count < this.limits.perAccount)
        return this.admitKnownDevice(client, client.deviceId, t);
    }
    const pairKey = `${client.account}\n${client.ip}`;
    const refusal = this.refusal(client, pairKey, t);
    if (refusal) return refusal;

    const ip = this.ips.bump(client.ip, t);
    this.pairs.bump(pairKey, t);
    const account = this.accounts.bump(client.account, t);
    return {
      allowed: true,
      attempt: {
        knownDevice: false,
        succeeded: () => {
          refund(ip);
          refund(account);
          // This address has shown it knows the password; its earlier typos no longer count against it.
          this.pairs.delete(pairKey);
          return { accountUnderAttack: this.underAttack(client.account) };
        },
        failed: () => ({
          unknownBrowsersThrottledNow: announceOnce(account, this.limits.perAccount),
          deviceLockedNow: false,
        }),
      },
    };
  }

  private admitKnownDevice(client: SignInClient, deviceId: string, t: number): Admission {
    const device = this.devices.bump(deviceId, t);
    return {
      allowed: true,
      attempt: {
        knownDevice: true,
        succeeded: () => {
          this.devices.delete(deviceId);
          return { accountUnderAttack: this.underAttack(client.account) };
        },
        failed: () => ({
          unknownBrowsersThrottledNow: false,
          deviceLockedNow: announceOnce(device, this.limits.perAccount),
        }),
      },
    };
  }

  private refusal(client: SignInClient, pairKey: string, t: number): Admission | null {
    const { perIp, perAccount } = this.limits;
    const ip = this.ips.get(client.ip, t);
    if (ip && ip.count >= perIp) return refused(ip.resetAt, t, 'address');
    const pair = this.pairs.get(pairKey, t);
    if (pair && pair.count >= perAccount) return refused(pair.resetAt, t, 'address-and-account');
    const account = this.accounts.get(client.account, t);
    if (account && account.count >= perAccount) {
      const until = Math.min(account.lastAt + unknownBrowserDelay(account, perAccount), account.resetAt);
      if (until > t) return refused(until, t, 'unknown-browsers');
    }
    return null;
  }

  private underAttack(account: string): boolean {
    const c = this.accounts.get(account, this.now());
    return c !== null && c.count >= this.limits.perAccount;
  }
}

function unknownBrowserDelay(account: WindowCounter, perAccount: number): number {
  // Capped exponent: past about 2^5 the wait outlasts any window anyway.
  return FIRST_UNKNOWN_BROWSER_DELAY_MS * 2 ** Math.min(account.count - perAccount, 20);
}

function refused(until: number, t: number, reason: ThrottleReason): Admission {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - t) / 1000)), reason };
}
