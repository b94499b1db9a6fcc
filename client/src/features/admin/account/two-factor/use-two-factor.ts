import { toast } from '../../../../lib/toast';
import { trpc } from '../../../../lib/trpc';

/** Two-factor sign-in of the admin's own account (decision 0032). */
export function useTwoFactorStatus() {
  return trpc.admin.account.twoFactor.status.useQuery();
}

export function useBeginEnrolment() {
  return trpc.admin.account.twoFactor.begin.useMutation();
}

/** Not followed by a refresh of the status: the recovery codes stay on screen until acknowledged. */
export function useConfirmEnrolment() {
  return trpc.admin.account.twoFactor.confirm.useMutation();
}

export function useDisableTwoFactor(onRefused: (message: string) => void) {
  const utils = trpc.useUtils();
  return trpc.admin.account.twoFactor.disable.useMutation({
    onSuccess() {
      toast.success('Two-factor sign-in is off');
      void utils.admin.account.twoFactor.status.invalidate();
      void utils.auth.me.invalidate();
    },
    onError: (err) => onRefused(err.message),
  });
}

export function useNewRecoveryCodes() {
  const utils = trpc.useUtils();
  return trpc.admin.account.twoFactor.recoveryCodes.useMutation({
    onSuccess() {
      void utils.admin.account.twoFactor.status.invalidate();
    },
    onError: (err) => toast.error(err.message),
  });
}

/** The sign-in's second step. */
export function useVerifyCode(onRefused: (message: string) => void) {
  const utils = trpc.useUtils();
  return trpc.auth.verifyCode.useMutation({
    async onSuccess() {
      await utils.auth.me.invalidate();
    },
    onError: (err) => onRefused(err.message),
  });
}

export function useConfirmIdentity(onRefused: (message: string) => void) {
  return trpc.admin.account.confirmIdentity.useMutation({ onError: (err) => onRefused(err.message) });
}
