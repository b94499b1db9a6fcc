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

describe('loadConfig secrets', () => {
  it('never echoes a secret back in an error', () => {
    expect(() => loadConfig({ SESSION_SECRET: 'short-secret-value' })).toThrowError(
      /^Invalid environment variable SESSION_SECRET: [^"]*$/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'tiny' })).not.toThrowError(/tiny/);
  });

  it('reads the session and sign-in limits', () => {
    const c = loadConfig({
      SESSION_TTL_HOURS: '2',
      SESSION_IDLE_MINUTES: '15',
      LOGIN_MAX_ATTEMPTS_PER_IP: '5',
    });
    expect(c.session.ttlMs).toBe(2 * 3600_000);
    expect(c.session.idleMs).toBe(15 * 60_000);
    expect(c.loginLimits).toEqual({ perIp: 5, perAccount: 10 });
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example' }).session.secureCookie).toBe(true);
    expect(
      loadConfig({ ADMIN_EMAIL: 'a@b.example', ADMIN_PASSWORD: 'long enough password' }).initialAdmin,
    ).toEqual({
      email: 'a@b.example',
      password: 'long enough password',
    });
  });

  it('uses SQLite unless DATABASE_URL names a PostgreSQL server, whose pool size is configurable', () => {
    expect(loadConfig({}).database).toEqual({ kind: 'sqlite' });
    const secret = 'x'.repeat(32);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://store@127.0.0.1:5432/shop', SESSION_SECRET: secret }).database,
    ).toEqual({ kind: 'postgres', url: 'postgres://store@127.0.0.1:5432/shop', poolSize: 10 });
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://h/db', DATABASE_POOL_SIZE: '25', SESSION_SECRET: secret })
        .database,
    ).toMatchObject({ poolSize: 25 });
    // The URL carries a password: it is never echoed back.
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:hunter2@h/db' })).toThrowError(
      /^Invalid environment variable DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
  });

  it('keeps the limits’ counters in Redis when REDIS_URL is set, under a key prefix; the URL is never echoed', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379/2',
      keyPrefix: 'storefront:',
    });
    expect(
      loadConfig({ REDIS_URL: 'rediss://:pw@cache.example:6380', REDIS_KEY_PREFIX: 'shop-a:' }).redis,
    ).toEqual({ url: 'rediss://:pw@cache.example:6380', keyPrefix: 'shop-a:' });
    expect(() => loadConfig({ REDIS_URL: 'http://:hunter2@cache.example' })).toThrowError(
      /^Invalid environment variable REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL$/,
    );
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrowError(/REDIS_KEY_PREFIX/);
  });

  it('refuses PostgreSQL without SESSION_SECRET, saying why', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db' })).toThrowError(
      /SESSION_SECRET is required with DATABASE_URL: every store process must sign admin sessions with the same key/,
    );
  });

  it('keeps the admin audit two years by default, and never less long than the log', () => {
    expect(loadConfig({}).audit).toEqual({ retentionDays: 730 });
    // A shop that keeps its log longer than two years keeps its audit as long, unasked.
    expect(loadConfig({ LOG_RETENTION_DAYS: '1000' }).audit).toEqual({ retentionDays: 1000 });
    expect(loadConfig({ LOG_RETENTION_DAYS: '90', AUDIT_RETENTION_DAYS: '90' }).audit).toEqual({
      retentionDays: 90,
    });
    expect(() => loadConfig({ LOG_RETENTION_DAYS: '90', AUDIT_RETENTION_DAYS: '60' })).toThrowError(
      'AUDIT_RETENTION_DAYS (60) must be at least LOG_RETENTION_DAYS (90): the audit outlives the log',
    );
  });

  it('keeps files in DATA_DIR unless S3_BUCKET names a bucket', () => {
    const local = loadConfig({ DATA_DIR: '/srv/shop' });
    expect(local.storage).toEqual({ kind: 'local', root: '/srv/shop' });
    expect(
      loadConfig({
        S3_BUCKET: 'shop-files',
        S3_ENDPOINT: 'https://minio.internal:9000',
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'shop-files',
      endpoint: 'https://minio.internal:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
    });
    // AWS itself: no endpoint; the region from the SDK's own variable, else us-east-1.
    expect(loadConfig({ S3_BUCKET: 'shop-files' }).storage).toEqual({
      kind: 's3',
      bucket: 'shop-files',
      endpoint: null,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'shop-files', AWS_REGION: 'ap-south-1' }).storage).toMatchObject({
      region: 'ap-south-1',
    });
  });

  it('names a bad S3 variable, and refuses S3 settings without a bucket', () => {
    expect(() => loadConfig({ S3_BUCKET: 'Shop_Files' })).toThrowError(
      /^Invalid environment variable S3_BUCKET/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'shop', S3_ENDPOINT: 'minio:9000' })).toThrowError(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: 'shop', S3_FORCE_PATH_STYLE: 'sure' })).toThrowError(
      /S3_FORCE_PATH_STYLE/,
    );
    for (const env of [
      { S3_ENDPOINT: 'https://minio.internal:9000' },
      { S3_REGION: 'eu-west-1' },
      { S3_FORCE_PATH_STYLE: 'true' },
    ])
      expect(() => loadConfig(env)).toThrowError(/need S3_BUCKET/);
  });
  it('reads SMTP_URL and MAIL_FROM; a bad SMTP_URL is named without its value (it holds the password)', () => {
    const c = loadConfig({
      SMTP_URL: 'smtps://shop:s3cret%21@mail.example.com:465',
      PUBLIC_URL: 'https://shop.example',
    });
    expect(c.mail).toEqual({
      smtpUrl: 'smtps://shop:s3cret%21@mail.example.com:465',
      smtpHost: 'mail.example.com',
      from: null,
      defaultFromAddress: 'no-reply@shop.example',
    });
    expect(loadConfig({}).mail).toMatchObject({ smtpUrl: null, smtpHost: null });
    expect(loadConfig({ MAIL_FROM: '"Zari & Co" <orders@zari.example>' }).mail.from).toEqual({
      name: 'Zari & Co',
      address: 'orders@zari.example',
    });
    expect(loadConfig({ MAIL_FROM: 'orders@zari.example' }).mail.from).toEqual({
      name: null,
      address: 'orders@zari.example',
    });
    expect(() => loadConfig({ MAIL_FROM: 'Zari <not an address>' })).toThrowError(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' })).toThrowError(/MAIL_FROM/);
    for (const bad of ['http://user:hunter2@mail.example.com', 'smtp://user:hunter2@ bad host'])
      expect(() => loadConfig({ SMTP_URL: bad })).toThrowError(
        /^Invalid environment variable SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL$/,
      );
  });
});
