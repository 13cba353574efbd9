// An app's webhook URL is judged when saved as a repository or organization hook's is
// (hooks.service.ts): a URL whose host is a loopback, private, link-local or other
// address deliveries may not reach is refused (unless WHARF_WEBHOOK_ALLOWED_HOSTS allows
// it), with the same 422 error; a host name is saved, judged when a delivery resolves it.
import type { AppContext } from '../../context.ts';
import type { FieldError } from '../../domain/errors.ts';
import { addressGuardOf } from '../hooks/hooks.address-guard.ts';

/** The hooks' error when `url` names an address deliveries may not reach, else null. `resource`/`field`: where the URL was given. */
export function unreachableWebhookUrl(ctx: AppContext, url: unknown, resource: string, field: string): FieldError | null {
  if (typeof url !== 'string' || url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null; // the caller judges the URL's form
  }
  const refused = addressGuardOf(ctx.config).refusesLiteral(parsed);
  return refused ? { resource, field, code: 'custom', message: `url is not supported because it ${refused}` } : null;
}
