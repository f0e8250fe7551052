/**
 * The rights a session's statements run with: the roles it has enabled (SET ROLE), a definer's rights unit's owner
 * while its code runs (runAs: that schema for unqualified names, that user's privileges without roles) and the
 * requester privilege checks ask. sqlsession.ts keeps one and answers the PL/SQL host's questions from it.
 */
import type { Session as EngineSession } from "../engine/index.ts"
import type { OracleDatabase, SessionInfo } from "./database.ts"
import type { Requester } from "./privileges.ts"
import { searchPathSql, unitRightsSql } from "./session-variables.ts"

/** The roles a definer's rights unit runs with: none (privileges granted to PUBLIC still count). */
const NO_ROLES: ReadonlySet<string> = new Set()

/** What a session's rights need from the SQL session. */
export interface SessionRightsHost {
  readonly db: OracleDatabase
  readonly engine: EngineSession
  readonly info: SessionInfo
  /** The schema unqualified names resolve in (a definer's rights unit's owner's while it runs). */
  schema: string
  /** Sets the session's variables (SYS_CONTEXT, the enabled roles) on its engine session again. */
  setVars(): Promise<void>
}

/** The rights one session's statements run with. */
export class SessionRights {
  /**
   * The roles the session has enabled: its user's default roles as they were at logon, until SET ROLE enables others
   * (grants and revokes of roles take effect then or at the next logon: Database Security Guide, "When Grants and
   * Revokes Take Effect"). The privileges granted to them count as they are now.
   */
  roles: ReadonlySet<string>
  /** The owner of the definer's rights unit whose code is running (runAs), if one is. */
  private definer: string | undefined
  private searchPathOf = { schema: "", sql: "" }

  constructor(private readonly host: SessionRightsHost) {
    this.roles = host.db.auth.rolesOf(host.info.user)
  }

  /** The session user's rights, for privilege checks (privileges.ts); inside a definer's rights unit its owner's, without roles. */
  get requester(): Requester {
    const db = this.host.db
    const user = this.definer ?? this.host.info.user
    const roles = this.definer === undefined ? this.roles : NO_ROLES
    return { user, dba: roles.has("DBA"), has: (p) => db.auth.has(user, p, roles), grants: db.grants.forSession(user, roles), version: db.settings.version }
  }

  /**
   * Runs `body`, the code of a stored unit, with the rights of `owner`: the unqualified names of its SQL resolve in
   * that schema and its privileges are checked as that user's, without roles (definer's rights); `owner` undefined
   * (AUTHID CURRENT_USER) keeps the rights in force, the caller's (PL/SQL Language Reference, "Invoker's Rights and
   * Definer's Rights (AUTHID Property)").
   */
  async runAs<T>(owner: string | undefined, body: () => Promise<T>): Promise<T> {
    if (owner === undefined) return body()
    const outer = { schema: this.host.schema, definer: this.definer, user: this.currentUser }
    const changes = owner !== outer.schema || owner !== outer.user
    this.definer = owner
    try {
      if (changes) await this.useRights(owner, owner)
      return await body()
    } finally {
      this.definer = outer.definer
      if (changes) await this.useRights(outer.schema, outer.user)
    }
  }

  /** The user whose privileges are active (SYS_CONTEXT('USERENV', 'CURRENT_USER')): a running definer's rights unit's owner, else the session user. */
  get currentUser(): string {
    return this.definer ?? this.host.info.user
  }

  /** The statement setting the search path of the schema in force. */
  searchPathText(): string {
    const schema = this.host.schema
    if (this.searchPathOf.schema !== schema) this.searchPathOf = { schema, sql: searchPathSql(schema) }
    return this.searchPathOf.sql
  }

  /** Makes `schema` the one unqualified names resolve in and `user` the current user (for a unit's code, not the session's settings). */
  private async useRights(schema: string, user: string): Promise<void> {
    this.host.schema = schema
    await this.host.engine.execute(unitRightsSql(this.host.db, schema, user))
  }

  /** SET ROLE (role-statements.ts): the roles enabled from now on, shown to the session's SQL too. */
  async setEnabledRoles(roles: ReadonlySet<string>): Promise<void> {
    this.roles = roles
    await this.host.setVars()
  }
}
