// GPG keys as the domain sees them: a primary key and its subkeys, one record each.

export interface GpgKey {
  id: number;
  userId: number;
  /** The primary key's record for a subkey; null for a primary key. */
  primaryKeyId: number | null;
  name: string | null;
  /** 16 upper-case hex digits. */
  keyId: string;
  /** The armored key as uploaded; null on subkeys. */
  rawKey: string | null;
  publicKey: string;
  /** User-id addresses of a primary key; [] on subkeys. */
  emails: string[];
  canSign: boolean;
  canEncryptComms: boolean;
  canEncryptStorage: boolean;
  canCertify: boolean;
  revoked: boolean;
  createdAt: string;
  expiresAt: string | null;
  /** Filled on primary keys by the service. */
  subkeys: GpgKey[];
}

/** A registered key packet that a signature names, with what verification needs of its primary key. */
export interface SigningKeyRecord {
  key: GpgKey;
  /** The armored key it belongs to (the primary's raw_key). */
  rawKey: string;
  /** The primary key's user-id addresses. */
  emails: string[];
  /** The primary key's expiry and revocation bound its subkeys'. */
  primaryExpiresAt: string | null;
  primaryRevoked: boolean;
}
