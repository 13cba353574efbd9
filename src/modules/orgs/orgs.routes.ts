// /orgs/{org}, memberships, members, teams.
import type { Router } from '../../http/router.ts';

export function orgsRoutes(app: Router): void {
  void app;
}
