/**
 * The rights a statement reads a view whose query has a format expression with, when it names the view's query in
 * the view's place (format-views.ts): as Oracle reads a view, the reader needs its privilege on the view, and the
 * objects the view's query names are read with the view owner's privileges, not the reader's ("The owner of the
 * schema containing the view must have the privileges necessary to ... select ... from all the tables or views on
 * which the view is based": SQL Language Reference, CREATE VIEW, Prerequisites). The statement as written is checked
 * first (the view named, and whatever else it names); while it runs, the objects of the view's query pass the
 * session's checks (session-access.ts `throughView`).
 */
import type { TableMeta } from "./catalog.ts"
import type { Tok } from "./lexer.ts"

/** Per session (any object standing for one), the objects of the view queries its running statement names in their views' places. */
const reading = new WeakMap<object, ReadonlySet<TableMeta>>()

/** What {@link readingViewQueries} needs of the session. */
export interface ViewQuerySession {
  /** Checks the privileges a statement (its significant tokens) needs, as written. */
  checkStatementAccess(toks: ReadonlyArray<Tok>): void
}

/**
 * Runs `body` (the statement whose significant tokens are `written`, with the views' queries in their places: they read
 * `named`) after checking `written`'s privileges (the views' included), the objects `named` passing the session's
 * checks meanwhile.
 */
export const readingViewQueries = async <T>(session: ViewQuerySession, written: () => ReadonlyArray<Tok>, named: ReadonlyArray<TableMeta>, body: () => Promise<T>): Promise<T> => {
  session.checkStatementAccess(written())
  const outer = reading.get(session)
  reading.set(session, new Set([...(outer ?? []), ...named]))
  try {
    return await body()
  } finally {
    if (outer === undefined) reading.delete(session)
    else reading.set(session, outer)
  }
}

/** `throughView` (the objects a session's checks pass over) with the objects of the view queries `session` reads now. */
export const throughViewQueries = (session: object, throughView: ReadonlySet<TableMeta> | undefined): ReadonlySet<TableMeta> | undefined => {
  const named = reading.get(session)
  if (named === undefined) return throughView
  return throughView === undefined ? named : new Set([...throughView, ...named])
}
