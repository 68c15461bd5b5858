import { definePackageConfig } from './vitest/config.js';

export default definePackageConfig();
