import {
  type Executor,
  findCustomer,
  findOrder,
  findProduct,
  updateCustomer,
  updateOrderAtRevision,
  updateProduct,
} from '@cartwright/repository';
import * as v from 'valibot';
import { actorOf } from '../kernel/auth.ts';
import { fail, ok } from '../kernel/errors.ts';
import { recordEvent } from '../kernel/events.ts';
import { defineOperation } from '../kernel/registry.ts';
import { staleRevision } from '../kernel/revision-bound.ts';
import { Revision, Uuid } from '../kernel/schemas.ts';
import { effectiveProduct } from './product-view.ts';

const Metadata = v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(100)), v.unknown());

/** What rules read of an entity besides its own fields. */
const NOUNS = { products: 'product', customers: 'customer', orders: 'order' } as const;

type Metadata = v.InferOutput<typeof Metadata>;

/** How each entity kind locks its row and stores its rule metadata (the row is locked and current). */
interface EntityStore {
  lock(tx: Executor, tenantId: string, id: string): Promise<{ revision: number } | undefined>;
  save(
    tx: Executor,
    tenantId: string,
    id: string,
    revision: number,
    data: Metadata,
    at: Date,
  ): Promise<{ revision: number; ruleMetadata: Metadata | null; effective: Metadata | null }>;
}

const ENTITIES: Record<keyof typeof NOUNS, EntityStore> = {
  products: {
    lock: (tx, tenantId, id) => findProduct(tx, tenantId, id, 'update'),
    async save(tx, tenantId, id, revision, data, at) {
      const row = (await updateProduct(tx, tenantId, id, revision, { ruleMetadata: data }, at))!;
      const parent = row.parentId ? ((await findProduct(tx, tenantId, row.parentId)) ?? null) : null;
      return {
        revision: row.revision,
        ruleMetadata: row.ruleMetadata,
        effective: effectiveProduct(row, parent).ruleMetadata,
      };
    },
  },
  customers: {
    lock: (tx, tenantId, id) => findCustomer(tx, tenantId, id, 'update'),
    async save(tx, tenantId, id, _revision, data, at) {
      const row = await updateCustomer(tx, tenantId, id, { ruleMetadata: data }, at);
      return { revision: row.revision, ruleMetadata: row.ruleMetadata, effective: row.ruleMetadata };
    },
  },
  orders: {
    lock: (tx, tenantId, id) => findOrder(tx, tenantId, id, { forUpdate: true }),
    async save(tx, tenantId, id, revision, data, at) {
      const row = (await updateOrderAtRevision(tx, tenantId, id, revision, { ruleMetadata: data }, at))!;
      return { revision: row.revision, ruleMetadata: row.ruleMetadata, effective: row.ruleMetadata };
    },
  },
};

export const saveRuleMetadata = defineOperation({
  name: 'automation.entities.save',
  summary:
    'Replaces the rule metadata of an entity at its stored revision. A variant’s keys override its parent’s; its null or absent keys inherit.',
  http: { method: 'PUT', path: '/api/automation/entities/:entity/:id' },
  // The spec's endpoint table: "none; HTTP only".
  mcp: false,
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
    const store = ENTITIES[entity];
    return services.database.transaction(async (tx) => {
      const current = await store.lock(tx, tenantId, id);
      if (!current) return fail('NOT_FOUND', `No such ${NOUNS[entity]} exists in this shop.`);
      if (current.revision !== revision) return staleRevision(revision, current.revision);
      const saved = await store.save(tx, tenantId, id, revision, data, services.clock.now());
      await recordEvent(tx, services, tenantId, actorOf(principal), 'automation.entity.saved', {
        entity,
        id,
        revision: saved.revision,
      });
      return ok({ entity, id, ...saved });
    });
  },
});
