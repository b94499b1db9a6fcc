import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/database.js';
import { thisProcess } from '../../db/job-lease.js';
import { startPeriodic } from '../logs/periodic.js';
import { readStoreContacts } from '../settings/settings.repository.js';
import { classifySendError, type Mailbox, type MailTransport, smtpTransport } from './mail-transport.js';
import { type ClaimedEmail, claimNextEmail, noteUnsendable, settleAttempt } from './outbox.repository.js';
import { failedAttemptOutcome } from './retry-policy.js';

/** What request handlers hold: a way to ask the worker to look at the outbox now. */
export interface MailOutbox {
  /** Asks the worker to look now (after a commit that queued mail). Returns at once and never throws. */
  nudge(): void;
}

/** How long a claim lasts: well past the transport's own timeouts, so only a dead process loses it. */
export const CLAIM_MS = 10 * 60_000;
/** The poll that sends the retries that have come due. */
export const POLL_MS = 30_000;
/** Emails one pass sends before it lets the next pass (or a stop) have its turn. */
const PASS_LIMIT = 50;

export type DeliveryReport = { sent: number; retrying: number; failed: number; unsendable: number };

type MailWorkerDeps = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The mail server; null when SMTP_URL is not set (emails then wait in the outbox). */
  transport: MailTransport | null;
  /** MAIL_FROM; null: the store's name (read from the settings at each pass) at `defaultFromAddress`. */
  from: Mailbox | null;
  defaultFromAddress: string;
  /** Demo payment mode: emails that cannot be sent are printed to the log instead, so a demo shows them. */
  printUnsent: boolean;
  /** This process, as the claims name it; a test gives two workers on one database their own names. */
  holder?: string;
  /** Texts never written into an error reason (the SMTP URL and its password). */
  secrets?: string[];
};

/**
 * Sends the outbox's emails. Until start() it does nothing (an app built by a test or a tool sends no mail);
 * after it, a nudge runs a pass soon after the current request, and a poll every 30 s sends the retries that
 * came due. Each email is claimed with one conditional UPDATE, so several processes on one database never
 * send the same email twice (at-least-once only if a process dies between the server's "accepted" and the
 * write that records it). stop() ends the poll, waits for the pass in flight and closes the connection.
 */
export class MailWorker implements MailOutbox {
  private readonly holder: string;
  private started = false;
  private stopped = false;
  private running: Promise<void> | null = null;
  private again = false;
  private stopPoll: (() => void) | null = null;

  constructor(private readonly deps: MailWorkerDeps) {
    this.holder = deps.holder ?? thisProcess;
  }

  /** The mail server's host, for log lines and the start-up note (never the URL). */
  get server(): string | null {
    return this.deps.transport?.host ?? null;
  }

  nudge(): void {
    if (!this.started || this.stopped) return;
    try {
      this.kick();
    } catch (error) {
      this.deps.log.warn({ err: error, event: 'email.worker-error' }, 'could not start sending emails');
    }
  }

  /**
   * Starts delivery: a first pass at once (emails queued while no process was sending, or before SMTP_URL was
   * set) and, with a mail server, the poll. Returns stop().
   */
  start(): () => Promise<void> {
    if (this.started || this.stopped) return () => this.stop();
    this.started = true;
    if (this.deps.transport) {
      this.deps.log.info(
        { event: 'email.worker', server: this.deps.transport.host },
        `order emails go out through ${this.deps.transport.host}`,
      );
      this.stopPoll = startPeriodic(() => this.idleAfterKick(), {
        intervalMs: POLL_MS,
        firstDelayMs: POLL_MS,
        onError: (error) =>
          this.deps.log.warn({ err: error, event: 'email.worker-error' }, 'email delivery pass failed'),
      });
    } else {
      this.deps.log.warn(
        { event: 'email.worker', server: null },
        'SMTP_URL is not set: order emails wait in the outbox until a mail server is configured',
      );
    }
    this.kick();
    return () => this.stop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopPoll?.();
    this.stopPoll = null;
    await this.idle();
    this.deps.transport?.close();
  }

  /** Resolves once no pass runs or waits to run (tests wait on it after a nudge). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * One pass over the outbox: with a mail server, claims and sends every due email (up to a limit); without
   * one, notes the reason on queued emails once each and, in demo mode, prints them to the log.
   */
  async runOnce(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, unsendable: 0 };
    const transport = this.deps.transport;
    if (!transport) {
      await this.noteUnsendable(report);
      return report;
    }
    // Read at each pass, so a changed store name or contact address shows in the next email.
    const store = await readStoreContacts(this.deps.db);
    const from = this.deps.from ?? { name: store.name, address: this.deps.defaultFromAddress };
    const contactEmail = store.contactEmail;
    for (let i = 0; i < PASS_LIMIT; i++) {
      if (this.stopped) break;
      const email = await claimNextEmail(this.deps.db, {
        holder: this.holder,
        now: this.deps.clock.now(),
        claimMs: CLAIM_MS,
      });
      if (!email) return report;
      await this.deliver(transport, email, { from, replyTo: contactEmail }, report);
    }
    // More may be due: the next pass follows at once instead of after the poll's interval.
    this.again = true;
    return report;
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // After the current request's response: a nudge never holds up the request that queued the email.
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.passes())
      .finally(() => {
        this.running = null;
      });
  }

  private async idleAfterKick(): Promise<void> {
    this.kick();
    await this.idle();
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.runOnce();
      } catch (error) {
        this.deps.log.warn({ err: error, event: 'email.worker-error' }, 'email delivery pass failed');
        return;
      }
    } while (this.again && !this.stopped);
  }

  private async deliver(
    transport: MailTransport,
    email: ClaimedEmail,
    sender: { from: Mailbox; replyTo: string | null },
    report: DeliveryReport,
  ): Promise<void> {
    const about = { emailId: email.id, kind: email.kind, orderId: email.orderId, attempt: email.attempts };
    let messageId: string | null;
    try {
      ({ messageId } = await transport.send({
        from: sender.from,
        replyTo: sender.replyTo,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
      }));
    } catch (error) {
      const failure = classifySendError(error, this.deps.secrets);
      const now = this.deps.clock.now();
      const outcome = failedAttemptOutcome(failure, email.attempts, now);
      await settleAttempt(this.deps.db, { id: email.id, holder: this.holder, now, outcome });
      if (outcome.status === 'failed') {
        report.failed++;
        this.deps.log.warn(
          { event: 'email.failed', ...about, server: transport.host, reason: outcome.lastError },
          'email not sent: given up',
        );
      } else {
        report.retrying++;
        this.deps.log.warn(
          {
            event: 'email.retry',
            ...about,
            server: transport.host,
            reason: failure.reason,
            nextAttemptAt: outcome.status === 'queued' ? outcome.nextAttemptAt.toISOString() : null,
          },
          'email not sent yet: will try again',
        );
      }
      return;
    }
    const settled = await settleAttempt(this.deps.db, {
      id: email.id,
      holder: this.holder,
      now: this.deps.clock.now(),
      outcome: { status: 'sent', messageId },
    });
    report.sent++;
    this.deps.log.info(
      { event: 'email.sent', ...about, server: transport.host, recorded: settled },
      'email sent',
    );
  }

  private async noteUnsendable(report: DeliveryReport): Promise<void> {
    const noted = await noteUnsendable(this.deps.db);
    report.unsendable += noted.length;
    for (const email of noted) {
      const about = { emailId: email.id, kind: email.kind, orderId: email.orderId };
      if (this.deps.printUnsent)
        this.deps.log.info(
          // An invitation's text holds its one-time link: never into the log.
          {
            event: 'email.demo',
            ...about,
            to: email.to,
            subject: email.subject,
            ...(email.kind === 'admin_invite' ? {} : { text: email.text }),
          },
          `demo mode, not sent (no SMTP_URL): "${email.subject}" to ${email.to}`,
        );
      else
        this.deps.log.warn(
          { event: 'email.unsent', ...about },
          'email waits in the outbox: no mail server configured (SMTP_URL)',
        );
    }
  }
}

/** The worker the configuration asks for: SMTP_URL's server (or none), MAIL_FROM, demo printing. */
export function createMailWorker(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Pick<Config, 'mail' | 'stripe'>;
  holder?: string;
}): MailWorker {
  const { mail } = deps.config;
  const secrets: string[] = [];
  if (mail.smtpUrl) {
    secrets.push(mail.smtpUrl);
    const password = new URL(mail.smtpUrl).password;
    if (password) secrets.push(password, decodeURIComponent(password));
  }
  return new MailWorker({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    transport: mail.smtpUrl ? smtpTransport(mail.smtpUrl) : null,
    from: mail.from,
    defaultFromAddress: mail.defaultFromAddress,
    printUnsent: deps.config.stripe === null,
    holder: deps.holder,
    secrets,
  });
}

/** An outbox that only counts its nudges: the inner context of tests that do not deliver mail. */
export function countingOutbox(): MailOutbox & { nudges: number } {
  return {
    nudges: 0,
    nudge() {
      this.nudges++;
    },
  };
}
