// Query validation as upstream's server applies it. graphql-js's "overlapping fields"
// rule also refuses two fields of one response name whose types differ when they sit
// on different object types (`... on Issue { state } ... on PullRequest { state }`):
// such fields can never both be in one answer, upstream's server accepts them, and gh
// sends exactly that (IssueState! against PullRequestState!). Those conflicts alone
// are let through; every other finding of the rule stands.
import {
  isObjectType, OverlappingFieldsCanBeMergedRule, specifiedRules, TypeInfo, validate, visit, visitWithTypeInfo,
  type ASTNode, type DocumentNode, type GraphQLError, type GraphQLNamedType, type GraphQLSchema,
} from 'graphql';

const otherRules = specifiedRules.filter((r) => r !== OverlappingFieldsCanBeMergedRule);
const TYPE_CONFLICT = /^Fields "[^"]+" conflict because they return conflicting types "[^"]+" and "[^"]+"\. Use different aliases on the fields to fetch both if this was intentional\.$/;

/** The object or interface type each field node of the document is selected on. */
function parentTypes(schema: GraphQLSchema, document: DocumentNode): Map<ASTNode, GraphQLNamedType> {
  const out = new Map<ASTNode, GraphQLNamedType>();
  const info = new TypeInfo(schema);
  visit(document, visitWithTypeInfo(info, {
    Field(node) {
      const parent = info.getParentType();
      if (parent) out.set(node, parent);
    },
  }));
  return out;
}

/** Whether a conflict is only one of types between fields of two different object types. */
function exclusiveTypeConflict(error: GraphQLError, parents: () => Map<ASTNode, GraphQLNamedType>): boolean {
  if (!TYPE_CONFLICT.test(error.message) || error.nodes?.length !== 2) return false;
  const [a, b] = error.nodes.map((n) => parents().get(n));
  return a !== undefined && b !== undefined && a !== b && isObjectType(a) && isObjectType(b);
}

export function validateQuery(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  const errors = validate(schema, document, otherRules);
  if (errors.length) return errors;
  let parents: Map<ASTNode, GraphQLNamedType> | null = null;
  const lazyParents = () => (parents ??= parentTypes(schema, document));
  return validate(schema, document, [OverlappingFieldsCanBeMergedRule]).filter((e) => !exclusiveTypeConflict(e, lazyParents));
}
