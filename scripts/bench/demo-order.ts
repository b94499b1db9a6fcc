/**
 * A paid demo order on a running store (demo payment mode: no Stripe keys), made over its API as the
 * storefront makes one: cart, checkout session, the demo payment form's details, the success page's
 * answer. It gives Lighthouse the pages a shopper sees after the catalogue: /checkout with a cart,
 * /testpayment, /checkout/success and the order's own page.
 */

type CartLine = { productId: string; colour: string | null; size: string | null; quantity: number };

export type DemoOrder = {
  /** The cart as the browser keeps it (localStorage 'cart:v1'), for /checkout. */
  cart: CartLine[];
  sessionId: string;
  /** /order/:id?token=… */
  orderPagePath: string;
};

async function call<T>(base: string, procedure: string, input: unknown, method: 'GET' | 'POST'): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const url = method === 'GET' ? `${base}/api/trpc/${procedure}${query}` : `${base}/api/trpc/${procedure}`;
  const res = await fetch(url, {
    method,
    // Mutations must come from the store's own origin (src/http/same-origin.ts), as the storefront's do.
    headers: method === 'POST' ? { 'content-type': 'application/json', origin: new URL(base).origin } : {},
    ...(method === 'POST' ? { body: JSON.stringify(input) } : {}),
  });
  const body = (await res.json()) as { result?: { data?: T }; error?: { message?: string } };
  if (!res.ok || body.result === undefined) {
    throw new Error(`${procedure} answered ${res.status}: ${body.error?.message ?? 'no result'}`);
  }
  return body.result.data as T;
}

export async function placeDemoOrder(base: string, productId: string): Promise<DemoOrder> {
  const product = await call<{
    sizes: string[];
    soldOutSizes: string[];
    colours: Array<{ name: string; soldOutSizes: string[] }>;
  }>(base, 'catalogue.byId', { id: productId }, 'GET');
  // A product with colours is bought in one with a size left.
  const colour = product.colours.find((c) => product.sizes.some((s) => !c.soldOutSizes.includes(s))) ?? null;
  const soldOut = colour?.soldOutSizes ?? product.soldOutSizes;
  const size = product.sizes.find((s) => !soldOut.includes(s)) ?? null;
  const cart: CartLine[] = [{ productId, colour: colour?.name ?? null, size, quantity: 1 }];
  const { url } = await call<{ url: string }>(base, 'checkout.createSession', { lines: cart }, 'POST');
  const sessionId = new URL(url, base).searchParams.get('session_id') ?? '';
  if (!sessionId.startsWith('demo_')) throw new Error(`not a demo checkout (${url}): set no Stripe keys`);
  const countries = await call<string[]>(base, 'checkout.shippingCountries', undefined, 'GET');
  await call(
    base,
    'checkout.completeTestPayment',
    {
      sessionId,
      email: 'bench.shopper@shop.example',
      name: 'Bench Shopper',
      address: {
        line1: '12 Mall Road',
        line2: '',
        city: 'Lahore',
        postalCode: '54000',
        country: countries[0],
      },
    },
    'POST',
  );
  const order = await call<{ orderPagePath?: string | null }>(base, 'checkout.order', { sessionId }, 'GET');
  if (!order.orderPagePath) throw new Error('the paid demo order has no page');
  return { cart, sessionId, orderPagePath: order.orderPagePath };
}
