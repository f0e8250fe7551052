/**
 * PL/SQL conditional compilation (PL/SQL Language Reference, "Conditional Compilation",
 * https://docs.oracle.com/en/database/oracle/oracle-database/19/lnpls/plsql-language-fundamentals.html): before a
 * unit or block is parsed, `$IF cond $THEN ... [$ELSIF cond $THEN ...] [$ELSE ...] $END` keeps the text of the first
 * branch whose static condition is TRUE, `$ERROR msg $END` in a kept branch fails the compilation with PLS-00179,
 * and the inquiry directives `$$PLSQL_LINE`, `$$PLSQL_UNIT`, `$$PLSQL_UNIT_OWNER`, `$$PLSQL_UNIT_TYPE` and the
 * session's PLSQL_CCFLAGS names become their values (an unknown name is NULL). Static conditions read BOOLEAN,
 * PLS_INTEGER and VARCHAR2 literals, inquiry directives, DBMS_DB_VERSION.VERSION / RELEASE / VER_LE_n, the
 * comparison operators, NOT, AND, OR and IS [NOT] NULL. Text left out is replaced by blanks, its line breaks kept, so
 * that line numbers stay those of the source, as the post-processed source keeps them (DBMS_PREPROCESSOR).
 */
import { OraError } from "../errors.ts"
import { isKw, isOp, tokenize, type Tok } from "../lexer.ts"
import { PlsCompileError } from "./errors.ts"

/** Whether text may hold a conditional compilation directive (a cheap test before tokenizing). */
export const mayHaveDirectives = (sql: string): boolean => sql.includes("$")

/** The unit being compiled, for $$PLSQL_UNIT / _OWNER / _TYPE (an anonymous block has no name or owner). */
export interface CompiledUnit {
  readonly owner: string | null
  readonly name: string | null
  readonly type: string
}

/** A static value: BOOLEAN, PLS_INTEGER, VARCHAR2 or NULL. */
type Static = boolean | number | string | null

/** The names a PLSQL_CCFLAGS setting gives values (`'debug:TRUE, level:2'`); ORA-39962 for a malformed one. */
export const parseCcflags = (setting: string): ReadonlyMap<string, Static> => {
  const flags = new Map<string, Static>()
  for (const part of setting.split(",")) {
    if (part.trim() === "") continue
    const m = /^\s*([A-Za-z][A-Za-z0-9_$#]*)\s*:\s*(TRUE|FALSE|NULL|-?\d+)\s*$/i.exec(part)
    if (m === null) throw new OraError(39962, `invalid parameter for PLSQL_CCFLAGS`)
    const v = m[2]!.toUpperCase()
    flags.set(m[1]!.toUpperCase(), v === "TRUE" ? true : v === "FALSE" ? false : v === "NULL" ? null : Number(v))
  }
  return flags
}

/** The directive a `$` token starts (`$IF`, `$$NAME`, ...): its kind, its name and the index after it. */
const directiveAt = (toks: ReadonlyArray<Tok>, i: number): { kind: "inquiry" | "selection"; word: string; next: number } | undefined => {
  const t = toks[i]
  if (!isOp(t, "$")) return undefined
  const a = toks[i + 1]
  if (isOp(a, "$")) {
    const name = toks[i + 2]
    if (name !== undefined && (name.kind === "ident" || name.kind === "qident") && a!.pos === t!.pos + 1 && name.pos === a!.pos + 1) return { kind: "inquiry", word: name.value.toUpperCase(), next: i + 3 }
    return undefined
  }
  if (a !== undefined && a.kind === "ident" && a.pos === t!.pos + 1 && ["IF", "THEN", "ELSIF", "ELSE", "END", "ERROR"].includes(a.value)) return { kind: "selection", word: a.value, next: i + 2 }
  return undefined
}

/** The DBMS_DB_VERSION constants of a release (`version` as the server reports it, e.g. 23 or 19). */
const dbVersionConstant = (name: string, version: number): Static => {
  if (name === "VERSION") return version
  if (name === "RELEASE") return version >= 18 ? 0 : 2
  const m = /^VER_LE_(\d+)(?:_(\d+))?$/.exec(name)
  if (m === null) return null
  const major = Number(m[1])
  return version < major || (version === major && (m[2] === undefined || Number(m[2]) >= 0))
}

/** Evaluates a static condition (tokens between $IF / $ELSIF and $THEN). */
class StaticExpression {
  private i = 0
  constructor(
    private readonly toks: ReadonlyArray<Tok>,
    private readonly inquire: (name: string) => Static,
    private readonly version: number,
    private readonly fail: (at: Tok | undefined) => never
  ) {}

  run(): Static {
    const v = this.or()
    if (this.i < this.toks.length) this.fail(this.toks[this.i])
    return v
  }

  private or(): Static {
    let v = this.and()
    while (isKw(this.toks[this.i], "OR")) {
      this.i++
      const r = this.and()
      v = v === true || r === true ? true : v === null || r === null ? null : false
    }
    return v
  }

  private and(): Static {
    let v = this.not()
    while (isKw(this.toks[this.i], "AND")) {
      this.i++
      const r = this.not()
      v = v === false || r === false ? false : v === null || r === null ? null : true
    }
    return v
  }

  private not(): Static {
    if (!isKw(this.toks[this.i], "NOT")) return this.comparison()
    this.i++
    const v = this.not()
    return v === null ? null : !v
  }

  private comparison(): Static {
    const left = this.operand()
    const t = this.toks[this.i]
    if (isKw(t, "IS")) {
      this.i++
      const negated = isKw(this.toks[this.i], "NOT")
      if (negated) this.i++
      if (!isKw(this.toks[this.i], "NULL")) this.fail(this.toks[this.i])
      this.i++
      return (left === null) !== negated
    }
    const ops: Record<string, (c: number) => boolean> = { "=": (c) => c === 0, "<>": (c) => c !== 0, "!=": (c) => c !== 0, "<": (c) => c < 0, ">": (c) => c > 0, "<=": (c) => c <= 0, ">=": (c) => c >= 0 }
    const op = t?.kind === "op" ? ops[t.text] : undefined
    if (op === undefined) return left
    this.i++
    const right = this.operand()
    if (left === null || right === null) return null
    return op(left < right ? -1 : left > right ? 1 : 0)
  }

  private operand(): Static {
    const t = this.toks[this.i]
    if (t === undefined) return this.fail(t)
    if (isOp(t, "(")) {
      this.i++
      const v = this.or()
      if (!isOp(this.toks[this.i], ")")) this.fail(this.toks[this.i])
      this.i++
      return v
    }
    const d = directiveAt(this.toks, this.i)
    if (d?.kind === "inquiry") {
      this.i = d.next
      return this.inquire(d.word)
    }
    if (t.kind === "num") {
      this.i++
      return Number(t.value)
    }
    if (t.kind === "str") {
      this.i++
      return t.value
    }
    if (isKw(t, "TRUE", "FALSE", "NULL")) {
      this.i++
      return t.value === "TRUE" ? true : t.value === "FALSE" ? false : null
    }
    if (isKw(t, "DBMS_DB_VERSION") && isOp(this.toks[this.i + 1], ".") && this.toks[this.i + 2]?.kind === "ident") {
      this.i += 3
      return dbVersionConstant(this.toks[this.i - 1]!.value, this.version)
    }
    return this.fail(t)
  }
}

/**
 * `source` with its conditional compilation directives applied: the kept branches, the inquiry directives as
 * literals, the rest blanked out. `ccflags` is the session's PLSQL_CCFLAGS setting, `version` the release the
 * server reports (DBMS_DB_VERSION.VERSION).
 */
export const preprocess = (source: string, unit: CompiledUnit, ccflags: string, version: number): string => {
  const { text, error } = preprocessUnit(source, unit, ccflags, version)
  if (error !== undefined) throw error
  return text
}

/**
 * `source` preprocessed as `preprocess` does, but a `$ERROR` met is returned beside the text (its directive blanked
 * out) rather than thrown: a stored unit's CREATE stores the unit INVALID with that error, as Oracle does.
 */
export const preprocessUnit = (source: string, unit: CompiledUnit, ccflags: string, version: number): { readonly text: string; readonly error?: PlsCompileError } => {
  const all = tokenize(source)
  const toks = all.filter((t) => t.kind !== "ws")
  if (!toks.some((_, i) => directiveAt(toks, i) !== undefined)) return { text: source }
  let error: PlsCompileError | undefined
  const flags = parseCcflags(ccflags)
  const lineOf = (pos: number) => source.slice(0, pos).split("\n").length
  const fail = (at: Tok | undefined): never => {
    throw new PlsCompileError(source, at?.pos ?? source.length, 103, `Encountered the symbol "${at?.text ?? "end-of-file"}" when expecting one of the following:\n\n   $then $end\n`)
  }
  const inquire = (name: string, at: number): Static => {
    switch (name) {
      case "PLSQL_LINE":
        return lineOf(at)
      case "PLSQL_UNIT":
        return unit.name
      case "PLSQL_UNIT_OWNER":
        return unit.owner
      case "PLSQL_UNIT_TYPE":
        return unit.type
      default:
        return flags.has(name) ? flags.get(name)! : null
    }
  }
  const literal = (v: Static): string => (v === null ? "NULL" : typeof v === "string" ? `'${v.replace(/'/g, "''")}'` : String(v).toUpperCase())
  // [start, end) spans of the source replaced by `text` (blanked spans keep their line breaks)
  const edits: Array<{ start: number; end: number; text: string | undefined }> = []
  const blank = (start: number, end: number) => edits.push({ start, end, text: undefined })
  const endOf = (t: Tok) => t.pos + t.text.length
  const until = (i: number, words: ReadonlyArray<string>): number => {
    for (let depth = 0, j = i; j < toks.length; j++) {
      const d = directiveAt(toks, j)
      if (d?.kind !== "selection") continue
      if (d.word === "IF" || d.word === "ERROR") depth++
      else if (d.word === "END" && depth > 0) depth--
      else if (depth === 0 && words.includes(d.word)) return j
    }
    return fail(undefined)
  }
  // walks the tokens from `i` to `end`, applying the directives met; the index after the last one handled
  const walk = (from: number, to: number): void => {
    for (let i = from; i < to; ) {
      const d = directiveAt(toks, i)
      if (d === undefined) {
        i++
        continue
      }
      if (d.kind === "inquiry") {
        edits.push({ start: toks[i]!.pos, end: endOf(toks[d.next - 1]!), text: literal(inquire(d.word, toks[i]!.pos)) })
        i = d.next
        continue
      }
      if (d.word === "ERROR") {
        const endAt = until(d.next, ["END"])
        const message = new StaticExpression(toks.slice(d.next, endAt), (n) => inquire(n, toks[i]!.pos), version, fail).run()
        error ??= new PlsCompileError(source, toks[i]!.pos, 179, `$ERROR: ${message ?? ""}`)
        const after = directiveAt(toks, endAt)!.next
        blank(toks[i]!.pos, endOf(toks[after - 1]!))
        i = after
        continue
      }
      if (d.word !== "IF") return fail(toks[i])
      // $IF c1 $THEN b1 [$ELSIF c $THEN b]... [$ELSE b] $END
      const start = toks[i]!.pos
      let kept: { from: number; to: number } | undefined
      let at = i
      let word = "IF"
      for (;;) {
        const head = directiveAt(toks, at)!
        if (word === "ELSE") {
          const endAt = until(head.next, ["END"])
          if (kept === undefined) kept = { from: head.next, to: endAt }
          at = endAt
          break
        }
        const thenAt = until(head.next, ["THEN"])
        const holds = new StaticExpression(toks.slice(head.next, thenAt), (n) => inquire(n, toks[head.next]!.pos), version, fail).run() === true
        const branchStart = directiveAt(toks, thenAt)!.next
        const nextAt = until(branchStart, ["ELSIF", "ELSE", "END"])
        if (holds && kept === undefined) kept = { from: branchStart, to: nextAt }
        at = nextAt
        word = directiveAt(toks, at)!.word
        if (word === "END") break
      }
      const endTok = toks[directiveAt(toks, at)!.next - 1]!
      if (kept === undefined) blank(start, endOf(endTok))
      else {
        // the kept branch starts right after $THEN / $ELSE: a comment opening it stays
        blank(start, endOf(toks[kept.from - 1]!))
        walk(kept.from, kept.to)
        blank(toks[kept.to]!.pos, endOf(endTok))
      }
      i = directiveAt(toks, at)!.next
    }
  }
  walk(0, toks.length)
  edits.sort((a, b) => a.start - b.start)
  let out = ""
  let pos = 0
  for (const e of edits) {
    out += source.slice(pos, e.start) + (e.text ?? source.slice(e.start, e.end).replace(/[^\n]/g, " "))
    pos = e.end
  }
  const text = out + source.slice(pos)
  return error === undefined ? { text } : { text, error }
}

/** The unit a statement compiles: `CREATE ... PROCEDURE | FUNCTION | PACKAGE [BODY] | TRIGGER | TYPE BODY [owner.]name`, else an anonymous block. */
export const compiledUnitOf = (toks: ReadonlyArray<Tok>, schema: string): CompiledUnit => {
  if (!isKw(toks[0], "CREATE")) return { owner: null, name: null, type: "ANONYMOUS BLOCK" }
  let k = 1
  if (isKw(toks[k], "OR") && isKw(toks[k + 1], "REPLACE")) k += 2
  if (isKw(toks[k], "EDITIONABLE", "NONEDITIONABLE")) k++
  const kind = toks[k]?.value ?? ""
  const isBody = isKw(toks[k + 1], "BODY")
  const type = isBody ? `${kind} BODY` : kind
  const at = k + (isBody ? 2 : 1)
  const first = toks[at]
  const qualified = isOp(toks[at + 1], ".")
  const nameTok = qualified ? toks[at + 2] : first
  const name = nameTok?.kind === "qident" ? nameTok.value : (nameTok?.value ?? "").toUpperCase()
  const owner = qualified ? (first?.kind === "qident" ? first.value : (first?.value ?? "").toUpperCase()) : schema
  return { owner, name, type }
}
