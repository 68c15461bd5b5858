// The PayPal adapter of the payment provider port: one factory, its options, the response limit.
export { RESPONSE_LIMIT_BYTES } from './client.ts';
export { createPayPalProvider, DEFAULT_TIMEOUT_MS, type PayPalProviderOptions } from './provider.ts';
export { TOKEN_SAFETY_MARGIN_MS } from './token.ts';
