import { callService, connectionPrincipal, type ServiceCallOptions } from './serviceCall';

export type DirectoryService = 'contacts' | 'accounts';

/**
 * The contacts and accounts services' own admin operations (createContact, updateContact, contacts(search:),
 * createAccount, ...), called as the connection with an admin's role: their rules decide what a valid record
 * is, exactly as for a person in the web application.
 */
export interface DirectoryPort {
  call<T>(
    service: DirectoryService,
    connection: { id: string; orgId: string },
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<T>;
}

/** `urls`: each service's GraphQL URL; its admin schema is at /admin/graphql of the same origin. */
export function directoryPort(urls: Record<DirectoryService, string>, options: ServiceCallOptions): DirectoryPort {
  return {
    call: (service, connection, query, variables = {}) =>
      callService(
        options,
        new URL('/admin/graphql', urls[service]).href,
        connectionPrincipal(connection, 'member'),
        query,
        variables,
      ),
  };
}
