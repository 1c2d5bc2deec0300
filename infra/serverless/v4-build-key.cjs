'use strict';
/* global module */
/**
 * Lets one serverless.yml serve osls 4.x and Serverless Framework v4.
 *
 * Serverless v4 bundles TypeScript handlers with its built-in esbuild unless the top-level `build.esbuild` is
 * `false`; serverless-esbuild does the bundling here, so serverless.yml says `build: { esbuild: false }`.
 * osls (the Serverless v3 schema) has no `build` key and, with `configValidationMode: error`, would reject it.
 * This plugin declares the key to osls only: Serverless v4's schema already has it, and declaring a top-level
 * property twice is an error in both tools.
 */
class V4BuildKey {
  constructor(serverless) {
    const handler = serverless.configSchemaHandler;
    if (handler && handler.schema && handler.schema.properties && !handler.schema.properties.build) {
      handler.defineTopLevelProperty('build', {
        type: 'object',
        properties: { esbuild: { const: false } },
        additionalProperties: false,
      });
    }
  }
}

module.exports = V4BuildKey;
