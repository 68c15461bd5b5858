import * as v from 'valibot';
import { SHIPPING_CONTRACT } from '../contracts.ts';
import { appDraft, defineAssistant, question } from './definition.ts';
import { type ActionDraft, actionTexts } from './entity-app.ts';
import { contractFields } from './fields.ts';
import type { ActionText } from './labels.ts';
import { appIdQuestion, choicesOf, methodLabelQuestion, nameQuestion } from './questions.ts';

/** The largest amount answered, in minor units (ten million in a currency with two decimals). */
export const SHIPPING_AMOUNT_MAX = 1_000_000_000;

const amount = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SHIPPING_AMOUNT_MAX));

/** What the generated module computes a rate from; amounts in minor units. */
export interface FlatRate {
  readonly base: number;
  readonly perItem: number;
  /** The subtotal from which shipping is free; null for never. */
  readonly freeFrom: number | null;
  /** A whole percent included in the gross. */
  readonly taxRatePercent: number;
}

function literal(value: number): string {
  // The answers were checked as integers; anything else here would be code, not a number.
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return String(value);
}

/**
 * The module that computes a flat rate: gross = 0 from `freeFrom`, else base + perItem × quantity;
 * net = round(gross × 100 / (100 + rate)). The numbers are literals, so the source is the same
 * for the same answers and runs without input but the cart's.
 */
export function flatRateModule(rate: FlatRate): string {
  return [
    '// The shipping rate, written by the shipping assistant. Amounts are minor units of the',
    '// currency of the cart; the gross includes the tax.',
    `const BASE = ${literal(rate.base)};`,
    `const PER_ITEM = ${literal(rate.perItem)};`,
    `const FREE_FROM = ${rate.freeFrom === null ? 'null' : literal(rate.freeFrom)};`,
    `const TAX_RATE_PERCENT = ${literal(rate.taxRatePercent)};`,
    '',
    '/** Gross and net shipping of a cart: free from FREE_FROM, else BASE plus PER_ITEM per unit. */',
    'export function rate(input) {',
    '  const isFree = FREE_FROM !== null && input.subtotal >= FREE_FROM;',
    '  const gross = isFree ? 0 : BASE + PER_ITEM * input.quantity;',
    '  return { gross, net: Math.round((gross * 100) / (100 + TAX_RATE_PERCENT)) };',
    '}',
    '',
  ].join('\n');
}

const RATE_TEXT: ActionText = {
  label: { en: 'Shipping rate', de: 'Versandkosten', es: 'Tarifa de envío', fr: 'Frais de livraison' },
  description: {
    en: 'Computes the gross and net shipping of a cart in minor units of its currency.',
    de: 'Berechnet die Brutto- und Netto-Versandkosten eines Warenkorbs in der kleinsten Einheit seiner Währung.',
    es: 'Calcula el envío bruto y neto de un carrito en unidades menores de su moneda.',
    fr: 'Calcule les frais de livraison bruts et nets d’un panier en unités mineures de sa devise.',
  },
};

const MODULE_ONLY = {
  en: 'Module only.',
  de: 'Nur für module.',
  es: 'Solo para module.',
  fr: 'Module seulement.',
};

/** Answers only the module runtime reads: an external service computes its own rate. */
const MODULE_ANSWERS = ['base', 'per_item', 'free_from', 'tax_rate_percent'] as const;

const runtimes = choicesOf({
  module: {
    en: 'Module (in the shop)',
    de: 'Modul (im Shop)',
    es: 'Módulo (en la tienda)',
    fr: 'Module (dans la boutique)',
  },
  external: {
    en: 'The app’s service',
    de: 'Dienst der App',
    es: 'Servicio de la app',
    fr: 'Service de l’application',
  },
});

/** A shipping method whose rate the app computes: a flat rate in a module, or its own service. */
export const shipping = defineAssistant({
  id: 'shipping',
  title: { en: 'Shipping rate', de: 'Versandkosten', es: 'Tarifa de envío', fr: 'Frais de livraison' },
  description: {
    en: 'A shipping method whose rate the app computes: a base rate plus a rate per item, free from a subtotal, in a sandboxed module; or the app’s own service computes it.',
    de: 'Eine Versandart, deren Kosten die App berechnet: ein Grundbetrag plus ein Betrag je Artikel, ab einer Zwischensumme kostenlos, in einem isolierten Modul; oder der eigene Dienst der App berechnet sie.',
    es: 'Un método de envío cuya tarifa calcula la app: una tarifa base más una por artículo, gratis a partir de un subtotal, en un módulo aislado; o la calcula el servicio propio de la app.',
    fr: 'Un mode de livraison dont l’application calcule les frais : un forfait plus un montant par article, gratuit à partir d’un sous-total, dans un module isolé ; ou le service propre de l’application les calcule.',
  },
  questions: {
    app_id: appIdQuestion,
    name: nameQuestion,
    method_label: methodLabelQuestion(
      {
        en: 'Shipping method name',
        de: 'Name der Versandart',
        es: 'Nombre del método de envío',
        fr: 'Nom du mode de livraison',
      },
      {
        en: 'What buyers see when they choose shipping, 1-100 characters.',
        de: 'Was Käufer bei der Wahl des Versands sehen, 1–100 Zeichen.',
        es: 'Lo que ven los compradores al elegir el envío, de 1 a 100 caracteres.',
        fr: 'Ce que voient les acheteurs en choisissant la livraison, de 1 à 100 caractères.',
      },
    ),
    runtime: question({
      type: 'choice',
      schema: v.optional(v.picklist(runtimes.values), 'module'),
      label: { en: 'Computed by', de: 'Berechnet von', es: 'Calculado por', fr: 'Calculé par' },
      help: {
        en: 'module: the rate from the amounts below, computed in the shop’s sandbox. external: the app’s own service computes it (configured by the operator); leave the amounts out.',
        de: 'module: die Kosten aus den Beträgen unten, berechnet in der Sandbox des Shops. external: der eigene Dienst der App berechnet sie (vom Betreiber eingerichtet); die Beträge entfallen.',
        es: 'module: la tarifa según los importes de abajo, calculada en el sandbox de la tienda. external: la calcula el servicio propio de la app (configurado por el operador); omite los importes.',
        fr: 'module : les frais selon les montants ci-dessous, calculés dans le bac à sable de la boutique. external : le service propre de l’application les calcule (configuré par l’opérateur) ; omettre les montants.',
      },
      choices: runtimes.choices,
    }),
    base: question({
      type: 'integer',
      schema: v.optional(amount),
      label: { en: 'Base rate', de: 'Grundbetrag', es: 'Tarifa base', fr: 'Forfait de base' },
      help: {
        en: 'Gross shipping per cart in minor units of the cart’s currency (490 is 4.90); required for the module.',
        de: 'Brutto-Versandkosten je Warenkorb in der kleinsten Einheit der Währung des Warenkorbs (490 sind 4,90); für module erforderlich.',
        es: 'Envío bruto por carrito en unidades menores de la moneda del carrito (490 son 4,90); obligatorio para module.',
        fr: 'Frais bruts par panier en unités mineures de la devise du panier (490 font 4,90) ; obligatoire pour module.',
      },
    }),
    per_item: question({
      type: 'integer',
      schema: v.optional(amount, 0),
      label: {
        en: 'Rate per item',
        de: 'Betrag je Artikel',
        es: 'Tarifa por artículo',
        fr: 'Montant par article',
      },
      help: {
        en: `Added for every unit in the cart, in minor units. ${MODULE_ONLY.en}`,
        de: `Wird für jede Einheit im Warenkorb addiert, in der kleinsten Währungseinheit. ${MODULE_ONLY.de}`,
        es: `Se suma por cada unidad del carrito, en unidades menores. ${MODULE_ONLY.es}`,
        fr: `Ajouté pour chaque unité du panier, en unités mineures. ${MODULE_ONLY.fr}`,
      },
    }),
    free_from: question({
      type: 'integer',
      schema: v.optional(amount),
      label: {
        en: 'Free from subtotal',
        de: 'Kostenlos ab Zwischensumme',
        es: 'Gratis a partir del subtotal',
        fr: 'Gratuit à partir du sous-total',
      },
      help: {
        en: `Shipping is free when the lines’ gross subtotal (minor units) reaches this amount; leave it out for never. ${MODULE_ONLY.en}`,
        de: `Der Versand ist kostenlos, sobald die Brutto-Zwischensumme der Positionen (kleinste Einheit) diesen Betrag erreicht; weglassen für nie. ${MODULE_ONLY.de}`,
        es: `El envío es gratis cuando el subtotal bruto de las líneas (unidades menores) alcanza este importe; omítelo para nunca. ${MODULE_ONLY.es}`,
        fr: `La livraison est gratuite quand le sous-total brut des lignes (unités mineures) atteint ce montant ; l’omettre pour jamais. ${MODULE_ONLY.fr}`,
      },
    }),
    tax_rate_percent: question({
      type: 'integer',
      schema: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)), 19),
      label: { en: 'Tax rate (%)', de: 'Steuersatz (%)', es: 'Tipo impositivo (%)', fr: 'Taux de taxe (%)' },
      help: {
        en: `The tax included in the gross, a whole percent from 0 to 100: net = round(gross × 100 / (100 + rate)). ${MODULE_ONLY.en}`,
        de: `Die im Bruttobetrag enthaltene Steuer, ganze Prozent von 0 bis 100: netto = round(brutto × 100 / (100 + Satz)). ${MODULE_ONLY.de}`,
        es: `El impuesto incluido en el bruto, un porcentaje entero de 0 a 100: neto = round(bruto × 100 / (100 + tipo)). ${MODULE_ONLY.es}`,
        fr: `La taxe comprise dans le brut, un pourcentage entier de 0 à 100 : net = round(brut × 100 / (100 + taux)). ${MODULE_ONLY.fr}`,
      },
    }),
  },
  check(answers, report, given) {
    if (answers.runtime === 'module') {
      if (answers.base === undefined)
        report('/base', 'the module computes the rate from a base rate; answer it');
      return;
    }
    for (const key of MODULE_ANSWERS) {
      if (given(key)) {
        report(`/${key}`, 'only the module runtime reads it: the app’s service computes an external rate');
      }
    }
  },
  generate(answers) {
    const common = {
      id: 'rate',
      kind: 'service',
      ...actionTexts(RATE_TEXT),
      mcp: false,
      input: contractFields(SHIPPING_CONTRACT.input),
      output: contractFields(SHIPPING_CONTRACT.output),
    } as const;
    const isModule = answers.runtime === 'module';
    const action: ActionDraft = isModule
      ? { ...common, runtime: 'module', export: 'rate' }
      : { ...common, runtime: 'external' };
    return {
      manifest: appDraft(answers, {
        actions: [action],
        shipping: { label: { en: answers.method_label }, rate: 'rate' },
      }),
      module: isModule
        ? flatRateModule({
            // `check` refused the module runtime without a base rate.
            base: answers.base!,
            perItem: answers.per_item,
            freeFrom: answers.free_from ?? null,
            taxRatePercent: answers.tax_rate_percent,
          })
        : null,
    };
  },
});
