// The layout of docs/ARCHITECTURE.md as lint rules, so a wrong import fails CI instead of a review:
// - a web feature never imports another feature (shared code lives in components/, lib/, config/);
// - a server route never imports a repository (routes call services);
// - Kysely values (sql, the query builder) are used only by repositories, migrations and the database code.
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const WEB_FEATURES = path.join(root, 'apps/web/src/features');
const SERVER_SRC = path.join(root, 'apps/server/src');

/** Files of the server allowed to use Kysely values, besides *.repository.ts and db/. */
const KYSELY_ALLOWED = [
  // The queue filters are SQL expressions read only by orders.repository.ts and the counts.
  'modules/orders/queues.ts',
  // The bulk demo-data loader: one statement per batch, index rebuilds, advisory lock.
  'demo/demo-data.ts',
];

const featureOf = (file) => {
  const rel = path.relative(WEB_FEATURES, file);
  return rel.startsWith('..') ? null : rel.split(path.sep)[0];
};

const resolveImport = (file, source) => (source.startsWith('.') ? path.resolve(path.dirname(file), source) : null);

const featureBoundaries = {
  meta: {
    type: 'problem',
    messages: {
      cross: 'Feature "{{from}}" imports feature "{{to}}": move the shared code to components/, lib/ or config/.',
    },
  },
  create(context) {
    const from = featureOf(context.filename);
    if (!from) return {};
    return {
      ImportDeclaration(node) {
        const target = resolveImport(context.filename, node.source.value);
        const to = target && featureOf(target);
        if (to && to !== from) context.report({ node, messageId: 'cross', data: { from, to } });
      },
    };
  },
};

const routesCallServices = {
  meta: { type: 'problem', messages: { repo: 'Routes call services, never repositories ({{source}}).' } },
  create(context) {
    if (!context.filename.startsWith(path.join(SERVER_SRC, 'routes') + path.sep)) return {};
    return {
      ImportDeclaration(node) {
        if (/\.repository(\.js)?$/.test(node.source.value)) {
          context.report({ node, messageId: 'repo', data: { source: node.source.value } });
        }
      },
    };
  },
};

const kyselyInRepositories = {
  meta: {
    type: 'problem',
    messages: { sql: 'Only repositories and migrations build SQL: import Kysely types with `import type` here.' },
  },
  create(context) {
    const rel = path.relative(SERVER_SRC, context.filename);
    if (rel.startsWith('..')) return {};
    const allowed =
      rel.endsWith('.repository.ts') ||
      rel.startsWith(`db${path.sep}`) ||
      KYSELY_ALLOWED.includes(rel.split(path.sep).join('/'));
    if (allowed) return {};
    return {
      ImportDeclaration(node) {
        if (node.source.value !== 'kysely' || node.importKind === 'type') return;
        if (node.specifiers.some((s) => s.type !== 'ImportSpecifier' || s.importKind !== 'type')) {
          context.report({ node, messageId: 'sql' });
        }
      },
    };
  },
};

export default {
  rules: {
    'feature-boundaries': featureBoundaries,
    'routes-call-services': routesCallServices,
    'kysely-in-repositories': kyselyInRepositories,
  },
};
