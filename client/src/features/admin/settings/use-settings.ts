import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { uploadWithProgress } from '../../../lib/upload';

/** The settings area's queries and mutations. Saved settings show on the storefront at once. */
export function useStoredSettings() {
  return trpc.admin.settings.get.useQuery(undefined, { gcTime: 0 });
}

export function useSaveSettings() {
  const utils = trpc.useUtils();
  return trpc.admin.settings.update.useMutation({
    onSuccess() {
      toast.success('Settings saved');
      void utils.site.settings.invalidate();
      void utils.admin.settings.get.invalidate();
    },
    onError(err) {
      toast.error(
        err.data?.code === 'BAD_REQUEST'
          ? 'Please correct the highlighted fields.'
          : 'Failed to save settings',
      );
    },
  });
}

/** Uploads a banner picture; the server re-encodes it and answers the URL the form then saves. */
export async function uploadBannerImage(
  file: File,
  onProgress: (percent: number) => void,
): Promise<string | null> {
  const result = await uploadWithProgress<{ url?: string }>(
    paths.adminBannerImageUpload(),
    [{ field: 'file', file }],
    { onProgress, fallbackMessage: 'Upload failed' },
  );
  if (!result.ok || !result.body.url) {
    toast.error(result.ok ? 'Upload failed' : result.message);
    return null;
  }
  toast.success('Banner image uploaded; save the settings to use it');
  return result.body.url;
}
