// The integrations service's internal HTTP routes beside its GraphQL endpoint.
export { PLATFORM_ACTIVITY_PATH, platformActivityRoute } from './platformActivityRoute';
