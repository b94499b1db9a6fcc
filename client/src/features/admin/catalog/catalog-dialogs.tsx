import { splitTags } from '@shared/catalog-versions-input';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../lib/toast';
import { type ImportResult, useExportCatalog, useImportCatalog } from './use-catalog-versions';

/** Saves the live catalogue as a new version, with an optional label and tags. */
export function ExportDialog({ onClose }: { onClose: () => void }) {
  const [label, setLabel] = useState('');
  const [tags, setTags] = useState('');
  const exportCatalog = useExportCatalog(onClose);
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

const NO_FILE = 'Please select a file to import';

/** Imports a YAML file, adding new products only or overwriting existing ones, and reports what it skipped. */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'add' | 'overwrite'>('add');
  const { importFile, progress, busy } = useImportCatalog();
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileId = useId();
  const errorId = useId();
  const missing = error === NO_FILE;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setError(NO_FILE);
      toast.error(NO_FILE);
      document.getElementById(fileId)?.focus();
      return;
    }
    setError(null);
    const answer = await importFile(file, mode);
    if (answer.ok) setResult(answer.body);
    else setError(answer.message);
  };

  return (
    <Modal title="Import Catalog" onClose={onClose}>
      {/* noValidate: the spec's own message, not the browser's, says a file is missing. */}
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <div>
          <label htmlFor={fileId} className="block text-sm font-medium">
            YAML file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".yaml,.yml"
            required
            aria-invalid={missing || undefined}
            aria-describedby={missing ? errorId : undefined}
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
          <p id={errorId} role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
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
            {result.ignoredCount > 0 ? (
              <div className="mt-1 text-amber-900">
                <p>
                  {result.ignoredCount} unknown field{result.ignoredCount === 1 ? '' : 's'} ignored
                  {result.ignored.length < result.ignoredCount
                    ? ` (the first ${result.ignored.length} listed)`
                    : ''}
                  :
                </p>
                <ul className="list-disc pl-5" data-testid="import-ignored">
                  {result.ignored.map((i) => (
                    <li key={`${i.position}-${i.reason}`}>{i.reason}</li>
                  ))}
                </ul>
              </div>
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
