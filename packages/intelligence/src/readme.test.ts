import { describe, expect, it } from 'vitest';
import readme from '../README.md?raw';
import * as library from './index.ts';
import { HYPOTHESIS_STATUSES } from './review.ts';

describe('the README', () => {
  it('names every export of the package', () => {
    const missing = Object.keys(library).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });

  it('names every hypothesis status', () => {
    for (const status of HYPOTHESIS_STATUSES) expect(readme).toContain(`\`${status}\``);
  });
});
