// E-mail addresses and GPG keys → API representation. Pure.
import type { UserEmail } from '../users/users.model.ts';
import type { GpgKey } from './verification.model.ts';

export interface EmailView {
  email: string;
  primary: boolean;
  verified: boolean;
  visibility: string | null;
}

export function email(e: UserEmail): EmailView {
  return { email: e.email, primary: e.primary, verified: e.verified, visibility: e.visibility };
}

interface GpgKeyBase {
  id: number;
  primary_key_id: number | null;
  key_id: string;
  public_key: string;
  emails: { email: string; verified: boolean }[];
  subkeys: GpgSubkeyView[];
  can_sign: boolean;
  can_encrypt_comms: boolean;
  can_encrypt_storage: boolean;
  can_certify: boolean;
  created_at: string;
  expires_at: string | null;
  raw_key: string | null;
  revoked: boolean;
}

export type GpgSubkeyView = GpgKeyBase;

export interface GpgKeyView extends GpgKeyBase {
  name: string | null;
}

function base(k: GpgKey, verifiedEmails: ReadonlySet<string>): GpgKeyBase {
  return {
    id: k.id,
    primary_key_id: k.primaryKeyId,
    key_id: k.keyId,
    public_key: k.publicKey,
    emails: k.emails.map((e) => ({ email: e, verified: verifiedEmails.has(e.toLowerCase()) })),
    subkeys: [],
    can_sign: k.canSign,
    can_encrypt_comms: k.canEncryptComms,
    can_encrypt_storage: k.canEncryptStorage,
    can_certify: k.canCertify,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    raw_key: k.rawKey,
    revoked: k.revoked,
  };
}

/** A primary key with its subkeys; an address is verified when it is a verified address of the key's owner. */
export function gpgKey(k: GpgKey, verifiedEmails: ReadonlySet<string>): GpgKeyView {
  return {
    ...base(k, verifiedEmails),
    name: k.name,
    subkeys: k.subkeys.map((s) => base(s, verifiedEmails)),
  };
}
