/**
 * Some admin actions need a confirmation from the last 10 minutes (decision 0032): the server answers
 * 412 / PRECONDITION_FAILED, the client asks the admin for a code (or the password) and sends the action
 * again. This is the meeting point: the admin's dialog registers itself as the asker, and the tRPC link and
 * the upload helper ask it. Without a dialog (the storefront) the refusal stands.
 */
type Asker = () => Promise<boolean>;

let asker: Asker | null = null;
let asking: Promise<boolean> | null = null;

export function registerFreshProofAsker(ask: Asker): () => void {
  asker = ask;
  return () => {
    if (asker !== ask) return;
    asker = null;
    asking = null;
  };
}

/** True once the admin has confirmed; false when they cancelled (or nobody can ask). */
export function askForFreshProof(): Promise<boolean> {
  if (!asker) return Promise.resolve(false);
  // Several actions refused at once (a batch) share one dialog.
  asking ??= asker().finally(() => {
    asking = null;
  });
  return asking;
}
