import {
  type CustomerFields,
  type CustomerRow,
  deleteCustomer,
  deleteCustomerAddress,
  type Executor,
  findCustomer,
  findCustomerAddress,
  insertCustomerAddresses,
  listCustomerOrderNumbers,
  listCustomers,
  replaceCustomerAddress,
  updateCustomer,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { type Failure, fail, ok, type Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { defineOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { Limit, Revision, Uuid } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { Address, checkAddress } from './addresses.ts';
import { revokeCustomerContexts } from './contexts.ts';
import {
  AddressEntries,
  Birthday,
  Code,
  Customer,
  CustomerDetail,
  CustomerGroup,
  CustomerUpdateEntries,
  CustomFields,
  createCustomer,
  customerNotFound,
  customerView,
  Email,
  loadCustomerDetail,
  OptionalText,
  Password,
  PersonName,
  Tags,
  updateCustomerFields,
} from './customer.ts';
import { hashPassword } from './passwords.ts';

export const listShopCustomers = defineOperation({
  name: 'customers.list',
  summary: 'Customers of this shop by id, filtered by email or name, group, status, guest flag or tag.',
  http: { method: 'GET', path: '/api/customers' },
  permission: 'customers.read',
  readOnly: true,
  input: v.object({
    limit: Limit,
    after: v.optional(Uuid),
    search: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
    group: v.optional(CustomerGroup),
    active: v.optional(v.boolean()),
    guest: v.optional(v.boolean()),
    tag: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100))),
  }),
  output: v.object({ items: v.array(Customer), next: v.nullable(Uuid) }),
  async handler({ services, tenantId }, input) {
    const rows = await listCustomers(services.database.db, tenantId, { ...input, limit: input.limit + 1 });
    const page = rows.slice(0, input.limit);
    return ok({ items: page.map(customerView), next: rows.length > input.limit ? page.at(-1)!.id : null });
  },
});

export const getShopCustomer = defineOperation({
  name: 'customers.get',
  summary: 'One customer with addresses and order and review history.',
  http: { method: 'GET', path: '/api/customers/:id' },
  permission: 'customers.read',
  readOnly: true,
  input: v.object({ id: Uuid }),
  output: CustomerDetail,
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const row = await findCustomer(db, tenantId, input.id);
    return row ? ok(await loadCustomerDetail(db, tenantId, row)) : customerNotFound(input.id);
  },
});

export const createShopCustomer = defineOperation({
  name: 'customers.create',
  summary:
    'Creates a customer (email unique among registered customers), optionally with a password and addresses.',
  http: { method: 'POST', path: '/api/customers', status: 201 },
  permission: 'customers.write',
  readOnly: false,
  input: v.object({
    email: Email,
    password: v.optional(Password),
    guest: v.optional(v.boolean(), false),
    group: v.optional(CustomerGroup, 'consumer'),
    salutation: v.optional(OptionalText, null),
    firstName: PersonName,
    lastName: PersonName,
    birthday: v.optional(v.nullable(Birthday), null),
    company: v.optional(OptionalText, null),
    vatId: v.optional(OptionalText, null),
    tags: v.optional(Tags, []),
    customFields: v.optional(CustomFields, {}),
    affiliateCode: v.optional(Code, null),
    campaignCode: v.optional(Code, null),
    active: v.optional(v.boolean(), true),
    newsletter: v.optional(v.boolean(), false),
    addresses: v.optional(AddressEntries, []),
  }),
  output: CustomerDetail,
  async handler({ services, tenantId, principal }, input) {
    if (input.guest && input.password !== undefined) {
      return fail('VALIDATION_FAILED', 'Guests have no password.', {
        errors: [{ pointer: '/password', message: 'not allowed for guests' }],
      });
    }
    const { password, addresses, ...fields } = input;
    const passwordHash = password === undefined ? null : await hashPassword(password);
    return services.database.transaction(async (tx) => {
      const created = await createCustomer(
        tx,
        services,
        tenantId,
        actorOf(principal),
        {
          ...fields,
          passwordHash,
          createdByAdmin: true,
          addresses: addresses.map((entry, index) => ({ ...entry, pointer: `/addresses/${index}/address` })),
        },
        { channelId: null, requireActiveCountries: false },
      );
      if (!created.ok) return created;
      return ok(await loadCustomerDetail(tx, tenantId, created.value.row));
    });
  },
});

const UpdateInput = v.object({ id: Uuid, revision: Revision, ...CustomerUpdateEntries });

export const updateShopCustomer = defineOperation({
  name: 'customers.update',
  summary:
    'Changes fields of a customer at its stored revision. Changing the group, the status or the password ends every storefront session of the customer.',
  http: { method: 'PATCH', path: '/api/customers/:id' },
  permission: 'customers.write',
  readOnly: false,
  input: UpdateInput,
  output: CustomerDetail,
  async handler({ services, tenantId, principal }, input) {
    const { id, revision, password, ...changes } = input;
    const passwordHash = password === undefined ? undefined : await hashPassword(password);
    return services.database.transaction(async (tx) => {
      const updated = await updateCustomerFields(tx, services, tenantId, actorOf(principal), id, revision, {
        ...changes,
        passwordHash,
      });
      return updated.ok ? ok(await loadCustomerDetail(tx, tenantId, updated.value)) : updated;
    });
  },
});

export const deleteShopCustomer = defineOperation({
  name: 'customers.delete',
  summary:
    'Deletes a customer at its stored revision with their addresses; refused while orders reference the customer.',
  http: { method: 'DELETE', path: '/api/customers/:id' },
  permission: 'customers.write',
  readOnly: false,
  input: v.object({ id: Uuid, revision: Revision }),
  output: v.object({ id: Uuid, deleted: v.literal(true) }),
  async handler({ services, tenantId, principal }, input) {
    return services.database.transaction(async (tx) => {
      const current = await findCustomer(tx, tenantId, input.id, 'update');
      if (!current) return customerNotFound(input.id);
      if (current.revision !== input.revision) return staleRevision(input.revision, current.revision);
      const orders = await listCustomerOrderNumbers(tx, tenantId, input.id, 100);
      if (orders.length > 0) {
        return fail('REFERENCED', 'Orders reference this customer; deactivate the customer instead.', {
          extensions: { references: orders.map((order) => ({ kind: 'order', ...order })) },
        });
      }
      await revokeCustomerContexts(tx, tenantId, input.id, services.clock.now());
      await deleteCustomer(tx, tenantId, input.id);
      await recordEvent(tx, services, tenantId, actorOf(principal), 'customer.deleted', {
        customerId: input.id,
      });
      return ok({ id: input.id, deleted: true as const });
    });
  },
});

/**
 * Runs an address change under the customer's row lock, then moves the customer's revision on
 * (the customer as read has changed) and records `customer.updated`.
 */
async function changeAddresses(
  services: Services,
  tenantId: string,
  actor: Actor,
  customerId: string,
  change: (tx: Executor, current: CustomerRow) => Promise<Failure | CustomerFields>,
): Promise<Result<CustomerDetail>> {
  return services.database.transaction(async (tx) => {
    const current = await findCustomer(tx, tenantId, customerId, 'update');
    if (!current) return customerNotFound(customerId);
    const fields = await change(tx, current);
    if ('ok' in fields) return fields;
    const row = await updateCustomer(tx, tenantId, customerId, fields, services.clock.now());
    await recordEvent(tx, services, tenantId, actor, 'customer.updated', {
      customerId,
      revision: row.revision,
      changed: ['addresses', ...Object.keys(fields)].sort(),
    });
    return ok(await loadCustomerDetail(tx, tenantId, row));
  });
}

export const saveShopCustomerAddress = defineOperation({
  name: 'customers.addresses.save',
  summary:
    'Creates or replaces an address of a customer; `defaultBilling`/`defaultShipping` pick it (the first address is picked for both).',
  http: { method: 'PUT', path: '/api/customers/:id/addresses/:addressId' },
  permission: 'customers.write',
  readOnly: false,
  input: v.object({
    id: Uuid,
    addressId: Uuid,
    address: Address,
    defaultBilling: v.optional(v.boolean(), false),
    defaultShipping: v.optional(v.boolean(), false),
  }),
  output: CustomerDetail,
  async handler({ services, tenantId, principal }, input) {
    return changeAddresses(services, tenantId, actorOf(principal), input.id, async (tx, current) => {
      const existing = await findCustomerAddress(tx, tenantId, input.addressId);
      if (existing && existing.customerId !== input.id) {
        return fail('CONFLICT', 'This address id belongs to another customer.', {
          errors: [{ pointer: '/addressId', message: 'in use' }],
        });
      }
      const refused = await checkAddress(tx, tenantId, input.address, '/address', { requireActive: false });
      if (refused) return refused;
      const at = services.clock.now();
      if (existing) await replaceCustomerAddress(tx, tenantId, input.addressId, input.address, at);
      else {
        await insertCustomerAddresses(tx, [
          {
            tenantId,
            id: input.addressId,
            customerId: input.id,
            address: input.address,
            createdAt: at,
            updatedAt: at,
          },
        ]);
      }
      const fields: CustomerFields = {};
      if (input.defaultBilling || !current.defaultBillingAddressId)
        fields.defaultBillingAddressId = input.addressId;
      if (input.defaultShipping || !current.defaultShippingAddressId) {
        fields.defaultShippingAddressId = input.addressId;
      }
      return fields;
    });
  },
});

export const deleteShopCustomerAddress = defineOperation({
  name: 'customers.addresses.delete',
  summary: 'Deletes an address of a customer; refused while it is their default billing or shipping address.',
  http: { method: 'DELETE', path: '/api/customers/:id/addresses/:addressId' },
  permission: 'customers.write',
  readOnly: false,
  input: v.object({ id: Uuid, addressId: Uuid }),
  output: CustomerDetail,
  async handler({ services, tenantId, principal }, input) {
    return changeAddresses(services, tenantId, actorOf(principal), input.id, async (tx, current) => {
      const existing = await findCustomerAddress(tx, tenantId, input.addressId);
      if (!existing || existing.customerId !== input.id) {
        return fail('NOT_FOUND', `No address ${input.addressId} of this customer exists.`);
      }
      if (
        current.defaultBillingAddressId === input.addressId ||
        current.defaultShippingAddressId === input.addressId
      ) {
        return fail('CONFLICT', 'This is a default address of the customer: pick another default first.', {
          errors: [{ pointer: '/addressId', message: 'default billing or shipping address' }],
        });
      }
      await deleteCustomerAddress(tx, tenantId, input.addressId);
      return {};
    });
  },
});

export const customerOperations = [
  listShopCustomers,
  getShopCustomer,
  createShopCustomer,
  updateShopCustomer,
  deleteShopCustomer,
  saveShopCustomerAddress,
  deleteShopCustomerAddress,
];
