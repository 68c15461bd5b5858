import { resolveTranslated } from '@cartwright/commerce';
import { findBasis, findReferences, findTenant, listChannels, type Reference } from '@cartwright/repository';
import * as v from 'valibot';
import { overridesOf, settingsBasis, storedSettings } from '../channels/settings.ts';
import { fail, ok } from '../kernel/errors.ts';
import { type AnyOperation, defineOperation } from '../kernel/registry.ts';
import { recordView } from '../kernel/revision-bound.ts';
import { LanguageCode, Uuid } from '../kernel/schemas.ts';
import { languageParameter, refuseDisabledLanguages } from './languages.ts';

// Shipping and payment methods as the channel settings see them: what references a method, so a
// referenced one is never deleted (issue 6).

const AREA_TABLE = { shipping: 'shippingMethods', payments: 'paymentMethods' } as const;
const NOUN = { shipping: 'shipping method', payments: 'payment method' } as const;

const REFERENCE_KINDS = [
  'rule',
  'flow',
  'promotion',
  'channel',
  'product',
  'shipping_method',
  'tax_rule',
  'order',
  'cart',
  'promotion_redemption',
] as const satisfies readonly Reference['kind'][];

const MethodReference = v.object({
  kind: v.picklist(REFERENCE_KINDS),
  id: v.string(),
  key: v.optional(v.nullable(v.string())),
});

/**
 * The same search the basis delete runs (`findReferences`), so `deletable: false` here means
 * `DELETE /api/basis/{shipping|payment}-methods/{id}` answers 409 REFERENCED with this very list.
 */
export const listMethodDependencies = defineOperation({
  name: 'merchant.commerce.dependencies',
  summary:
    'What references a shipping or payment method and so blocks its deletion: orders, open carts, channel overrides, rules, flows and promotions naming its id.',
  http: { method: 'GET', path: '/api/merchant/commerce/methods/:area/:methodId/dependencies' },
  permission: 'settings.read',
  readOnly: true,
  input: v.strictObject({ area: v.picklist(['shipping', 'payments']), methodId: Uuid }),
  output: v.object({
    area: v.picklist(['shipping', 'payments']),
    methodId: Uuid,
    references: v.array(MethodReference),
    deletable: v.boolean(),
  }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    // Looked up in the caller's shop only: another shop's method id is as unknown as a made-up one.
    const method = await findBasis(db, AREA_TABLE[input.area], tenantId, input.methodId);
    if (!method) return fail('NOT_FOUND', `No ${NOUN[input.area]} ${input.methodId} exists in this shop.`);
    const references = await findReferences(db, tenantId, input.methodId);
    return ok({
      area: input.area,
      methodId: input.methodId,
      references: references.map(({ kind, id, key }) =>
        key === undefined ? { kind, id } : { kind, id, key },
      ),
      deletable: references.length === 0,
    });
  },
});

/**
 * One method in a content language, with every channel's view of it: whether the channel offers
 * it (its effective `active`) and whether that comes from the shared basis or the channel's own
 * override, so a merchant sees which channels inherit a change before making it.
 */
export const getMethod = defineOperation({
  name: 'merchant.commerce.method',
  summary:
    'A shipping or payment method in one content language, and per channel whether it is offered and whether that is inherited or overridden.',
  http: { method: 'GET', path: '/api/merchant/commerce/methods/:area/:methodId' },
  permission: 'settings.read',
  readOnly: true,
  input: v.strictObject({
    area: v.picklist(['shipping', 'payments']),
    methodId: Uuid,
    language: v.optional(LanguageCode),
  }),
  output: v.object({
    area: v.picklist(['shipping', 'payments']),
    method: v.record(v.string(), v.unknown()),
    language: v.string(),
    name: v.nullable(v.string()),
    description: v.nullable(v.string()),
    channels: v.array(
      v.object({
        id: Uuid,
        key: v.nullable(v.string()),
        isMain: v.boolean(),
        active: v.boolean(),
        provenance: v.picklist(['inherited', 'overridden']),
      }),
    ),
  }),
  async handler({ services, tenantId }, input) {
    const db = services.database.db;
    const method = await findBasis(db, AREA_TABLE[input.area], tenantId, input.methodId);
    if (!method) return fail('NOT_FOUND', `No ${NOUN[input.area]} ${input.methodId} exists in this shop.`);
    const refused = await refuseDisabledLanguages(db, { tenantId }, languageParameter(input.language));
    if (refused) return refused;
    const mainLanguage = (await findTenant(db, tenantId))?.mainLanguage ?? 'en';
    const language = input.language ?? mainLanguage;
    const text = (field: string) =>
      resolveTranslated(method.translations, field, language, mainLanguage)?.value ?? null;
    const basis = await settingsBasis(db, tenantId);
    const area = AREA_TABLE[input.area];
    const channels = (await listChannels(db, tenantId)).map((channel) => {
      const { effective, provenance } = storedSettings(basis, overridesOf(channel));
      const entry = (effective[area] as Record<string, { active?: boolean }> | undefined)?.[input.methodId];
      const pointer = `/${area}/${input.methodId}/active`;
      return {
        id: channel.id,
        key: channel.key,
        isMain: channel.isMain,
        active: entry?.active === true,
        provenance:
          provenance[pointer] === 'inherited' && provenance[`/${area}/${input.methodId}`] !== 'removed'
            ? ('inherited' as const)
            : ('overridden' as const),
      };
    });
    return ok({
      area: input.area,
      method: recordView(method),
      language,
      name: text('name'),
      description: text('description'),
      channels,
    });
  },
});

export const commerceMethodOperations: readonly AnyOperation[] = [getMethod, listMethodDependencies];
