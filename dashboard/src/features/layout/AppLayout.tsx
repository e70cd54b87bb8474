import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useSession, useSignedIn } from '../auth/SessionProvider';

/** Only the areas that are built are linked (docs/dashboard.md), never placeholders. */
const AREAS = [
  { to: '/feedback', label: 'Feedback' },
  { to: '/insights', label: 'Insights' },
  { to: '/themes', label: 'Themes' },
  { to: '/alerts', label: 'Alerts' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/integrations', label: 'Integrations' },
  { to: '/contacts', label: 'Contacts' },
  { to: '/accounts', label: 'Accounts' },
  { to: '/settings', label: 'Settings' },
];

export function AppLayout() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="app">
      <header className="top">
        <a className="brand" href="/">
          Feedback Intelligence
        </a>
        <nav aria-label="Main">
          <ul>
            {AREAS.map((area) => (
              <li key={area.to}>
                <NavLink to={area.to}>{area.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {session.member.email} · {session.member.role} · {session.organization.name}
          </span>
          <button type="button" onClick={async () => setError(await signOut())}>
            Sign out
          </button>
        </div>
      </header>
      {error && (
        <p role="alert" className="error banner">
          {error}
        </p>
      )}
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <a href="/settings">Go to Settings</a>.
      </p>
    </section>
  );
}
