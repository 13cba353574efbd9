// SSH public keys: a user's own keys and repositories' deploy keys.
export interface SshKey {
  id: number;
  /** The owning user for a user key; null for a deploy key. */
  userId: number | null;
  /** The repository of a deploy key; null for a user key. */
  repositoryId: number | null;
  title: string;
  key: string;
  fingerprint: string;
  readOnly: boolean;
  addedById: number | null;
  createdAt: string;
  lastUsed: string | null;
}
