/**
 * A small HTTP client over node:http: keep-alive agents the way browsers reuse connections, exact timing,
 * and bodies that can be streamed slowly (a slow upload is what the fault steps need to be in flight).
 */
import http from 'node:http';

export type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders; ms: number };

/** A request that never got an HTTP status: refused, reset, timed out. */
export class NetError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly ms: number,
  ) {
    super(message);
    this.name = 'NetError';
  }
}

export type Send = {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** A keep-alive agent; false opens a fresh connection for this request. */
  agent?: http.Agent | false;
  timeoutMs?: number;
  /** Streams the body in chunks of this size with `pauseMs` between them. */
  slow?: { chunkBytes: number; pauseMs: number; onChunk?: (sentBytes: number) => void };
};

export function keepAliveAgent(maxSockets = Number.POSITIVE_INFINITY): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: 1024 });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function send(opts: Send): Promise<Reply> {
  const started = performance.now();
  const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body;
  return new Promise<Reply>((resolve, reject) => {
    const fail = (code: string, message: string) =>
      reject(new NetError(code, message, performance.now() - started));
    const req = http.request(
      {
        host: '127.0.0.1',
        port: opts.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        agent: opts.agent ?? false,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
            ms: performance.now() - started,
          }),
        );
        res.on('error', (e: NodeJS.ErrnoException) => fail(e.code ?? 'ERESPONSE', e.message));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => fail(e.code ?? 'EREQUEST', e.message));
    // For a timeout, whether the connection was ever made tells a full accept queue from a stuck answer.
    let connectedAfter: number | null = null;
    let localPort = 0;
    req.on('socket', (socket) => {
      if (!socket.connecting) {
        connectedAfter = 0;
        localPort = socket.localPort ?? 0;
        return;
      }
      socket.once('connect', () => {
        connectedAfter = performance.now() - started;
        localPort = socket.localPort ?? 0;
      });
    });
    if (opts.timeoutMs) {
      req.setTimeout(opts.timeoutMs, () => {
        const how =
          connectedAfter === null
            ? 'never connected'
            : connectedAfter === 0
              ? 'on a reused connection'
              : `connected after ${Math.round(connectedAfter)} ms`;
        const from = localPort ? `, from port ${localPort}` : '';
        req.destroy(
          Object.assign(new Error(`no answer in ${opts.timeoutMs} ms (${how}${from})`), {
            code: 'ETIMEDOUT',
          }),
        );
      });
    }
    if (!body) {
      req.end();
      return;
    }
    if (!opts.slow) {
      req.end(body);
      return;
    }
    const { chunkBytes, pauseMs, onChunk } = opts.slow;
    void (async () => {
      for (let sent = 0; sent < body.length; sent += chunkBytes) {
        if (req.destroyed) return;
        const end = Math.min(body.length, sent + chunkBytes);
        req.write(body.subarray(sent, end));
        onChunk?.(end);
        if (end < body.length) await sleep(pauseMs);
      }
      req.end();
    })();
  });
}

// ---------------------------------------------------------------------------------------------- tRPC

/** A batched GET, exactly as the client's httpBatchLink builds it. */
export function trpcGetPath(procedures: string[], inputs: unknown[]): string {
  const input = Object.fromEntries(inputs.map((value, i) => [i, value]));
  return `/api/trpc/${procedures.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
}

export function trpcMutation(procedure: string, input: unknown, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    path: `/api/trpc/${procedure}?batch=1`,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ 0: input }),
  };
}

/** The data of one procedure in a batched answer; throws with the server's message otherwise. */
export function trpcData<T>(reply: Reply, index = 0): T {
  const parsed = JSON.parse(reply.body) as Array<{
    result?: { data: T };
    error?: { message?: string; data?: { code?: string } };
  }>;
  const item = parsed[index];
  if (!item?.result) {
    throw new Error(
      `tRPC ${reply.status}: ${item?.error?.data?.code ?? ''} ${item?.error?.message ?? reply.body.slice(0, 200)}`,
    );
  }
  return item.result.data;
}

/** The server's human message in a tRPC or a plain JSON error answer, if there is one. */
export function errorMessage(reply: Reply): string | null {
  try {
    const parsed: unknown = JSON.parse(reply.body);
    const item = Array.isArray(parsed) ? (parsed[0] as { error?: { message?: string } })?.error : parsed;
    const message = (item as { message?: unknown } | undefined)?.message;
    return typeof message === 'string' && message.trim() !== '' ? message : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------- forms

/** A multipart/form-data body built in memory, so it can be sent at any pace. */
export function multipart(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; data: Buffer } | null,
): { contentType: string; body: Buffer } {
  const boundary = `----soak${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** Signs in through the same tRPC mutation as the admin page; returns the Cookie header to send. */
export async function signIn(port: number, email: string, password: string): Promise<string> {
  const reply = await send({ port, ...trpcMutation('auth.login', { email, password }) });
  trpcData(reply);
  const cookies = reply.headers['set-cookie'] ?? [];
  const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new Error('sign-in answered without a session cookie');
  return cookie;
}
