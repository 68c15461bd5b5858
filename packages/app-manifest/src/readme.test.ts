import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import { loyaltyManifest } from '../test/examples.ts';
import { CONTEXT_CORE_REFERENCE, CORE_REFERENCE_PERMISSION, MOUNT_CONTEXT } from './access.ts';
import { DIFF_CODES } from './diff.ts';
import { MANIFEST_ISSUE_CODES } from './issues.ts';
import { BLOCK_ACTION_KINDS } from './rules/blocks.ts';
import { FIELD_TYPES, MANIFEST_LIMITS, STOREFRONT_MOUNTS } from './schema.ts';
import { SECRET_NAME_STEMS } from './secrets.ts';
import { VALUE_ISSUE_CODES } from './values.ts';

const code = (text: string) => `\`${text}\``;
const lines = readme.split('\n');

/** The lines of a section, up to the next heading of any level. */
function section(heading: string): string[] {
  const start = lines.indexOf(heading);
  expect(start, `README has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The body rows of the `nth` table in a section, as trimmed cells. */
function tableRows(heading: string, nth = 0): string[][] {
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of section(heading)) {
    if (line.trim().startsWith('|')) {
      if (!current) {
        current = [];
        tables.push(current);
      }
      current.push(
        line
          .trim()
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((cell) => cell.trim()),
      );
    } else {
      current = null;
    }
  }
  const table = tables[nth];
  expect(table, `table ${nth} under "${heading}"`).toBeDefined();
  return table!.slice(2);
}

describe('README', () => {
  it('shows the example app exactly as examples/apps/loyalty/manifest.json holds it', () => {
    const body = section('## Example');
    const json = body.slice(body.indexOf('```json') + 1, body.lastIndexOf('```')).join('\n');
    expect(JSON.parse(json)).toEqual(loyaltyManifest());
  });

  it('describes every field type, in order', () => {
    expect(tableRows('### Field types').map(([type]) => type)).toEqual(FIELD_TYPES.map(code));
  });

  it('lists every manifest problem code, in order', () => {
    expect(tableRows('## Problems').map(([name]) => name)).toEqual(MANIFEST_ISSUE_CODES.map(code));
  });

  it('lists every value problem code, in order', () => {
    expect(tableRows('## Values').map(([name]) => name)).toEqual(VALUE_ISSUE_CODES.map(code));
  });

  it('lists every upgrade reason, in order', () => {
    expect(tableRows('## Upgrades').map(([name]) => name)).toEqual(DIFF_CODES.map(code));
  });

  it('states every limit as the code holds it', () => {
    const rows = tableRows('## Limits').map(([name, value]) => [name, Number(value)]);
    expect(rows).toEqual(Object.entries(MANIFEST_LIMITS).map(([name, value]) => [code(name), value]));
  });

  it('lists every mount with its context key and permission', () => {
    expect(tableRows('## Blocks', 2)).toEqual(
      Object.entries(MOUNT_CONTEXT).map(([mount, key]) => [
        code(mount),
        code(key),
        (STOREFRONT_MOUNTS as readonly string[]).includes(mount)
          ? 'none: visitors see it'
          : code(CORE_REFERENCE_PERMISSION[CONTEXT_CORE_REFERENCE[key]]),
      ]),
    );
  });

  it('says which action kinds each block kind runs', () => {
    expect(tableRows('## Blocks', 1).map(([kind, runs]) => [kind, runs])).toEqual(
      Object.entries(BLOCK_ACTION_KINDS).map(([kind, kinds]) => [
        code(kind),
        `a ${kinds.map(code).join(' or ')}`,
      ]),
    );
  });

  it('lists every credential stem', () => {
    const line = lines.find((candidate) => candidate.startsWith('Stems: '));
    expect(line?.slice('Stems: '.length).split(', ')).toEqual(SECRET_NAME_STEMS.map(code));
  });
});
