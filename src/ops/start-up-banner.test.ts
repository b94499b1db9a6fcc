import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { FirstAdminResult } from '../modules/auth/first-admin.js';
import { startUpBanner } from './start-up-banner.js';

const banner = (env: Record<string, string>, firstAdmin: FirstAdminResult = { kind: 'exists' }) =>
  startUpBanner({
    config: loadConfig({ DATA_DIR: '/srv/shop/data', ...env }),
    port: 3000,
    demoProducts: null,
    firstAdmin,
    cwd: '/srv/shop',
  });

describe('the start-up banner', () => {
  it('says where the store and its admin are at every start, not only the first', () => {
    const again = banner({ NODE_ENV: 'development' });
    expect(again).toMatch(/^ {2}Store is running at http:\/\/127\.0\.0\.1:3000\/$/m);
    expect(again).toMatch(/^ {2}Admin is at +http:\/\/127\.0\.0\.1:3000\/admin$/m);
    expect(again).toContain('Data folder: data (/srv/shop/data)');
    expect(banner({ HOST: '0.0.0.0' })).toMatch(/Admin is at +http:\/\/localhost:3000\/admin/);
  });

  it('says where media and catalogue files are when they are not in the data folder', () => {
    expect(banner({})).not.toContain('Files:');
    expect(banner({ S3_BUCKET: 'shop-files', S3_ENDPOINT: 'https://minio.internal:9000' })).toContain(
      'Files: S3 bucket shop-files at https://minio.internal:9000',
    );
  });

  it('names the admin command that exists where it runs: node dist/admin.js in production', () => {
    const none: FirstAdminResult = { kind: 'none' };
    const demo: FirstAdminResult = { kind: 'demo', email: 'admin@demo.store', password: 'shown-once-123' };
    for (const first of [none, demo]) {
      const production = banner({ NODE_ENV: 'production' }, first);
      expect(production).toMatch(/^ {4}node dist\/admin\.js create you@example\.com$/m);
      expect(production).not.toContain('npm run');
      expect(banner({ NODE_ENV: 'development' }, first)).toMatch(
        /^ {4}npm run admin -- create you@example\.com$/m,
      );
    }
    expect(banner({}, demo)).toMatch(/email: +admin@demo\.store\n {4}password: shown-once-123/);
  });

  it('says why no request lines follow when the terminal only gets warnings (npm start)', () => {
    expect(banner({ LOG_LEVEL: 'warn' })).toContain(
      'Log: warnings and errors only (LOG_LEVEL=warn); LOG_LEVEL=info adds a line per request.',
    );
    expect(banner({ LOG_LEVEL: 'info' })).not.toContain('Log:');
  });
});
