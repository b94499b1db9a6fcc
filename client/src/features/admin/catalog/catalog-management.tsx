import { useState } from 'react';
import { Tabs } from '../../../components/admin/tabs';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../lib/paths';
import { ExportDialog, ImportDialog } from './catalog-dialogs';
import {
  type CatalogVersion,
  useCatalogContent,
  useCatalogVersions,
  useRemoveVersion,
  useSetActiveVersion,
} from './use-catalog-versions';

const created = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });

/** Export, import, publish and roll back catalogue versions (YAML). Used as a dashboard tab and a dialog. */
export function CatalogManagement() {
  const [tab, setTab] = useState<'versions' | 'viewer'>('versions');
  const [selected, setSelected] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);
  const { refresh } = useCatalogVersions();

  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="font-serif text-2xl">Catalog Management</h2>
          <p className="text-sm text-muted">Export, import, and manage your product catalog versions</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => void refresh()}>
            Refresh
          </Button>
          <Button variant="secondary" onClick={() => setDialog('export')}>
            Export Catalog
          </Button>
          <Button onClick={() => setDialog('import')}>Import Catalog</Button>
        </div>
      </div>

      <Tabs
        label="Catalog"
        tabs={[
          { id: 'versions', label: 'Catalog Versions' },
          { id: 'viewer', label: 'YAML Viewer', disabled: !selected },
        ]}
        active={tab}
        onSelect={setTab}
        listClassName="mt-6"
        panelClassName="py-4"
        panel={(id) =>
          id === 'viewer' ? (
            selected ? (
              <YamlViewer id={selected} />
            ) : null
          ) : (
            <VersionList
              onView={(id) => {
                setSelected(id);
                setTab('viewer');
              }}
            />
          )
        }
      />
      {dialog === 'export' ? <ExportDialog onClose={() => setDialog(null)} /> : null}
      {dialog === 'import' ? <ImportDialog onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

/** The saved versions, newest first, each with its actions. */
function VersionList({ onView }: { onView: (id: string) => void }) {
  const { versions } = useCatalogVersions();
  const setActive = useSetActiveVersion();
  const remove = useRemoveVersion();
  return versions.isPending ? (
    <div className="skeleton h-24 rounded" aria-hidden="true" />
  ) : !versions.data || versions.data.length === 0 ? (
    <p className="text-sm text-muted">No catalog versions found. Export a catalog to create a version.</p>
  ) : (
    <ul className="divide-y divide-stone-line">
      {versions.data.map((v: CatalogVersion) => (
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
            <Button variant="ghost" className="px-3 py-1.5" onClick={() => onView(v.id)}>
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
            <a className={buttonClass('ghost', 'px-3 py-1.5')} href={paths.adminCatalogDownload(v.id)}>
              Download
            </a>
            <Button
              variant="ghost"
              className="px-3 py-1.5 text-red-800"
              disabled={remove.isPending}
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
  );
}

function YamlViewer({ id }: { id: string }) {
  const content = useCatalogContent(id);
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
