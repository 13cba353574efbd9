// Addresses and form bodies of the release and tag forms. Ids stay strings (anything
// but digits is a 404 page, as NumberParams); fields are optional strings, a missing one
// answered with the form again and its error inline. The upload's `file` is the
// multipart file part (multipart-form.ts), checked by the handler.
import { Type } from '@sinclair/typebox';

const Field = Type.Optional(Type.String({ maxLength: 65536 }));
const Name = Type.String({ maxLength: 256 });
const Id = Type.String({ maxLength: 20 });

export const ReleaseIdParams = Type.Object({ owner: Name, repo: Name, release_id: Id });
export const AssetIdParams = Type.Object({ owner: Name, repo: Name, asset_id: Id });

/**
 * New and edit: every field is sent (an unticked box is absent: false). `generate_notes`:
 * the Generate release notes button was pressed (the form comes back with them, unsaved).
 */
export const ReleaseForm = Type.Object({
  authenticity_token: Field, tag_name: Field, target_commitish: Field, name: Field, body: Field, draft: Field, prerelease: Field,
  make_latest: Field, generate_notes: Field,
});
export const TokenForm = Type.Object({ authenticity_token: Field });
export const TagForm = Type.Object({ authenticity_token: Field, tag: Field });
export const AssetForm = Type.Object({ authenticity_token: Field, name: Field, label: Field, file: Type.Optional(Type.Unknown()) });
