import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../app-root.js';

const storageModule = JSON.stringify(path.join(appRoot, 'src/storage/s3-file-storage.ts'));
/** Opens S3 storage twice (no request is sent: making the client is what warns), then runs `next` if any. */
function script(next: string): string {
  return `import { spawnSync } from 'node:child_process';
    import { S3FileStorage } from ${storageModule};
    const options = { bucket: 'b', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true };
    new S3FileStorage(options).close();
    new S3FileStorage(options).close();
    ${next}`;
}

function runNode(code: string) {
  const env = { ...process.env };
  delete env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: appRoot,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe("the AWS SDK's warning about old Node versions", () => {
  it('is said once, in one line, by a process with S3 storage and the process it starts, and only before Node 22', () => {
    // The child's child is what a store's command-line tool or a test's s3rver is to the process that started it.
    const grandchild = JSON.stringify(script(''));
    const run = runNode(
      script(`const inner = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${grandchild}],
        { encoding: 'utf8' });
      process.stderr.write(inner.stderr);
      process.exitCode = inner.status ?? 1;`),
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('NodeVersionSupportWarning');
    const said = run.stderr.match(/AWS SDK releases from January 2027 need Node\.js 22/g) ?? [];
    const major = Number(process.versions.node.split('.')[0]);
    expect(said).toHaveLength(major < 22 ? 1 : 0);
  });
});
