import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { redactUrl } from '../core/secret-redaction.js';

/**
 * One access line per request instead of Fastify's two (incoming + completed), with the fields an operator
 * greps for, and none at all when the output level would drop it anyway: the line is never even built.
 * Failed requests are always logged, as Fastify does. The URL is logged with its secrets redacted (an order
 * page's token, a checkout's session id: core/secret-redaction.ts); the path and the rest stay.
 */
export class AccessLog extends LogController {
  constructor(private readonly enabled: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (!this.enabled) return;
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  }

  // Fastify's own puts the raw URL in the message.
  override routeNotFound(request: FastifyRequest): void {
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }
}
