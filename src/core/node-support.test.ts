import { describe, expect, it } from 'vitest';
import { nodeRefusal } from './node-support.js';

describe('the Node.js releases the store starts on', () => {
  it('starts on 20.19+, 22.12+, 26 (and the odd lines, which npm warns about)', () => {
    for (const v of ['20.19.0', '20.20.2', '22.12.0', '22.23.3', '24.18.1', '26.0.0', '26.12.1', '23.11.0']) {
      expect(nodeRefusal(v)).toBeNull();
    }
  });

  it('refuses Node 24 from 24.19, where freeing a better-sqlite3 12 database aborts the process', () => {
    expect(nodeRefusal('24.19.0')).toMatch(
      /^Node 24\.19\.0 is not supported: .*Node 22 \(22\.12 or later\) or Node 26\.$/,
    );
    expect(nodeRefusal('24.21.0')).not.toBeNull();
  });

  it('refuses releases too old to load the dependencies', () => {
    for (const v of ['18.20.4', '20.18.3', '22.11.0']) expect(nodeRefusal(v)).toMatch(/is too old/);
  });
});
