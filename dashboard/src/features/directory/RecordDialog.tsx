import { useId, useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { Dialog } from '../../lib/Dialog';
import { ErrorLine } from '../../lib/ErrorLine';
import type { DirectoryDefinition, DirectoryRecord, FieldSpec } from './directoryTypes';
import { formError, inputOf, valuesOf, type FormValues } from './recordForm';

/** Creates a record, or edits one (`record`): every field labelled, the service's refusal named at its field. */
export function RecordDialog<T extends DirectoryRecord, I>({
  directory,
  record,
  onSaved,
  onClose,
}: {
  directory: DirectoryDefinition<T, I>;
  record: T | null;
  onSaved: () => void;
  onClose: () => void;
}) {
  const [values, setValues] = useState<FormValues>(() => valuesOf(directory.fields, record));
  const [problem, setProblem] = useState<{ message: string; field: string | null } | null>(null);
  const [created, create] = useMutation(directory.create);
  const [updated, update] = useMutation(directory.update);
  const busy = created.fetching || updated.fetching;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const input = inputOf<I>(directory.fields, values);
    const result = record ? await update({ id: record.id, input }) : await create({ input });
    if (result.error) {
      setProblem(formError(directory.fields, result.error));
      return;
    }
    onSaved();
    onClose();
  };

  return (
    <Dialog title={record ? `Edit ${record.name}` : `New ${directory.singular}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {directory.fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            value={values[field.name] ?? ''}
            problem={problem?.field === field.name ? problem.message : null}
            onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
          />
        ))}
        <ErrorLine error={problem && problem.field === null ? problem.message : null} />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Field({
  field,
  value,
  problem,
  onChange,
}: {
  field: FieldSpec;
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const hintId = field.hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-problem` : undefined;
  const common = {
    id,
    name: field.name,
    value,
    required: field.required,
    maxLength: field.maxLength,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': [hintId, problemId].filter(Boolean).join(' ') || undefined,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  const type = { text: 'text', email: 'email', url: 'url', multiline: 'text', fraction: 'number', tags: 'text' }[
    field.kind
  ];
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {field.kind === 'multiline' ? (
        <textarea rows={4} {...common} />
      ) : (
        <input type={type} {...(field.kind === 'fraction' ? { min: 0, max: 1, step: 0.01 } : {})} {...common} />
      )}
      {field.hint && (
        <p id={hintId} className="hint">
          {field.hint}
        </p>
      )}
      {problem && (
        <p id={problemId} role="alert" className="error">
          {problem}
        </p>
      )}
    </div>
  );
}
