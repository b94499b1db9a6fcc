import { describe, expect, it } from 'vitest';
import { isSecretName, REDACTED, redactInput, redactText, redactUrl } from './secret-redaction.js';

const SECRET = 'k3Y_s3cr3t-ABCDEFGHIJKLMNOP0123456789xyz';

describe('secret redaction', () => {
  it('knows the secrets a request carries by name, and leaves a log line its own error codes', () => {
    for (const name of [
      'token',
      'access_token',
      'session_id',
      'sessionId',
      'code',
      'recoveryCode',
      'invite',
      'key',
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['id', 'q', 'page', 'batch', 'input', 'size'])
      expect(isSecretName(name), name).toBe(false);
    expect(isSecretName('code', 'log')).toBe(false);
    expect(isSecretName('statusCode', 'log')).toBe(false);
    expect(isSecretName('sessionId', 'log')).toBe(true);
  });

  it('redacts the secret query parameters of a URL and keeps its path and the rest', () => {
    expect(redactUrl(`/order/ord_1?token=${SECRET}`)).toBe(`/order/ord_1?token=${REDACTED}`);
    expect(redactUrl(`/checkout/success?session_id=${SECRET}&lang=en`)).toBe(
      `/checkout/success?session_id=${REDACTED}&lang=en`,
    );
    expect(redactUrl('/products?q=kurta&page=2')).toBe('/products?q=kurta&page=2');
    expect(redactUrl(`/admin/invite#${SECRET}`)).toBe(`/admin/invite#${REDACTED}`);
    // A URL inside a parameter.
    expect(redactUrl(`/go?next=${encodeURIComponent(`/order/ord_1?token=${SECRET}`)}`)).not.toContain(SECRET);
  });

  it("redacts tRPC's GET input field by field, and drops an input it cannot read", () => {
    const input = encodeURIComponent(
      JSON.stringify({ 0: { id: 'ord_1', token: SECRET }, 1: { sessionId: SECRET } }),
    );
    expect(redactUrl(`/api/trpc/orderPage.view,checkout.order?batch=1&input=${input}`)).toBe(
      `/api/trpc/orderPage.view,checkout.order?batch=1&input={"0":{"id":"ord_1","token":"${REDACTED}"},"1":{"sessionId":"${REDACTED}"}}`,
    );
    expect(redactUrl(`/api/trpc/x?input=%7B${SECRET}`)).toBe(`/api/trpc/x?input=${REDACTED}`);
    expect(redactInput({ a: [{ password: 'p', keep: 1 }] })).toEqual({
      a: [{ password: REDACTED, keep: 1 }],
    });
  });

  it('finds a secret in any text: plain, URL-encoded, as escaped or encoded JSON', () => {
    const encodedInput = encodeURIComponent(JSON.stringify({ id: 'ord_1', token: SECRET }));
    const texts = [
      `GET /order/ord_1?token=${SECRET} failed`,
      `see ${encodeURIComponent(`https://shop.example/checkout/success?session_id=${SECRET}`)}`,
      JSON.stringify({ url: `/api/trpc/orderPage.view?input=${encodedInput}` }),
      JSON.stringify({ url: `/api/trpc/orderPage.view?input={%22token%22:%22${SECRET}%22}` }),
      JSON.stringify({ msg: `bad input ${JSON.stringify({ token: SECRET })}` }),
      JSON.stringify({ sessionId: SECRET }),
      `the link https://shop.example/admin/invite#${SECRET}`,
    ];
    for (const text of texts) {
      const clean = redactText(text);
      expect(clean, text).not.toContain(SECRET.slice(0, 12));
      expect(clean, text).toContain(REDACTED);
      expect(redactText(clean)).toBe(clean);
    }
  });

  it('leaves an ordinary log line as it was', () => {
    const line = JSON.stringify({
      level: 50,
      reqId: 'a1',
      url: '/products/kurta?size=M&page=2',
      statusCode: 500,
      err: { type: 'Error', code: 'SQLITE_BUSY', message: 'database is locked' },
      order: 'ord_1',
      msg: 'request failed',
    });
    expect(redactText(line)).toBe(line);
  });
});
