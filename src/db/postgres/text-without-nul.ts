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
 * meant to contain it, so on PostgreSQL it is written as U+FFFD, the character for what cannot be shown, in
 * text and in JSON text alike.
 */
/**
 * Escapes jsonb refuses in JSON text (not ones whose backslash is itself escaped): \u0000, and a surrogate
 * without its pair, which JSON.stringify writes for a lone surrogate.
 */
const JSON_BAD_ESCAPE =
  /(?<!\\)((?:\\\\)*)(?:\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2})/gi;

export function withoutNul(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  let text = value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
  if (
    (text.startsWith('[') || text.startsWith('{') || text.startsWith('"')) &&
    /\\u(0000|d[89a-f])/i.test(text)
  )
    text = text.replace(JSON_BAD_ESCAPE, '$1\\ufffd');
  return text;
}

class WithoutNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...node, values: node.values.map(withoutNul) };
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
