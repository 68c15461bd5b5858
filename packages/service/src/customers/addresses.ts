import { type AddressJson, type Executor, findBasis, listBasis } from '@cartwright/repository';
import * as v from 'valibot';
import { type Failure, fail } from '../kernel/errors.ts';

const Line = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200));
const OptionalLine = v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(200))), null);

/** A postal address (`AddressJson`): on customers, and copied into carts and orders. */
export const Address = v.object({
  salutation: OptionalLine,
  firstName: Line,
  lastName: Line,
  company: OptionalLine,
  street: Line,
  additionalLine: OptionalLine,
  zipcode: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(32)),
  city: Line,
  country: v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'expected an ISO 3166-1 alpha-2 code such as DE')),
  subdivision: v.optional(
    v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, 'expected ISO 3166-2 such as DE-BY'))),
    null,
  ),
  phone: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(64))), null),
});
export type Address = v.InferOutput<typeof Address>;

/**
 * Checks an address against the shop's basis: its country must be set up (and, for storefront
 * callers, active), and a subdivision must be one of that country's. `pointer` names the address.
 */
export async function checkAddress(
  tx: Executor,
  tenantId: string,
  address: AddressJson,
  pointer: string,
  options: { readonly requireActive: boolean },
): Promise<Failure | null> {
  const country = await findBasis(tx, 'countries', tenantId, address.country);
  if (!country || (options.requireActive && !country.active)) {
    const none = !country && (await listBasis(tx, 'countries', tenantId)).length === 0;
    const message = none
      ? 'this shop has no countries set up: add them first (basis.countries.save, PUT /api/basis/countries/{code})'
      : `the country ${address.country} is not ${country ? 'available' : 'set up'} in this shop`;
    return fail('VALIDATION_FAILED', `The address names a country this shop cannot use.`, {
      errors: [{ pointer: `${pointer}/country`, message }],
    });
  }
  if (address.subdivision && !country.subdivisions.some((known) => known.code === address.subdivision)) {
    return fail('VALIDATION_FAILED', `The subdivision is not one of ${address.country}.`, {
      errors: [
        {
          pointer: `${pointer}/subdivision`,
          message: `${address.subdivision} is not a subdivision of ${address.country}`,
        },
      ],
    });
  }
  return null;
}
