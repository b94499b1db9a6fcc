import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A local stand-in for the part of Stripe's HTTP API the store uses, for tests only. The official
 * `stripe` package is pointed at it (STRIPE_API_URL); it records every request and can be told to fail.
 */
export type RecordedRequest = {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: Record<string, unknown>;
};

type FakeSession = Record<string, unknown> & { id: string };

/** Stripe's form encoding (a[b][0][c]=d) back into nested objects and arrays. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const keys = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? '');
      const container = node as Record<string, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= nextIsIndex ? [] : {};
        node = container[key] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, FakeSession>();
  private readonly byIdempotencyKey = new Map<string, FakeSession>();
  private failure: { status: number; body: unknown } | 'hang' | null = null;
  private server: Server | null = null;
  private counter = 0;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Every following request fails this way until reset(). */
  failWith(status: number, message: string, type = 'api_error'): void {
    this.failure = { status, body: { error: { type, message } } };
  }
  hang(): void {
    this.failure = 'hang';
  }
  reset(): void {
    this.failure = null;
  }

  /** Changes a session as Stripe would after the shopper paid (or it expired). */
  update(id: string, changes: Record<string, unknown>): void {
    const s = this.sessions.get(id);
    if (s) Object.assign(s, changes);
  }

  get creates(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? '').split('?')[0] ?? '';
    this.requests.push({
      method: req.method ?? '',
      path,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      authorization: req.headers.authorization,
      body: parseStripeForm(Buffer.concat(chunks).toString('utf8')),
    });
    if (this.failure === 'hang') return; // never answers: the client's timeout fires
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.counter}` });
      res.end(JSON.stringify(body));
    };
    if (this.failure) return send(this.failure.status, this.failure.body);

    const body = this.requests.at(-1)?.body ?? {};
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const key = req.headers['idempotency-key'] as string | undefined;
      const replay = key ? this.byIdempotencyKey.get(key) : undefined;
      if (replay) return send(200, replay);
      this.counter += 1;
      const id = `cs_test_fake${this.counter}`;
      const items =
        (body.line_items as Array<{ quantity: string; price_data: { unit_amount: string } }>) ?? [];
      const session: FakeSession = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        currency:
          (body.line_items as Array<{ price_data: { currency: string } }>)?.[0]?.price_data.currency ?? null,
        amount_total: items.reduce(
          (sum, i) => sum + Number(i.quantity) * Number(i.price_data.unit_amount),
          0,
        ),
        customer_details: null,
        collected_information: null,
      };
      this.sessions.set(id, session);
      if (key) this.byIdempotencyKey.set(key, session);
      return send(200, session);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const session = this.sessions.get(decodeURIComponent(match[1] ?? ''));
      return session
        ? send(200, session)
        : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } });
    }
    return send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` },
    });
  }
}
