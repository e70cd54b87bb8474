import { useId, useState, type ChangeEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import type { DirectoryDefinition, DirectoryRecord, ImportReport } from './directoryTypes';

/** The service's limit of one file, in characters: a longer one is refused here before it is sent. */
const MAX_CHARACTERS = 2_000_000;

type Step =
  | { kind: 'choose' }
  | { kind: 'checking' }
  | { kind: 'checked'; csv: string; report: ImportReport }
  | { kind: 'done'; imported: number };

/**
 * A CSV import in two steps: choosing a file has the service check every row (a dry run) and shows every
 * problem of every row; only a file without problems can then be imported, and the service checks it again.
 */
export function ImportDialog<T extends DirectoryRecord, I>({
  directory,
  onImported,
  onClose,
}: {
  directory: DirectoryDefinition<T, I>;
  onImported: () => void;
  onClose: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [{ fetching }, run] = useMutation(directory.importCsv);
  const fileId = useId();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setError(null);
    if (!file) return;
    const csv = await file.text();
    if (csv.length > MAX_CHARACTERS) {
      setStep({ kind: 'choose' });
      setError(
        `The file is too large to import at once (at most ${MAX_CHARACTERS.toLocaleString()} characters). Split it into smaller files.`,
      );
      return;
    }
    setStep({ kind: 'checking' });
    const result = await run({ csv, dryRun: true });
    if (result.error || !result.data) {
      setStep({ kind: 'choose' });
      setError(result.error ? errorInWords(result.error) : 'The file was not checked. Please try again.');
      return;
    }
    setStep({ kind: 'checked', csv, report: result.data.report });
  };

  const importChecked = async (csv: string) => {
    setError(null);
    const result = await run({ csv, dryRun: false });
    if (result.error || !result.data) {
      setError(result.error ? errorInWords(result.error) : 'Nothing was imported. Please try again.');
      return;
    }
    if (result.data.report.problems.length > 0) {
      setStep({ kind: 'checked', csv, report: result.data.report });
      return;
    }
    setStep({ kind: 'done', imported: result.data.report.imported });
    onImported();
  };

  return (
    <Dialog title={`Import ${directory.plural} from CSV`} onClose={onClose}>
      {step.kind === 'done' ? (
        <p role="status">
          Imported {step.imported} {step.imported === 1 ? directory.singular : directory.plural}.
        </p>
      ) : (
        <>
          <label htmlFor={fileId}>CSV file</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => void choose(event)}
            aria-describedby={`${fileId}-hint`}
            disabled={fetching}
          />
          <p id={`${fileId}-hint`} className="hint">
            {directory.importHint} Every row is checked before anything is imported.
          </p>
        </>
      )}
      {step.kind === 'checking' && <p role="status">Checking every row…</p>}
      {step.kind === 'checked' && <CheckedFile report={step.report} directory={directory} />}
      <ErrorLine error={error} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          {step.kind === 'done' ? 'Done' : 'Cancel'}
        </button>
        {step.kind === 'checked' && step.report.problems.length === 0 && step.report.rows > 0 && (
          <button type="button" className="primary" disabled={fetching} onClick={() => void importChecked(step.csv)}>
            Import {step.report.rows} {step.report.rows === 1 ? directory.singular : directory.plural}
          </button>
        )}
      </div>
    </Dialog>
  );
}

function CheckedFile<T extends DirectoryRecord, I>({
  report,
  directory,
}: {
  report: ImportReport;
  directory: DirectoryDefinition<T, I>;
}) {
  if (report.rows === 0 && report.problems.length === 0)
    return <p role="status">The file has no rows to import below its header.</p>;
  if (report.problems.length === 0) {
    return (
      <p role="status">
        All {report.rows} {report.rows === 1 ? 'row is' : 'rows are'} ready to import.
      </p>
    );
  }
  const rows = new Set(report.problems.map((problem) => problem.row)).size;
  return (
    <>
      <p role="alert" className="error">
        {report.problems.length} {report.problems.length === 1 ? 'problem' : 'problems'} in {rows}{' '}
        {rows === 1 ? 'row' : 'rows'}: fix the file and choose it again. Nothing has been imported, and no{' '}
        {directory.singular} of this file will be until every row is right.
      </p>
      <div className="table-wrap problems" role="region" aria-label="Problems in the file" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Column</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.problems.map((problem, index) => (
              <tr key={index}>
                <th scope="row" data-label="Row">
                  {problem.row}
                </th>
                <td data-label="Column">{problem.field}</td>
                <td data-label="Problem">{problem.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
