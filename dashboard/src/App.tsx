import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Provider as GraphQLProvider } from 'urql';
import { RequireSession } from './features/auth/RequireSession';
import { SessionProvider } from './features/auth/SessionProvider';
import { SignInPage } from './features/auth/SignInPage';
import { AcceptInvitationPage, ResetPasswordPage } from './features/auth/AccountLinkPages';
import { AccountsPage } from './features/accounts/AccountsPage';
import { AlertRulesSection } from './features/alerts/AlertRulesSection';
import { AlertsPage } from './features/alerts/AlertsPage';
import { MailOptInsSection } from './features/alerts/MailOptInsSection';
import { ContactsPage } from './features/contacts/ContactsPage';
import { FeedbackItemPage } from './features/feedback/FeedbackItemPage';
import { FeedbackPage } from './features/feedback/FeedbackPage';
import InsightsPage from './features/insights/InsightsPage';
import { AppLayout, NotFoundPage } from './features/layout/AppLayout';
import { ApiKeysSection } from './features/settings/ApiKeysSection';
import { AuditLogSection } from './features/settings/AuditLogSection';
import { MembersSection } from './features/settings/MembersSection';
import { ScimTokensSection } from './features/scim/ScimTokensSection';
import { TwoFactorSection } from './features/twoFactor/TwoFactorSection';
import { SettingsPage } from './features/settings/SettingsPage';
import { SsoFinishPage } from './features/sso/SsoFinishPage';
import { SingleSignOnSection } from './features/sso/SingleSignOnSection';
import { SsoSignInPage } from './features/sso/SsoSignInPage';
import { ThemesPage } from './features/themes/ThemesPage';
import { WebhooksPage } from './features/webhooks/WebhooksPage';
import { IntegrationsPage } from './features/integrations/IntegrationsPage';
import { adminClient } from './lib/adminClient';

export function App() {
  return (
    <GraphQLProvider value={adminClient}>
      <SessionProvider>
        <BrowserRouter>
          <Routes>
            <Route path="/sign-in" element={<SignInPage />} />
            <Route path="/sign-in/sso" element={<SsoSignInPage />} />
            <Route path="/auth/oidc/callback" element={<SsoFinishPage protocol="oidc" />} />
            <Route path="/auth/saml/complete" element={<SsoFinishPage protocol="saml" />} />
            <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route
              element={
                <RequireSession>
                  <AppLayout />
                </RequireSession>
              }
            >
              <Route index element={<Navigate to="/settings/api-keys" replace />} />
              <Route path="feedback" element={<FeedbackPage />} />
              <Route path="feedback/:id" element={<FeedbackItemPage />} />
              <Route path="insights" element={<InsightsPage />} />
              <Route path="themes" element={<ThemesPage />} />
              <Route path="alerts" element={<AlertsPage />} />
              <Route path="webhooks" element={<WebhooksPage />} />
              <Route path="integrations" element={<IntegrationsPage />} />
              <Route path="contacts" element={<ContactsPage />} />
              <Route path="accounts" element={<AccountsPage />} />
              <Route path="settings" element={<SettingsPage />}>
                <Route index element={<Navigate to="/settings/api-keys" replace />} />
                <Route path="api-keys" element={<ApiKeysSection />} />
                <Route path="members" element={<MembersSection />} />
                <Route path="audit-log" element={<AuditLogSection />} />
                <Route path="scim" element={<ScimTokensSection />} />
                <Route path="two-factor" element={<TwoFactorSection />} />
                <Route path="single-sign-on" element={<SingleSignOnSection />} />
                <Route path="alerts" element={<AlertRulesSection />} />
                <Route path="profile" element={<MailOptInsSection />} />
              </Route>
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </BrowserRouter>
      </SessionProvider>
    </GraphQLProvider>
  );
}
