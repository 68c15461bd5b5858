import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One file of the HTML API reference, served as it is. */
export interface ReferenceAsset {
  readonly path: string;
  readonly contentType: string;
  /** Read on first use and kept: the renderer's bundle is 1.7 MB, most apps never serve it. */
  readonly body: () => string;
}

/** Where the page lives; its assets sit beneath it and every URL in it is relative. */
export const API_REFERENCE_PATH = '/api/docs';

// Same origin only; Swagger UI sets inline styles and draws icons from data: URLs.
export const API_REFERENCE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Cartwright API reference</title>
    <link rel="stylesheet" href="docs/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/swagger-ui-bundle.js"></script>
    <script src="docs/init.js"></script>
  </body>
</html>
`;

// No validator badge (it would call validator.swagger.io); the document is the one this server
// serves, resolved against the page so a path prefix in front of the server still works.
const STARTER = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', window.location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

function once(read: () => string): () => string {
  let cached: string | undefined;
  return () => {
    cached ??= read();
    return cached;
  };
}

const require = createRequire(import.meta.url);
function swaggerUiFile(name: string): () => string {
  return once(() =>
    readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), name), 'utf8'),
  );
}

/**
 * The HTML API reference: Swagger UI (`swagger-ui-dist`, served from node_modules, no CDN)
 * rendering `GET /api/openapi.json`.
 */
export const apiReferenceAssets: readonly ReferenceAsset[] = [
  { path: API_REFERENCE_PATH, contentType: 'text/html; charset=utf-8', body: () => PAGE },
  {
    path: `${API_REFERENCE_PATH}/swagger-ui.css`,
    contentType: 'text/css; charset=utf-8',
    body: swaggerUiFile('swagger-ui.css'),
  },
  {
    path: `${API_REFERENCE_PATH}/swagger-ui-bundle.js`,
    contentType: 'text/javascript; charset=utf-8',
    body: swaggerUiFile('swagger-ui-bundle.js'),
  },
  {
    path: `${API_REFERENCE_PATH}/init.js`,
    contentType: 'text/javascript; charset=utf-8',
    body: () => STARTER,
  },
];
