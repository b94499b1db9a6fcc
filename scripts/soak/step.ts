/** What every step shares: the store under test, and how a step reports PASS, FAIL or SKIP. */

import type { RunningServer } from './server.js';
import type { CatalogueState } from './store-checks.js';

export type Status = 'PASS' | 'FAIL' | 'SKIP';

export type StepResult = {
  name: string;
  status: Status;
  /** One line per check ("ok  …" / "FAIL …") and per observation ("    …"). */
  lines: string[];
  ms: number;
};

export type Soak = {
  ci: boolean;
  dataDir: string;
  port: number;
  /** The server on dataDir; steps that kill or stop it start it again before they return. */
  server: RunningServer;
  /** Every demo session a shopper was told was paid, across all steps: each must stay a paid order. */
  paidSessions: string[];
  /** The catalogue the store should hold now (steps that import may change it). */
  catalogue: { name: string; state: CatalogueState };
  /** Starts the server on the same folder and port. */
  restart(env?: Record<string, string>): Promise<RunningServer>;
};

/** Collects a step's checks; the step fails when any check does. */
export class Checks {
  ok = true;
  skipped = false;
  readonly lines: string[] = [];

  check(pass: boolean, text: string): boolean {
    this.ok &&= pass;
    this.lines.push(`${pass ? 'ok  ' : 'FAIL'} ${text}`);
    return pass;
  }

  note(text: string): void {
    this.lines.push(`     ${text}`);
  }

  add(verdict: { ok: boolean; lines: string[] }): void {
    this.ok &&= verdict.ok;
    this.lines.push(...verdict.lines);
  }

  skip(reason: string): void {
    this.skipped = true;
    this.lines.push(`SKIP ${reason}`);
  }

  result(name: string, started: number): StepResult {
    return {
      name,
      status: !this.ok ? 'FAIL' : this.skipped ? 'SKIP' : 'PASS',
      lines: this.lines,
      ms: performance.now() - started,
    };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const fmtMs = (ms: number) =>
  Number.isFinite(ms) ? `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms` : '–';
