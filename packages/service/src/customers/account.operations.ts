import {
  type CustomerRow,
  type Executor,
  findCustomer,
  findRegisteredCustomerByEmail,
  listCustomerAddresses,
  moveOpenCart,
  recordCustomerLogin,
  revokeStoreContext,
  type StoreContextRow,
} from '@cartwright/repository';
import * as v from 'valibot';
import { prepareCartForCustomer } from '../carts/cart.ts';
import type { Storefront } from '../kernel/auth.ts';
import { type Failure, fail, ok } from '../kernel/errors.ts';
import type { Actor } from '../kernel/events.ts';
import { defineStoreOperation } from '../kernel/registry.ts';
import { EmptyInput, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { Address } from './addresses.ts';
import { openStoreContext, resolveStoreContext } from './contexts.ts';
import {
  Account,
  accountView,
  Birthday,
  CustomerGroup,
  createCustomer,
  Email,
  OptionalText,
  Password,
  PersonName,
} from './customer.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

// The storefront's visitor context and customer account (`/store-api`, named by a channel key;
// the visitor's context token travels in `x-context-token`).

const storefrontActor: Actor = { kind: 'system', process: 'storefront' };

function noContext(): Failure {
  return fail('UNAUTHENTICATED', 'A valid context token (x-context-token) is required.');
}

const ContextToken = v.object({ contextToken: v.string() });

export const createStoreContext = defineStoreOperation({
  name: 'store.context.create',
  summary: 'Opens an anonymous visitor context; send its token as x-context-token from now on.',
  http: { method: 'POST', path: '/store-api/context', status: 201 },
  readOnly: false,
  input: EmptyInput,
  output: ContextToken,
  async handler({ services, storefront }) {
    const opened = await services.database.transaction((tx) => openStoreContext(tx, services, storefront));
    return ok({ contextToken: opened.token });
  },
});

export const getStoreContext = defineStoreOperation({
  name: 'store.context.get',
  summary: 'The visitor context: its channel, the logged-in customer if any, language and currency.',
  http: { method: 'GET', path: '/store-api/context' },
  readOnly: true,
  input: EmptyInput,
  output: v.object({
    channelId: Uuid,
    customer: v.nullable(
      v.object({
        id: Uuid,
        email: v.string(),
        firstName: v.string(),
        lastName: v.string(),
        group: CustomerGroup,
      }),
    ),
    language: v.nullable(v.string()),
    currency: v.nullable(v.string()),
  }),
  async handler({ services, storefront, tenantId }) {
    const db = services.database.db;
    const context = await resolveStoreContext(db, services, storefront);
    if (!context) return noContext();
    const customer = context.customerId ? await findCustomer(db, tenantId, context.customerId) : undefined;
    return ok({
      channelId: context.channelId,
      customer: customer
        ? {
            id: customer.id,
            email: customer.email,
            firstName: customer.firstName,
            lastName: customer.lastName,
            group: customer.group,
          }
        : null,
      language: context.language,
      currency: context.currency,
    });
  },
});

/**
 * Logs a customer in on this storefront: a new context (token rotation), the visitor's open cart
 * carried over from an anonymous (or the same customer's) previous context, which is revoked, and
 * prepared for checkout (the customer's default addresses, the channel's first methods) where it
 * has none of its own.
 */
async function signIn(
  tx: Executor,
  services: Services,
  storefront: Storefront,
  customer: CustomerRow,
  previous: StoreContextRow | null,
): Promise<string> {
  const at = services.clock.now();
  const opened = await openStoreContext(tx, services, storefront, {
    customerId: customer.id,
    from: previous,
  });
  if (previous) {
    if (previous.customerId === null || previous.customerId === customer.id) {
      await moveOpenCart(tx, storefront.tenantId, {
        fromContextId: previous.id,
        toContextId: opened.context.id,
        customerId: customer.id,
        at,
      });
    }
    await revokeStoreContext(tx, storefront.tenantId, previous.id, at);
  }
  await prepareCartForCustomer(tx, services, storefront.tenantId, opened.context.id, customer.id);
  await recordCustomerLogin(tx, storefront.tenantId, customer.id, at);
  return opened.token;
}

const SignedIn = v.object({ contextToken: v.string(), customer: Account });

export const registerStoreAccount = defineStoreOperation({
  name: 'store.account.register',
  summary:
    'Registers a customer (or a guest, without password) and logs them in; answers the new context token.',
  http: { method: 'POST', path: '/store-api/account/register', status: 201 },
  readOnly: false,
  input: v.object({
    email: Email,
    password: v.optional(Password),
    guest: v.optional(v.boolean(), false),
    salutation: v.optional(OptionalText, null),
    firstName: PersonName,
    lastName: PersonName,
    birthday: v.optional(v.nullable(Birthday), null),
    company: v.optional(OptionalText, null),
    vatId: v.optional(OptionalText, null),
    newsletter: v.optional(v.boolean(), false),
    affiliateCode: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))), null),
    campaignCode: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100))), null),
    billingAddress: v.optional(Address),
    shippingAddress: v.optional(Address),
  }),
  output: SignedIn,
  async handler({ services, storefront, tenantId }, input) {
    if (input.guest === (input.password !== undefined)) {
      return fail('VALIDATION_FAILED', 'A registered customer needs a password; a guest has none.', {
        errors: [{ pointer: '/password', message: input.guest ? 'not allowed for guests' : 'required' }],
      });
    }
    const { password, billingAddress, shippingAddress, ...fields } = input;
    const passwordHash = password === undefined ? null : await hashPassword(password);
    const addresses = [
      ...(billingAddress
        ? [
            {
              address: billingAddress,
              pointer: '/billingAddress',
              defaultBilling: true,
              defaultShipping: !shippingAddress,
            },
          ]
        : []),
      ...(shippingAddress
        ? [
            {
              address: shippingAddress,
              pointer: '/shippingAddress',
              defaultBilling: false,
              defaultShipping: true,
            },
          ]
        : []),
    ];
    return services.database.transaction(async (tx) => {
      const created = await createCustomer(
        tx,
        services,
        tenantId,
        storefrontActor,
        {
          ...fields,
          passwordHash,
          // Self-registration is always a consumer: the business group carries other prices, so
          // staff assign it.
          group: 'consumer',
          tags: [],
          customFields: {},
          active: true,
          createdByAdmin: false,
          addresses,
        },
        { channelId: storefront.channelId, requireActiveCountries: true },
      );
      if (!created.ok) return created;
      const previous = await resolveStoreContext(tx, services, storefront);
      const contextToken = await signIn(tx, services, storefront, created.value.row, previous);
      return ok({ contextToken, customer: accountView(created.value.row, created.value.addresses) });
    });
  },
});

export const loginStoreAccount = defineStoreOperation({
  name: 'store.account.login',
  summary:
    'Logs a registered customer in with email and password; answers a new context token and carries the visitor’s open cart over.',
  http: { method: 'POST', path: '/store-api/account/login' },
  readOnly: false,
  input: v.object({
    email: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(254)),
    password: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)),
  }),
  output: SignedIn,
  async handler({ services, storefront, tenantId }, input) {
    // One answer for every failure, and one scrypt run on every path (a decoy for unknown emails
    // and guests), so neither the answer nor its timing tells which emails are registered.
    const denied = fail('UNAUTHENTICATED', 'The email or password is not correct.');
    const candidate = await findRegisteredCustomerByEmail(services.database.db, tenantId, input.email);
    const verified = await verifyPassword(input.password, candidate?.passwordHash);
    if (!candidate || !verified || !candidate.active) return denied;
    return services.database.transaction(async (tx) => {
      // Locked: a concurrent group or status change either sees this new context and revokes it,
      // or commits first and is seen here.
      const customer = await findCustomer(tx, tenantId, candidate.id, 'update');
      if (!customer?.active || customer.passwordHash !== candidate.passwordHash) return denied;
      const previous = await resolveStoreContext(tx, services, storefront);
      const contextToken = await signIn(tx, services, storefront, customer, previous);
      const addresses = await listCustomerAddresses(tx, tenantId, customer.id);
      return ok({ contextToken, customer: accountView(customer, addresses) });
    });
  },
});

export const logoutStoreAccount = defineStoreOperation({
  name: 'store.account.logout',
  summary: 'Ends the visitor context of the request (its token stops working at once).',
  http: { method: 'POST', path: '/store-api/account/logout' },
  readOnly: false,
  input: EmptyInput,
  output: v.object({ loggedOut: v.literal(true) }),
  async handler({ services, storefront, tenantId }) {
    return services.database.transaction(async (tx) => {
      const context = await resolveStoreContext(tx, services, storefront);
      if (!context) return noContext();
      await revokeStoreContext(tx, tenantId, context.id, services.clock.now());
      return ok({ loggedOut: true as const });
    });
  },
});

export const getStoreAccount = defineStoreOperation({
  name: 'store.account.get',
  summary: 'The logged-in customer of the visitor context, with their addresses.',
  http: { method: 'GET', path: '/store-api/account' },
  readOnly: true,
  input: EmptyInput,
  output: Account,
  async handler({ services, storefront, tenantId }) {
    const db = services.database.db;
    const context = await resolveStoreContext(db, services, storefront);
    const customer = context?.customerId ? await findCustomer(db, tenantId, context.customerId) : undefined;
    if (!customer) return fail('UNAUTHENTICATED', 'Log in first: this visitor context has no customer.');
    return ok(accountView(customer, await listCustomerAddresses(db, tenantId, customer.id)));
  },
});

export const accountOperations = [
  createStoreContext,
  getStoreContext,
  registerStoreAccount,
  loginStoreAccount,
  logoutStoreAccount,
  getStoreAccount,
];
