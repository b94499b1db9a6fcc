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
  /** Refunds by id, as Stripe keeps them against their payment intent. */
  readonly refunds = new Map<string, FakeSession>();
  /** Coupons by id (amount_off ones, as the store makes one per order with a code). */
  readonly coupons = new Map<string, FakeSession>();
  /** Promotion codes by id, as the owner makes them in Stripe's Dashboard (each on a coupon). */
  readonly promotionCodes = new Map<string, FakeSession>();
  private readonly byIdempotencyKey = new Map<string, FakeSession>();
  private paymentCounter = 0;
  /** The status the next refunds are created with ('succeeded' as card refunds in test mode usually are). */
  refundStatus: 'succeeded' | 'pending' | 'failed' = 'succeeded';
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

  /** Changes a session as Stripe would after the shopper paid (or it expired). A completed session gets its payment. */
  update(id: string, changes: Record<string, unknown>): void {
    const s = this.sessions.get(id);
    if (!s) return;
    Object.assign(s, changes);
    if (s.status === 'complete' && !s.payment_intent) {
      this.paymentCounter += 1;
      s.payment_intent = `pi_fake${this.paymentCounter}`;
    }
  }

  /**
   * A promotion code as made in Stripe's Dashboard: the text shoppers type, on an amount_off coupon of its
   * own (the store never makes one: they are the owner's, decision 0037). Shaped as the API's
   * promotion_code object (its coupon under `promotion`).
   */
  addPromotionCode(code: string, amountOff: number, currency: string): FakeSession {
    const coupon = this.createCoupon({ amount_off: amountOff, currency, name: code }, undefined)
      .body as FakeSession;
    this.counter += 1;
    const promotion: FakeSession = {
      id: `promo_fake${this.counter}`,
      object: 'promotion_code',
      active: true,
      code,
      created: Math.floor(Date.now() / 1000),
      customer: null,
      customer_account: null,
      expires_at: null,
      livemode: false,
      max_redemptions: null,
      metadata: {},
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: {
        first_time_transaction: false,
        minimum_amount: null,
        minimum_amount_currency: null,
      },
      times_redeemed: 0,
    };
    this.promotionCodes.set(promotion.id, promotion);
    return promotion;
  }

  /**
   * The shopper typed a promotion code on Stripe's page and paid: the session completes with the code in
   * `discounts` by its id (as Stripe gives it, unexpanded) and its coupon taken off the total.
   */
  payWithPromotionCode(sessionId: string, promotionCodeId: string): FakeSession | undefined {
    const s = this.sessions.get(sessionId);
    const promotion = this.promotionCodes.get(promotionCodeId);
    const couponId = (promotion?.promotion as { coupon: string } | undefined)?.coupon ?? '';
    const coupon = this.coupons.get(couponId);
    if (!s || !promotion || !coupon) return undefined;
    const details = s.total_details as { amount_shipping: number; amount_tax: number };
    const subtotal = Number(s.amount_subtotal ?? 0);
    const discount = Math.min(Number(coupon.amount_off ?? 0), subtotal);
    promotion.times_redeemed = Number(promotion.times_redeemed) + 1;
    this.update(sessionId, {
      status: 'complete',
      payment_status: 'paid',
      amount_total: subtotal - discount + details.amount_shipping,
      total_details: { ...details, amount_discount: discount },
      discounts: [{ coupon: null, promotion_code: promotionCodeId }],
    });
    return s;
  }

  get refundCreates(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
  }

  private refunded(paymentIntent: string): number {
    let sum = 0;
    for (const r of this.refunds.values())
      if (r.payment_intent === paymentIntent && r.status !== 'failed') sum += Number(r.amount);
    return sum;
  }

  /** POST /v1/refunds: against a paid session's payment intent, never above what is left of it. */
  private createRefund(
    body: Record<string, unknown>,
    key: string | undefined,
  ): { status: number; body: unknown } {
    const replay = key ? this.byIdempotencyKey.get(key) : undefined;
    if (replay) return { status: 200, body: replay };
    const intent = String(body.payment_intent ?? '');
    const session = [...this.sessions.values()].find((s) => s.payment_intent === intent);
    if (!session)
      return {
        status: 404,
        body: { error: { type: 'invalid_request_error', message: `No such payment_intent: '${intent}'` } },
      };
    const paid = Number(session.amount_total ?? 0);
    const amount = body.amount === undefined ? paid - this.refunded(intent) : Number(body.amount);
    if (!(amount > 0) || this.refunded(intent) + amount > paid) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'amount_too_large',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${paid - this.refunded(intent)})`,
          },
        },
      };
    }
    this.counter += 1;
    const refund: FakeSession = {
      id: `re_fake${this.counter}`,
      object: 'refund',
      amount,
      currency: session.currency,
      payment_intent: intent,
      status: this.refundStatus,
      failure_reason: this.refundStatus === 'failed' ? 'expired_or_canceled_card' : null,
      metadata: body.metadata ?? {},
      created: Math.floor(Date.now() / 1000),
    };
    this.refunds.set(refund.id, refund);
    if (key) this.byIdempotencyKey.set(key, refund);
    return { status: 200, body: refund };
  }

  /** Changes a refund as Stripe would later (pending to succeeded or failed); returns it for a webhook. */
  updateRefund(id: string, changes: Record<string, unknown>): FakeSession | undefined {
    const r = this.refunds.get(id);
    if (r) Object.assign(r, changes);
    return r;
  }

  get couponCreates(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/coupons');
  }

  /** POST /v1/coupons: an amount_off coupon (a percent_off one is kept too, but the store makes none). */
  private createCoupon(
    body: Record<string, unknown>,
    key: string | undefined,
  ): { status: number; body: unknown } {
    const replay = key ? this.byIdempotencyKey.get(key) : undefined;
    if (replay) return { status: 200, body: replay };
    if (body.amount_off !== undefined && !body.currency) {
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', message: 'You must pass currency with amount_off.' },
        },
      };
    }
    this.counter += 1;
    const coupon: FakeSession = {
      id: `coupon_fake${this.counter}`,
      object: 'coupon',
      amount_off: body.amount_off === undefined ? null : Number(body.amount_off),
      percent_off: body.percent_off === undefined ? null : Number(body.percent_off),
      currency: body.currency ?? null,
      duration: body.duration ?? 'once',
      max_redemptions: body.max_redemptions === undefined ? null : Number(body.max_redemptions),
      name: body.name ?? null,
      times_redeemed: 0,
      valid: true,
    };
    this.coupons.set(coupon.id, coupon);
    if (key) this.byIdempotencyKey.set(key, coupon);
    return { status: 200, body: coupon };
  }

  /**
   * A session's sums as Stripe makes them: the lines, less the coupon in `discounts` (never below zero),
   * plus the first shipping option (Stripe's page preselects it).
   */
  private sessionTotals(
    body: Record<string, unknown>,
  ): { status: number; body: unknown } | Record<string, number> {
    const items = (body.line_items as Array<{ quantity: string; price_data: { unit_amount: string } }>) ?? [];
    const subtotal = items.reduce((sum, i) => sum + Number(i.quantity) * Number(i.price_data.unit_amount), 0);
    const discounts = (body.discounts as Array<{ coupon?: string; promotion_code?: string }>) ?? [];
    if (discounts.length > 0 && body.allow_promotion_codes === 'true') {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            message: 'You may only specify one of these parameters: allow_promotion_codes, discounts.',
          },
        },
      };
    }
    let discount = 0;
    for (const d of discounts) {
      const coupon = d.coupon ? this.coupons.get(d.coupon) : undefined;
      if (!coupon) {
        return {
          status: 400,
          body: { error: { type: 'invalid_request_error', message: `No such coupon: '${d.coupon ?? ''}'` } },
        };
      }
      discount +=
        coupon.amount_off !== null
          ? Number(coupon.amount_off)
          : Math.round((subtotal * Number(coupon.percent_off)) / 100);
    }
    discount = Math.min(discount, subtotal);
    const options =
      (body.shipping_options as Array<{ shipping_rate_data?: { fixed_amount?: { amount: string } } }>) ?? [];
    const shipping = Number(options[0]?.shipping_rate_data?.fixed_amount?.amount ?? 0);
    return {
      amount_subtotal: subtotal,
      amount_discount: discount,
      amount_shipping: shipping,
      amount_total: subtotal - discount + shipping,
    };
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
      const totals = this.sessionTotals(body);
      if ('status' in totals) return send(totals.status, totals.body);
      this.counter += 1;
      const id = `cs_test_fake${this.counter}`;
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
        amount_subtotal: totals.amount_subtotal,
        amount_total: totals.amount_total,
        total_details: {
          amount_discount: totals.amount_discount,
          amount_shipping: totals.amount_shipping,
          amount_tax: 0,
        },
        discounts: body.discounts ?? [],
        customer_details: null,
        collected_information: null,
      };
      this.sessions.set(id, session);
      if (key) this.byIdempotencyKey.set(key, session);
      return send(200, session);
    }
    if (req.method === 'POST' && path === '/v1/coupons') {
      const answer = this.createCoupon(body, req.headers['idempotency-key'] as string | undefined);
      return send(answer.status, answer.body);
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      const answer = this.createRefund(body, req.headers['idempotency-key'] as string | undefined);
      return send(answer.status, answer.body);
    }
    if (req.method === 'GET' && path === '/v1/refunds') {
      const intent = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('payment_intent');
      const data = [...this.refunds.values()].filter((r) => !intent || r.payment_intent === intent);
      return send(200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    const promotion = /^\/v1\/promotion_codes\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && promotion) {
      const id = decodeURIComponent(promotion[1] ?? '');
      const found = this.promotionCodes.get(id);
      return found
        ? send(200, found)
        : send(404, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              param: 'promotion_code',
              message: `No such promotion code: '${id}'`,
            },
          });
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
