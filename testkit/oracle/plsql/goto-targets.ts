/**
 * GOTO targets checked as Oracle's compiler checks them (PL/SQL Language Reference, "GOTO Statement",
 * https://docs.oracle.com/en/database/oracle/oracle-database/23/lnpls/GOTO-statement.html): a GOTO reaches a label of
 * its own statement list or of a list enclosing it, never one inside an IF or CASE branch, a loop or a sub-block it is
 * not in, nor from an exception handler back into its block's statements; a subprogram's body is a world of its own.
 * Anything else is PLS-00375 before the block runs.
 */
import type { Block, Decl, Stmt } from "./ast.ts"
import { PlsCompileError } from "./errors.ts"

/** The labels of a statement list and of everything under it. */
const allLabels = (list: ReadonlyArray<Stmt>, out: Set<string>): Set<string> => {
  for (const st of list) {
    if (st.k === "label") out.add(st.name)
    for (const inner of innerLists(st)) allLabels(inner, out)
  }
  return out
}

/** The statement lists directly inside a statement (a block's handlers are its own case). */
const innerLists = (st: Stmt): Array<ReadonlyArray<Stmt>> => {
  switch (st.k) {
    case "if":
      return [...st.branches.map((b) => b.body), ...(st.otherwise === undefined ? [] : [st.otherwise])]
    case "case":
      return [...st.whens.map((w) => w.body), ...(st.otherwise === undefined ? [] : [st.otherwise])]
    case "loop":
    case "while":
    case "for":
    case "cursorFor":
      return [st.body]
    case "block":
      return [st.block.body, ...st.block.handlers.map((h) => h.body)]
    default:
      return []
  }
}

/** Checks a unit's GOTOs (its local subprograms' too); the block itself when they are all legal. */
export const checkGotos = (source: string, block: Block): Block => {
  const unit = allLabels([{ pos: block.pos, k: "block", block }], new Set())
  const visit = (list: ReadonlyArray<Stmt>, outer: ReadonlySet<string>): void => {
    const visible = new Set(outer)
    for (const st of list) if (st.k === "label") visible.add(st.name)
    for (const st of list) {
      if (st.k === "goto" && !visible.has(st.label)) {
        if (unit.has(st.label)) throw new PlsCompileError(source, st.pos, 375, `illegal GOTO statement; this GOTO cannot branch to label '${st.label}'`)
        throw new PlsCompileError(source, st.pos, 201, `identifier '${st.label}' must be declared`)
      }
      if (st.k === "block") visitBlock(st.block, visible)
      else for (const inner of innerLists(st)) visit(inner, visible)
    }
  }
  const visitBlock = (b: Block, outer: ReadonlySet<string>): void => {
    subprogramsOf(b.decls).forEach((sub) => visitBlock(sub, new Set()))
    visit(b.body, outer)
    // a handler reaches the lists around its block, not the block's own statements
    for (const h of b.handlers) visit(h.body, outer)
  }
  visitBlock(block, new Set())
  return block
}

const subprogramsOf = (decls: ReadonlyArray<Decl>): Array<Block> =>
  decls.flatMap((d) => (d.k === "subprogram" && d.sub.body !== undefined ? [d.sub.body] : []))
