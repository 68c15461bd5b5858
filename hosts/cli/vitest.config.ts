import { definePackageConfig } from '@cartwright/tooling/vitest';
import { mergeConfig } from 'vitest/config';

// The globalSetup migrates one embedded data directory per run for the tests to copy.
export default mergeConfig(definePackageConfig({ database: true }), {
  test: { globalSetup: ['./test/migrated-data-dir.ts'] },
});
