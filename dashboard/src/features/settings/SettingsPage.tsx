import { NavLink, Outlet } from 'react-router';
import { useSignedIn } from '../auth/SessionProvider';

/** Settings with one address per section, so each can be bookmarked and shared. */
export function SettingsPage() {
  const session = useSignedIn();
  return (
    <section>
      <h1>Settings</h1>
      <nav aria-label="Settings" className="tabs">
        <NavLink to="/settings/api-keys">API keys</NavLink>
        <NavLink to="/settings/members">Members</NavLink>
        <NavLink to="/settings/audit-log">Audit log</NavLink>
        <NavLink to="/settings/scim">SCIM tokens</NavLink>
        <NavLink to="/settings/two-factor">Two-factor sign-in</NavLink>
        {session.member.role === 'owner' && <NavLink to="/settings/single-sign-on">Single sign-on</NavLink>}
        <NavLink to="/settings/alerts">Alerts</NavLink>
        <NavLink to="/settings/profile">Your emails</NavLink>
      </nav>
      <Outlet />
    </section>
  );
}
