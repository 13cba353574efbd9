// Every area's routes, in registration order.
import type { RouteModule } from '../http/router.ts';
import { graphqlRoutes } from '../graphql/endpoint.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { collaboratorsRoutes } from './collaborators/collaborators.routes.ts';
import { deploymentsRoutes } from './deployments/deployments.routes.ts';
import { gitDataRoutes } from './git-data/git-data.routes.ts';
import { gitHttpRoutes } from './git-http/git-http.routes.ts';
import { hooksRoutes } from './hooks/hooks.routes.ts';
import { markdownRoutes } from './markdown/markdown.routes.ts';
import { interactionsRoutes } from './interactions/interactions.routes.ts';
import { issuesRoutes } from './issues/issues.routes.ts';
import { assigneesRoutes } from './issues/assignees.routes.ts';
import { labelsRoutes } from './issues/labels.routes.ts';
import { milestonesRoutes } from './issues/milestones.routes.ts';
import { metaRoutes } from './meta/meta.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { orgsRoutes } from './orgs/orgs.routes.ts';
import { pullsRoutes } from './pulls/pulls.routes.ts';
import { reactionsRoutes } from './reactions/reactions.routes.ts';
import { reposRoutes } from './repos/repos.routes.ts';
import { socialRoutes } from './repos/repos.social.routes.ts';
import { statusesRoutes } from './statuses/statuses.routes.ts';
import { teamDiscussionsRoutes } from './team-discussions/team-discussions.routes.ts';
import { templatesRoutes } from './templates/templates.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { verificationRoutes } from './verification/verification.routes.ts';

export const ROUTE_MODULES: RouteModule[] = [usersRoutes, adminRoutes, orgsRoutes, reposRoutes, socialRoutes, collaboratorsRoutes, metaRoutes, templatesRoutes, markdownRoutes, verificationRoutes, gitDataRoutes, gitHttpRoutes, interactionsRoutes, hooksRoutes, deploymentsRoutes, statusesRoutes, teamDiscussionsRoutes, reactionsRoutes, notificationsRoutes, issuesRoutes, labelsRoutes, milestonesRoutes, assigneesRoutes, pullsRoutes, graphqlRoutes];
