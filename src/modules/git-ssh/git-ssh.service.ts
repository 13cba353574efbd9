// Who an SSH key is: a user's key acts as that user (refused while the user is
// suspended), a deploy key as itself on its one repository (keys.findKeyGrant says
// which). Asked at authentication and again when a command runs, so that a key
// removed or a user suspended since the connection opened is refused, as a token
// removed between two HTTP requests is.
import type { AppContext } from '../../context.ts';
import { deployKeyActor, sshKeyActor, type Actor } from '../../domain/actor.ts';
import type { SshKey } from '../keys/keys.model.ts';
import * as keys from '../keys/keys.service.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';

export interface KeyIdentity {
  actor: Actor;
  key: SshKey;
  /** The key's SHA256 fingerprint, for logs. */
  fingerprint: string;
  /** Whom upstream's greeting names: the user's login, or the deploy key's repository. */
  greetingName: string;
}

/** The identity of the key with this wire-format blob, or null when it grants nothing. */
export async function identifyKey(ctx: AppContext, blob: Buffer, ip: string): Promise<KeyIdentity | null> {
  const grant = await keys.findKeyGrant(ctx, blob);
  if (!grant) return null;
  const fingerprint = grant.key.fingerprint;
  if (grant.kind === 'user') {
    const user = (await users.accountsByIds(ctx, [grant.userId])).get(grant.userId);
    if (!user || user.suspendedAt !== null) return null;
    return { key: grant.key, actor: sshKeyActor({ id: user.id, login: user.login, siteAdmin: user.siteAdmin }, ip), fingerprint, greetingName: user.login };
  }
  const [repo] = await repos.reposByIds(ctx, [grant.repositoryId]);
  if (!repo) return null;
  // Pushes are recorded as the one who added the key, else (gone, or never known) the owner.
  const adder = grant.key.addedById === null ? undefined : (await users.accountsByIds(ctx, [grant.key.addedById])).get(grant.key.addedById);
  const recordedAs = adder ?? repo.owner;
  const actor = deployKeyActor(
    { id: recordedAs.id, login: recordedAs.login, siteAdmin: false },
    { keyId: grant.key.id, repositoryId: repo.id, readOnly: grant.readOnly }, ip,
  );
  return { actor, key: grant.key, fingerprint, greetingName: `${repo.owner.login}/${repo.name}` };
}

/** What `ssh git@host` answers (on stderr, exiting 1): upstream's words. */
export function greeting(identity: KeyIdentity): string {
  return `Hi ${identity.greetingName}! You've successfully authenticated, but Wharf does not provide shell access.\n`;
}
