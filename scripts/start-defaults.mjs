/**
 * The settings `npm start` gives the server unless the environment sets them. A terminal that prints a
 * JSON line for every request pushes the start-up banner (the store's address, the admin's, a first
 * password) out of sight within seconds of opening the store in a browser, so the terminal gets warnings
 * and errors only. The admin's Logs page keeps sign-ins, changes, payments and errors either way; the
 * production command (`node … dist/server.js`, docs/deployment.md) keeps LOG_LEVEL's own default, info.
 */
export function applyStartDefaults(env) {
  env.NODE_ENV ??= 'production';
  env.LOG_LEVEL ??= 'warn';
  return env;
}
