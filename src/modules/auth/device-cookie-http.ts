import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS } from './device-cookie.js';

/** How the sign-in reaches the browser's device cookie without knowing about requests and replies. */
export interface DeviceCookiePort {
  read(): string | undefined;
  /** Sent with this request's answer. */
  write(token: string): void;
}

// Procedures see the request but not the reply, so the token waits here for the onSend hook below.
const pending = new WeakMap<FastifyRequest, string>();

export function requestDeviceCookie(req: FastifyRequest): DeviceCookiePort {
  return {
    read: () => req.cookies[DEVICE_COOKIE],
    write: (token) => {
      pending.set(req, token);
    },
  };
}

export function memoryDeviceCookie(initial?: string): DeviceCookiePort & { current: string | undefined } {
  const port = {
    current: initial,
    read: () => port.current,
    write: (token: string) => {
      port.current = token;
    },
  };
  return port;
}

/**
 * Writes the device cookie a sign-in issued. Register after @fastify/secure-session (which brings
 * @fastify/cookie). Path=/api/trpc: only the API, where sign-in lives, ever receives it.
 */
export function registerDeviceCookieWriter(app: FastifyInstance, opts: { secure: boolean }): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const token = pending.get(req);
    if (token !== undefined) {
      reply.setCookie(DEVICE_COOKIE, token, {
        path: '/api/trpc',
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.secure,
        maxAge: Math.floor(DEVICE_COOKIE_MAX_AGE_MS / 1000),
      });
    }
    done(null, payload);
  });
}
