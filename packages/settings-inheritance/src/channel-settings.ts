import { basisOnly, collectionOf, leaf, mapOf, record } from './shape.ts';

/** Texts per content language: language code → field → text. Both levels inherit key by key. */
const TRANSLATIONS = mapOf(mapOf(leaf));

/**
 * Cartwright's channel settings. Company identity inherits field by field; methods, tax rates and
 * labels are addressed by the basis's stable ids and cannot be invented per channel; only tax
 * destination rules may be added by a channel (a rule is self-contained, whereas a method or class
 * needs prices, stock and documents the basis owns). Languages, countries and tax classes are
 * definitions every channel shares.
 */
export const CHANNEL_SETTINGS_SHAPE = record({
  company: record({
    name: leaf,
    legal: record({
      companyName: leaf,
      legalForm: leaf,
      vatId: leaf,
      taxNumber: leaf,
      registrationNumber: leaf,
      registrationCourt: leaf,
      managingDirectors: leaf,
      legalNotice: leaf,
    }),
    // The address is one value: a street without its city means nothing.
    contact: record({ email: leaf, phone: leaf, website: leaf, address: leaf }),
    bank: record({ bankName: leaf, iban: leaf, bic: leaf }),
    logos: record({ light: leaf, dark: leaf }),
  }),
  deliveryCountries: leaf,
  shippingMethods: collectionOf(
    record({
      active: leaf,
      translations: TRANSLATIONS,
      prices: leaf,
      position: leaf,
      taxClassId: leaf,
      // The app that prices the method is what the method is: a channel offers it or not, as is.
      appId: basisOnly,
    }),
    { additions: false },
  ),
  paymentMethods: collectionOf(record({ active: leaf, translations: TRANSLATIONS, position: leaf }), {
    additions: false,
  }),
  // Keyed by tax class id; `rates` by country code or `default`, in hundredths of a percent.
  taxRates: collectionOf(record({ rates: mapOf(leaf) }), { additions: false }),
  // Keyed by tax class id; the label per content language.
  taxLabels: collectionOf(record({ translations: mapOf(leaf) }), { additions: false }),
  taxRules: collectionOf(
    record({
      country: leaf,
      state: leaf,
      postcode: leaf,
      validFrom: leaf,
      validUntil: leaf,
      priority: leaf,
      ruleId: leaf,
      taxClassId: leaf,
      rate: leaf,
    }),
    { additions: true },
  ),
  languages: basisOnly,
  countries: basisOnly,
  taxClasses: basisOnly,
});
