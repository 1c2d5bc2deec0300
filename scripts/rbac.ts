/**
 * `npm run rbac`: writes infra/rbac/kruiseless-rbac.yaml from the controller registrations (lib/controllers/rbac.ts);
 * test/unit/controllers/rbac.test.ts fails until the committed file is what this writes.
 */
import { writeFileSync } from 'node:fs';
import { rbacManifest } from '../lib/controllers/rbac.js';

const file = new URL('../infra/rbac/kruiseless-rbac.yaml', import.meta.url);
writeFileSync(file, rbacManifest());
console.log(`wrote ${file.pathname}`);
