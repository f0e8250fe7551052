/**
 * Oracle DDL on the engine with the catalog kept in step: CREATE / DROP / ALTER / RENAME of tables, views, indexes,
 * sequences, users and procedures, TRUNCATE and COMMENT. ALTER SESSION stays with the session state it changes.
 */
import { hasFormatExpressions, MAY_HAVE_FORMAT } from "./format-model-sites.ts"
import { namedViewQuery, noteFormatView, noteViewQuery } from "./format-views.ts"
import { checkSequenceOptions } from "./sequence-checks.ts"
import { alterSequence } from "./alter-sequence.ts"
import { checkDdlPrivileges, grantOrRevoke, requirePrivilege, roleHost } from "./ddl-privileges.ts"
import { addConstraints } from "./add-constraint.ts"
import { dropConstraint } from "./drop-constraint.ts"
import { changeConstraintState, isConstraintState } from "./constraint-state.ts"
import { synonymsOf } from "./synonym-store.ts"
import { createSynonym, dropSynonym } from "./synonyms.ts"
import { charPaddingUpdate, lengthExpression, narrowingGuard, rebuildTable, rebuildWithLengthCheck, storageConversion, setNotNull } from "./modify-checks.ts"
import { ora, OraError } from "./errors.ts"
import { storageMaintenance } from "./storage-maintenance.ts"
import { createIndex } from "./create-index.ts"
import { sequenceAlterError } from "./sequence-privileges.ts"
import { defineTypeBody, dropTypeBody } from "./plsql/type-bodies.ts"
import { alterDefaultRoles, alterRole, createRole, dropRole } from "./role-statements.ts"
import { isKw, isOp, matchParen, splitTopLevel, tokenize, type Tok } from "./lexer.ts"
import { duckIdent, encodeName } from "./names.ts"
import { definePackage, defineProcedure, dropPackage } from "./plsql.ts"
import { alterTrigger, defineTrigger, dropTrigger } from "./plsql/trigger-definitions.ts"
import { alterCompile } from "./plsql/alter-compile.ts"
import { noteCompileWarning } from "./plsql/compile-errors.ts"
import { defineContext, dropContext } from "./plsql/application-contexts.ts"
import { ddlQuerySql, readDdlQuery } from "./ddl-query-sql.ts"
import { indexedTableOwner, type TableMeta } from "./catalog.ts"
import type { DdlHost } from "./ddl-host.ts"
import { columnsOf, createTable, type TableDdl } from "./ddl-tables.ts"
import { stripTerminator } from "./statement.ts"
import { oracleName } from "./translate.ts"
import { namedTypesOf } from "./named-types.ts"
import { objectTableStatement } from "./object-tables.ts"
import { mayUseType } from "./execute-privileges.ts"
import type { NamedType } from "./pickle.ts"
import { type OraType, parseOracleType } from "./types.ts"
import { checkTableDrop, createMaterializedView, dropMaterializedView } from "./materialized-views.ts"
import { viewClauses, viewOptionsOf } from "./view-dml.ts"
import { checkViewCreation, viewRightsOf } from "./view-owner-privileges.ts"

/** Runs the DDL of one session. */
export class Ddl implements TableDdl {
  private constraintSeq = 0

  constructor(readonly s: DdlHost) {}

  async runDdl(sql: string): Promise<void> {
    try {
      await this.s.engine.execute(sql)
    } catch (e) {
      throw this.s.mapError(e)
    }
  }

  /** A query (with no binds) as the DuckDB SQL that runs it. */
  duckSelect(selectSql: string): string {
    return ddlQuerySql(this.s.translation(), selectSql)
  }

  qualified(toks: ReadonlyArray<Tok>, at: number): { schema: string; name: string; next: number } {
    const a = toks[at]
    if (a === undefined || (a.kind !== "ident" && a.kind !== "qident")) throw new OraError(903, "invalid table name")
    if (isOp(toks[at + 1], ".") && (toks[at + 2]?.kind === "ident" || toks[at + 2]?.kind === "qident"))
      return { schema: oracleName(a), name: oracleName(toks[at + 2]!), next: at + 3 }
    return { schema: this.s.schema, name: oracleName(a), next: at + 1 }
  }

  nextConstraintName(): string {
    this.constraintSeq++
    return `SYS_C00${(8000 + this.s.info.sid * 100 + this.constraintSeq).toString().padStart(4, "0")}`
  }

  /** Whether a table column has the named type `t`, or an object table is of it. */
  private columnsUse(t: NamedType): boolean {
    for (const table of this.s.db.catalog.allTables()) if (table.objectType === t || table.columns.some((c) => c.type.named === t)) return true
    return false
  }

  /** Executes one DDL statement (after the implicit commit). */
  async run(sqlText: string): Promise<void> {
    const sql = stripTerminator(sqlText)
    // an object table is made as the relational table of its type's attributes, then marked with its type (object-tables.ts)
    const objectTable = objectTableStatement(sql, this.s.schema, (owner, name) => namedTypesOf(this.s.db).lookup(this.s.schema, owner, name))
    if (objectTable !== undefined) {
      if (!mayUseType(this.s.requester, objectTable.type.schema, objectTable.type.name)) throw new OraError(902, "invalid datatype")
      await this.run(objectTable.sql)
      this.s.db.catalog.getTable(objectTable.schema, objectTable.name)!.objectType = objectTable.type
      return
    }
    // a type body's code is PL/SQL, not translated as SQL (its constructor calls may be user-defined ones)
    if (/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?TYPE\s+BODY\b/i.test(sql)) return defineTypeBody(this.s, sqlText)
    const t = this.s.translate(sql)
    const toks = t.toks
    const kw = toks[0]?.value
    // a trigger's body names :NEW and :OLD, which are no binds (plsql/triggers.ts)
    const trigger = isKw(toks[0], "CREATE") && toks.slice(1, 5).some((x) => isKw(x, "TRIGGER"))
    if (t.binds.length > 0 && !trigger) throw new OraError(1027, "bind variables not allowed for data definition operations")
    // privileges are checked before the statement's names (an unknown tablespace of a refused CREATE USER is ORA-01031)
    checkDdlPrivileges(this.s, toks, (at) => this.qualified(toks, at))
    checkTablespaces(toks)
    if (storageMaintenance(this.s.db, this.s.schema, toks)) return
    if (kw === "CREATE") {
      let k = 1
      let orReplace = false
      if (isKw(toks[k], "OR") && isKw(toks[k + 1], "REPLACE")) {
        orReplace = true
        k += 2
      }
      if (isKw(toks[k], "GLOBAL", "PRIVATE") && isKw(toks[k + 1], "TEMPORARY")) k += 2
      if (isKw(toks[k], "TABLE")) return createTable(this, toks, k + 1, t.text, sql)
      if (isKw(toks[k], "FORCE", "NOFORCE", "EDITIONABLE", "NONEDITIONABLE")) k++
      if (isKw(toks[k], "VIEW")) return this.createView(toks, k + 1, t.text, orReplace, sql)
      if (isKw(toks[k], "UNIQUE", "BITMAP")) k++
      if (isKw(toks[k], "INDEX")) return createIndex(this, toks, k)
      if (isKw(toks[k], "SEQUENCE")) return this.createSequence(toks, k + 1)
      if (isKw(toks[k], "ROLE")) return createRole(roleHost(this.s), toks, k + 1)
      if (isKw(toks[k], "USER")) {
        requirePrivilege(this.s, "CREATE USER")
        const name = oracleName(toks[k + 1]!)
        const pw = toks[k + 4]
        if (!isKw(toks[k + 2], "IDENTIFIED") || !isKw(toks[k + 3], "BY") || pw === undefined) throw ora.invalidSql()
        if (this.s.db.catalog.users.has(name) || this.s.db.auth.roles.has(name)) throw new OraError(1920, `user name '${name}' conflicts with another user or role name`)
        await this.s.db.withAdmin(() => this.s.db.createUser(name, pw.kind === "qident" || pw.kind === "str" ? pw.value : pw.text))
        return
      }
      if (isKw(toks[k], "PROCEDURE", "FUNCTION")) {
        defineProcedure(this.s, sqlText)
        return
      }
      if (isKw(toks[k], "PACKAGE")) return definePackage(this.s, sqlText)
      if (isKw(toks[k], "CONTEXT")) return defineContext(this.s, toks, k + 1, orReplace)
      if (isKw(toks[k], "TYPE")) {
        namedTypesOf(this.s.db).create(this.s.schema, toks, k + 1, orReplace, (t) => this.columnsUse(t))
        // USER_OBJECTS lists the type (its body too: plsql/type-bodies.ts)
        const q = this.qualified(toks, k + 1)
        this.s.db.catalog.putObject(this.s.db.catalog.getObject(q.schema, "TYPE", q.name) ?? { owner: q.schema, name: q.name, type: "TYPE", objectId: this.s.db.catalog.newObjectId(), created: new Date() })
        return
      }
      if (isKw(toks[k], "TRIGGER")) {
        if (defineTrigger(this.s.db, this.s.schema, sqlText, (schema, name) => this.s.lookupTable(schema, name))) noteCompileWarning(this.s)
        return
      }
      if (isKw(toks[k], "SYNONYM") || (isKw(toks[k], "PUBLIC") && isKw(toks[k + 1], "SYNONYM"))) return createSynonym(this, toks, k, orReplace)
      if (isKw(toks[k], "MATERIALIZED") && isKw(toks[k + 1], "VIEW")) return createMaterializedView(this, toks, k + 2, sql)
      if (isKw(toks[k], "SYNONYM", "PUBLIC", "TYPE", "PACKAGE", "TRIGGER", "ROLE", "TABLESPACE", "DATABASE", "DIRECTORY", "MATERIALIZED"))
        throw ora.unimplemented(`CREATE ${toks[k]!.value}`)
      throw ora.invalidSql()
    }
    if (kw === "DROP") {
      const what = toks[1]?.value
      if (what === "TABLE") {
        const q = this.qualified(toks, 2)
        checkTableDrop(this.s.db, q.schema, q.name)
        if (this.s.db.catalog.getTable(q.schema, q.name)?.kind !== "TABLE" && this.s.db.catalog.getTable(q.schema, q.name) !== undefined) throw ora.tableNotFound(this.s.db.settings.version, q.schema, q.name)
        await this.runDdl(`DROP TABLE ${duckIdent(q.schema)}.${duckIdent(q.name)}${isKw(toks[q.next], "CASCADE") ? " CASCADE" : ""}`)
        this.s.db.catalog.dropTable(q.schema, q.name)
        this.s.db.grants.dropObject(q.schema, q.name)
        return
      }
      if (what === "MATERIALIZED" && isKw(toks[2], "VIEW")) return dropMaterializedView(this, toks, 3)
      if (what === "VIEW") {
        const q = this.qualified(toks, 2)
        await this.runDdl(`DROP VIEW ${duckIdent(q.schema)}.${duckIdent(q.name)}`)
        this.s.db.catalog.dropTable(q.schema, q.name)
        return
      }
      if (what === "SEQUENCE") {
        const q = this.qualified(toks, 2)
        await this.runDdl(`DROP SEQUENCE ${duckIdent(q.schema)}.${duckIdent(q.name)}`).catch(() => {
          throw new OraError(2289, "sequence does not exist")
        })
        this.s.db.catalog.dropObject(q.schema, "SEQUENCE", q.name)
        return
      }
      if (what === "INDEX") {
        const q = this.qualified(toks, 2)
        // DuckDB keeps an index in its table's schema (an index of one's own on another schema's table)
        const index = this.s.db.catalog.getObject(q.schema, "INDEX", q.name)
        const engineSchema = index === undefined ? q.schema : indexedTableOwner(index)
        await this.runDdl(`DROP INDEX ${duckIdent(engineSchema)}.${duckIdent(q.name)}`).catch(() => {
          throw new OraError(1418, "specified index does not exist")
        })
        this.s.db.catalog.dropObject(q.schema, "INDEX", q.name)
        return
      }
      if (what === "ROLE") return dropRole(roleHost(this.s), toks, 2)
      if (what === "USER") {
        requirePrivilege(this.s, "DROP USER")
        const name = oracleName(toks[2]!)
        if (!this.s.db.catalog.users.has(name)) throw ora.userNotFound(name)
        await this.s.db.withAdmin(() => this.s.db.dropUser(name))
        return
      }
      if (what === "TYPE" && isKw(toks[2], "BODY")) {
        const q = this.qualified(toks, 3)
        return dropTypeBody(this.s.db, q.schema, q.name, true)
      }
      if (what === "TYPE") {
        namedTypesOf(this.s.db).drop(this.s.schema, toks, 2, (t) => this.columnsUse(t))
        // the type's body goes with it
        const q = this.qualified(toks, 2)
        this.s.db.catalog.dropObject(q.schema, "TYPE", q.name)
        return dropTypeBody(this.s.db, q.schema, q.name, false)
      }
      if (what === "CONTEXT") return dropContext(this.s, toks, 2)
      if (what === "TRIGGER") return dropTrigger(this.s.db, this.s.schema, toks, 2)
      if (what === "PACKAGE") {
        const bodyOnly = isKw(toks[2], "BODY")
        const q = this.qualified(toks, bodyOnly ? 3 : 2)
        dropPackage(this.s, q.schema, q.name, bodyOnly)
        // a dropped package takes its grants along (a new one of the name starts with none)
        if (!bodyOnly) this.s.db.grants.dropObject(q.schema, q.name)
        return
      }
      if (what === "PROCEDURE" || what === "FUNCTION") {
        const q = this.qualified(toks, 2)
        const stored = this.s.db.procedures.get(`${q.schema}.${q.name}`)
        if (stored === undefined || (stored.isFunction === true) !== (what === "FUNCTION")) throw new OraError(4043, `object ${q.name} does not exist`)
        this.s.db.procedures.delete(`${q.schema}.${q.name}`)
        this.s.db.catalog.dropObject(q.schema, what, q.name)
        this.s.db.grants.dropObject(q.schema, q.name)
        return
      }
      if (what === "SYNONYM" || (what === "PUBLIC" && isKw(toks[2], "SYNONYM"))) return dropSynonym(this, toks)
      throw ora.unimplemented(`DROP ${what ?? ""}`)
    }
    if (kw === "TRUNCATE") {
      const q = this.qualified(toks, 2)
      await this.runDdl(`DELETE FROM ${duckIdent(q.schema)}.${duckIdent(q.name)}`)
      return
    }
    if (kw === "ALTER") {
      if (isKw(toks[1], "SESSION")) return this.s.alterSession(toks)
      if (isKw(toks[1], "TABLE")) return this.alterTable(toks, t.text)
      if (isKw(toks[1], "TRIGGER")) return alterTrigger(this.s.db, this.s.schema, toks)
      if (isKw(toks[1], "PROCEDURE", "FUNCTION", "PACKAGE")) return alterCompile(this.s, toks)
      if (isKw(toks[1], "SEQUENCE")) {
        const q = this.qualified(toks, 2)
        if (this.s.db.catalog.getObject(q.schema, "SEQUENCE", q.name) === undefined) throw new OraError(2289, "sequence does not exist")
        const denied = sequenceAlterError(this.s.requester, q.schema, q.name)
        if (denied !== undefined) throw denied
        return alterSequence(this.s.engine, encodeName(q.schema), encodeName(q.name), toks, q.next).catch((e: unknown) => {
          throw this.s.mapError(e)
        })
      }
      if (isKw(toks[1], "USER")) {
        const name = oracleName(toks[2]!)
        // a user may change its own password without the ALTER USER privilege
        if (name !== this.s.info.user || !isKw(toks[3], "IDENTIFIED")) requirePrivilege(this.s, "ALTER USER")
        const u = this.s.db.catalog.users.get(name)
        if (u === undefined) throw ora.userNotFound(name)
        if (isKw(toks[3], "DEFAULT") && isKw(toks[4], "ROLE")) return alterDefaultRoles(roleHost(this.s), name, toks, 5)
        if (isKw(toks[3], "IDENTIFIED") && isKw(toks[4], "BY") && toks[5] !== undefined) {
          this.s.db.setPassword(name, toks[5].kind === "qident" ? toks[5].value : toks[5].text)
        }
        return
      }
      if (isKw(toks[1], "ROLE")) return alterRole(roleHost(this.s), toks, 2)
      throw ora.unimplemented(`ALTER ${toks[1]?.value ?? ""}`)
    }
    if (kw === "COMMENT") {
      // COMMENT ON TABLE t IS '...' | COMMENT ON COLUMN t.c IS '...'
      const isAt = toks.findIndex((x) => isKw(x, "IS"))
      const text = toks[isAt + 1]
      if (!isKw(toks[1], "ON") || isAt < 0 || text === undefined || (text.kind !== "str" && !isKw(text, "NULL"))) throw ora.invalidSql()
      const value = text.kind === "str" && text.value.length > 0 ? text.value : null
      const parts = toks.slice(3, isAt).filter((x) => x.kind === "ident" || x.kind === "qident").map(oracleName)
      if (isKw(toks[2], "TABLE") && parts.length >= 1) {
        const meta = this.s.lookupTable(parts.length > 1 ? parts[0] : undefined, parts[parts.length - 1]!)
        if (meta === undefined) throw ora.tableNotFound(this.s.db.settings.version, this.s.schema, parts[parts.length - 1])
        meta.comment = value
        this.s.db.catalog.putTable(meta)
        return
      }
      if (isKw(toks[2], "COLUMN") && parts.length >= 2) {
        const col = parts[parts.length - 1]!
        const meta = this.s.lookupTable(parts.length > 2 ? parts[0] : undefined, parts[parts.length - 2]!)
        if (meta === undefined) throw ora.tableNotFound(this.s.db.settings.version, this.s.schema, parts[parts.length - 2])
        if (!meta.columns.some((c) => c.name === col)) throw ora.invalidIdentifier(col)
        meta.columnComments = { ...meta.columnComments }
        if (value === null) delete meta.columnComments[col]
        else meta.columnComments[col] = value
        this.s.db.catalog.putTable(meta)
        return
      }
      return
    }
    if (kw === "GRANT" || kw === "REVOKE") return grantOrRevoke(this.s, toks, kw === "REVOKE", (at) => this.qualified(toks, at))
    if (kw === "ANALYZE" || kw === "AUDIT") return
    if (kw === "RENAME") {
      const from = oracleName(toks[1]!)
      const to = oracleName(toks[3]!)
      await this.renameTable(this.s.schema, from, to)
      return
    }
    throw ora.invalidSql()
  }

  private async createView(toks: ReadonlyArray<Tok>, at: number, _text: (a: number, b: number) => string, orReplace: boolean, sql: string): Promise<void> {
    const q = this.qualified(toks, at)
    let k = q.next
    let names: Array<string> | undefined
    if (isOp(toks[k], "(")) {
      const close = matchParen(toks, k)
      names = splitTopLevel(toks.slice(k + 1, close)).map((p) => oracleName(p[0]!))
      k = close + 1
    }
    if (!isKw(toks[k], "AS")) throw new OraError(905, "missing keyword")
    const existing = this.s.db.catalog.getTable(q.schema, q.name)
    if ((existing !== undefined && (!orReplace || existing.kind !== "VIEW")) || this.nonTableNameTaken(q.schema, q.name)) throw ora.nameInUse()
    // WITH READ ONLY / WITH CHECK OPTION: what DML through it may do (view-dml.ts)
    const { query: selectSql, options: viewOptions } = viewClauses(sql.slice(toks[k + 1]!.pos))
    // a format model that is an expression: the engine's view written with the values its query meets now, the view
    // named by its query in a client's query (format-views.ts)
    const formats = MAY_HAVE_FORMAT.test(selectSql) && hasFormatExpressions(tokenize(selectSql))
    if (formats) noteFormatView(this.s.db)
    const result = await readDdlQuery((q) => this.s.query(q, []), selectSql, formats)
    // with a column list, the query's items take the view's names (a `*` item the columns it stands for): else the
    // model is refused rather than ignored
    const named = formats && names !== undefined ? namedViewQuery(selectSql, names, result.columns.map((c) => c.name)) : undefined
    if (formats && names !== undefined && named === undefined) throw new OraError(3001, "unimplemented feature: a format model expression in a view with a column list and more than one * item")
    // its owner's own privileges on the objects of other schemas it reads (view-owner-privileges.ts)
    checkViewCreation(viewRightsOf(this.s.db), q.schema, q.name, selectSql)
    const duckSelect = this.duckSelect(selectSql)
    const cols = result.columns.map((c, i) => ({ name: names?.[i] ?? c.name, type: c.type, nullable: c.nullable, defaultText: null }))
    const aliases = names !== undefined ? ` (${names.map(duckIdent).join(", ")})` : ""
    await this.runDdl(`CREATE OR REPLACE VIEW ${duckIdent(q.schema)}.${duckIdent(q.name)}${aliases} AS ${duckSelect}`)
    viewOptionsOf(this.s.db).set(`${q.schema}.${q.name}`, viewOptions)
    const view: TableMeta = { owner: q.schema, name: q.name, kind: "VIEW", columns: cols, constraints: [], objectId: existing?.objectId ?? this.s.db.catalog.newObjectId(), created: new Date(), viewText: selectSql.trim() }
    if (named !== undefined) noteViewQuery(view, named)
    this.s.db.catalog.putTable(view)
  }

  /**
   * Tables, views, sequences and procedures share one namespace per schema (indexes and constraints have their own):
   * https://docs.oracle.com/en/database/oracle/oracle-database/23/sqlrf/Database-Object-Names-and-Qualifiers.html
   */
  nonTableNameTaken(schema: string, name: string): boolean {
    const catalog = this.s.db.catalog
    return catalog.getObject(schema, "SEQUENCE", name) !== undefined || catalog.getObject(schema, "PROCEDURE", name) !== undefined || synonymsOf(this.s.db).has(`${schema}.${name}`)
  }

  private async createSequence(toks: ReadonlyArray<Tok>, at: number): Promise<void> {
    const q = this.qualified(toks, at)
    if (this.s.db.catalog.getTable(q.schema, q.name) !== undefined || this.nonTableNameTaken(q.schema, q.name)) throw ora.nameInUse()
    const opts: Array<string> = []
    const given: { start?: number; increment?: number; minValue?: number; maxValue?: number; cache?: number } = {}
    for (let k = q.next; k < toks.length; k++) {
      const x = toks[k]!
      const num = (j: number) => {
        const neg = isOp(toks[j], "-")
        const n = toks[neg ? j + 1 : j]!
        return { text: (neg ? "-" : "") + n.value, next: neg ? j + 2 : j + 1 }
      }
      if (isKw(x, "START") && isKw(toks[k + 1], "WITH")) {
        const n = num(k + 2)
        opts.push(`START ${n.text}`)
        given.start = Number(n.text)
        k = n.next - 1
      } else if (isKw(x, "INCREMENT") && isKw(toks[k + 1], "BY")) {
        const n = num(k + 2)
        opts.push(`INCREMENT BY ${n.text}`)
        given.increment = Number(n.text)
        k = n.next - 1
      } else if (isKw(x, "MINVALUE", "MAXVALUE")) {
        const n = num(k + 1)
        opts.push(`${x.value} ${n.text}`)
        if (isKw(x, "MINVALUE")) given.minValue = Number(n.text)
        else given.maxValue = Number(n.text)
        k = n.next - 1
      } else if (isKw(x, "CYCLE")) opts.push("CYCLE")
      else if (isKw(x, "CACHE")) given.cache = Number(toks[++k]?.value)
    }
    checkSequenceOptions(given)
    await this.runDdl(`CREATE SEQUENCE ${duckIdent(q.schema)}.${duckIdent(q.name)} ${opts.join(" ")}`).catch((e: unknown) => {
      throw e instanceof OraError ? e : /already exists/i.test(String(e)) ? ora.nameInUse() : e
    })
    this.s.db.catalog.putObject({ owner: q.schema, name: q.name, type: "SEQUENCE", objectId: this.s.db.catalog.newObjectId(), created: new Date() })
  }

  private async renameTable(schema: string, from: string, to: string): Promise<void> {
    const meta = this.s.db.catalog.getTable(schema, from)
    // DuckDB renames a table holding foreign keys without updating its record on the referenced tables: made again
    if (meta?.kind === "TABLE" && meta.constraints.some((c) => c.type === "R")) {
      const label = (table: string) => `"${schema.replace(/'/g, "''")}"."${table.replace(/'/g, "''")}".`
      const renamed = await rebuildTable(this.s.engine, encodeName(schema), encodeName(from), (ddl) => ddl.split(label(from)).join(label(to)), encodeName(to)).catch((e: unknown) => {
        throw this.s.mapError(e)
      })
      if (!renamed) throw ora.unimplemented("RENAME of a table that holds foreign keys and is referenced by other tables")
    } else await this.runDdl(`ALTER TABLE ${duckIdent(schema)}.${duckIdent(from)} RENAME TO ${duckIdent(to)}`)
    if (meta !== undefined) {
      const catalog = this.s.db.catalog
      // its indexes (and other objects on it) go with the table, as on Oracle
      const onTable = [...catalog.allObjects()].filter((o) => indexedTableOwner(o) === schema && o.tableName === from)
      catalog.dropTable(schema, from)
      catalog.putTable({ ...meta, name: to })
      for (const o of onTable) catalog.putObject({ ...o, tableName: to })
    }
  }

  private async alterTable(toks: ReadonlyArray<Tok>, text: (a: number, b: number) => string): Promise<void> {
    const q = this.qualified(toks, 2)
    const meta = this.s.db.catalog.getTable(q.schema, q.name)
    if (meta === undefined) throw ora.tableNotFound(this.s.db.settings.version, q.schema, q.name)
    const target = `${duckIdent(q.schema)}.${duckIdent(q.name)}`
    let k = q.next
    const action = toks[k]?.value
    if (isConstraintState(toks, k)) return changeConstraintState(this, meta, toks, k)
    if (action === "ADD") {
      k++
      const isConstraint = (el: ReadonlyArray<Tok>) => isKw(el[0], "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK")
      const listed = isOp(toks[k], "(") ? splitTopLevel(toks.slice(k + 1, matchParen(toks, k))) : [toks.slice(k)]
      const added = listed.filter(isConstraint)
      const elements = listed.filter((el) => !isConstraint(el))
      if (elements.length === 0) return addConstraints(this, meta, added, text, toks)
      const { columns, constraints, duckDefs } = columnsOf(this, elements, text, toks, q.schema, q.name)
      // DuckDB's ADD COLUMN takes no CHECK: added columns go without the ORA-12899 length check (it is always last)
      const withoutLengthCheck = (d: string) => {
        const at = d.lastIndexOf(" CHECK (CASE WHEN ")
        return at >= 0 && d.includes("ORA-12899", at) ? d.slice(0, at) : d
      }
      for (const [i, d] of duckDefs.entries()) {
        // nor NOT NULL: the column is added, then made mandatory (ORA-01758 when a row has no value for it)
        const def = withoutLengthCheck(d).replace(/ PRIMARY KEY| UNIQUE/g, "")
        const mandatory = / NOT NULL\b/.test(def)
        await this.runDdl(`ALTER TABLE ${target} ADD COLUMN ${def.replace(/ NOT NULL\b/, "")}`)
        if (mandatory) await setNotNull(this, target, columns[i]!.name)
      }
      meta.columns.push(...columns)
      meta.constraints.push(...constraints)
      this.s.db.catalog.putTable(meta)
      // out-of-line constraints of the list, which may name the columns just added
      if (added.length > 0) await addConstraints(this, meta, added, text, toks)
      return
    }
    if (action === "DROP") {
      k++
      let names: Array<string>
      if (isKw(toks[k], "COLUMN")) names = [oracleName(toks[k + 1]!)]
      else if (isOp(toks[k], "(")) names = splitTopLevel(toks.slice(k + 1, matchParen(toks, k))).map((p) => oracleName(p[0]!))
      else return dropConstraint(this, meta, toks, k)
      for (const n of names) await this.runDdl(`ALTER TABLE ${target} DROP COLUMN ${duckIdent(n)}`)
      meta.columns = meta.columns.filter((c) => !names.includes(c.name))
      this.s.db.catalog.putTable(meta)
      return
    }
    if (action === "RENAME") {
      if (isKw(toks[k + 1], "COLUMN")) {
        const from = oracleName(toks[k + 2]!)
        const to = oracleName(toks[k + 4]!)
        await this.runDdl(`ALTER TABLE ${target} RENAME COLUMN ${duckIdent(from)} TO ${duckIdent(to)}`)
        meta.columns = meta.columns.map((c) => (c.name === from ? { ...c, name: to } : c))
        this.s.db.catalog.putTable(meta)
        return
      }
      if (isKw(toks[k + 1], "TO")) return this.renameTable(q.schema, q.name, oracleName(toks[k + 2]!))
    }
    if (action === "MODIFY") {
      k++
      const elements = isOp(toks[k], "(") ? splitTopLevel(toks.slice(k + 1, matchParen(toks, k))) : [toks.slice(k)]
      for (const el of elements) {
        const name = oracleName(el[0]!)
        const col = meta.columns.find((c) => c.name === name)
        if (col === undefined) throw ora.invalidIdentifier(name)
        const rest = el.slice(1).map((x) => x.text).join(" ")
        const nn = /\bNOT\s+NULL\b/i.test(rest)
        const typeText = rest.replace(/\bNOT\s+NULL\b|\bNULL\b/gi, "").trim()
        let type = col.type
        if (typeText.length > 0) {
          type = parseOracleType(typeText) ?? col.type
          if (!keepsValues(col.type, type))
            await this.runDdl(`SELECT error('ORA-01439: column to be modified must be empty to change datatype') FROM ${target} WHERE ${duckIdent(name)} IS NOT NULL LIMIT 1`)
          const narrowing = narrowingGuard(target, name, col.type, type, typeText)
          if (narrowing !== undefined) await this.runDdl(narrowing)
          if (type.duck !== col.type.duck) await this.runDdl(`ALTER TABLE ${target} ALTER COLUMN ${duckIdent(name)} TYPE ${type.duck}${storageConversion(name, col.type, type, this.s.db.dbOffsetMinutes())}`)
          // the ORA-12899 length check of a character or RAW column follows its new size
          const sized = (t: OraType) => (t.kind === "varchar" || t.kind === "nvarchar" || t.kind === "raw") && t.charSize > 0
          if (sized(type) && (type.kind !== col.type.kind || type.charSize !== col.type.charSize))
            await rebuildWithLengthCheck(this.s.engine, encodeName(q.schema), encodeName(q.name), `"${q.schema}"."${q.name}"."${name}"`, lengthExpression(name, type, typeText), type.charSize).catch((e: unknown) => {
              throw this.s.mapError(e)
            })
          // after the new length check, which the padded values satisfy
          const padding = charPaddingUpdate(target, name, col.type, type)
          if (padding !== undefined) await this.runDdl(padding)
        }
        if (nn) await this.runDdl(`ALTER TABLE ${target} ALTER COLUMN ${duckIdent(name)} SET NOT NULL`)
        meta.columns = meta.columns.map((c) => (c.name === name ? { ...c, type, nullable: nn ? false : c.nullable } : c))
      }
      this.s.db.catalog.putTable(meta)
      return
    }
    throw ora.unimplemented(`ALTER TABLE ${action ?? ""}`)
  }
}

/**
 * True when a column of type `from` may change to `to` while it holds values: within one family (character, NUMBER,
 * RAW, one interval kind, one timestamp kind), DATE to TIMESTAMP [WITH LOCAL TIME ZONE] and TIMESTAMP WITH LOCAL TIME
 * ZONE to DATE ("You can modify any TIMESTAMP WITH LOCAL TIME ZONE to a DATE column"). Other changes need every
 * row NULL, else ORA-01439 (SQL Language Reference, ALTER TABLE, "modify_col_properties": "You can change the data
 * type of any column if all rows of the column contain nulls"; a size or precision may change, and a DATE column may
 * become a TIMESTAMP one).
 */
const keepsValues = (from: OraType, to: OraType): boolean => {
  const family = (t: OraType) => (t.kind === "nvarchar" ? "varchar" : t.kind === "date" ? "date" : t.kind)
  if (family(from) === family(to)) return true
  return (from.kind === "date" && (to.kind === "timestamp" || to.kind === "timestampltz")) || (from.kind === "timestampltz" && to.kind === "date")
}

/** `col IS [NOT] JSON [...]` check conditions. */

/** The tablespaces of an Oracle Database Free installation (DBA_TABLESPACES there). */
const TABLESPACES = new Set(["SYSTEM", "SYSAUX", "UNDOTBS1", "TEMP", "USERS"])

/** `TABLESPACE name` and `DEFAULT|TEMPORARY TABLESPACE name` clauses must name an existing tablespace (ORA-00959); not the system privileges UNLIMITED / CREATE ANY ... TABLESPACE. */
const checkTablespaces = (toks: ReadonlyArray<Tok>): void => {
  toks.forEach((t, k) => {
    const name = toks[k + 1]
    if (!isKw(t, "TABLESPACE") || isKw(toks[k - 1], "CREATE", "ALTER", "DROP", "UNLIMITED", "ANY") || name === undefined || (name.kind !== "ident" && name.kind !== "qident")) return
    const ts = oracleName(name)
    if (!TABLESPACES.has(ts)) throw new OraError(959, `tablespace '${ts}' does not exist`)
  })
}

