/**
 * The Node.js releases the store refuses to start on, with why and what to run instead (README, "Node.js
 * versions"). Refused rather than warned about: on Node 24 from 24.19 the process aborts (SIGABRT,
 * `RemoveEnvironmentCleanupHook`) when the garbage collector frees a better-sqlite3 12 database or statement,
 * at any moment of a shop's day, and below 20.19 / 22.12 the dependencies' ES modules cannot be required.
 */
export function nodeRefusal(version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const instead = 'Run the store on Node 22 (22.12 or later) or Node 26.';
  if (major === 24 && minor >= 19) {
    return `Node ${version} is not supported: from 24.19 it aborts the process when it frees a better-sqlite3 12 database (the store's SQLite driver). ${instead}`;
  }
  if (major < 20 || (major === 20 && minor < 19) || (major === 22 && minor < 12)) {
    return `Node ${version} is too old: the store's dependencies need 20.19 or 22.12 and later to load. ${instead}`;
  }
  return null;
}
