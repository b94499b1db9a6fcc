import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One access line per request instead of Fastify's two (incoming + completed), with the fields an operator
 * greps for, and none at all when the output level would drop it anyway: the line is never even built.
 * Failed requests are always logged, as Fastify does.
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
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    );
  }
}
