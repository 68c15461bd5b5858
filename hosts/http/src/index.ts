export { type AppOptions, createApp } from './app.ts';
export { httpEnvironment } from './env.ts';
export { createLogger } from './logger.ts';
export { openApiDocument } from './openapi.ts';
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from './server.ts';
