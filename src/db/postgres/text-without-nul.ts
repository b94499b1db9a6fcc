import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';

/**
 * PostgreSQL's text cannot hold U+0000, and a value with one fails the whole statement ("invalid byte
 * sequence"), where SQLite stores it. Text the store is given (a product title, a search, a log line) is never
 * meant to contain it, so on PostgreSQL it is written as U+FFFD, the character for what cannot be shown.
 */
const clean = (value: unknown): unknown =>
  typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;

class WithoutNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = clean(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(clean) };
  }
}

export const textWithoutNul: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return new WithoutNul().transformNode(args.node);
  },
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  },
};
