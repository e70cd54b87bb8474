// The provisioning feature's stores: its tokens, and what the identity provider knows of each person.
export { ScimTokenRepository, type ScimTokenRecord } from './scimTokenRepository';
export { ProvisionedUserRepository, type ProvisionedUser } from './provisionedUserRepository';
