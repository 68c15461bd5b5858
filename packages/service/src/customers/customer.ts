import {
  type CustomerAddressRow,
  type CustomerFields,
  type CustomerHistoryRow,
  type CustomerRow,
  type Executor,
  findCustomer,
  findCustomerHistory,
  findRegisteredCustomerByEmail,
  insertCustomer,
  insertCustomerAddresses,
  listCustomerAddresses,
  lockTransaction,
  updateCustomer,
} from '@cartwright/repository';
import * as v from 'valibot';
import { type Failure, type FieldError, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { iso, NullableTimestamp, Timestamp, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { NATIVE_CUSTOMER_GROUPS } from '../shop/starter-definitions.ts';
import { Address, checkAddress } from './addresses.ts';
import { revokeCustomerContexts } from './contexts.ts';

// The customer record shared by the admin operations and the storefront account: field schemas,
// the views (none of which ever carries the password hash) and creation.

export const Email = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('expected an email address'));
export const Password = v.pipe(v.string(), v.minLength(8, 'at least 8 characters'), v.maxLength(1024));
export const CustomerGroup = v.picklist(['consumer', 'business']);
export type CustomerGroup = v.InferOutput<typeof CustomerGroup>;
export const PersonName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200));
export const OptionalText = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200)));

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** YYYY-MM-DD, a real calendar day; "not in the future" needs the clock and is checked by `checkBirthday`. */
export const Birthday = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
  v.check(isCalendarDate, 'not a calendar date'),
);
/** Merchant labels: trimmed, empty ones refused, duplicates dropped. */
export const Tags = v.pipe(
  v.array(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100))),
  v.maxLength(100),
  v.transform((tags) => [...new Set(tags)]),
);
export const CustomFields = v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(100)), v.unknown());

/** An address given with a new customer, optionally picked as the default billing or shipping one. */
export const AddressEntry = v.object({
  address: Address,
  defaultBilling: v.optional(v.boolean(), false),
  defaultShipping: v.optional(v.boolean(), false),
});
export const AddressEntries = v.pipe(
  v.array(AddressEntry),
  v.maxLength(50),
  v.check(
    (entries) => entries.filter((entry) => entry.defaultBilling).length <= 1,
    'at most one address can be the default billing address',
  ),
  v.check(
    (entries) => entries.filter((entry) => entry.defaultShipping).length <= 1,
    'at most one address can be the default shipping address',
  ),
);

const StoredAddress = v.object({ id: Uuid, address: Address, createdAt: Timestamp, updatedAt: Timestamp });

/** Who the customer is, as staff and the customer themself read it. */
const PersonFields = {
  salutation: v.nullable(v.string()),
  firstName: v.string(),
  lastName: v.string(),
  birthday: v.nullable(v.string()),
  company: v.nullable(v.string()),
  vatId: v.nullable(v.string()),
};
/** The customer's default addresses (ids of their own addresses). */
const DefaultAddressFields = {
  defaultBillingAddressId: v.nullable(Uuid),
  defaultShippingAddressId: v.nullable(Uuid),
};

/** A customer as staff see it. */
export const Customer = v.object({
  id: Uuid,
  email: v.string(),
  group: CustomerGroup,
  /** The native group's fixed id, as rules name it. */
  groupId: Uuid,
  ...PersonFields,
  tags: v.array(v.string()),
  customFields: v.record(v.string(), v.unknown()),
  affiliateCode: v.nullable(v.string()),
  campaignCode: v.nullable(v.string()),
  active: v.boolean(),
  guest: v.boolean(),
  newsletter: v.boolean(),
  hasPassword: v.boolean(),
  createdByAdmin: v.boolean(),
  firstLoginAt: NullableTimestamp,
  lastLoginAt: NullableTimestamp,
  ...DefaultAddressFields,
  revision: v.number(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Customer = v.InferOutput<typeof Customer>;

/** Facts about the customer's orders and reviews, kept by the customer-history projection. */
const CustomerHistory = v.object({
  orderCount: v.number(),
  /** Minor units per currency. */
  totalSpent: v.record(v.string(), v.number()),
  lastOrderAt: NullableTimestamp,
  reviewCount: v.number(),
});

export const CustomerDetail = v.object({
  ...Customer.entries,
  addresses: v.array(StoredAddress),
  history: CustomerHistory,
});
export type CustomerDetail = v.InferOutput<typeof CustomerDetail>;

/** What a logged-in customer sees of their own record (no merchant tags, notes or tracking). */
export const Account = v.object({
  id: Uuid,
  email: v.string(),
  group: CustomerGroup,
  ...PersonFields,
  guest: v.boolean(),
  newsletter: v.boolean(),
  ...DefaultAddressFields,
  addresses: v.array(v.object({ id: Uuid, address: Address })),
});
export type Account = v.InferOutput<typeof Account>;

export function customerView(row: CustomerRow): Customer {
  return {
    id: row.id,
    email: row.email,
    group: row.group,
    groupId: NATIVE_CUSTOMER_GROUPS[row.group],
    salutation: row.salutation,
    firstName: row.firstName,
    lastName: row.lastName,
    birthday: row.birthday,
    company: row.company,
    vatId: row.vatId,
    tags: row.tags,
    customFields: row.customFields,
    affiliateCode: row.affiliateCode,
    campaignCode: row.campaignCode,
    active: row.active,
    guest: row.guest,
    newsletter: row.newsletter,
    hasPassword: row.passwordHash !== null,
    createdByAdmin: row.createdByAdmin,
    firstLoginAt: iso(row.firstLoginAt),
    lastLoginAt: iso(row.lastLoginAt),
    defaultBillingAddressId: row.defaultBillingAddressId,
    defaultShippingAddressId: row.defaultShippingAddressId,
    revision: row.revision,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function addressOf(row: CustomerAddressRow): Address {
  return v.parse(Address, row.address);
}

export function customerDetailView(
  row: CustomerRow,
  addresses: readonly CustomerAddressRow[],
  history: CustomerHistoryRow | undefined,
): CustomerDetail {
  return {
    ...customerView(row),
    addresses: addresses.map((address) => ({
      id: address.id,
      address: addressOf(address),
      createdAt: iso(address.createdAt),
      updatedAt: iso(address.updatedAt),
    })),
    history: {
      orderCount: history?.orderCount ?? 0,
      totalSpent: history?.totalSpent ?? {},
      lastOrderAt: iso(history?.lastOrderAt ?? null),
      reviewCount: history?.reviewCount ?? 0,
    },
  };
}

export function accountView(row: CustomerRow, addresses: readonly CustomerAddressRow[]): Account {
  return {
    id: row.id,
    email: row.email,
    group: row.group,
    salutation: row.salutation,
    firstName: row.firstName,
    lastName: row.lastName,
    birthday: row.birthday,
    company: row.company,
    vatId: row.vatId,
    guest: row.guest,
    newsletter: row.newsletter,
    defaultBillingAddressId: row.defaultBillingAddressId,
    defaultShippingAddressId: row.defaultShippingAddressId,
    addresses: addresses.map((address) => ({ id: address.id, address: addressOf(address) })),
  };
}

/** The customer with addresses and history facts (zeros when the projection has none yet). */
export async function loadCustomerDetail(
  tx: Executor,
  tenantId: string,
  row: CustomerRow,
): Promise<CustomerDetail> {
  const addresses = await listCustomerAddresses(tx, tenantId, row.id);
  const history = await findCustomerHistory(tx, tenantId, row.id);
  return customerDetailView(row, addresses, history);
}

/**
 * Serialises writers of one email in one shop until the transaction ends, then answers
 * EMAIL_TAKEN when a registered customer other than `exceptId` already uses it.
 */
export async function claimEmail(
  tx: Executor,
  tenantId: string,
  email: string,
  pointer: string,
  exceptId: string | null,
): Promise<Failure | null> {
  await lockTransaction(tx, `customer-email:${tenantId}:${email.toLowerCase()}`);
  const holder = await findRegisteredCustomerByEmail(tx, tenantId, email);
  if (!holder || holder.id === exceptId) return null;
  return fail('EMAIL_TAKEN', 'A registered customer of this shop already uses this email.', {
    errors: [{ pointer, message: 'already registered' }],
  });
}

/** Refuses a birthday after today (the service clock's UTC date). */
export function checkBirthday(services: Services, birthday: string | null | undefined): Failure | null {
  if (!birthday || birthday <= services.clock.now().toISOString().slice(0, 10)) return null;
  return fail('VALIDATION_FAILED', 'A birthday cannot be in the future.', {
    errors: [{ pointer: '/birthday', message: 'in the future' }],
  });
}

/** Business customers need a company. */
export function checkCompany(group: CustomerGroup, company: string | null | undefined): Failure | null {
  if (group !== 'business' || (company && company.trim() !== '')) return null;
  return fail('VALIDATION_FAILED', 'A business customer needs a company.', {
    errors: [{ pointer: '/company', message: 'required for the business group' }],
  });
}

export interface NewCustomer {
  readonly email: string;
  /** Already hashed (hash before the transaction: scrypt should not hold a transaction open). */
  readonly passwordHash: string | null;
  readonly guest: boolean;
  readonly group: CustomerGroup;
  readonly salutation: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly birthday: string | null;
  readonly company: string | null;
  readonly vatId: string | null;
  readonly tags: readonly string[];
  readonly customFields: Record<string, unknown>;
  readonly affiliateCode: string | null;
  readonly campaignCode: string | null;
  readonly active: boolean;
  readonly newsletter: boolean;
  readonly createdByAdmin: boolean;
  /** Each address with the JSON pointer it came from, for field errors. */
  readonly addresses: readonly {
    readonly address: Address;
    readonly pointer: string;
    readonly defaultBilling: boolean;
    readonly defaultShipping: boolean;
  }[];
}

/**
 * Creates a customer with their addresses in the caller's transaction and records
 * `customer.created`. Without picks, the first address is the default billing and shipping one.
 * `requireActiveCountries` is set for storefront callers, who may only use countries on sale.
 */
export async function createCustomer(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  customer: NewCustomer,
  origin: { readonly channelId: string | null; readonly requireActiveCountries: boolean },
): Promise<Result<{ row: CustomerRow; addresses: CustomerAddressRow[] }>> {
  const refused =
    checkBirthday(services, customer.birthday) ??
    checkCompany(customer.group, customer.company) ??
    (customer.guest ? null : await claimEmail(tx, tenantId, customer.email, '/email', null));
  if (refused) return refused;
  const problems: FieldError[] = [];
  for (const entry of customer.addresses) {
    const failure = await checkAddress(tx, tenantId, entry.address, entry.pointer, {
      requireActive: origin.requireActiveCountries,
    });
    if (failure) problems.push(...(failure.errors ?? []));
  }
  if (problems.length > 0) {
    return fail('VALIDATION_FAILED', 'An address does not fit this shop.', { errors: problems });
  }
  const at = services.clock.now();
  const id = services.ids.next();
  const addressIds = customer.addresses.map(() => services.ids.next());
  const pick = (chosen: 'defaultBilling' | 'defaultShipping') => {
    const index = customer.addresses.findIndex((entry) => entry[chosen]);
    return addressIds[index === -1 ? 0 : index] ?? null;
  };
  const { addresses: _, ...fields } = customer;
  const row = await insertCustomer(tx, {
    ...fields,
    tags: [...customer.tags],
    tenantId,
    id,
    defaultBillingAddressId: pick('defaultBilling'),
    defaultShippingAddressId: pick('defaultShipping'),
    createdAt: at,
    updatedAt: at,
  });
  const addresses = await insertCustomerAddresses(
    tx,
    customer.addresses.map((entry, index) => ({
      tenantId,
      id: addressIds[index]!,
      customerId: id,
      address: entry.address,
      createdAt: at,
      updatedAt: at,
    })),
  );
  await recordEvent(tx, services, tenantId, actor, 'customer.created', {
    customerId: id,
    group: row.group,
    guest: row.guest,
    createdByAdmin: row.createdByAdmin,
    channelId: origin.channelId,
  });
  return ok({ row, addresses });
}

export const Code = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100)));

/** The fields a staff update (and a flow action) may change on a customer. */
export const CustomerUpdateEntries = {
  email: v.optional(Email),
  password: v.optional(Password),
  group: v.optional(CustomerGroup),
  salutation: v.optional(OptionalText),
  firstName: v.optional(PersonName),
  lastName: v.optional(PersonName),
  birthday: v.optional(v.nullable(Birthday)),
  company: v.optional(OptionalText),
  vatId: v.optional(OptionalText),
  tags: v.optional(Tags),
  customFields: v.optional(CustomFields),
  affiliateCode: v.optional(Code),
  campaignCode: v.optional(Code),
  active: v.optional(v.boolean()),
  newsletter: v.optional(v.boolean()),
  defaultBillingAddressId: v.optional(v.nullable(Uuid)),
  defaultShippingAddressId: v.optional(v.nullable(Uuid)),
};

export function customerNotFound(customerId: string): Failure {
  return fail('NOT_FOUND', `No customer ${customerId} exists in this shop.`);
}

/** What `customers.update` may change on a customer (the password already hashed). */
export type CustomerChanges = Omit<
  v.InferOutput<v.ObjectSchema<typeof CustomerUpdateEntries, undefined>>,
  'password'
> & {
  readonly passwordHash?: string | undefined;
};

/**
 * Changes fields of a customer in the caller's transaction and records `customer.updated`; a
 * changed group or status (or a new password) revokes every storefront context of the customer,
 * and with it their open carts' authority, and records `customer.group_changed` /
 * `customer.status_changed`. `revision` binds the change to the revision the caller read; flows,
 * which act on the current customer, omit it. The staff operation and the flow actions on
 * customers all call this.
 */
export async function updateCustomerFields(
  tx: Executor,
  services: Services,
  tenantId: string,
  actor: Actor,
  id: string,
  revision: number | undefined,
  changes: CustomerChanges,
): Promise<Result<CustomerRow>> {
  const { passwordHash } = changes;
  const current = await findCustomer(tx, tenantId, id, 'update');
  if (!current) return customerNotFound(id);
  if (revision !== undefined && current.revision !== revision)
    return staleRevision(revision, current.revision);
  if (current.guest && passwordHash !== undefined) {
    return fail('VALIDATION_FAILED', 'Guests have no password.', {
      errors: [{ pointer: '/password', message: 'not allowed for guests' }],
    });
  }
  const addressIds = new Set((await listCustomerAddresses(tx, tenantId, id)).map((row) => row.id));
  const refused =
    checkBirthday(services, changes.birthday) ??
    checkCompany(
      changes.group ?? current.group,
      changes.company === undefined ? current.company : changes.company,
    ) ??
    unknownAddress(addressIds, changes.defaultBillingAddressId, '/defaultBillingAddressId') ??
    unknownAddress(addressIds, changes.defaultShippingAddressId, '/defaultShippingAddressId') ??
    (changes.email !== undefined && !current.guest
      ? await claimEmail(tx, tenantId, changes.email, '/email', id)
      : null);
  if (refused) return refused;
  const fields: CustomerFields = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  );
  const at = services.clock.now();
  const row = await updateCustomer(tx, tenantId, id, fields, at);
  await recordEvent(tx, services, tenantId, actor, 'customer.updated', {
    customerId: id,
    revision: row.revision,
    changed: Object.keys(fields)
      .map((field) => (field === 'passwordHash' ? 'password' : field))
      .sort(),
  });
  const groupChanged = row.group !== current.group;
  const statusChanged = row.active !== current.active;
  // A session carries the authority of the customer's group and status (prices, cart rules):
  // once either changes, every session ends in this transaction. A new password ends them too,
  // so a reset locks out whoever knew the old one.
  if (groupChanged || statusChanged || passwordHash !== undefined) {
    await revokeCustomerContexts(tx, tenantId, id, at);
  }
  if (groupChanged) {
    await recordEvent(tx, services, tenantId, actor, 'customer.group_changed', {
      customerId: id,
      from: current.group,
      to: row.group,
    });
  }
  if (statusChanged) {
    await recordEvent(tx, services, tenantId, actor, 'customer.status_changed', {
      customerId: id,
      active: row.active,
    });
  }
  return ok(row);
}

function unknownAddress(known: ReadonlySet<string>, addressId: string | null | undefined, pointer: string) {
  if (!addressId || known.has(addressId)) return null;
  return fail('VALIDATION_FAILED', 'The default address must be one of the customer’s addresses.', {
    errors: [{ pointer, message: 'not an address of this customer' }],
  });
}
