import nodemailer, { type NodemailerError } from 'nodemailer';
import type { SendFailure } from './retry-policy.js';

export type Mailbox = { name: string | null; address: string };

export type MailMessage = {
  from: Mailbox;
  replyTo: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
};

/** Where emails leave the store: SMTP in the app; the worker's tests use a real SMTP server too. */
export interface MailTransport {
  /** The server's host, which is all a log line may say about it (the URL carries the password). */
  readonly host: string;
  /** Resolves with the Message-ID once the server accepted the message; rejects with the server's refusal. */
  send(message: MailMessage): Promise<{ messageId: string | null }>;
  close(): void;
}

/**
 * Nodemailer over SMTP_URL: smtp:// upgrades with STARTTLS when the server offers it, smtps:// speaks TLS from
 * the start. One connection per send (emails are few); the timeouts keep a send well inside its claim.
 */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    // Nodemailer's own logger stays off: it would print the conversation, AUTH included.
    logger: false,
    debug: false,
  });
  return {
    host: new URL(url).hostname,
    async send(m) {
      const info = await transporter.sendMail({
        from: m.from.name ? { name: m.from.name, address: m.from.address } : m.from.address,
        to: m.to,
        ...(m.replyTo ? { replyTo: m.replyTo } : {}),
        subject: m.subject,
        html: m.html,
        text: m.text,
        // RFC 3834: an automatic message, so autoresponders do not answer it.
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
    },
    close() {
      transporter.close();
    },
  };
}

function isNodemailerError(error: unknown): error is NodemailerError {
  return error instanceof Error;
}

/**
 * A send error as the retries see it. Permanent only when the server refused the recipient or the message
 * with a 5xx reply: a refused sign-in (535) or an unreachable server is the store's configuration or the
 * network, which a later attempt may find fixed, so those retry.
 */
export function classifySendError(error: unknown, secrets: readonly string[] = []): SendFailure {
  if (!isNodemailerError(error)) return { permanent: false, reason: String(error) };
  const code = typeof error.responseCode === 'number' ? error.responseCode : null;
  const aboutMessage = error.code === 'EENVELOPE' || error.code === 'EMESSAGE';
  const permanent = aboutMessage && code !== null && code >= 500 && code !== 503;
  let reason = error.response ? String(error.response) : error.message;
  if (code !== null && !reason.startsWith(String(code))) reason = `${code} ${reason}`;
  for (const secret of secrets) if (secret) reason = reason.replaceAll(secret, '[redacted]');
  return { permanent, reason };
}
