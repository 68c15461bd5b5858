import { sql } from 'drizzle-orm';
import { boolean, date, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantIndex, tenantKey, tenantKeyed, tenantUniqueIndex, timestamps } from '../columns.ts';

/** An address as stored on a customer and copied into carts and orders. */
export interface AddressJson {
  readonly salutation?: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly company?: string | null;
  readonly street: string;
  readonly additionalLine?: string | null;
  readonly zipcode: string;
  readonly city: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** ISO 3166-2, e.g. DE-BY. */
  readonly subdivision?: string | null;
  readonly phone?: string | null;
}

/**
 * Customers of a shop. `group` is one of the two native groups. Guests have no password and may
 * share an email with other guests; registered customers have one email per shop.
 */
export const customers = pgTable(
  'customers',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    email: text('email').notNull(),
    group: text('customer_group', { enum: ['consumer', 'business'] })
      .notNull()
      .default('consumer'),
    salutation: text('salutation'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    birthday: date('birthday', { mode: 'string' }),
    company: text('company'),
    vatId: text('vat_id'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    affiliateCode: text('affiliate_code'),
    campaignCode: text('campaign_code'),
    active: boolean('active').notNull().default(true),
    guest: boolean('guest').notNull().default(false),
    newsletter: boolean('newsletter').notNull().default(false),
    /** scrypt hash (`scrypt$N$r$p$salt$hash`); null for guests and customers created without one. */
    passwordHash: text('password_hash'),
    firstLoginAt: timestamp('first_login_at', { withTimezone: true, mode: 'date' }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    createdByAdmin: boolean('created_by_admin').notNull().default(false),
    defaultBillingAddressId: uuid('default_billing_address_id'),
    defaultShippingAddressId: uuid('default_shipping_address_id'),
    ruleMetadata: jsonb('rule_metadata').$type<Record<string, unknown>>().notNull().default({}),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'customers_email_key', sql`lower(${t.email})`).where(sql`not ${t.guest}`),
  ],
);

/**
 * What a shop stores on the two native customer groups (consumer, business): their custom fields,
 * one row per group once something was written to it (a group without a row has none). The groups
 * themselves are fixed in every shop (arbitrary customer groups are unsupported), so this row is
 * keyed by the group's name, never by an id of its own. `last_step_key` names the flow step
 * (`flow:<job_id>:<node_id>`) that wrote last, so running that step again writes nothing.
 */
export const customerGroups = pgTable(
  'customer_groups',
  {
    ...tenantKeyed(),
    group: text('customer_group', { enum: ['consumer', 'business'] }).notNull(),
    customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
    lastStepKey: text('last_step_key'),
    revision: integer('revision').notNull().default(1),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.group)],
);

export const customerAddresses = pgTable(
  'customer_addresses',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    customerId: uuid('customer_id').notNull(),
    address: jsonb('address').$type<AddressJson>().notNull(),
    ...timestamps,
  },
  (t) => [tenantKey(t, t.id), tenantIndex(t, 'customer_addresses_customer_idx', t.customerId)],
);

/**
 * A storefront visitor's context, named by the opaque `x-context-token` (stored as a hash): the
 * channel, the logged-in customer if any, and the visitor's open cart. Logging in issues a new
 * token; changing a customer's group or status revokes their contexts.
 */
export const storeContexts = pgTable(
  'store_contexts',
  {
    ...tenantKeyed(),
    id: uuid('id').notNull(),
    tokenHash: text('token_hash').notNull(),
    channelId: uuid('channel_id').notNull(),
    customerId: uuid('customer_id'),
    language: text('language'),
    currency: text('currency'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    tenantKey(t, t.id),
    tenantUniqueIndex(t, 'store_contexts_token_key', t.tokenHash),
    tenantIndex(t, 'store_contexts_customer_idx', t.customerId),
  ],
);

/** History facts per customer, maintained by a projection of the outbox (rules read them). */
export const customerHistory = pgTable(
  'customer_history',
  {
    ...tenantKeyed(),
    customerId: uuid('customer_id').notNull(),
    orderCount: integer('order_count').notNull().default(0),
    /** Minor units per currency: `{ "EUR": 12990 }`. */
    totalSpent: jsonb('total_spent').$type<Record<string, number>>().notNull().default({}),
    lastOrderAt: timestamp('last_order_at', { withTimezone: true, mode: 'date' }),
    reviewCount: integer('review_count').notNull().default(0),
  },
  (t) => [tenantKey(t, t.customerId)],
);
