import { randomBytes } from 'node:crypto';
import {
  type Executor,
  findCustomer,
  findStoreContextByTokenHash,
  findTenant,
  insertStoreContext,
  listBasis,
  revokeStoreContextsOfCustomer,
  type StoreContextRow,
} from '@cartwright/repository';
import type { Storefront } from '../kernel/auth.ts';
import { hashToken } from '../kernel/auth.ts';
import { type Failure, fail } from '../kernel/errors.ts';
import type { Services } from '../kernel/services.ts';
import { enabledLanguages } from '../settings/languages.ts';

// A storefront visitor's context: named by an opaque token (32 random bytes, base64url) of which
// only the SHA-256 is stored, bound to one shop and channel, optionally to a logged-in customer.

const CONTEXT_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const CONTEXT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface OpenedStoreContext {
  /** Shown to the visitor once; only its hash is stored. */
  readonly token: string;
  readonly context: StoreContextRow;
}

/**
 * The language and currency a new context starts with: the shop's main language if the channel
 * has it, else the channel's first language (decision 0029); the shop's first currency.
 */
async function contextDefaults(
  tx: Executor,
  storefront: Pick<Storefront, 'tenantId' | 'channelId'>,
): Promise<{ language: string | null; currency: string | null }> {
  const { tenantId, channelId } = storefront;
  const tenant = await findTenant(tx, tenantId);
  const languages = await enabledLanguages(tx, tenantId, channelId);
  const main = tenant?.mainLanguage ?? null;
  const [first] = (await listBasis(tx, 'currencies', tenantId))
    .filter((currency) => currency.active)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.code.localeCompare(b.code));
  const language = main !== null && languages.includes(main) ? main : (languages[0] ?? main);
  return { language, currency: first?.code ?? null };
}

/**
 * Issues a new context for a visitor of the storefront's channel, valid for 30 days. `from` (a
 * context being replaced at login) passes its language and currency on.
 */
export async function openStoreContext(
  tx: Executor,
  services: Services,
  storefront: Pick<Storefront, 'tenantId' | 'channelId'>,
  options: { readonly customerId?: string | null; readonly from?: StoreContextRow | null } = {},
): Promise<OpenedStoreContext> {
  const token = randomBytes(32).toString('base64url');
  const now = services.clock.now();
  const locale = options.from
    ? { language: options.from.language, currency: options.from.currency }
    : await contextDefaults(tx, storefront);
  const context = await insertStoreContext(tx, {
    tenantId: storefront.tenantId,
    id: services.ids.next(),
    tokenHash: hashToken(token),
    channelId: storefront.channelId,
    customerId: options.customerId ?? null,
    ...locale,
    expiresAt: new Date(now.getTime() + CONTEXT_LIFETIME_MS),
    createdAt: now,
    updatedAt: now,
  });
  return { token, context };
}

/**
 * The live context named by the storefront's context token: it must belong to this shop and
 * channel, be neither revoked nor expired, and its customer (if any) must still be active.
 * Anything else answers null.
 */
export async function resolveStoreContext(
  db: Executor,
  services: Services,
  storefront: Storefront,
): Promise<StoreContextRow | null> {
  const context = await resolveShopContext(db, services, storefront.tenantId, storefront.contextToken);
  return context && context.channelId === storefront.channelId ? context : null;
}

/** The live context a context token names in this shop, whichever channel it belongs to; else null. */
export async function resolveShopContext(
  db: Executor,
  services: Services,
  tenantId: string,
  token: string | undefined,
): Promise<StoreContextRow | null> {
  if (!token || !CONTEXT_TOKEN.test(token)) return null;
  const context = await findStoreContextByTokenHash(db, tenantId, hashToken(token));
  if (!context || context.revokedAt || context.expiresAt <= services.clock.now()) return null;
  if (context.customerId) {
    const customer = await findCustomer(db, tenantId, context.customerId);
    if (!customer?.active) return null;
  }
  return context;
}

/** Ends every session of the customer at once (their contexts, and with them their carts' authority). */
export function revokeCustomerContexts(
  tx: Executor,
  tenantId: string,
  customerId: string,
  at: Date,
): Promise<number> {
  return revokeStoreContextsOfCustomer(tx, tenantId, customerId, at);
}

/** The refusal of a cart or checkout call that names no valid visitor context. */
export function contextRequired(): Failure {
  return fail(
    'UNAUTHENTICATED',
    'A valid x-context-token is required: create one with POST /store-api/context.',
  );
}
