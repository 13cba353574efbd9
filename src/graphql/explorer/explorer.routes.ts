// GET /graphql/explorer: the GraphQL explorer page (GraphiQL with a token field), and
// the script and styles it loads from this server only.
import type { Router } from '../../http/router.ts';
import { explorerBundle } from './bundle.ts';

function page(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL explorer · Wharf</title>
<link rel="stylesheet" href="/graphql/explorer/app.css">
<style>
  html, body, #wharf-explorer { height: 100%; margin: 0; }
  .wharf-explorer { display: flex; flex-direction: column; height: 100%; font-family: system-ui, sans-serif; }
  .wharf-token { display: flex; gap: .5rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid #ddd; font-size: 14px; }
  .wharf-token input { flex: 0 1 28rem; padding: .25rem .5rem; font-family: monospace; }
  .wharf-token-state { color: #666; }
  .wharf-graphiql { flex: 1; min-height: 0; }
  .wharf-run-all { font-size: 11px; font-weight: 600; }
</style>
</head>
<body>
<div id="wharf-explorer" data-endpoint="${endpoint}"></div>
<noscript>The explorer needs JavaScript. The API itself answers at ${endpoint}.</noscript>
<script src="/graphql/explorer/app.js"></script>
</body>
</html>
`;
}

export function registerExplorer(app: Router): void {
  const html = page('/graphql');
  // HTML, script and styles: raw answers, no response schema.
  const config = { rateLimit: 'none' as const, rawResponse: true };

  app.get('/graphql/explorer', { config: { ...config, operationId: 'wharf/graphql-explorer' } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(html));

  app.get('/graphql/explorer/app.js', { config: { ...config, operationId: 'wharf/graphql-explorer-script' } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send((await explorerBundle()).js));

  app.get('/graphql/explorer/app.css', { config: { ...config, operationId: 'wharf/graphql-explorer-styles' } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send((await explorerBundle()).css));
}
