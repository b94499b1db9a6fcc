import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * When this process last sent anything but a SELECT. The revision watch (revision-watch.ts) learns of a
 * commit by a notification, which can arrive a moment after the write's own caller got its answer: for a
 * short while after a write of its own, the process asks the database for the revision instead, so whoever
 * made a change sees it at once on the same process (read your own writes).
 */
export class LocalWrites implements KyselyPlugin {
  private last = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** When this process last wrote (epoch ms; 0 before the first). */
  lastAt(): number {
    return this.last;
  }

  /** Milliseconds since the last write of this process (Infinity before the first). */
  sinceLast(): number {
    return this.last === 0 ? Number.POSITIVE_INFINITY : this.now() - this.last;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') this.last = this.now();
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
