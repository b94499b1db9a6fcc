/**
 * The AWS SDK warns, on every Node before 22, that its releases from January 2027 will need Node 22: nine
 * lines on standard error from each process that makes an S3 client, and again from each test file (its
 * "already warned" flag lives in the module, which every test file loads anew), so a test run or a store with
 * its command-line tools repeated it dozens of times. The store says it once, in one line, when S3 storage is
 * first opened, and turns the SDK's own warning off for this process and the processes it starts.
 */
const SDK_SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';
/** The first Node major the SDK's releases from January 2027 accept. */
const SDK_NODE_MAJOR = 22;

export function warnOnceAboutSdkNodeSupport(nodeVersion: string = process.version): void {
  // Set by an earlier call here, by the process that started this one, or by an operator who has read it.
  if (process.env[SDK_SWITCH] === 'true') return;
  process.env[SDK_SWITCH] = 'true';
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  if (major >= SDK_NODE_MAJOR) return;
  process.emitWarning(
    `S3 storage: AWS SDK releases from January 2027 need Node.js ${SDK_NODE_MAJOR} or newer, and this is ` +
      `Node ${nodeVersion}: move to a newer one (README, "Node.js versions").`,
    'NodeVersionNotice',
  );
}
