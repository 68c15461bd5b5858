/**
 * The inheritance structure of a settings document. It says how an override at each position
 * combines with the basis; it does not type the values (the service's schemas do that).
 */
export type Shape = LeafShape | BasisOnlyShape | RecordShape | MapShape | CollectionShape;

/** Replaced whole: scalars, and also arrays and objects that only make sense complete (an address). */
export interface LeafShape {
  readonly kind: 'leaf';
}

/** Shared by every channel (language, country, tax class definitions); any override is an error. */
export interface BasisOnlyShape {
  readonly kind: 'basisOnly';
}

/** Fixed named fields, each inherited on its own. `null` overrides the whole record with null. */
export interface RecordShape {
  readonly kind: 'record';
  readonly fields: Readonly<Record<string, Shape>>;
}

/** Open keys (language or country codes), each inherited on its own; `null` at a key is a null value. */
export interface MapShape {
  readonly kind: 'map';
  readonly values: Shape;
}

/**
 * Entries keyed by stable id (never array positions, which shift when the basis changes). An entry
 * override object overrides field by field, `null` removes the entry for the channel. `additions`
 * says whether a channel may add ids the basis does not have.
 */
export interface CollectionShape {
  readonly kind: 'collection';
  readonly entry: RecordShape;
  readonly additions: boolean;
}

/** A value replaced whole. */
export const leaf: LeafShape = Object.freeze({ kind: 'leaf' });

/** A value only the shared basis may set. */
export const basisOnly: BasisOnlyShape = Object.freeze({ kind: 'basisOnly' });

/** A record with field-level inheritance. */
export function record(fields: Readonly<Record<string, Shape>>): RecordShape {
  return Object.freeze({ kind: 'record', fields: Object.freeze({ ...fields }) });
}

/** A map with key-level inheritance; every key's value has the shape `values`. */
export function mapOf(values: Shape): MapShape {
  return Object.freeze({ kind: 'map', values });
}

/** A collection of entries keyed by stable id. */
export function collectionOf(entry: RecordShape, options: { readonly additions: boolean }): CollectionShape {
  return Object.freeze({ kind: 'collection', entry, additions: options.additions });
}

/** True for the shapes whose overrides are objects merged key by key with the basis. */
export function isContainer(shape: Shape | undefined): shape is RecordShape | MapShape | CollectionShape {
  return shape?.kind === 'record' || shape?.kind === 'map' || shape?.kind === 'collection';
}

/**
 * The shape at `key` below a container; `undefined` for a field the record does not know (and
 * below leaves), which callers treat as an opaque value.
 */
export function childShape(shape: Shape | undefined, key: string): Shape | undefined {
  switch (shape?.kind) {
    case 'record':
      return Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    case 'map':
      return shape.values;
    case 'collection':
      return shape.entry;
    default:
      return undefined;
  }
}
