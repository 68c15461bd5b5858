import type { Result } from '@cartwright/service';
import type { FieldProblem } from '../fields.tsx';
import type { FormBody } from '../kit.ts';

// The customers area's forms (decision 0047): a customer's fields and an address's fields as the
// browser posts them (text entries), the operations' inputs made of them, and an operation's
// refusal pinned to the field its JSON pointer names.

/** A form's entries by field name, as typed (a checkbox is `on` or empty). */
export type Entries = Record<string, string>;

/** A stored address (`Address` of the customer operations). */
export interface AddressRecord {
  readonly salutation: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly company: string | null;
  readonly street: string;
  readonly additionalLine: string | null;
  readonly zipcode: string;
  readonly city: string;
  readonly country: string;
  readonly subdivision: string | null;
  readonly phone: string | null;
}

/** A customer as `customers.get` answers (never a password hash: only `hasPassword`). */
export interface CustomerRecord {
  readonly id: string;
  readonly email: string;
  readonly group: 'consumer' | 'business';
  readonly salutation: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly birthday: string | null;
  readonly company: string | null;
  readonly vatId: string | null;
  readonly tags: readonly string[];
  readonly affiliateCode: string | null;
  readonly campaignCode: string | null;
  readonly active: boolean;
  readonly guest: boolean;
  readonly newsletter: boolean;
  readonly hasPassword: boolean;
  readonly createdByAdmin: boolean;
  readonly lastLoginAt: string | null;
  readonly defaultBillingAddressId: string | null;
  readonly defaultShippingAddressId: string | null;
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly addresses?: readonly { readonly id: string; readonly address: AddressRecord }[];
  readonly history?: {
    readonly orderCount: number;
    readonly totalSpent: Record<string, number>;
    readonly lastOrderAt: string | null;
  };
}

export const GROUPS = ['consumer', 'business'] as const;

/** The customer's text fields in form order; `guest` only when adding, the defaults only when editing. */
export const TEXT_FIELDS = [
  'email',
  'salutation',
  'firstName',
  'lastName',
  'company',
  'vatId',
  'birthday',
  'tags',
  'affiliateCode',
  'campaignCode',
] as const;
export const SWITCHES = ['active', 'newsletter'] as const;
export const DEFAULT_FIELDS = ['defaultBillingAddressId', 'defaultShippingAddressId'] as const;
export const CREATE_FIELDS = [...TEXT_FIELDS, 'group', ...SWITCHES, 'guest', 'password'] as const;
export const UPDATE_FIELDS = [...TEXT_FIELDS, 'group', ...SWITCHES, ...DEFAULT_FIELDS, 'password'] as const;
export const ADDRESS_FIELDS = [
  'salutation',
  'firstName',
  'lastName',
  'company',
  'street',
  'additionalLine',
  'zipcode',
  'city',
  'country',
  'subdivision',
  'phone',
] as const;
const ADDRESS_SWITCHES = ['defaultBilling', 'defaultShipping'] as const;

/** The named fields of a posted form, as text. */
export function entriesFrom(form: FormBody, names: readonly string[]): Entries {
  return Object.fromEntries(names.map((name) => [name, typeof form[name] === 'string' ? form[name] : '']));
}

/** What the add form starts with. */
export const NEW_CUSTOMER: Entries = { group: 'consumer', active: 'on' };

/** A stored customer as the edit form's entries (the password field always starts empty). */
export function entriesOf(customer: CustomerRecord): Entries {
  return {
    email: customer.email,
    salutation: customer.salutation ?? '',
    firstName: customer.firstName,
    lastName: customer.lastName,
    company: customer.company ?? '',
    vatId: customer.vatId ?? '',
    birthday: customer.birthday ?? '',
    tags: customer.tags.join(', '),
    affiliateCode: customer.affiliateCode ?? '',
    campaignCode: customer.campaignCode ?? '',
    group: customer.group,
    active: customer.active ? 'on' : '',
    newsletter: customer.newsletter ? 'on' : '',
    defaultBillingAddressId: customer.defaultBillingAddressId ?? '',
    defaultShippingAddressId: customer.defaultShippingAddressId ?? '',
    password: '',
  };
}

const optional = (text: string | undefined) => (text === undefined || text.trim() === '' ? null : text);

/** Tags typed comma-separated. */
function tagsOf(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** The customer fields both forms share, as the operations take them; the operation validates. */
function fieldsOf(entries: Entries): Record<string, unknown> {
  return {
    email: entries.email ?? '',
    salutation: optional(entries.salutation),
    firstName: entries.firstName ?? '',
    lastName: entries.lastName ?? '',
    company: optional(entries.company),
    vatId: optional(entries.vatId),
    birthday: optional(entries.birthday),
    tags: tagsOf(entries.tags ?? ''),
    affiliateCode: optional(entries.affiliateCode),
    campaignCode: optional(entries.campaignCode),
    group: entries.group ?? '',
    active: entries.active === 'on',
    newsletter: entries.newsletter === 'on',
  };
}

/** `customers.create`'s input from the add form (a password only when one was typed). */
export function createInput(entries: Entries): Record<string, unknown> {
  return {
    ...fieldsOf(entries),
    guest: entries.guest === 'on',
    ...(entries.password ? { password: entries.password } : {}),
  };
}

/**
 * `customers.update`'s changes: only the fields whose value differs from the customer as stored
 * (so an untouched save writes nothing and ends no storefront session), and a new password when one
 * was typed.
 */
export function changesOf(entries: Entries, current: CustomerRecord): Record<string, unknown> {
  const wanted = {
    ...fieldsOf(entries),
    defaultBillingAddressId: optional(entries.defaultBillingAddressId),
    defaultShippingAddressId: optional(entries.defaultShippingAddressId),
  };
  const stored: Record<string, unknown> = {
    ...fieldsOf(entriesOf(current)),
    defaultBillingAddressId: current.defaultBillingAddressId,
    defaultShippingAddressId: current.defaultShippingAddressId,
  };
  const changes = Object.fromEntries(
    Object.entries(wanted).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(stored[name])),
  );
  return entries.password ? { ...changes, password: entries.password } : changes;
}

/** An address form's entries (its fields and the two default picks). */
export function addressEntriesFrom(form: FormBody): Entries {
  return entriesFrom(form, [...ADDRESS_FIELDS, ...ADDRESS_SWITCHES]);
}

export function addressEntriesOf(
  address: AddressRecord,
  picks: { defaultBilling: boolean; defaultShipping: boolean },
): Entries {
  return {
    ...Object.fromEntries(ADDRESS_FIELDS.map((name) => [name, address[name] ?? ''])),
    defaultBilling: picks.defaultBilling ? 'on' : '',
    defaultShipping: picks.defaultShipping ? 'on' : '',
  };
}

/** `customers.addresses.save`'s input (without the ids). */
export function addressInput(entries: Entries): Record<string, unknown> {
  return {
    address: {
      salutation: optional(entries.salutation),
      firstName: entries.firstName ?? '',
      lastName: entries.lastName ?? '',
      company: optional(entries.company),
      street: entries.street ?? '',
      additionalLine: optional(entries.additionalLine),
      zipcode: entries.zipcode ?? '',
      city: entries.city ?? '',
      country: (entries.country ?? '').trim().toUpperCase(),
      subdivision: optional(entries.subdivision?.trim().toUpperCase()),
      phone: optional(entries.phone),
    },
    defaultBilling: entries.defaultBilling === 'on',
    defaultShipping: entries.defaultShipping === 'on',
  };
}

type Failure = Extract<Result<unknown>, { ok: false }>;

/**
 * An operation's refusal as problems pinned to the form's fields: `/firstName` (or
 * `/address/street` with `prefix` `/address`) names a field of `fields`; what names none is the
 * form's, with the refusal's detail first.
 */
export function problemsOf(
  failure: Failure,
  fields: readonly string[],
  refused: string,
  prefix = '',
): FieldProblem[] {
  const pinned = (failure.errors ?? []).map((error) => {
    const rest = error.pointer.startsWith(`${prefix}/`) ? error.pointer.slice(prefix.length + 1) : '';
    const field = rest.split('/')[0] ?? '';
    return fields.includes(field)
      ? { field, text: error.message }
      : { field: null, text: `${error.pointer || '/'}: ${error.message}` };
  });
  return pinned.some((problem) => problem.field !== null)
    ? pinned
    : [{ field: null, text: refused }, ...pinned];
}
