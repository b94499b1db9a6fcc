import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** How the test server answers: accept, refuse for now (4xx: try again later), or refuse the recipient for good. */
export type SmtpMode = 'accept' | 'tempfail' | 'reject';

export type TestSmtp = {
  /** smtp://user:password@127.0.0.1:port, as SMTP_URL would be set. */
  url: string;
  port: number;
  /** The messages accepted, parsed by mailparser, in the order they arrived. */
  received: ParsedMail[];
  /** Envelope recipients of each accepted message. */
  recipients: string[][];
  mode: SmtpMode;
  close(): Promise<void>;
};

export const SMTP_USER = 'shop';
/** Characters a URL must encode, so the test proves the store decodes them and never logs them. */
export const SMTP_PASSWORD = 'p@ss w0rd/Secret';

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * A real SMTP server on 127.0.0.1 (a free port) that requires the test credentials and answers as `mode`
 * says; STARTTLS is off, so the store's smtp:// connection stays plain on loopback.
 */
export async function startTestSmtp(mode: SmtpMode = 'accept'): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const recipients: string[][] = [];
  const state = { mode };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    closeTimeout: 200,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(smtpError('Authentication failed', 535));
    },
    onRcptTo(address, _session, callback) {
      if (state.mode === 'reject')
        callback(smtpError(`5.1.1 <${address.address}>: Recipient address rejected: no such mailbox`, 550));
      else if (state.mode === 'tempfail') callback(smtpError('4.3.2 Service busy, try again later', 451));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`,
    port,
    received,
    recipients,
    get mode() {
      return state.mode;
    },
    set mode(next: SmtpMode) {
      state.mode = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
