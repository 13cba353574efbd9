// PostgreSQL introspection limited to the schema in use. Kysely's own introspector reads
// every column of every table in every schema (with a function call per column), and its
// migrator asks for that several times per start; on a database shared by many Wharfs
// (one schema each, as the test suite and some deployments do) each start then costs
// time in proportion to all the others.
import { PostgresDialect, PostgresIntrospector, sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  schema: string;
  column: string | null;
  type: string | null;
  type_schema: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
  is_identity: boolean | null;
  column_description: string | null;
}

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  private readonly schemas: PostgresIntrospector;
  constructor(private readonly db: Kysely<unknown>) {
    this.schemas = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.schemas.getSchemas();
  }

  async getTables(options: { withInternalKyselyTables?: boolean } = {}): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      SELECT c.relname AS "table", c.relkind AS table_type, ns.nspname AS "schema",
             a.attname AS "column", typ.typname AS "type", dtns.nspname AS type_schema,
             a.attnotnull AS not_null, a.atthasdef AS has_default, a.attidentity <> '' AS is_identity,
             col_description(a.attrelid, a.attnum) AS column_description
      FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace ns ON ns.oid = c.relnamespace
      LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_catalog.pg_type typ ON typ.oid = a.atttypid
      LEFT JOIN pg_catalog.pg_namespace dtns ON dtns.oid = typ.typnamespace
      WHERE ns.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')
      ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, { name: string; isView: boolean; schema: string; columns: TableMetadata['columns'][number][] }>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && r.table.startsWith('kysely_')) continue;
      let table = tables.get(r.table);
      if (!table) tables.set(r.table, (table = { name: r.table, isView: r.table_type === 'v', schema: r.schema, columns: [] }));
      if (r.column === null) continue;
      table.columns.push({
        name: r.column,
        dataType: r.type ?? '',
        dataTypeSchema: r.type_schema ?? undefined,
        isNullable: !r.not_null,
        isAutoIncrementing: r.is_identity === true,
        hasDefaultValue: r.has_default === true,
        comment: r.column_description ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: { withInternalKyselyTables?: boolean }): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgresDialect whose introspection (and so Kysely's migrator) sees only the schema in use. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
