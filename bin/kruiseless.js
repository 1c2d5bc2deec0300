#!/usr/bin/env node
// The package's `kruiseless` binary: the TypeScript CLI (lib/local/cli.ts) run through tsx's loader, since the
// package ships no compiled JavaScript.
import { register } from 'tsx/esm/api';

register();
await import('../lib/local/cli.ts');
