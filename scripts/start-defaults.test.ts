import { describe, expect, it } from 'vitest';
import { applyStartDefaults } from './start-defaults.mjs';

describe('npm start defaults', () => {
  it('runs in production with warnings only on the terminal, so request lines do not bury the banner', () => {
    expect(applyStartDefaults({})).toEqual({ NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  });

  it('keeps what the environment sets', () => {
    expect(applyStartDefaults({ NODE_ENV: 'development', LOG_LEVEL: 'info' })).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
    });
  });
});
