import { writeFileSync } from 'node:fs';
import { operations } from '@cartwright/service';
import { openApiDocument } from '../src/openapi.ts';
import { openApiFile } from '../src/openapi-file.ts';

// `pnpm docs:api` regenerates docs/api/openapi.json from the operation registry.
writeFileSync(openApiFile, `${JSON.stringify(openApiDocument(operations, '0.1.0'), null, 2)}\n`);
process.stdout.write(`wrote ${openApiFile}\n`);
