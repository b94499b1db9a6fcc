import { ensureChromium } from './support/chromium';
import { startServer } from './support/server';

export default async function globalSetup() {
  process.env.CHROMIUM_PATH = ensureChromium();
  const server = await startServer();
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => server.stop();
}
