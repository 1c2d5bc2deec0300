'use strict';
/* global module */
/**
 * esbuild plugins of the Lambda bundles (serverless.yml `custom.esbuild.plugins`).
 *
 * `client-node-side-effect-free`: @kubernetes/client-node 1.x declares no `sideEffects` in its package.json, so
 * esbuild keeps every module its entry files import — `KubeConfig` (dist/config.js) imports two names from
 * dist/gen/index.js, which re-exports all generated models (about 0.5 MB). Its modules only declare classes and
 * functions, so the plugin tells esbuild they are side-effect free and the unused ones are left out. The packaging
 * check imports every bundle (scripts/package-check.sh) and BENCHMARKS.md#bundles has the sizes.
 *
 * `node-fetch-native-url`: node-fetch 2.x (client-node's HTTP for watches) takes `URL` from `node:url` and falls
 * back to the `whatwg-url` package only where Node has none (`Url.URL || whatwgUrl.URL`); Node always has it, so
 * that fallback — whatwg-url and its Unicode tables (tr46, about 0.3 MB) — is replaced by an empty module.
 *
 * `no-socks-proxy`: client-node's `KubeConfig` imports `socks-proxy-agent` (with socks, smart-buffer and ip-address,
 * about 70 KB minified, evaluated at every cold start) for a kubeconfig cluster whose `proxy-url` is `socks…`. The
 * functions reach registered EKS clusters directly and never set a proxy-url, so the import is replaced by a class
 * that throws a clear error if one ever were; http(s) proxies (hpagent) stay.
 */
const CLIENT_NODE = /[\\/]node_modules[\\/]@kubernetes[\\/]client-node[\\/]/;

const clientNodeSideEffectFree = {
  name: 'client-node-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData && args.pluginData.resolvedBySideEffectFree) return undefined;
      if (!CLIENT_NODE.test(args.importer) && !args.path.startsWith('@kubernetes/client-node'))
        return undefined;
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: { resolvedBySideEffectFree: true },
      });
      if (resolved.errors.length > 0 || !CLIENT_NODE.test(resolved.path)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

const NODE_FETCH = /[\\/]node_modules[\\/]node-fetch[\\/]/;

const nodeFetchNativeUrl = {
  name: 'node-fetch-native-url',
  setup(build) {
    build.onResolve({ filter: /^whatwg-url$/ }, (args) =>
      NODE_FETCH.test(args.importer) ? { path: 'whatwg-url', namespace: 'node-fetch-native-url' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'node-fetch-native-url' }, () => ({
      contents: 'export default {};',
      loader: 'js',
    }));
  },
};

const noSocksProxy = {
  name: 'no-socks-proxy',
  setup(build) {
    build.onResolve({ filter: /^socks-proxy-agent$/ }, (args) =>
      CLIENT_NODE.test(args.importer)
        ? { path: 'socks-proxy-agent', namespace: 'no-socks-proxy' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-socks-proxy' }, () => ({
      contents:
        'export class SocksProxyAgent { constructor(url) { throw new Error(`a socks proxy-url (${url}) is not supported in the Kruiseless functions; use an http(s) proxy-url`); } }',
      loader: 'js',
    }));
  },
};

module.exports = [clientNodeSideEffectFree, nodeFetchNativeUrl, noSocksProxy];
