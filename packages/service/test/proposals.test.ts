import type { ProposalPlan } from '@cartwright/flow-graph';
import { type Database, findProposal, tables } from '@cartwright/repository';
import { createTestDatabase } from '@cartwright/repository/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../src/access/tokens.ts';
import { createServices, invokeOperation, type Services } from '../src/index.ts';
import { approveProposal, createProposal } from '../src/intelligence/proposals.ts';
import { setHypothesisStatus } from '../src/intelligence/review.ts';
import { addLabelledEvidence } from '../src/intelligence/simulation.ts';
import type { Principal } from '../src/kernel/auth.ts';
import type { Actor } from '../src/kernel/events.ts';
import { PERMISSIONS, type Permission } from '../src/kernel/permissions.ts';
import { createShop } from '../src/shop/shops.ts';
import { adminPrincipal } from '../src/testing.ts';
import { operationNamed, successOf } from './principals.ts';

// AI proposals in the service (decision 0046): a flow step makes a proposal only within its
// actor's current rights; approvals find an upgraded or uninstalled app, a reviewed pair or a
// saved rule stale and apply nothing; two approvals at once apply once.

let database: Database;
let services: Services;
let tenantId: string;
let admin: Principal;
let products: string[];

const system: Actor = { kind: 'system', process: 'test' };

/** A small app with one entity and its update action; `extra` adds a nullable field (an upgrade). */
const cardsApp = (version: string, extra = false) => ({
  apiVersion: 1,
  id: 'cards',
  version,
  name: { en: 'Cards' },
  permissions: [],
  entities: [
    {
      id: 'card',
      label: { en: 'Card' },
      fields: [
        { name: 'label', type: 'string', maxLength: 40, required: true },
        ...(extra ? [{ name: 'colour', type: 'string', maxLength: 20 }] : []),
      ],
    },
  ],
  actions: [
    { id: 'add_card', kind: 'create', entity: 'card' },
    { id: 'update_card', kind: 'update', entity: 'card' },
  ],
});

async function call(name: string, input: unknown, principal = admin) {
  return successOf(await invokeOperation(services, operationNamed(name), principal, input)) as Record<
    string,
    unknown
  >;
}

async function principalWith(permissions: readonly Permission[]): Promise<Principal & { token: string }> {
  const created = successOf(
    await database.transaction((tx) =>
      createToken(tx, services, tenantId, system, {
        name: 'limited',
        kind: 'api',
        role: 'admin',
        permissions: [...permissions],
      }),
    ),
  );
  return {
    tenantId,
    tokenId: created.details.id,
    tokenKind: 'api',
    userId: null,
    role: 'admin',
    permissions: new Set(permissions),
    token: created.token,
  };
}

const flowMaker = (tokenId: string, node = 'n1') => ({
  kind: 'flow' as const,
  actor: {
    kind: 'flow' as const,
    flowId: services.ids.next(),
    jobId: services.ids.next(),
    nodeId: node,
    onBehalfOf: { kind: 'token' as const, tokenId, userId: null },
  },
  stepKey: `flow:${services.ids.next()}:${node}`,
  subject: {},
});

async function newCard(): Promise<{ id: string; revision: number }> {
  const created = await call('apps.actions.invoke', { appId: 'cards', actionId: 'add_card', label: 'Blue' });
  return { id: created.id as string, revision: created.revision as number };
}

async function installed(): Promise<{ version: string; revision: number }> {
  const apps = (await call('apps.list', {})).items as { appId: string; version: string; revision: number }[];
  return apps.find((app) => app.appId === 'cards')!;
}

async function setCardPlan(): Promise<ProposalPlan> {
  const card = await newCard();
  const app = await installed();
  return {
    summary: 'Relabel',
    operations: [
      {
        kind: 'apps.record.set',
        appId: 'cards',
        appVersion: app.version,
        appRevision: app.revision,
        entity: 'card',
        recordId: card.id,
        revision: card.revision,
        data: { label: 'Gold' },
      },
    ],
  };
}

function make(
  plan: ProposalPlan,
  maker: Parameters<typeof createProposal>[3] = { kind: 'staff', principal: admin },
) {
  return database.transaction((tx) => createProposal(tx, services, tenantId, maker, plan));
}

async function pairOf(a: string, b: string) {
  const [low, high] = a < b ? [a, b] : [b, a];
  const rows = await database.db
    .select()
    .from(tables.intelligencePairs)
    .where(eq(tables.intelligencePairs.tenantId, tenantId));
  return rows.find((row) => row.productAId === low && row.productBId === high)!;
}

beforeAll(async () => {
  database = await createTestDatabase();
  services = createServices(database);
  tenantId = (await createShop(services, { name: 'Proposals', ownerEmail: 'owner@proposals.test' })).tenantId;
  admin = (await adminPrincipal(services, tenantId)).principal;
  await call('apps.install', { appId: 'cards', revision: 0, manifest: cardsApp('1.0.0') });
  products = [];
  for (const sku of ['A', 'B', 'C']) {
    const created = await call('catalog.products.create', { sku, translations: { en: { name: sku } } });
    products.push(((created.product ?? created) as { id: string }).id);
  }
  successOf(
    await database.transaction((tx) =>
      addLabelledEvidence(tx, services, tenantId, system, { source: 'manual', baskets: [products] }),
    ),
  );
});
afterAll(async () => database?.close());

describe('making a proposal from a flow step', () => {
  it('needs each operation’s permission held by the flow’s actor now', async () => {
    const plan = await setCardPlan();
    const withoutApps = await principalWith(PERMISSIONS.filter((permission) => permission !== 'apps.write'));
    expect(await make(plan, flowMaker(withoutApps.tokenId))).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      extensions: { operation: 0, permission: 'apps.write' },
    });
    const full = await principalWith(PERMISSIONS);
    const maker = flowMaker(full.tokenId);
    const made = successOf(await make(plan, maker));
    expect(made).toMatchObject({ status: 'pending', sourceKey: maker.stepKey, createdBy: { kind: 'flow' } });
    // The same step again answers its proposal.
    expect(successOf(await make(plan, maker)).id).toBe(made.id);
    await call('tokens.revoke', { tokenId: full.tokenId });
    expect(await make(plan, flowMaker(full.tokenId))).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    // The shop's own (starter) flows act with every permission.
    const starter = {
      ...flowMaker(full.tokenId),
      actor: { ...flowMaker(full.tokenId).actor, onBehalfOf: { kind: 'system' as const } },
    };
    expect(successOf(await make(plan, starter)).status).toBe('pending');
  });
});

describe('saving a flow with an ai_proposal plan', () => {
  it('needs the permissions of the plan’s operations', async () => {
    const plan = await setCardPlan();
    const flow = (id: string) => ({
      kind: 'flows',
      id,
      revision: 0,
      data: {
        name: { en: 'Plan' },
        trigger: 'order.placed',
        pipeline: {
          entry: 'p',
          nodes: [{ id: 'p', kind: 'action', action: 'ai_proposal', config: plan, next: null }],
        },
      },
    });
    const withoutApps = await principalWith(PERMISSIONS.filter((permission) => permission !== 'apps.write'));
    const refused = await invokeOperation(
      services,
      operationNamed('automation.save'),
      withoutApps,
      flow(services.ids.next()),
    );
    expect(refused).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    if (!refused.ok) expect(refused.detail).toContain('apps.write');
    expect((await call('automation.save', flow(services.ids.next()))).revision).toBe(1);
  });
});

describe('approving', () => {
  it('finds an upgraded app stale: nothing applied, the finding names the package', async () => {
    const plan = await setCardPlan();
    const made = successOf(await make(plan));
    const before = await installed();
    await call('apps.install', {
      appId: 'cards',
      revision: before.revision,
      manifest: cardsApp('1.1.0', true),
    });
    const approved = await approveProposal(services, tenantId, admin, made.id);
    expect(approved).toMatchObject({
      ok: false,
      code: 'PROPOSAL_STALE',
      extensions: {
        stale: [
          {
            operation: 0,
            kind: 'apps.record.set',
            expected: { appVersion: before.version, appRevision: before.revision },
            actual: { appVersion: '1.1.0', appRevision: before.revision + 1 },
          },
        ],
      },
    });
    expect((await findProposal(database.db, tenantId, made.id))?.status).toBe('stale');
    const operation = plan.operations[0]!;
    const card = await call('apps.actions.invoke', {
      appId: 'cards',
      actionId: 'update_card',
      id: operation.kind === 'apps.record.set' ? operation.recordId : '',
      revision: 1,
      data: { label: 'Still blue' },
    });
    expect(card).toMatchObject({ revision: 2, data: { label: 'Still blue' } });
  });

  it('finds an uninstalled app stale (actual null)', async () => {
    const plan = await setCardPlan();
    const made = successOf(await make(plan));
    const app = await installed();
    await call('apps.uninstall', { appId: 'cards', revision: app.revision });
    const approved = await approveProposal(services, tenantId, admin, made.id);
    expect(approved).toMatchObject({
      ok: false,
      code: 'PROPOSAL_STALE',
      extensions: { stale: [{ actual: null }] },
    });
    await call('apps.install', { appId: 'cards', revision: 0, manifest: cardsApp('1.2.0', true) });
  });

  it('finds a pair reviewed since the plan stale, and publishes a current one', async () => {
    const pair = await pairOf(products[0]!, products[1]!);
    const plan: ProposalPlan = {
      summary: 'Publish',
      operations: [{ kind: 'intelligence.publish_pair', hypothesisId: pair.id, revision: pair.revision }],
    };
    const made = successOf(await make(plan));
    successOf(
      await database.transaction((tx) =>
        setHypothesisStatus(tx, services, tenantId, system, {
          id: pair.id,
          revision: pair.revision,
          status: 'experiment',
        }),
      ),
    );
    expect(await approveProposal(services, tenantId, admin, made.id)).toMatchObject({
      ok: false,
      code: 'PROPOSAL_STALE',
      extensions: {
        stale: [
          {
            expected: { revision: pair.revision },
            actual: { revision: pair.revision + 1, status: 'experiment' },
          },
        ],
      },
    });
    const current = await pairOf(products[0]!, products[1]!);
    const fresh = successOf(
      await make({
        summary: 'Publish',
        operations: [
          { kind: 'intelligence.publish_pair', hypothesisId: current.id, revision: current.revision },
        ],
      }),
    );
    expect(successOf(await approveProposal(services, tenantId, admin, fresh.id)).status).toBe('approved');
    expect(await pairOf(products[0]!, products[1]!)).toMatchObject({
      status: 'published',
      revision: current.revision + 1,
    });
  });

  it('applies once when two approvals arrive together', async () => {
    const made = successOf(await make(await setCardPlan()));
    const answers = await Promise.all([
      approveProposal(services, tenantId, admin, made.id),
      approveProposal(services, tenantId, admin, made.id),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.find((answer) => !answer.ok)).toMatchObject({ code: 'PROPOSAL_DECIDED' });
  });

  it('refuses an operation the approver may not do and changes nothing', async () => {
    const made = successOf(await make(await setCardPlan()));
    const reader = await principalWith(['settings.read', 'settings.write', 'apps.read']);
    expect(await approveProposal(services, tenantId, reader, made.id)).toMatchObject({
      ok: false,
      code: 'FORBIDDEN',
      extensions: { permission: 'apps.write' },
    });
    expect(await findProposal(database.db, tenantId, made.id)).toMatchObject({
      status: 'pending',
      revision: 1,
    });
  });
});
