import {
  type BasisArea,
  type BasisFields,
  basisTables,
  countTenants,
  type Executor,
  findTenant,
  findUserByEmail,
  insertChannel,
  insertDefinition,
  insertTenant,
  insertUser,
  listBasis,
  listChannels,
  listDefinitions,
  listStarterProvisions,
  lockTransaction,
  recordStarterProvision,
  saveBasis,
  type TenantRow,
  upsertMembership,
} from '@cartwright/repository';
import { createToken } from '../access/tokens.ts';
import { issueChannelKey } from '../kernel/auth.ts';
import type { Result } from '../kernel/errors.ts';
import { type Actor, recordEvent } from '../kernel/events.ts';
import { iso } from '../kernel/schemas.ts';
import type { Services } from '../kernel/services.ts';
import { makeDemoShopSellable } from './demo-shop.ts';
import { provisionStarters } from './starter-provision.ts';

export interface NewShop {
  readonly name: string;
  /** The shop's first currency (default EUR, precision 2). */
  readonly currency?: string | undefined;
  /** The owner's email: they get a membership and a personal token. Without it, an owner API token. */
  readonly ownerEmail?: string | undefined;
  readonly mainLanguage?: string | undefined;
}

export interface CreatedShop {
  readonly tenantId: string;
  readonly userId: string | null;
  /** The owner's token, shown this once. */
  readonly token: string;
}

export interface ShopView {
  readonly id: string;
  readonly name: string;
  readonly stage: 'live' | 'sandbox';
  readonly sourceTenantId: string | null;
  readonly mainLanguage: string;
  readonly createdAt: string;
}

export function shopView(row: TenantRow): ShopView {
  return {
    id: row.id,
    name: row.name,
    stage: row.stage,
    sourceTenantId: row.sourceTenantId,
    mainLanguage: row.mainLanguage,
    createdAt: iso(row.createdAt),
  };
}

const system: Actor = { kind: 'system', process: 'provisioning' };

const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
};
const CURRENCIES: Record<string, { precision: number; symbol: string }> = {
  EUR: { precision: 2, symbol: '€' },
  USD: { precision: 2, symbol: '$' },
  GBP: { precision: 2, symbol: '£' },
  CHF: { precision: 2, symbol: 'CHF' },
  JPY: { precision: 0, symbol: '¥' },
};

/** A new shop's basis: its main language and its first currency, so prices can be set at once. */
async function seedBasis(
  tx: Executor,
  services: Services,
  tenantId: string,
  language: string,
  currency: string,
) {
  const at = services.clock.now();
  await saveBasis(
    tx,
    'languages',
    tenantId,
    language,
    0,
    { code: language, name: LANGUAGE_NAMES[language] ?? language, active: true },
    at,
  );
  const known = CURRENCIES[currency] ?? { precision: 2, symbol: currency };
  await saveBasis(tx, 'currencies', tenantId, currency, 0, { code: currency, ...known, active: true }, at);
}

/** Finds the user with this email, creating them if needed. */
async function userFor(tx: Executor, services: Services, email: string): Promise<string> {
  const existing = await findUserByEmail(tx, email);
  return existing ? existing.id : (await insertUser(tx, { id: services.ids.next(), email })).id;
}

/** Grants ownership of a new shop and issues the owner's token. */
async function admitOwner(
  tx: Executor,
  services: Services,
  tenantId: string,
  owner: { email?: string | undefined; userId?: string | null | undefined },
): Promise<{ userId: string | null; token: string }> {
  const userId = owner.userId ?? (owner.email ? await userFor(tx, services, owner.email) : null);
  if (userId) await upsertMembership(tx, { tenantId, userId, role: 'owner' });
  const issued: Result<{ token: string }> = await createToken(tx, services, tenantId, system, {
    name: 'owner',
    kind: userId ? 'personal' : 'api',
    userId: userId ?? undefined,
    role: userId ? undefined : 'owner',
  });
  if (!issued.ok) throw new Error(`owner token could not be issued: ${issued.detail}`);
  return { userId, token: issued.value.token };
}

/**
 * Creates a shop with its owner and the starter configuration in the caller's transaction.
 * Signup uses this same routine before any customer exists.
 */
export async function insertShop(tx: Executor, services: Services, input: NewShop): Promise<CreatedShop> {
  const tenant = await insertTenant(tx, {
    id: services.ids.next(),
    name: input.name,
    mainLanguage: input.mainLanguage ?? 'en',
    createdAt: services.clock.now(),
  });
  const owner = await admitOwner(tx, services, tenant.id, { email: input.ownerEmail });
  await seedBasis(tx, services, tenant.id, tenant.mainLanguage, input.currency ?? 'EUR');
  const starters = await provisionStarters(tx, services, tenant.id);
  await recordEvent(tx, services, tenant.id, system, 'shop.created', {
    tenantId: tenant.id,
    stage: 'live',
    starters,
  });
  return { tenantId: tenant.id, userId: owner.userId, token: owner.token };
}

export function createShop(services: Services, input: NewShop): Promise<CreatedShop> {
  return services.database.transaction((tx) => insertShop(tx, services, input));
}

/**
 * Creates the demo shop when the database holds no shop at all (first start), so a new user can
 * call the API and buy at once: it sells to Germany in EUR with demo products in stock
 * (`makeDemoShopSellable`). Serialised by a transaction lock: concurrent first starts make one.
 * `onCreating` is called once the shop is known to be needed, before it is written.
 */
export async function createDemoShopIfEmpty(
  services: Services,
  options: { readonly onCreating?: () => void } = {},
): Promise<CreatedShop | null> {
  return services.database.transaction(async (tx) => {
    await lockTransaction(tx, 'cartwright:first-start');
    if ((await countTenants(tx)) > 0) return null;
    options.onCreating?.();
    const shop = await insertShop(tx, services, { name: 'Demo shop', ownerEmail: 'owner@demo.invalid' });
    await makeDemoShopSellable(tx, services, shop.tenantId);
    return shop;
  });
}

/**
 * Creates a private sandbox of a shop: it copies the shop's current basis, definitions, channels
 * and starter tombstones (ids kept, so references inside definitions stay valid) instead of reseeding.
 */
export async function createSandbox(
  services: Services,
  sourceTenantId: string,
  input: { name: string; ownerUserId: string | null; actor: Actor },
): Promise<CreatedShop & { shop: ShopView }> {
  return services.database.transaction(async (tx) => {
    const source = await findTenant(tx, sourceTenantId);
    if (!source) throw new Error(`no shop ${sourceTenantId}`);
    const tenant = await insertTenant(tx, {
      id: services.ids.next(),
      name: input.name,
      stage: 'sandbox',
      sourceTenantId,
      mainLanguage: source.mainLanguage,
      createdAt: services.clock.now(),
    });
    const now = services.clock.now();
    for (const row of await listDefinitions(tx, sourceTenantId)) {
      await insertDefinition(tx, { ...row, tenantId: tenant.id, createdAt: now, updatedAt: now });
    }
    for (const row of await listChannels(tx, sourceTenantId)) {
      // A sandbox channel gets its own key: a copied key would name the source shop.
      await insertChannel(tx, {
        ...row,
        tenantId: tenant.id,
        accessKey: issueChannelKey(tenant.id),
        createdAt: now,
        updatedAt: now,
      });
    }
    for (const area of Object.keys(basisTables) as BasisArea[]) {
      for (const row of await listBasis(tx, area, sourceTenantId)) {
        const { tenantId: _, revision: __, createdAt: ___, updatedAt: ____, ...fields } = row;
        const key = 'code' in fields ? fields.code : fields.id;
        await saveBasis(tx, area, tenant.id, key, 0, fields as BasisFields<typeof area>, now);
      }
    }
    for (const row of await listStarterProvisions(tx, sourceTenantId)) {
      await recordStarterProvision(tx, tenant.id, row.key, row.definitionId);
    }
    const owner = await admitOwner(tx, services, tenant.id, { userId: input.ownerUserId });
    await recordEvent(tx, services, tenant.id, input.actor, 'shop.created', {
      tenantId: tenant.id,
      stage: 'sandbox',
      sourceTenantId,
    });
    return { tenantId: tenant.id, userId: owner.userId, token: owner.token, shop: shopView(tenant) };
  });
}
