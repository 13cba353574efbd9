// GET /, /meta, /zen, /mascot, /rate_limit.
import type { Router } from '../../http/router.ts';

export function metaRoutes(app: Router): void {
  void app;
}
