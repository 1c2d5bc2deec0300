/**
 * The Lambda bundles' esbuild plugins (infra/serverless/esbuild-plugins.cjs), on a bundle of client-node's KubeConfig
 * as the functions import it: the SOCKS proxy agent and its dependencies are left out, and what stands in for it
 * refuses a socks proxy-url with a clear error instead of failing somewhere inside a missing module.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const plugins = createRequire(import.meta.url)(
  path.join(root, 'infra/serverless/esbuild-plugins.cjs'),
) as Plugin[];

describe('esbuild plugins of the Lambda bundles', () => {
  it('leave socks-proxy-agent out of a KubeConfig bundle; a socks proxy-url gets a clear error', async () => {
    // client-node's config.js (where KubeConfig imports the agent); everything else it imports stays external, so the
    // test bundles one file and the plugin's resolution of the agent
    const othersExternal: Plugin = {
      name: 'others-external',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) =>
          args.kind === 'entry-point' || args.path === 'socks-proxy-agent'
            ? undefined
            : { path: args.path, external: true },
        );
      },
    };
    const result = await build({
      entryPoints: [path.join(root, 'node_modules/@kubernetes/client-node/dist/config.js')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      mainFields: ['module', 'main'],
      write: false,
      metafile: true,
      plugins: [...plugins, othersExternal],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(
      inputs.filter((p) => /node_modules\/(socks|socks-proxy-agent|smart-buffer|ip-address)\//.test(p)),
    ).toEqual([]);
    expect(inputs).toContain('no-socks-proxy:socks-proxy-agent');
    expect(inputs).toContain('node_modules/@kubernetes/client-node/dist/config.js');
    const stub = result.outputFiles[0]?.text ?? '';
    expect(stub).toContain('is not supported in the Kruiseless functions; use an http(s) proxy-url');
  });
});
