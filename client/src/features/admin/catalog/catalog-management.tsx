import { type FormEvent, useId, useState } from 'react';
import { splitTags } from '../../../../../src/shared/catalog-input';
import { Button, buttonClass } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../lib/toast';
import { trpc } from '../../../lib/trpc';
import { postWithProgress } from '../../../lib/upload';

const created = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

type ImportIssue = { position: number; id: string | null; reason: string };
type ImportResult = {
  message: string;
  skipped: ImportIssue[];
  skippedCount: number;
  invalid: ImportIssue[];
  invalidCount: number;
};

/** Export, import, publish and roll back catalogue versions (YAML). Used as a dashboard tab and a dialog. */
export function CatalogManagement() {
  const [tab, setTab] = useState<'versions' | 'viewer'>('versions');
  const [selected, setSelected] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);
  const utils = trpc.useUtils();
  const versions = trpc.admin.catalog.versions.useQuery();
  const afterCatalogChange = () => {
    void utils.admin.catalog.versions.invalidate();
    void utils.admin.products.invalidate();
    void utils.catalogue.invalidate();
  };
  const setActive = trpc.admin.catalog.setActive.useMutation({
    onSuccess() {
      toast.success('Version set as active successfully');
      afterCatalogChange();
    },
    onError(err) {
      toast.error(err.message || 'Failed to set active version');
    },
  });
  const remove = trpc.admin.catalog.remove.useMutation({
    onSuccess() {
      toast.success('Catalog version deleted successfully');
      void utils.admin.catalog.versions.invalidate();
    },
    onError() {
      toast.error('Failed to delete catalog version');
    },
  });

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="font-serif text-2xl">Catalog Management</h2>
          <p className="text-sm text-muted">Export, import, and manage your product catalog versions</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={async () => {
              await versions.refetch();
              toast.success('Catalog versions refreshed');
            }}
          >
            Refresh
          </Button>
          <Button variant="secondary" onClick={() => setDialog('export')}>
            Export Catalog
          </Button>
          <Button onClick={() => setDialog('import')}>Import Catalog</Button>
        </div>
      </div>

      <div role="tablist" aria-label="Catalog" className="mt-6 flex gap-1 border-b border-stone-line">
        {(['versions', 'viewer'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            disabled={t === 'viewer' && !selected}
            onClick={() => setTab(t)}
            className={`-mb-px border-b-2 px-4 py-2 text-sm disabled:opacity-40 ${tab === t ? 'border-maroon font-medium text-maroon' : 'border-transparent text-muted'}`}
          >
            {t === 'versions' ? 'Catalog Versions' : 'YAML Viewer'}
          </button>
        ))}
      </div>

      {tab === 'versions' ? (
        <div role="tabpanel" className="py-4">
          {versions.isPending ? (
            <div className="skeleton h-24 rounded" aria-hidden="true" />
          ) : !versions.data || versions.data.length === 0 ? (
            <p className="text-sm text-muted">
              No catalog versions found. Export a catalog to create a version.
            </p>
          ) : (
            <ul className="divide-y divide-stone-line">
              {versions.data.map((v) => (
                <li
                  key={v.id}
                  className="flex flex-wrap items-center justify-between gap-3 py-3"
                  data-testid="catalog-version"
                >
                  <div className="min-w-0">
                    <p className="font-medium">
                      {v.label || 'Unnamed Version'}
                      {v.isActive ? (
                        <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-900">
                          Active
                        </span>
                      ) : null}
                      {v.kind === 'backup' ? <span className="ml-2 text-xs text-muted">backup</span> : null}
                    </p>
                    <p className="text-xs text-muted">
                      {created.format(new Date(v.createdAt))} · {v.productCount} products
                    </p>
                    {v.tags.length > 0 ? (
                      <div className="mt-1 flex flex-wrap gap-1">
                        {v.tags.map((t) => (
                          <span key={t} className="rounded-full bg-sand px-2 py-0.5 text-xs">
                            {t}
                          </span>
                        ))}
                      </div>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="ghost"
                      className="px-3 py-1.5"
                      onClick={() => {
                        setSelected(v.id);
                        setTab('viewer');
                      }}
                    >
                      View
                    </Button>
                    {!v.isActive ? (
                      <Button
                        variant="secondary"
                        className="px-3 py-1.5"
                        disabled={setActive.isPending}
                        onClick={() => {
                          if (
                            window.confirm(
                              'Publish this version? The live catalogue is replaced by it; the current catalogue is saved as a backup version first.',
                            )
                          ) {
                            setActive.mutate({ id: v.id });
                          }
                        }}
                      >
                        Set Active
                      </Button>
                    ) : null}
                    <a
                      className={buttonClass('ghost', 'px-3 py-1.5')}
                      href={`/api/admin/catalog/versions/${encodeURIComponent(v.id)}/download`}
                    >
                      Download
                    </a>
                    <Button
                      variant="ghost"
                      className="px-3 py-1.5 text-red-800"
                      onClick={() => {
                        if (window.confirm('Are you sure you want to delete this catalog version?'))
                          remove.mutate({ id: v.id });
                      }}
                    >
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <div role="tabpanel" className="py-4">
          {selected ? <YamlViewer id={selected} /> : null}
        </div>
      )}
      {dialog === 'export' ? (
        <ExportDialog onClose={() => setDialog(null)} onDone={afterCatalogChange} />
      ) : null}
      {dialog === 'import' ? (
        <ImportDialog onClose={() => setDialog(null)} onDone={afterCatalogChange} />
      ) : null}
    </div>
  );
}

function YamlViewer({ id }: { id: string }) {
  const content = trpc.admin.catalog.content.useQuery({ id }, { retry: false });
  if (content.isPending) return <div className="skeleton h-64 rounded" aria-hidden="true" />;
  if (content.isError) {
    return (
      <p role="alert" className="text-sm text-red-800">
        Error: Could not load catalog content ({content.error.message})
      </p>
    );
  }
  return (
    <textarea
      readOnly
      aria-label="Catalog YAML"
      value={content.data.content}
      rows={24}
      className="w-full rounded-lg border border-stone-line bg-sand/30 p-3 font-mono text-xs"
    />
  );
}

function ExportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [label, setLabel] = useState('');
  const [tags, setTags] = useState('');
  const exportCatalog = trpc.admin.catalog.export.useMutation({
    onSuccess() {
      toast.success('Catalog exported successfully');
      onDone();
      onClose();
    },
    onError() {
      toast.error('Failed to export catalog');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    exportCatalog.mutate({ label: label.trim() || undefined, tags: splitTags(tags) });
  };
  return (
    <Modal title="Export Catalog" onClose={onClose}>
      <form onSubmit={submit} className="space-y-4">
        <TextField
          label="Label (optional)"
          placeholder="Spring Collection 2025"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
        <TextField
          label="Tags (comma-separated)"
          placeholder="spring, eid"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
        />
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={exportCatalog.isPending}>
            {exportCatalog.isPending ? 'Exporting...' : 'Export'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function ImportDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'add' | 'overwrite'>('add');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError('Please select a file to import');
      toast.error('Please select a file to import');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      // The mode goes first: the server reads the fields before the file.
      form.append('mode', mode);
      form.append('file', file, file.name);
      setProgress(0);
      const res = await postWithProgress('/api/admin/catalog/import', form, setProgress);
      const body = (res.body ?? {}) as Partial<ImportResult> & { message?: string };
      if (res.status < 200 || res.status >= 300) throw new Error(body.message ?? 'Failed to import catalog');
      setResult(body as ImportResult);
      toast.success(body.message ?? 'Catalog imported');
      onDone();
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Failed to import catalog';
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <Modal title="Import Catalog" onClose={onClose}>
      <form onSubmit={submit} className="space-y-4">
        <div>
          <label htmlFor={fileId} className="block text-sm font-medium">
            YAML file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".yaml,.yml"
            required
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="mt-1 block text-sm"
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">Mode</legend>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="import-mode"
              checked={mode === 'add'}
              onChange={() => setMode('add')}
              className="accent-maroon"
            />
            Add new products only
          </label>
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="import-mode"
              checked={mode === 'overwrite'}
              onChange={() => setMode('overwrite')}
              className="accent-maroon"
            />
            Overwrite existing products
          </label>
        </fieldset>
        {busy && progress !== null ? (
          <progress className="w-full" max={100} value={progress} aria-label="Upload progress" />
        ) : null}
        {error ? (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        {result ? (
          <div
            role="status"
            className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
            data-testid="import-result"
          >
            <p>{result.message}</p>
            {result.skippedCount > 0 ? (
              <p>{result.skippedCount} skipped (already in the catalogue).</p>
            ) : null}
            {result.invalidCount > 0 ? (
              <ul className="mt-1 list-disc pl-5 text-red-800">
                {result.invalid.map((i) => (
                  <li key={`${i.position}-${i.id}`}>
                    #{i.position} {i.id ?? ''}: {i.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            {result ? 'Done' : 'Cancel'}
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Importing...' : 'Import'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
