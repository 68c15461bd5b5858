import { matchTaxDestinationRule, type TaxDestination, type TaxDestinationRule } from '@cartwright/commerce';
import { type AddressJson, type Executor, findChannel, type ProductRow } from '@cartwright/repository';
import type { JsonObject } from '@cartwright/settings-inheritance';
import { channelAssortment, showsProduct } from '../catalog/channel-assortment.ts';
import { effectiveSettings } from '../channels/settings.ts';

// What a cart's pricing reads of its channel: the channel's effective settings (the shared basis
// with the channel's overrides), so a channel's tax rates, tax destination rules and shipping
// method prices and availability apply at its checkout (decision 0023).

export interface EffectiveShippingMethod {
  readonly active: boolean;
  /** Per currency, in minor units. */
  readonly prices: readonly { readonly currency: string; readonly gross: number; readonly net: number }[];
  readonly taxClassId: string | null;
  /** The installed app whose `shipping.rate` prices the method instead of `prices` (shared basis only). */
  readonly appId?: string | null;
}

export interface ChannelPricing {
  /** The effective settings the cart was priced under (an order keeps them as its snapshot). */
  readonly effective: JsonObject;
  /** The saved rules that destination rules depend on (their conditions decide per cart). */
  readonly conditionRuleIds: readonly string[];
  /**
   * The rate of a tax class for a destination at an instant: the highest-priority matching tax
   * destination rule (its saved condition among `matchingRuleIds`), else the class's rate for the
   * destination country, else its default rate. Null for an unknown class.
   */
  rateOf(
    taxClassId: string | null,
    destination: TaxDestination | null,
    at: string,
    matchingRuleIds: ReadonlySet<string>,
  ): number | null;
  /** A shipping method as the channel offers it, or null when the shop has none of that id. */
  shippingMethod(id: string): EffectiveShippingMethod | null;
  /** Whether the channel sells an (effective) product: it lies in the channel's catalog (decision 0030). */
  sells(product: ProductRow): boolean;
}

type Rates = Readonly<Record<string, number | null>>;

/** The tax destination of an address: its country, subdivision and postcode. */
export function destinationOf(address: AddressJson | null): TaxDestination | null {
  return address
    ? { country: address.country, state: address.subdivision ?? null, postcode: address.zipcode }
    : null;
}

/** Loads the channel's effective settings once for a pricing pass. */
export async function channelPricing(
  tx: Executor,
  tenantId: string,
  channelId: string,
): Promise<ChannelPricing> {
  const channel = await findChannel(tx, tenantId, channelId);
  if (!channel) throw new Error(`cart channel ${channelId} does not exist`);
  const { effective } = await effectiveSettings(tx, tenantId, channel);
  const assortment = await channelAssortment(tx, tenantId, channelId);
  const taxRates = (effective.taxRates ?? {}) as unknown as Readonly<Record<string, { rates?: Rates }>>;
  const rules: TaxDestinationRule[] = Object.entries(
    (effective.taxRules ?? {}) as unknown as Record<string, Omit<TaxDestinationRule, 'id'>>,
  ).map(([id, rule]) => ({ ...rule, id }));
  const methods = (effective.shippingMethods ?? {}) as unknown as Readonly<
    Record<string, EffectiveShippingMethod>
  >;
  return {
    effective,
    conditionRuleIds: [...new Set(rules.flatMap((rule) => (rule.ruleId ? [rule.ruleId] : [])))],
    rateOf(taxClassId, destination, at, matchingRuleIds) {
      if (!taxClassId) return null;
      const rates = taxRates[taxClassId]?.rates;
      if (!rates) return null;
      if (destination) {
        const rule = matchTaxDestinationRule(rules, destination, { at, taxClassId, matchingRuleIds });
        if (rule) return rule.rate;
      }
      const own = destination ? rates[destination.country] : undefined;
      if (typeof own === 'number') return own;
      return typeof rates.default === 'number' ? rates.default : null;
    },
    shippingMethod(id) {
      return Object.hasOwn(methods, id) ? (methods[id] ?? null) : null;
    },
    sells: (product) => showsProduct(assortment, product),
  };
}
