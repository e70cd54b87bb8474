import { Link } from 'react-router';
import { useQuery } from 'urql';
import { ErrorLine } from '../../lib/ErrorLine';
import { errorInWords } from '../../lib/errorInWords';
import { FEEDBACK_PEOPLE } from './feedbackQueries';

/** The contact with the item's email and the account of its domain, each when the organization has one. */
export function ItemPeople({ email }: { email: string }) {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const [{ data, error, fetching }] = useQuery({ query: FEEDBACK_PEOPLE, variables: { email, domain } });
  if (error) return <ErrorLine error={errorInWords(error)} />;
  if (!data) return fetching ? <p className="hint">Looking up the contact and account…</p> : null;
  const contact = data.contacts.items.find((candidate) => candidate.email?.toLowerCase() === email.toLowerCase());
  const account = data.accounts.items.find((candidate) => candidate.domain?.toLowerCase() === domain);
  return (
    <ul className="people">
      <li>
        Contact:{' '}
        {contact ? (
          <Link to={`/contacts?q=${encodeURIComponent(email)}`}>
            {contact.name}
            {contact.company ? ` (${contact.company})` : ''}
          </Link>
        ) : (
          <span className="hint">none with {email}</span>
        )}
      </li>
      <li>
        Account:{' '}
        {account ? (
          <Link to={`/accounts?q=${encodeURIComponent(domain)}`}>{account.name}</Link>
        ) : (
          <span className="hint">none with the domain {domain}</span>
        )}
      </li>
    </ul>
  );
}
