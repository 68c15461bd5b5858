/** Interface languages every catalog label ships in. */
export const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export type Labels = Readonly<Record<Language, string>>;

/**
 * The fact scope a condition needs, normalised from the reference's `scopes` field:
 * `LineItemScope` → `lineItem`, `CartRuleScope …` → `cart`, `CheckoutRuleScope` → `checkout`,
 * `FlowRuleScope` → `order` (admin scope `order`) or `flow` (admin scope `flow`),
 * `any (RuleScope)` → `any`. A condition listing several scopes accepts any of them.
 */
export type ConditionScope = 'cart' | 'lineItem' | 'checkout' | 'order' | 'flow' | 'any';

export type ConditionGroup = 'item' | 'cart' | 'customer' | 'order' | 'general' | 'promotion';

export type Operator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'empty' | 'between';

/**
 * Normalised parameter type. `rules` parameters are child conditions carried by the tree node,
 * never by `value`; `json` is any non-null JSON value (custom field values).
 */
export type ParamType =
  | 'string'
  | 'int'
  | 'float'
  | 'bool'
  | 'uuid'
  | 'uuid[]'
  | 'string[]'
  | 'date'
  | 'datetime'
  | 'dateOrRange'
  | 'datetimeOrRange'
  | 'time'
  | 'weekday'
  | 'object'
  | 'json'
  | 'rules';

/**
 * What an id parameter names in the shop, so an editor can offer the shop's own choices: its
 * categories, tax classes, payment and shipping methods, sales channels (UUIDs), countries, their
 * regions (ISO 3166-2 codes), currencies and languages (ISO codes), the two native customer groups.
 */
export const PARAM_REFERENCE_KINDS = [
  'category',
  'taxClass',
  'paymentMethod',
  'shippingMethod',
  'salesChannel',
  'country',
  'countryState',
  'currency',
  'language',
  'customerGroup',
] as const;
export type ParamReference = (typeof PARAM_REFERENCE_KINDS)[number];

export interface ConditionParam {
  readonly name: string;
  readonly type: ParamType;
  /** The reference's own type text, kept so the catalog can be checked against it. */
  readonly sourceType: string;
  /** `unlessEmpty`: required except when `operator` is `empty`. */
  readonly required: boolean | 'unlessEmpty';
  readonly choices?: readonly string[];
  /** What the parameter is called in the interface languages. */
  readonly labels: Labels;
  /** For an id parameter naming something of the shop: what it names. */
  readonly references?: ParamReference;
}

export interface ConditionDefinition {
  readonly name: string;
  readonly group: ConditionGroup | null;
  readonly scopes: readonly ConditionScope[];
  readonly isContainer: boolean;
  readonly params: readonly ConditionParam[];
  readonly operators: readonly Operator[];
  readonly productLineItemsOnly: boolean;
  /** No condition has been proven equivalent to the reference yet. */
  readonly behavioralParity: false;
  readonly enabled: boolean;
  readonly disabledReason?: string;
  readonly labels: Labels;
}

export type ActionArea = 'customers' | 'orders' | 'documents' | 'apps' | 'catalog' | 'knowledge';

/**
 * How an editor asks for a config key: one line of text, several lines, a whole number, yes/no, one
 * of `choices`, a reference to something of the shop (`references` names what), a list of texts
 * (one per line), or JSON for a genuinely free-form value.
 */
export type ConfigInput =
  | 'string'
  | 'text'
  | 'integer'
  | 'boolean'
  | 'choice'
  | 'reference'
  | 'list'
  | 'json';

/** What a `reference` config key names: an installed app, or an action of the app the config names. */
export type ConfigReference = 'app' | 'appAction';

export interface ActionConfigKey {
  readonly name: string;
  /** The value's shape in words, as the API documents it. */
  readonly type: string;
  readonly required: boolean;
  readonly input: ConfigInput;
  readonly references?: ConfigReference;
  readonly labels: Labels;
  /** Another accepted name for the same key, e.g. the reference's `tagIds` for `tags`. */
  readonly alias?: string;
  readonly choices?: readonly string[];
}

export interface ActionDefinition {
  readonly name: string;
  /** `reference`: one of the 16 source action names; `native`: Cartwright's own. */
  readonly origin: 'reference' | 'native';
  /** Config keys Cartwright reads. */
  readonly configKeys: readonly ActionConfigKey[];
  /** Config key names the reference reads (empty for native actions). */
  readonly sourceConfigKeys: readonly string[];
  /** Area permission the actor needs in addition to `settings.write`; `null` for stop, which touches no domain. */
  readonly area: ActionArea | null;
  readonly labels: Labels;
}
