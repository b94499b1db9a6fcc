/**
 * One word's live matches: anywhere, in the title, in the maker or tags. Kept in the snapshot
 * (facet-snapshot.ts) and worked out from the full-text index (snapshot-text.ts): a file of its own so that
 * neither of those imports the other both ways.
 */
export type WordMasks = { any: Uint32Array; title: Uint32Array; tags: Uint32Array };
