/**
 * A loopback image provider (node:http) imitating the widely used images API: `POST
 * {base}/images/generations` (JSON) and `POST {base}/images/edits` (multipart with `image`), a
 * bearer API key, `{ created, data: [{ b64_json }] }` answers drawn deterministically from the
 * request (so a test can compare pixels), every call recorded, and faults on demand (provider
 * errors, an answer that is not an image, a decompression bomb, an oversized answer, a slow answer,
 * a dropped or cut connection).
 */
export type { ImageEndpoint, ImageProviderFault, ImageProviderFaultKind } from './faults.ts';
export {
  encodePng,
  type FixtureImage,
  type ImageSeed,
  pngBomb,
  pngDeclaring,
  renderFixtureImage,
  wholePngBomb,
} from './png.ts';
export {
  type ImageProviderFixture,
  type ImageProviderFixtureOptions,
  type ReceivedImage,
  type ReceivedImageCall,
  startImageProviderFixture,
} from './server.ts';
