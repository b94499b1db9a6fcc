/**
 * Fault: a full disk during an upload and during imports. The data folder goes on a small filesystem of
 * its own (tmpfs, else a loop-mounted ext4 image; both need root), which is then filled. Where neither
 * can be mounted, the step runs a clearly labelled simulation: RLIMIT_FSIZE set to 0 on the running server
 * (prlimit), so no file of the server may grow, which fails writes much like ENOSPC does. A simulation is
 * not the proof, so the step then FAILS unless the run was told to accept it (--allow-simulated-disk-full,
 * or --simulate-full-disk, which asks for it): a soak that could not stage the fault must not read as passed.
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../launcher/server.js';
import { importYaml, photo, seedFolder } from '../fixtures.js';
import { errorMessage, multipart, type Reply, send, signIn } from '../http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningServer, startSoakServer } from '../server.js';
import { Checks, type StepResult } from '../step.js';
import { catalogueState, verifyFolder, withDb } from '../store-checks.js';

type Disk = { kind: string; root: string; release(): void };

function run(command: string, args: string[]): { ok: boolean; text: string } {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return { ok: r.status === 0, text: (r.error?.message ?? `${r.stderr}${r.stdout}`).trim() };
}

/** A small filesystem of its own, or null with the reasons each way failed. */
function mountSmallDisk(tries: string[]): Disk | null {
  const root = mkdtempSync(path.join(tmpdir(), 'store-soak-disk-'));
  const tmpfs = run('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', root]);
  if (tmpfs.ok) {
    return {
      kind: 'tmpfs of 8 MiB',
      root,
      release: () => {
        run('umount', [root]);
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  tries.push(`mount -t tmpfs: ${tmpfs.text || 'failed'}`);
  const image = `${root}.img`;
  writeFileSync(image, '');
  truncateSync(image, 16 * 1024 * 1024);
  const mkfs = run('mkfs.ext4', ['-q', '-F', image]);
  const loop = mkfs.ok ? run('mount', ['-o', 'loop', image, root]) : mkfs;
  if (loop.ok) {
    return {
      kind: 'loop-mounted ext4 image of 16 MiB',
      root,
      release: () => {
        run('umount', [root]);
        rmSync(image, { force: true });
        rmSync(root, { recursive: true, force: true });
      },
    };
  }
  tries.push(`loop-mounted ext4: ${loop.text || 'failed'}`);
  rmSync(image, { force: true });
  rmSync(root, { recursive: true, force: true });
  return null;
}

/** Writes a filler file until the filesystem refuses more; returns how many bytes it took. */
function fill(root: string): number {
  const fd = openSync(path.join(root, 'filler'), 'w');
  let bytes = 0;
  try {
    for (const chunk of [Buffer.alloc(1024 * 1024), Buffer.alloc(4096), Buffer.alloc(512)]) {
      for (;;) {
        try {
          bytes += writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}

const refusedClearly = (r: Reply) => r.status >= 400 && errorMessage(r) !== null;
const shown = (r: Reply) => `${r.status} "${errorMessage(r) ?? r.body.slice(0, 100)}"`;

export async function diskFullStep(opts: {
  ci: boolean;
  /** Do not try to mount: simulate (and accept the simulation). */
  simulate: boolean;
  /** Accept the simulation where no small filesystem can be mounted (not root, no tmpfs). */
  allowSimulated: boolean;
}): Promise<StepResult> {
  const started = performance.now();
  const checks = new Checks();
  const tries: string[] = [];
  const disk = opts.simulate ? null : mountSmallDisk(tries);
  for (const t of tries) checks.note(`could not mount (${t})`);
  if (opts.simulate) checks.note('mounting not tried (--simulate-full-disk)');
  const simulated = disk === null;
  if (simulated && !opts.simulate && !opts.allowSimulated) {
    checks.check(
      false,
      `NOT PROVEN: no small filesystem could be mounted${process.getuid?.() === 0 ? '' : ' (not root)'}, so a real full disk was not staged. Run the soak as root (CI does), or pass --allow-simulated-disk-full to accept the simulation below instead`,
    );
  }
  if (simulated && !run('prlimit', ['--version']).ok) {
    checks.skip(
      'no small filesystem could be mounted and prlimit is missing: no honest way to fill the disk here',
    );
    return checks.result('Fault: full disk during upload and import', started);
  }
  const root = disk?.root ?? mkdtempSync(path.join(tmpdir(), 'store-soak-disk-'));
  checks.note(
    simulated
      ? 'SIMULATED full disk: RLIMIT_FSIZE=0 on the running server (prlimit), so no file may grow (EFBIG); a real ENOSPC needs a mount, which was not possible'
      : `real full disk: the data folder is on a ${disk.kind}, filled with a filler file`,
  );
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  let server: RunningServer | null = null;
  const upload = (port: number, cookie: string, productId: string, data: Buffer) => {
    const form = multipart({}, { field: 'file', name: 'full-disk.jpg', type: 'image/jpeg', data });
    return send({
      port,
      method: 'POST',
      path: `/api/admin/products/${productId}/media`,
      headers: { cookie, 'content-type': form.contentType },
      body: form.body,
      timeoutMs: 60_000,
    });
  };
  const importFile = (port: number, cookie: string, mode: string, yaml: string) => {
    const form = multipart(
      { mode },
      { field: 'file', name: 'full.yaml', type: 'application/yaml', data: Buffer.from(yaml) },
    );
    return send({
      port,
      method: 'POST',
      path: '/api/admin/catalog/import',
      headers: { cookie, 'content-type': form.contentType },
      body: form.body,
      timeoutMs: 60_000,
    });
  };
  try {
    await seedFolder(dataDir, opts.ci ? 100 : 300);
    const port = await freePort();
    server = await startSoakServer({ dataDir, port });
    const cookie = await signIn(port, ADMIN_EMAIL, ADMIN_PASSWORD);
    const productId = await withDb(dataDir, async (db) => {
      const row = await db.selectFrom('products').select('id').orderBy('id').executeTakeFirstOrThrow();
      return row.id;
    });
    const small = await photo(800, 600);
    const first = await upload(port, cookie, productId, small);
    checks.check(first.status === 201, `with free space, an upload works (${first.status})`);
    const before = await withDb(dataDir, catalogueState);

    if (simulated) {
      const limited = run('prlimit', ['--pid', String(server.pid), '--fsize=0:']);
      if (
        !checks.check(limited.ok, `prlimit --fsize=0 on the server: ${limited.ok ? 'set' : limited.text}`)
      ) {
        return checks.result('Fault: full disk during upload and import', started);
      }
    } else {
      checks.note(`filled the disk with ${(fill(root) / 1024 / 1024).toFixed(1)} MiB`);
    }

    const up = await upload(port, cookie, productId, await photo(1600, 1200));
    checks.check(refusedClearly(up), `upload on a full disk is refused with a message: ${shown(up)}`);
    const over = await importFile(port, cookie, 'overwrite', importYaml(opts.ci ? 100 : 300, 'full_over'));
    checks.check(
      refusedClearly(over),
      `overwrite import on a full disk is refused with a message: ${shown(over)}`,
    );
    const added = await importFile(port, cookie, 'add', importYaml(opts.ci ? 100 : 300, 'full_add'));
    const afterAdd = await withDb(dataDir, catalogueState);
    if (added.status === 200) {
      checks.check(
        afterAdd.products === before.products + (opts.ci ? 100 : 300),
        `add import on a full disk fit in the space SQLite had: 200, and all its products are there (${afterAdd.products})`,
      );
    } else {
      checks.check(
        refusedClearly(added),
        `add import on a full disk is refused with a message: ${shown(added)}`,
      );
      checks.check(
        afterAdd.checksum === before.checksum,
        'the catalogue is unchanged after the refused add import',
      );
    }
    const health = await send({ port, path: '/healthz' });
    checks.check(
      health.status === 200,
      `the server keeps serving reads on a full disk (/healthz ${health.status})`,
    );
    checks.add(
      await verifyFolder(dataDir, {
        catalogue: [
          { name: 'previous', state: before },
          ...(added.status === 200 ? [{ name: 'previous + added', state: afterAdd }] : []),
        ],
        paidSessions: [],
      }),
    );

    if (simulated) run('prlimit', ['--pid', String(server.pid), '--fsize=unlimited:']);
    else rmSync(path.join(root, 'filler'), { force: true });
    const again = await upload(port, cookie, productId, small);
    checks.check(again.status === 201, `with space again, the same upload works (${again.status})`);
    const importAgain = await importFile(
      port,
      cookie,
      'add',
      importYaml(20, `full_again_${Date.now().toString(36)}`),
    );
    checks.check(importAgain.status === 200, `with space again, an import works (${importAgain.status})`);
    const exit = await server.stop();
    server = null;
    checks.check(exit.code === 0, `the server stops cleanly afterwards (exit ${exit.code ?? exit.signal})`);
    // The refused writes must have cleaned up after themselves: no crash happened, so no sweep is due.
    checks.add(await verifyFolder(dataDir, { paidSessions: [] }));
  } finally {
    await server?.kill();
    if (disk) disk.release();
    else rmSync(root, { recursive: true, force: true });
  }
  return checks.result(
    `Fault: full disk during upload and import${simulated ? ' (SIMULATED with RLIMIT_FSIZE)' : ''}`,
    started,
  );
}
