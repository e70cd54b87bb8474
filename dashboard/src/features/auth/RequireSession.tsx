import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { StatusMessage } from '../layout/StatusMessage';
import { useSession } from './SessionProvider';

/** Every page but sign-in needs a session: without one, sign-in, then back to the page asked for. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state, refresh } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <StatusMessage>Loading…</StatusMessage>;
  if (state.status === 'error')
    return (
      <StatusMessage error retry={refresh}>
        {state.message}
      </StatusMessage>
    );
  if (!state.session) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}
