import { expect } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

// The shop the customers area is tested with (admin-customers.test.ts in process, the walk
// admin-customers.e2e.test.ts in chromium): shop A sellable, with one buyer whose order (one tea)
// is placed, and a customer as its owner reads it over the API.

/** A customer as `GET /api/customers/:id` answers, as far as the customers tests look at it. */
export interface StoredCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  group: string;
  company: string | null;
  active: boolean;
  tags: string[];
  hasPassword: boolean;
  revision: number;
  defaultBillingAddressId: string | null;
  addresses: { id: string; address: Record<string, unknown> }[];
}

export interface CustomersShop {
  readonly h: Harness;
  /** The buyer (a registered storefront visitor) and their order. */
  readonly buyerId: string;
  readonly buyerEmail: string;
  readonly orderId: string;
}

/** Shop A's customer `id` as its owner reads it over the API (200, else the answer is shown). */
export async function storedCustomer(h: Harness, id: string): Promise<StoredCustomer> {
  const read = await h.call('GET', `/api/customers/${id}`, { token: h.shopA.token });
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return read.body as unknown as StoredCustomer;
}

/** Shop A's customer with the e-mail address `email`, found by the API's search, if any. */
export async function customerByEmail(h: Harness, email: string): Promise<StoredCustomer | undefined> {
  const listed = await h.call('GET', `/api/customers?search=${encodeURIComponent(email)}`, {
    token: h.shopA.token,
  });
  expect(listed.status).toBe(200);
  const found = (listed.body.items as { id: string; email: string }[]).find((item) => item.email === email);
  return found ? storedCustomer(h, found.id) : undefined;
}

export async function createCustomersShop(): Promise<CustomersShop> {
  const h = await createHarness();
  const { productId, channelKey } = await h.sellableTea();
  const { orderId, buyerEmail } = await h.placedOrder(channelKey, productId);
  const buyer = await customerByEmail(h, buyerEmail);
  expect(buyer, buyerEmail).toBeDefined();
  return { h, buyerId: buyer!.id, buyerEmail, orderId };
}
