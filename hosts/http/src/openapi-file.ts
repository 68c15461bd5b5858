import { fileURLToPath } from 'node:url';

/** Where the generated API reference is committed. */
export const openApiFile = fileURLToPath(new URL('../../../docs/api/openapi.json', import.meta.url));
