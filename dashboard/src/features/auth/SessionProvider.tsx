import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { adminClient, setCsrfToken } from '../../lib/adminClient';
import { errorInWords } from '../../lib/errorInWords';
import { secondStepOf, type SecondStep } from '../twoFactor/twoFactorQueries';
import { ME_QUERY, SIGN_IN_MUTATION, SIGN_OUT_MUTATION, type Session } from './sessionQueries';

type SessionState =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; session: Session | null };

interface SessionApi {
  state: SessionState;
  /** Resolves to an error in words, the second step two-factor sign-in asks for, or null once signed in. */
  signIn(email: string, password: string): Promise<string | SecondStep | null>;
  signOut(): Promise<string | null>;
  /** Asks the service again, e.g. after an answer said the session has ended. */
  refresh(): void;
  /** Takes a session another mutation opened (accepting an invitation). */
  adopt(session: Session): void;
}

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const adopt = useCallback((session: Session | null) => {
    setCsrfToken(session?.csrfToken ?? '');
    setState({ status: 'ready', session });
  }, []);

  const refresh = useCallback(() => {
    void adminClient
      .query(ME_QUERY, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (result.error) setState({ status: 'error', message: errorInWords(result.error) });
        else adopt(result.data?.me ?? null);
      });
  }, [adopt]);

  useEffect(refresh, [refresh]);

  const api = useMemo<SessionApi>(
    () => ({
      state,
      refresh,
      adopt,
      async signIn(email, password) {
        const result = await adminClient.mutation(SIGN_IN_MUTATION, { email, password }).toPromise();
        const secondStep = secondStepOf(result.error);
        if (secondStep) return secondStep;
        if (result.error || !result.data)
          return result.error ? errorInWords(result.error) : 'Sign-in failed. Please try again.';
        adopt(result.data.signIn);
        return null;
      },
      async signOut() {
        const result = await adminClient.mutation(SIGN_OUT_MUTATION, {}).toPromise();
        if (result.error) return errorInWords(result.error);
        // A fresh page: nothing of the previous member's data stays in memory or in the client's cache.
        window.location.assign('/sign-in');
        return null;
      },
    }),
    [state, refresh, adopt],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession outside SessionProvider');
  return api;
}

/** The signed-in member's session; only for pages under RequireSession. */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.status !== 'ready' || !state.session) throw new Error('useSignedIn outside RequireSession');
  return state.session;
}
