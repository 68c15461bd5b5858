import type { UserConfig } from 'vitest/config';

export declare function definePackageConfig(options?: { database?: boolean }): UserConfig;
