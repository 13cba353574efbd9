// Wharf's GraphQL explorer: GraphiQL with a token field. Bundled by the server with
// esbuild (explorer/bundle.ts); everything it needs is in the bundle, nothing is
// fetched from elsewhere. Not type-checked (plain JSX): keep it small.
import React, { useCallback, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { ToolbarButton, useExecutionContext } from '@graphiql/react';
import { parse } from 'graphql';
import 'graphiql/graphiql.css';

const TOKEN_KEY = 'wharf.explorer.token';
const ENDPOINT = document.getElementById('wharf-explorer').dataset.endpoint;

const DEFAULT_QUERY = `# Welcome to Wharf's GraphQL explorer.
# Enter a personal access token above, then run a query (Ctrl-Enter).
# Several named operations in this editor run as separate calls with "Run all".

query {
  viewer {
    login
    repositories(first: 10) {
      totalCount
      nodes { nameWithOwner }
    }
  }
}
`;

/** Names of the named operations of a document (empty when it does not parse). */
function operationNames(query) {
  try {
    return parse(query).definitions
      .filter((d) => d.kind === 'OperationDefinition' && d.name)
      .map((d) => d.name.value);
  } catch {
    return [];
  }
}

async function post(token, params, headers) {
  const res = await fetch(ENDPOINT, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `bearer ${token}` } : {}),
    },
    body: JSON.stringify(params),
  });
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { errors: [{ message: `HTTP ${res.status}: ${text}` }] };
  }
}

function RunAllButton({ runAll }) {
  const execution = useExecutionContext({ nonNull: true });
  return (
    <ToolbarButton
      label="Run all named operations, each as its own call"
      onClick={() => { runAll.current = true; execution.run(); }}
    >
      <span className="wharf-run-all">all</span>
    </ToolbarButton>
  );
}

function Explorer() {
  const [draft, setDraft] = useState(() => localStorage.getItem(TOKEN_KEY) ?? '');
  const [token, setToken] = useState(draft);
  const runAll = useRef(false);

  const commit = useCallback(() => {
    localStorage.setItem(TOKEN_KEY, draft);
    setToken(draft);
  }, [draft]);

  // A new token makes a new fetcher, and GraphiQL introspects the schema again with it.
  const fetcher = useMemo(() => async (params, opts) => {
    const headers = opts?.headers ?? {};
    const names = runAll.current ? operationNames(params.query) : [];
    runAll.current = false;
    if (names.length > 1) {
      const results = {};
      for (const operationName of names) results[operationName] = await post(token, { ...params, operationName }, headers);
      return results;
    }
    return post(token, params, headers);
  }, [token]);

  return (
    <div className="wharf-explorer">
      <form className="wharf-token" onSubmit={(e) => { e.preventDefault(); commit(); }}>
        <label htmlFor="wharf-token-input">Token</label>
        <input
          id="wharf-token-input" type="password" autoComplete="off" placeholder="Personal access token"
          value={draft} onChange={(e) => setDraft(e.target.value)} onBlur={commit}
        />
        <button type="submit" id="wharf-token-apply">Use token</button>
        <span className="wharf-token-state">{token ? 'token set' : 'no token: queries answer 401'}</span>
      </form>
      <div className="wharf-graphiql">
        <GraphiQL
          fetcher={fetcher}
          defaultQuery={DEFAULT_QUERY}
          shouldPersistHeaders={false}
          toolbar={{ additionalContent: <RunAllButton runAll={runAll} /> }}
        />
      </div>
    </div>
  );
}

createRoot(document.getElementById('wharf-explorer')).render(<Explorer />);
