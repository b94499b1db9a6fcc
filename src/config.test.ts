import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('uses safe defaults: localhost only, port 3000, ./data', () => {
    const c = loadConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(3000);
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
    expect(c.trustProxy).toBe(false);
    expect(c.isProduction).toBe(false);
  });

  it('names the variable and the bad value in one line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrowError(
      /^Invalid environment variable PORT: .*\(got "eighty"\)$/,
    );
    expect(() => loadConfig({ PORT: '70000' })).toThrowError(/PORT/);
    expect(() => loadConfig({ NODE_ENV: 'prod' })).toThrowError(/NODE_ENV/);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://shop.example' })).toThrowError(/PUBLIC_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrowError(/LOG_LEVEL/);
    expect(() => loadConfig({ TRUST_PROXY: 'sometimes' })).toThrowError(/TRUST_PROXY/);
  });

  it('parses TRUST_PROXY as boolean, hop count or address list', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
  });

  it('strips a trailing slash from PUBLIC_URL and treats empty variables as unset', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example/' }).publicUrl).toBe('https://shop.example');
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
    expect(loadConfig({ DEMO_CATALOGUE: 'false' }).loadDemoCatalogue).toBe(false);
  });
});
