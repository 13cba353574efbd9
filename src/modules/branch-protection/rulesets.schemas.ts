// Request and response schemas of the ruleset routes, a repository's and an
// organization's (upstream's repository-ruleset record for both). Types and enums are checked here; each rule's type and
// parameters are the service's (rulesets.rules), for messages that name the rule.
import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable, PagedArray, StringEnum } from '../../http/schema-types.ts';
import { ACTOR_TYPES, BYPASS_MODES, ENFORCEMENTS, TARGETS } from './rulesets.model.ts';

export const RepoParams = Type.Object({ owner: Type.String(), repo: Type.String() });
export const RulesetParams = Type.Object({ owner: Type.String(), repo: Type.String(), ruleset_id: Type.Integer({ minimum: 1 }) });
export const OrgParams = Type.Object({ org: Type.String() });
export const OrgRulesetParams = Type.Object({ org: Type.String(), ruleset_id: Type.Integer({ minimum: 1 }) });
export const BranchRulesParams = Type.Object({ owner: Type.String(), repo: Type.String(), branch: Type.String({ minLength: 1 }) });

export const ListRulesetsQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  includes_parents: Type.Optional(Type.Boolean()),
  targets: Type.Optional(Type.String()),
});
export const OrgListQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  page: Type.Optional(Type.String()),
  targets: Type.Optional(Type.String()),
});
export const GetRulesetQuery = Type.Object({ includes_parents: Type.Optional(Type.Boolean()) });
export const PageQuery = Type.Object({ per_page: Type.Optional(Type.String()), page: Type.Optional(Type.String()) });

const Parameters = Type.Object({}, { additionalProperties: true });

const BypassActorInput = Type.Object({
  actor_id: Type.Optional(Nullable(Type.Integer())),
  actor_type: StringEnum(ACTOR_TYPES),
  bypass_mode: Type.Optional(StringEnum(BYPASS_MODES)),
});

const RefNameInput = Type.Object({
  include: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
  exclude: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 })),
});

const RulesInput = Type.Array(Type.Unknown(), { maxItems: 100 });

const ConditionsInput = Nullable(Type.Object({ ref_name: Type.Optional(RefNameInput) }));

const Names = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 });

/** An organization ruleset's conditions: refs by name, and its repositories by name or by id (exactly one). */
const OrgConditionsInput = Nullable(Type.Object({
  ref_name: Type.Optional(RefNameInput),
  repository_name: Type.Optional(Type.Object({ include: Type.Optional(Names), exclude: Type.Optional(Names), protected: Type.Optional(Type.Boolean()) })),
  repository_id: Type.Optional(Type.Object({ repository_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })) })),
  // Checked by the service: Wharf has no custom properties, so it is refused by name.
  repository_property: Type.Optional(Type.Unknown()),
}));

/** A ruleset body's fields, a repository's and an organization's alike but for their conditions. */
function bodyFields<C extends TSchema>(conditions: C) {
  return {
    name: Type.String({ maxLength: 100 }),
    target: Type.Optional(StringEnum(TARGETS)),
    enforcement: StringEnum(ENFORCEMENTS),
    bypass_actors: Type.Optional(Type.Array(BypassActorInput, { maxItems: 100 })),
    conditions: Type.Optional(conditions),
    rules: Type.Optional(RulesInput),
  };
}

/** POST: name and enforcement required; PUT: every field optional (what is omitted stays). */
const createBody = <C extends TSchema>(conditions: C) => Type.Object(bodyFields(conditions));
const updateBody = <C extends TSchema>(conditions: C) => Type.Partial(Type.Object(bodyFields(conditions)));

export const CreateRulesetBody = createBody(ConditionsInput);
export const UpdateRulesetBody = updateBody(ConditionsInput);
export const CreateOrgRulesetBody = createBody(OrgConditionsInput);
export const UpdateOrgRulesetBody = updateBody(OrgConditionsInput);

const Rule = Type.Object({ type: Type.String(), parameters: Type.Optional(Parameters) });

/**
 * Upstream's repository-ruleset record, a repository's and an organization's (also read
 * through the repositories it covers). Its conditions always name refs (rulesets.views);
 * an organization's name its repositories too.
 */
export const Ruleset = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  target: Type.String(),
  source_type: Type.String(),
  source: Type.String(),
  enforcement: Type.String(),
  bypass_actors: Type.Array(Type.Object({ actor_id: Nullable(Type.Integer()), actor_type: Type.String(), bypass_mode: Type.String() })),
  current_user_can_bypass: Type.String(),
  node_id: Type.String(),
  _links: Type.Object({ self: Type.Object({ href: Type.String() }), html: Type.Object({ href: Type.String() }) }),
  conditions: Nullable(Type.Object({
    ref_name: Type.Object({ include: Type.Array(Type.String()), exclude: Type.Array(Type.String()) }),
    repository_name: Type.Optional(Type.Object({ include: Type.Array(Type.String()), exclude: Type.Array(Type.String()), protected: Type.Boolean() })),
    repository_id: Type.Optional(Type.Object({ repository_ids: Type.Array(Type.Integer()) })),
  })),
  rules: Type.Array(Rule),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/**
 * A list shows each ruleset whole: upstream's published record (its own answers leave
 * out rules, conditions and bypass actors, which clients then read one by one).
 */
export const RulesetList = PagedArray(Ruleset);

export const BranchRuleList = PagedArray(Type.Object({
  type: Type.String(),
  parameters: Type.Optional(Parameters),
  ruleset_source_type: Type.String(),
  ruleset_source: Type.String(),
  ruleset_id: Type.Integer(),
}));
