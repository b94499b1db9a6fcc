import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactUrl } from '../core/secret-redaction.js';
import type { LogService } from '../modules/logs/log-service.js';
import {
  createLogStream,
  type LineSink,
  type LogLevelName,
  levelNumber,
  loggerLevel,
  PINO_LEVELS,
} from '../modules/logs/log-stream.js';
import { AccessLog } from './access-log.js';

/** Never in standard output: pino replaces these with [redacted] (the log table redacts on its own). */
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  // Node's clientError carries the request's raw bytes (its URL, its cookies), logged at trace level.
  'err.rawPacket',
  'password',
  '*.password',
  'cookie',
  '*.cookie',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

/**
 * Fastify's request serializer (its error lines log `req`), with the URL's secrets redacted. The stream
 * redacts every line again as text (log-stream.ts): this keeps the URL readable where it is logged whole.
 */
function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * One logger feeds standard output and the application log table (modules/logs/log-stream.ts). `output`
 * is standard output at LOG_LEVEL by default, a test's own sink, or nowhere (false); the table gets its
 * entries either way.
 */
export function appLoggerOptions(opts: {
  service: LogService;
  output: false | { level: LogLevelName; stream: LineSink } | undefined;
  defaultLevel: LogLevelName;
}): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const outputLevel: LogLevelName = opts.output ? opts.output.level : opts.defaultLevel;
  const stream = createLogStream({
    service: opts.service,
    output: opts.output === false ? null : (opts.output?.stream ?? process.stdout),
    outputLevel,
  });
  return {
    logger: {
      level: opts.output === false ? 'info' : loggerLevel(outputLevel),
      stream,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestForLog },
    },
    logController: new AccessLog(opts.output !== false && levelNumber(outputLevel) <= PINO_LEVELS.info),
  };
}
