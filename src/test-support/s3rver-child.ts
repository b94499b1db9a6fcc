import S3rver from 's3rver';

/**
 * s3rver in a process of its own (src/test-support/s3.ts starts it): its list continuation tokens are
 * DES-encrypted, which Node 17+ offers only with --openssl-legacy-provider, a flag the test processes should
 * not need. Prints {"port":N} once listening; exits on SIGTERM or when the parent goes away (stdin closes).
 */
const directory = process.argv[2];
if (!directory) throw new Error('usage: s3rver-child.ts <directory>');
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
const stop = () => {
  void server.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
