import { definePackageConfig } from '@cartwright/tooling/vitest';

export default definePackageConfig();
