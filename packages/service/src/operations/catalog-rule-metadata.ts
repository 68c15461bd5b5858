import {
  findCustomer,
  findOrder,
  findProduct,
  updateCustomer,
  updateOrderAtRevision,
  updateProduct,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../auth.ts';
import { fail, ok } from '../errors.ts';
import { recordEvent } from '../events.ts';
import { defineOperation } from '../registry.ts';
import { Revision, Uuid } from '../schemas.ts';
import { effectiveProduct } from './catalog-product-view.ts';
import { staleRevision } from './revision-bound.ts';

const Metadata = v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(100)), v.unknown());

/** What rules read of an entity besides its own fields. */
const NOUNS = { products: 'product', customers: 'customer', orders: 'order' } as const;

export const saveRuleMetadata = defineOperation({
  name: 'automation.entities.save',
  summary:
    'Replaces the rule metadata of an entity at its stored revision. A variant’s keys override its parent’s; its null or absent keys inherit.',
  http: { method: 'PUT', path: '/api/automation/entities/:entity/:id' },
  permission: 'settings.write',
  readOnly: false,
  input: v.strictObject({
    entity: v.picklist(['products', 'customers', 'orders']),
    id: Uuid,
    revision: Revision,
    data: Metadata,
  }),
  output: v.object({
    entity: v.string(),
    id: Uuid,
    revision: v.number(),
    ruleMetadata: v.nullable(Metadata),
    effective: v.nullable(Metadata),
  }),
  async handler({ services, tenantId, principal }, input) {
    const { entity, id, revision, data } = input;
    const missing = fail('NOT_FOUND', `No such ${NOUNS[entity]} exists in this shop.`);
    if (entity === 'orders') {
      return services.database.transaction(async (tx) => {
        const order = await findOrder(tx, tenantId, id, { forUpdate: true });
        if (!order) return missing;
        if (order.revision !== revision) return staleRevision(revision, order.revision);
        const row = await updateOrderAtRevision(
          tx,
          tenantId,
          id,
          revision,
          { ruleMetadata: data },
          services.clock.now(),
        );
        if (!row) return staleRevision(revision, order.revision);
        await recordEvent(tx, services, tenantId, actorOf(principal), 'automation.entity.saved', {
          entity,
          id,
          revision: row.revision,
        });
        return ok({
          entity,
          id,
          revision: row.revision,
          ruleMetadata: row.ruleMetadata,
          effective: row.ruleMetadata,
        });
      });
    }
    if (entity === 'customers') {
      return services.database.transaction(async (tx) => {
        const customer = await findCustomer(tx, tenantId, id, 'update');
        if (!customer) return missing;
        if (customer.revision !== revision) return staleRevision(revision, customer.revision);
        const row = await updateCustomer(tx, tenantId, id, { ruleMetadata: data }, services.clock.now());
        await recordEvent(tx, services, tenantId, actorOf(principal), 'automation.entity.saved', {
          entity,
          id,
          revision: row.revision,
        });
        return ok({
          entity,
          id,
          revision: row.revision,
          ruleMetadata: row.ruleMetadata,
          effective: row.ruleMetadata,
        });
      });
    }
    return services.database.transaction(async (tx) => {
      const current = await findProduct(tx, tenantId, id, 'update');
      if (!current) return missing;
      if (current.revision !== revision) return staleRevision(revision, current.revision);
      const row = await updateProduct(
        tx,
        tenantId,
        id,
        revision,
        { ruleMetadata: data },
        services.clock.now(),
      );
      if (!row) return staleRevision(revision, current.revision);
      const parent = row.parentId ? ((await findProduct(tx, tenantId, row.parentId)) ?? null) : null;
      await recordEvent(tx, services, tenantId, actorOf(principal), 'automation.entity.saved', {
        entity,
        id,
        revision: row.revision,
      });
      return ok({
        entity,
        id,
        revision: row.revision,
        ruleMetadata: row.ruleMetadata,
        effective: effectiveProduct(row, parent).ruleMetadata,
      });
    });
  },
});
