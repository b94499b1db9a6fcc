/**
 * The V8 heap settings the production server runs with (`npm start`, the systemd unit in
 * docs/deployment.md, and every harness that measures or proves the production build: bench, soak, e2e).
 * Why these, with the measurements: docs/decisions/0008-server-memory.md. A test keeps package.json and the
 * deployment guide in step with this list.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-old-space-size=1024', '--max-semi-space-size=8'];
