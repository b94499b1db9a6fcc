import { useState } from 'react';
import { paths } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { uploadWithProgress } from '../../../lib/upload';

export type ImportIssue = { position: number; id: string | null; reason: string };
export type ImportResult = {
  message: string;
  skipped: ImportIssue[];
  skippedCount: number;
  invalid: ImportIssue[];
  invalidCount: number;
  /** Keys the file has that no product field has: named, so nothing is dropped unseen. */
  ignored: ImportIssue[];
  ignoredCount: number;
};

/**
 * The catalogue versions area's queries and mutations. Publishing or importing replaces products, so
 * those refresh the admin's products and the storefront as well as the versions list.
 */
function useAfterCatalogChange() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.admin.catalog.versions.invalidate(),
      utils.admin.products.invalidate(),
      utils.catalogue.invalidate(),
    ]);
}

export function useCatalogVersions() {
  const versions = trpc.admin.catalog.versions.useQuery();
  const refresh = async () => {
    await versions.refetch();
    toast.success('Catalog versions refreshed');
  };
  return { versions, refresh };
}

export type CatalogVersion = NonNullable<ReturnType<typeof useCatalogVersions>['versions']['data']>[number];

export function useCatalogContent(id: string) {
  return trpc.admin.catalog.content.useQuery({ id }, { retry: false });
}

export function useSetActiveVersion() {
  const after = useAfterCatalogChange();
  return trpc.admin.catalog.setActive.useMutation({
    onSuccess() {
      toast.success('Version set as active successfully');
      void after();
    },
    onError(err) {
      toast.error(err.message || 'Failed to set active version');
    },
  });
}

export function useRemoveVersion() {
  const utils = trpc.useUtils();
  return trpc.admin.catalog.remove.useMutation({
    onSuccess() {
      toast.success('Catalog version deleted successfully');
      void utils.admin.catalog.versions.invalidate();
    },
    // Deleting needs a fresh confirmation, as publishing does (the tRPC link asks for it): a cancelled
    // confirmation says so with the server's message.
    onError(err) {
      toast.error(err.message || 'Failed to delete catalog version');
    },
  });
}

export function useExportCatalog(onDone: () => void) {
  const after = useAfterCatalogChange();
  return trpc.admin.catalog.export.useMutation({
    onSuccess() {
      toast.success('Catalog exported successfully');
      void after();
      onDone();
    },
    onError() {
      toast.error('Failed to export catalog');
    },
  });
}

/** Sends a YAML file to import, with progress; null progress means idle. */
export function useImportCatalog() {
  const after = useAfterCatalogChange();
  const [progress, setProgress] = useState<number | null>(null);
  const importFile = async (file: File, mode: 'add' | 'overwrite') => {
    setProgress(0);
    // The mode goes first: the server reads the fields before the file.
    const result = await uploadWithProgress<ImportResult>(
      paths.adminCatalogImport(),
      [
        { field: 'mode', value: mode },
        { field: 'file', file },
      ],
      { onProgress: setProgress, fallbackMessage: 'Failed to import catalog' },
    );
    setProgress(null);
    if (result.ok) {
      toast.success(result.body.message ?? 'Catalog imported');
      void after();
    } else {
      toast.error(result.message);
    }
    return result;
  };
  return { importFile, progress, busy: progress !== null };
}
