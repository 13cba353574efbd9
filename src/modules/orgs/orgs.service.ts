// The orgs module's public face: other modules import organizations, memberships and
// teams from here; inside the module each resource has its own service file.
export * from './organizations.service.ts';
export * from './memberships.service.ts';
export * from './teams.service.ts';
export { SCOPES, canCreateRepositories, isOrgOwner, isOwnerMembership, ownsOrganization, requireOrgOwner } from './orgs.permissions.ts';
