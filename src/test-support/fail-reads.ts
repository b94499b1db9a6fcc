import type { KyselyPlugin } from 'kysely';

/**
 * A Kysely plugin that fails every query reading one of `tables` once its answer arrives, as a connection
 * the database ends (pg_terminate_backend, a failover) does: for tests of what a failed read leaves behind.
 */
export function failReadsOf(tables: readonly string[]): KyselyPlugin {
  const doomed = new Set<object>();
  return {
    transformQuery: ({ node, queryId }) => {
      const text = JSON.stringify(node);
      if (tables.some((t) => text.includes(`"name":"${t}"`))) doomed.add(queryId);
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (doomed.has(queryId)) throw new Error('terminating connection due to administrator command');
      return result;
    },
  };
}
