import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MANIFEST_SCHEMA_PATH, manifestJsonSchema } from './manifest-json-schema.ts';

// `pnpm --filter @cartwright/app-manifest docs:schema` regenerates the published JSON Schema (then
// formats it with biome, as the repository checks it);
// src/json-schema-file.test.ts fails until it has been run after a change to the schema.
const file = fileURLToPath(new URL(`../../../${MANIFEST_SCHEMA_PATH}`, import.meta.url));
writeFileSync(file, `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
