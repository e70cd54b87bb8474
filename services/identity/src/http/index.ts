// The identity service's HTTP edge: the session cookie and CSRF header, the cookie and no-store of its
// answers, and the internal routes the gateway verifies keys, sessions and what keys made with.
export { clearedSessionCookie, cookieValue, csrfMatches, sessionCookie, sessionTokenOf } from './sessionCookie';
export { AUDIT_PATH, auditRoute } from './auditRoute';
export { KEY_LIVE_PATH, keyLiveRoute } from './keyLiveRoute';
export { MAIL_RECIPIENTS_PATH, mailRecipientsRoute } from './mailRecipientsRoute';
export { useSessionCookie } from './useSessionCookie';
export { VERIFY_KEY_PATH, verifyKeyRoute } from './verifyKeyRoute';
export { VERIFY_SESSION_PATH, verifySessionRoute } from './verifySessionRoute';
