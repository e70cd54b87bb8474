import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../lib/ConfirmDialog';
import { errorInWords } from '../../lib/errorInWords';
import { formatTime } from '../../lib/formatTime';
import { canChangeDirectory } from '../auth/roles';
import { useSignedIn } from '../auth/SessionProvider';
import { StatusMessage } from '../layout/StatusMessage';
import type { DirectoryDefinition, DirectoryRecord } from './directoryTypes';
import { ImportDialog } from './ImportDialog';
import { RecordDialog } from './RecordDialog';
import { Pager } from '../../lib/Pager';

const PAGE_SIZE = 25;

type Editing<T> =
  { kind: 'new' } | { kind: 'edit'; record: T } | { kind: 'delete'; record: T } | { kind: 'import' } | null;

/**
 * A directory's page (contacts, accounts): the list with its search and page in the address (so a view can
 * be bookmarked and shared), and for everyone but viewers: new, edit, delete (confirmed) and CSV import.
 */
export function DirectoryPage<T extends DirectoryRecord, I>({ directory }: { directory: DirectoryDefinition<T, I> }) {
  const session = useSignedIn();
  const canChange = canChangeDirectory(session.member.role);
  const [params, setParams] = useSearchParams();
  const search = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [{ data, error, fetching }, reexecute] = useQuery({
    query: directory.list,
    variables: { search: search || null, skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE },
  });
  const [editing, setEditing] = useState<Editing<T>>(null);
  const reload = () => reexecute({ requestPolicy: 'network-only' });
  const total = data?.page.total ?? 0;
  const items = data?.page.items ?? [];
  const at = (n: number) =>
    `?${new URLSearchParams({ ...(search ? { q: search } : {}), ...(n > 1 ? { page: String(n) } : {}) })}`;

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('q') ?? '').trim();
    setParams(text ? { q: text } : {});
  };

  return (
    <section aria-labelledby="directory-title">
      <div className="section-head">
        <h1 id="directory-title">{directory.title}</h1>
        {canChange && (
          <div className="buttons">
            <button type="button" onClick={() => setEditing({ kind: 'import' })}>
              Import CSV
            </button>
            <button type="button" className="primary" onClick={() => setEditing({ kind: 'new' })}>
              New {directory.singular}
            </button>
          </div>
        )}
      </div>
      {!canChange && (
        <p className="hint">Viewers can read {directory.plural}; an owner, admin or member can change them.</p>
      )}
      <form role="search" className="search" onSubmit={onSearch}>
        <label htmlFor="directory-search">Search {directory.plural}</label>
        <div className="search-row">
          <input
            id="directory-search"
            name="q"
            type="search"
            defaultValue={search}
            key={search}
            maxLength={200}
            aria-describedby="directory-search-hint"
          />
          <button type="submit">Search</button>
        </div>
        <p id="directory-search-hint" className="hint">
          {directory.searchHint}
        </p>
      </form>
      {error && (
        <StatusMessage error retry={reload}>
          {errorInWords(error)}
        </StatusMessage>
      )}
      {!data && fetching && <StatusMessage>Loading {directory.plural}…</StatusMessage>}
      {data && items.length === 0 && (
        <StatusMessage>
          {search
            ? `No ${directory.plural} match "${search}".`
            : page > 1
              ? `There are no ${directory.plural} on page ${page}.`
              : `No ${directory.plural} yet.${canChange ? ` Add one with "New ${directory.singular}", or import a CSV file.` : ''}`}
        </StatusMessage>
      )}
      {items.length > 0 && (
        <>
          <div className="table-wrap" role="region" aria-label={directory.title} tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  {directory.columns.map((column) => (
                    <th key={column.label} scope="col">
                      {column.label}
                    </th>
                  ))}
                  <th scope="col">Added</th>
                  {canChange && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {items.map((record) => (
                  <tr key={record.id}>
                    <th scope="row">{record.name}</th>
                    {directory.columns.map((column) => (
                      <td key={column.label} data-label={column.label}>
                        {column.value(record)}
                      </td>
                    ))}
                    <td data-label="Added">{formatTime(record.createdAt)}</td>
                    {canChange && (
                      <td className="row-actions">
                        <button type="button" onClick={() => setEditing({ kind: 'edit', record })}>
                          Edit
                        </button>
                        <button type="button" className="danger" onClick={() => setEditing({ kind: 'delete', record })}>
                          Delete
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label={`Pages of ${directory.plural}`}
            page={page}
            pageSize={PAGE_SIZE}
            shown={items.length}
            total={total}
            href={at}
          />
        </>
      )}
      {(editing?.kind === 'new' || editing?.kind === 'edit') && (
        <RecordDialog
          directory={directory}
          record={editing.kind === 'edit' ? editing.record : null}
          onSaved={reload}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'delete' && (
        <DeleteDialog
          directory={directory}
          record={editing.record}
          onDeleted={reload}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'import' && (
        <ImportDialog directory={directory} onImported={reload} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

function DeleteDialog<T extends DirectoryRecord, I>({
  directory,
  record,
  onDeleted,
  onClose,
}: {
  directory: DirectoryDefinition<T, I>;
  record: T;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const [{ fetching }, remove] = useMutation(directory.remove);
  return (
    <ConfirmDialog
      title={`Delete ${record.name}?`}
      confirmLabel="Delete"
      busy={fetching}
      run={() => remove({ id: record.id })}
      onDone={onDeleted}
      onClose={onClose}
    >
      <p>
        The {directory.singular} is deleted for everyone in the organization, and applications following its changes see
        it deleted. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
