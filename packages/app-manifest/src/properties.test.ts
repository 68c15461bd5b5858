import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fittingValue, manifestArbitrary } from '../test/arbitraries.ts';
import { diffManifests } from './diff.ts';
import { parseManifest } from './parse.ts';
import type { Manifest } from './schema.ts';
import { SECRET_NAME_STEMS } from './secrets.ts';
import { checkRow, checkValue } from './values.ts';

function parsed(input: unknown): Manifest {
  const result = parseManifest(input);
  if (!result.ok) throw new Error(`generated manifest refused: ${JSON.stringify(result.issues)}`);
  return result.value;
}

const withVersion = (manifest: Manifest, version: string): Manifest => ({ ...manifest, version });
const bumpPatch = (version: string) => {
  const [major, minor, patch] = version.split('.').map(Number);
  return `${major}.${minor}.${patch! + 1}`;
};

/** A manifest with at least one entity, and the index of one of its entities. */
const withEntity = manifestArbitrary
  .map(parsed)
  .filter((manifest) => manifest.entities.length > 0)
  .chain((manifest) => fc.tuple(fc.constant(manifest), fc.nat({ max: manifest.entities.length - 1 })));

describe('manifests (properties)', () => {
  it('every generated manifest parses, and parsing its answer changes nothing', () => {
    fc.assert(
      fc.property(manifestArbitrary, (input) => {
        const manifest = parsed(input);
        expect(parseManifest(manifest)).toEqual({ ok: true, value: manifest });
      }),
    );
  });

  it('a manifest is compatible with itself under a higher patch version, and unchanged under the same', () => {
    fc.assert(
      fc.property(manifestArbitrary.map(parsed), (manifest) => {
        const next = withVersion(structuredClone(manifest), bumpPatch(manifest.version));
        expect(diffManifests(manifest, next)).toEqual({ compatible: true, unchanged: false, reasons: [] });
        expect(diffManifests(manifest, structuredClone(manifest))).toEqual({
          compatible: true,
          unchanged: true,
          reasons: [],
        });
      }),
    );
  });

  it('removing any entity field is refused', () => {
    fc.assert(
      fc.property(withEntity, fc.nat(), ([manifest, entityIndex], pick) => {
        const next = structuredClone(withVersion(manifest, bumpPatch(manifest.version)));
        const fields = next.entities[entityIndex]!.fields;
        const [removed] = fields.splice(pick % fields.length, 1);
        const diff = diffManifests(manifest, next);
        expect(diff.compatible).toBe(false);
        expect(diff.reasons).toContainEqual({
          code: 'FIELD_REMOVED',
          pointer: `/entities/${entityIndex}/fields`,
          message: `field "${removed!.name}" was removed`,
        });
      }),
    );
  });

  it('adding a field that is not required is allowed; adding a required one is refused', () => {
    fc.assert(
      fc.property(withEntity, fc.boolean(), ([manifest, entityIndex], required) => {
        const next = structuredClone(withVersion(manifest, bumpPatch(manifest.version)));
        const fields = next.entities[entityIndex]!.fields;
        fields.push({ name: 'added_later', type: 'date', required, indexable: false });
        const diff = diffManifests(manifest, next);
        expect(diff.compatible).toBe(!required);
        if (required) {
          expect(diff.reasons.map((reason) => [reason.code, reason.pointer])).toEqual([
            ['FIELD_REQUIRED', `/entities/${entityIndex}/fields/${fields.length - 1}/required`],
          ]);
        }
      }),
    );
  });

  it('a lower version is a downgrade, whatever else changed', () => {
    fc.assert(
      fc.property(
        manifestArbitrary.map(parsed).filter((manifest) => manifest.version !== '0.0.0'),
        (manifest) => {
          const diff = diffManifests(withVersion(manifest, bumpPatch(manifest.version)), manifest);
          expect(diff.reasons.map((reason) => reason.code)).toEqual(['VERSION_DOWNGRADE']);
        },
      ),
    );
  });

  it('a field whose name holds a credential stem is refused where it stands', () => {
    const affix = fc.stringMatching(/^[a-z0-9_]{0,6}$/);
    const secretName = fc
      .tuple(fc.constantFrom('a', 'x_', 'my'), fc.constantFrom(...SECRET_NAME_STEMS), affix)
      .map(([prefix, stem, suffix]) => `${prefix}${stem}${suffix}`.slice(0, 40));
    fc.assert(
      fc.property(withEntity, secretName, ([manifest, entityIndex], name) => {
        const input = structuredClone(manifest);
        const fields = input.entities[entityIndex]!.fields;
        fields.push({ name, type: 'boolean', required: false, indexable: false });
        const result = parseManifest(input);
        expect(result.ok ? [] : result.issues.map((issue) => [issue.code, issue.pointer])).toEqual([
          ['MANIFEST_SECRET_FIELD', `/entities/${entityIndex}/fields/${fields.length - 1}/name`],
        ]);
      }),
    );
  });
});

describe('values (properties)', () => {
  it('a row generated from an entity’s declaration fits it', () => {
    const rows = withEntity.chain(([manifest, entityIndex]) => {
      const entity = manifest.entities[entityIndex]!;
      const members = entity.fields.map((field) =>
        fc.tuple(
          fc.constant(field.name),
          field.required ? fittingValue(field) : fc.option(fittingValue(field)),
        ),
      );
      return fc.tuple(
        fc.constant(entity),
        fc.tuple(...members).map((pairs) => Object.fromEntries(pairs)),
      );
    });
    fc.assert(
      fc.property(rows, ([entity, row]) => {
        expect(checkRow(entity, row)).toEqual({ ok: true, value: row });
      }),
    );
  });

  it('a value of another JSON type never fits', () => {
    const jsonKindOf = (type: string) =>
      type === 'integer' || type === 'number'
        ? 'number'
        : type === 'boolean'
          ? 'boolean'
          : type === 'list'
            ? 'array'
            : 'string';
    const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);
    const declared = withEntity.map(([manifest, entityIndex]) => manifest.entities[entityIndex]!.fields[0]!);
    fc.assert(
      fc.property(declared, fc.constantFrom<unknown>('x', 1, true, {}, []), (field, value) => {
        fc.pre(kindOf(value) !== jsonKindOf(field.type));
        const result = checkValue([field], { [field.name]: value });
        expect(result.ok ? [] : result.issues.map((issue) => issue.code)).toEqual(['VALUE_TYPE']);
      }),
    );
  });
});
