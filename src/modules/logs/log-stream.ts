import { redactText } from '../../core/secret-redaction.js';
import { levelOf, MAX_MESSAGE_LENGTH, sourceOfEvent } from './log-details.js';
import type { LogService } from './log-service.js';
import { type NotRecorded, SECURITY_EVENT_PREFIX, SecurityGate } from './security-gate.js';

export type LineSink = { write(line: string): unknown };

export const PINO_LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevelName = keyof typeof PINO_LEVELS | 'silent';

export const levelNumber = (name: LogLevelName) =>
  name === 'silent' ? Number.POSITIVE_INFINITY : PINO_LEVELS[name];

/** The lower of two level names: the logger must emit what either the output or the log table wants. */
export function loggerLevel(outputLevel: LogLevelName): LogLevelName {
  return levelNumber(outputLevel) <= PINO_LEVELS.info ? outputLevel : 'info';
}

/** Fields pino (and Fastify's request logger) add to every line; not worth keeping in details. */
const BASE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'event', 'err', 'v']);

type ParsedError = { type?: unknown; message?: unknown; stack?: unknown };

/** The entry that stands for the security events the gate kept out of the table. */
function notRecordedEntry(summary: NotRecorded, message: string) {
  return {
    time: summary.to,
    level: 'warning' as const,
    source: sourceOfEvent(summary.event),
    message: `${message}: ${summary.count} more not recorded one by one (too many in a short time)`,
    details: {
      event: summary.event,
      notRecorded: summary.count,
      from: summary.from.toISOString(),
      to: summary.to.toISOString(),
    },
  };
}

/**
 * The logger's destination: every line goes to `output` (stdout in production) when it is at or above the
 * output's level, and every line with an `event` field, or at level error and above, also goes to the
 * application log table. One log call feeds both; nothing is logged twice by hand. It never throws.
 * `security.*` events pass a SecurityGate on their way to the table, so a flood of them stays a few rows.
 * Every line is first redacted as text (core/secret-redaction.ts): whatever logged a URL, an input or a
 * message quoting one, no order token, checkout session id or invitation link reaches either sink.
 */
export function createLogStream(opts: {
  service: LogService;
  output: LineSink | null;
  outputLevel: LogLevelName;
  securityGate?: SecurityGate;
  /** For tests; the gate's summaries fall due by this clock. */
  now?: () => number;
}): LineSink {
  const outputMin = levelNumber(opts.outputLevel);
  const gate = opts.securityGate ?? new SecurityGate();
  // The message of each gated event, for its summary when that comes with some other line.
  const gatedMessages = new Map<string, string>();
  return {
    write(raw: string) {
      const line = redactText(raw);
      const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? PINO_LEVELS.info);
      if (opts.output && level >= outputMin) opts.output.write(line);
      try {
        for (const summary of gate.due(opts.now?.() ?? Date.now())) {
          opts.service.record(notRecordedEntry(summary, gatedMessages.get(summary.event) ?? summary.event));
        }
        if (level < PINO_LEVELS.error && !line.includes('"event":"')) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        const event = typeof entry.event === 'string' ? entry.event : undefined;
        if (!event && level < PINO_LEVELS.error) return;
        const err = entry.err && typeof entry.err === 'object' ? (entry.err as ParsedError) : null;
        const msg = typeof entry.msg === 'string' && entry.msg ? entry.msg : (event ?? 'log entry');
        const time = typeof entry.time === 'number' ? new Date(entry.time) : new Date();
        if (event?.startsWith(SECURITY_EVENT_PREFIX)) {
          if (gatedMessages.size < 100) gatedMessages.set(event, msg);
          const verdict = gate.admit(event, time.getTime());
          if (verdict.notRecorded) opts.service.record(notRecordedEntry(verdict.notRecorded, msg));
          if (!verdict.record) return;
        }
        const errMessage = typeof err?.message === 'string' ? err.message : null;
        const details: Record<string, unknown> = event ? { event } : {};
        for (const [key, value] of Object.entries(entry)) {
          if (!BASE_FIELDS.has(key)) details[key] = value;
        }
        if (err) {
          details.error = {
            type: err.type,
            message: errMessage,
            stack: typeof err.stack === 'string' ? err.stack.split('\n').slice(0, 12).join('\n') : undefined,
          };
        }
        opts.service.record({
          time,
          level: levelOf(level),
          source: sourceOfEvent(event),
          message: errMessage && !event ? `${msg}: ${errMessage}`.slice(0, MAX_MESSAGE_LENGTH) : msg,
          details,
          requestId: typeof entry.reqId === 'string' ? entry.reqId : null,
        });
      } catch {
        // A line the table cannot take still went to the output; the request never hears of it.
      }
    },
  };
}
