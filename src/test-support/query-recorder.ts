import type { KyselyPlugin } from 'kysely';

/**
 * A Kysely plugin that adds each query the app builds to `into`, as its operation tree in JSON, for a test
 * to look for a table or a statement in (`db.withPlugin(recordQueries(list))`). Raw SQL shows its text.
 */
export function recordQueries(into: string[]): KyselyPlugin {
  return {
    transformQuery: ({ node }) => {
      into.push(JSON.stringify(node));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
}
