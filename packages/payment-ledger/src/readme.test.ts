import { describe, expect, expectTypeOf, it } from 'vitest';
import readme from '../README.md?raw';
import { EFFECT_KINDS, type EffectKind } from './effects.ts';
import { ATTEMPT_STATUSES, REFUND_STATUSES } from './records.ts';
import { ATTEMPT_TRANSITIONS } from './transitions.ts';

const code = (text: string) => `\`${text}\``;

/** The body rows of the first table under `heading`, as trimmed cells. */
function tableRows(heading: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `README has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.trim().startsWith('|')) {
      if (rows.length > 0) break;
      continue;
    }
    // Split on pipes that are not escaped (`\|` inside a cell).
    rows.push(
      line
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  expect(rows[1]?.every((cell) => /^:?-+:?$/.test(cell))).toBe(true);
  return rows.slice(2);
}

describe('README', () => {
  it('lists exactly the attempt transitions, in table order', () => {
    expect(tableRows('### Transitions')).toEqual(
      ATTEMPT_TRANSITIONS.map(({ from, to, on }) => [code(from), code(to), on]),
    );
  });

  it('describes every attempt status', () => {
    expect(tableRows('### Statuses').map(([status]) => status)).toEqual(ATTEMPT_STATUSES.map(code));
  });

  it('describes every effect kind, and EFFECT_KINDS names every kind of PaymentEffect', () => {
    expectTypeOf<(typeof EFFECT_KINDS)[number]>().toEqualTypeOf<EffectKind>();
    expect(tableRows('## Effects').map(([kind]) => kind)).toEqual(EFFECT_KINDS.map(code));
  });

  it('describes every refund status', () => {
    const described = tableRows('## Refund ledger').map(([status]) => status);
    expect(described.sort()).toEqual(REFUND_STATUSES.map(code).sort());
  });
});
