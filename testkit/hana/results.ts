/**
 * Open result sets of a session: result metadata (declared HANA types where the column comes from a table) and
 * row-major RESULT_SET encoding of engine chunks, exactly `n` rows per fetch.
 */
import type { Chunk, ColumnInfo, Cursor, Session } from "../engine/index.ts"
import { declaredTypes } from "./catalog.ts"
import { cellWriter } from "./encode.ts"
import { encodeResultSetMetadata } from "./metadata.ts"
import type { ColumnMetadata } from "./metadata.ts"
import type { CellWriter, LobRegistry } from "./encode.ts"
import { decodeName } from "./names.ts"
import type { FromItem, SelectItemSource } from "./select-items.ts"
import { SPECIAL_COLUMN_NAMES } from "./sql-rewrite.ts"
import { sourceColumns } from "./select-columns.ts"
import { duckType, parseTypeText, typeOfDuck, wireType } from "./types.ts"
import type { HanaType, WireType } from "./types.ts"
import { ByteWriter } from "./wire.ts"

/** Resolved metadata of one result column. */
export interface ResultColumn {
  readonly type: HanaType
  readonly wire: WireType
  readonly metadata: ColumnMetadata
}

const sameStorage = (declared: HanaType, actual: ColumnInfo): boolean =>
  duckType(declared).replace(/\s/g, "") === actual.type.toString().replace(/\s/g, "")

/** Works out HANA types and names of a result's columns, using the declared types of the tables read. */
export const describeColumns = async (
  session: Session,
  columns: readonly ColumnInfo[],
  tables: readonly string[],
  dfv: number,
  names?: ReadonlyArray<string | undefined>,
  /** What each select item reads (select-items.ts): a table column, a star, or an expression. */
  sources?: ReadonlyArray<SelectItemSource>,
  /** The query's top-level FROM items, for qualifiers and stars. */
  fromItems?: ReadonlyArray<FromItem | undefined>,
  /** HANA's types of computed columns (function-types.ts CALL_RESULT_TYPES), by position. */
  types?: ReadonlyArray<HanaType | undefined>
): Promise<ResultColumn[]> => {
  const declared = tables.length > 0 ? await declaredTypes(session, tables) : new Map()
  const useNames = names !== undefined && names.length === columns.length
  const resolved = sources === undefined || fromItems === undefined ? undefined : await sourceColumns(session, columns.length, sources, fromItems)
  return columns.map((c, i) => {
    const source = resolved?.[i]
    const d = source ?? declared.get(c.name)
    const parsed = d === undefined ? undefined : parseTypeText(d.type)
    const fromTable = parsed !== undefined && sameStorage(parsed, c)
    const computed = types !== undefined && types.length === columns.length ? types[i] : undefined
    const type = fromTable ? parsed : computed !== undefined && sameStorage(computed, c) ? computed : typeOfDuck(c)
    const wire = wireType(type, dfv)
    const name = (useNames ? names[i] : undefined) ?? SPECIAL_COLUMN_NAMES.get(c.name) ?? decodeName(c.name)
    return {
      type,
      wire,
      metadata: {
        // A NOT NULL table column, also aliased, qualified or through an inner join, is reported as such (mode
        // MANDATORY), as HANA does; on the optional side of an outer join it may be NULL.
        nullable: fromTable && source?.optional !== true ? d!.nullable : true,
        wire,
        tableName: fromTable ? decodeName(d!.table) : undefined,
        schemaName: fromTable && d!.schema !== "main" ? decodeName(d!.schema) : undefined,
        columnName: name,
        displayName: name
      }
    }
  })
}

/** RESULT_SET_METADATA body for resolved columns. */
export const resultSetMetadata = (cols: readonly ResultColumn[]): Buffer =>
  encodeResultSetMetadata(cols.map((c) => c.metadata))

/** Rows encoded for one RESULT_SET part. */
export interface EncodedRows {
  readonly rows: number
  readonly data: Buffer
  /** True when the result has no rows left (the server then closes it). */
  readonly last: boolean
}

/** One open result set: a cursor plus the chunk being sent. */
export class OpenResult {
  private chunk: Chunk | null = null
  private offset = 0
  private writers: CellWriter[] = []
  private exhausted = false
  constructor(
    readonly id: bigint,
    private readonly cursor: Cursor,
    readonly columns: readonly ResultColumn[],
    private readonly lob: LobRegistry
  ) {}

  private async advance(): Promise<boolean> {
    if (this.exhausted) return false
    const next = await this.cursor.next()
    if (next === null) {
      this.exhausted = true
      this.chunk = null
      return false
    }
    this.chunk = next
    this.offset = 0
    this.writers = next.columns.map((col, i) => cellWriter(col, this.columns[i]!.wire, this.lob))
    return true
  }

  /** Encodes up to `max` rows. */
  async fetch(max: number): Promise<EncodedRows> {
    const w = new ByteWriter(Math.min(Math.max(max, 1) * 16 * Math.max(this.columns.length, 1), 1 << 24))
    let rows = 0
    while (rows < max) {
      if (this.chunk === null || this.offset >= this.chunk.rowCount) {
        if (!(await this.advance())) break
      }
      const chunk = this.chunk!
      const writers = this.writers
      const n = writers.length
      const end = Math.min(chunk.rowCount, this.offset + (max - rows))
      for (let r = this.offset; r < end; r++) {
        for (let c = 0; c < n; c++) writers[c]!(w, r)
      }
      rows += end - this.offset
      this.offset = end
    }
    if (!this.exhausted && (this.chunk === null || this.offset >= this.chunk.rowCount)) await this.advance()
    return { rows, data: w.result(), last: this.exhausted }
  }

  close(): void {
    this.cursor.close()
    this.exhausted = true
    this.chunk = null
  }
}
