import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import { type MachineName, MOVES_ON_CLOSED_ORDER, STATE_MACHINES } from './state-machines.ts';

const code = (text: string) => `\`${text}\``;

/** The body rows of the first table under `heading`, as trimmed cells (any column padding). */
function tableRows(heading: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.indexOf(heading);
  expect(start, `README has a section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('#'));
  const rows = lines
    .slice(start + 1, end === -1 ? undefined : end)
    .filter((line) => line.trim().startsWith('|'))
    .map((line) =>
      line
        .trim()
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  // Header row, then the divider row of dashes.
  expect(rows[1]?.every((cell) => /^:?-+:?$/.test(cell))).toBe(true);
  return rows.slice(2);
}

describe('README', () => {
  it.each<[MachineName, string]>([
    ['order', '### Order (`order`)'],
    ['payment', '### Payment (`payment`)'],
    ['delivery', '### Delivery (`delivery`)'],
  ])('lists exactly the %s transitions, in table order', (machine, heading) => {
    const { transitions, eventPrefix } = STATE_MACHINES[machine];
    expect(tableRows(heading)).toEqual(
      transitions.map(({ from, action, to }) => [
        code(from),
        code(action),
        code(to),
        code(`${eventPrefix}.${to}`),
      ]),
    );
  });

  it('lists exactly the moves allowed on a closed order', () => {
    expect(tableRows('### Moves on a closed order')).toEqual(
      (['completed', 'cancelled'] as const).map((order) => {
        const { payment, delivery } = MOVES_ON_CLOSED_ORDER[order];
        return [code(order), payment.map(code).join(', '), delivery.map(code).join(', ')];
      }),
    );
  });

  it('names the terminal states', () => {
    const terminal = (['order', 'payment', 'delivery'] as const)
      .map((machine) => `${machine} ${STATE_MACHINES[machine].terminal.map(code).join(', ')}`)
      .join(', ');
    expect(readme.replace(/\s+/g, ' ')).toContain(`Terminal states (no outgoing move): ${terminal}.`);
  });
});
