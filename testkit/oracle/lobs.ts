/**
 * LOB values of one session, addressed by the 40-byte locators the client holds.
 */
import type { LobSource } from "./statement.ts"
import type { OraType } from "./types.ts"

/** A LOB's content. */
export interface LobEntry {
  data: string | Buffer
  readonly blob: boolean
  readonly temp: boolean
  /** NCLOB: the client exchanges data as UTF-16BE. */
  readonly nchar: boolean
  /** The table row and column a persistent LOB was read from (writes through its locator update that row). */
  readonly source?: LobSource & { readonly rowid: bigint }
}

/** Byte offset of the LOB id inside a locator. */
const ID_OFFSET = 10

/** The LOBs a session handed out. */
export class LobStore {
  private readonly entries = new Map<number, LobEntry>()
  private nextId = 1

  /** Registers a value and returns its locator. */
  register(value: string | Uint8Array, type: OraType, temp: boolean, source?: LobEntry["source"]): Buffer {
    const blob = type.kind === "blob" || type.kind === "raw" || type.kind === "longraw"
    const data = typeof value === "string" ? value : Buffer.from(value)
    return this.add({ data, blob, temp, nchar: type.kind === "nclob", ...(source !== undefined ? { source } : {}) })
  }

  /** Registers an entry and returns its locator. */
  add(entry: LobEntry): Buffer {
    const id = this.nextId++
    this.entries.set(id, entry)
    return locator(id, entry.blob, entry.temp)
  }

  /** The entry a locator names. */
  get(loc: Buffer): LobEntry | undefined {
    return loc.length >= ID_OFFSET + 4 ? this.entries.get(loc.readUInt32BE(ID_OFFSET)) : undefined
  }

  /** The content a locator names (bind values may be locators). */
  content(loc: Buffer): string | Uint8Array | null {
    return this.get(loc)?.data ?? null
  }

  /** Frees the LOB a locator names. */
  free(loc: Buffer): void {
    if (loc.length >= ID_OFFSET + 4) this.entries.delete(loc.readUInt32BE(ID_OFFSET))
  }
}

/** The bytes every locator shares: length, version, initialised flag and a marker (flags and id are set per LOB). */
const LOCATOR_TEMPLATE = (() => {
  const loc = Buffer.alloc(40)
  loc.writeUInt16BE(38, 0)
  loc.writeUInt16BE(4, 2) // locator version
  loc[5] = 0x08 // initialised
  loc.write("DKLOB", 20, "ascii")
  return loc
})()

/** A locator for LOB `id` (one per LOB value a fetch sends: copied from a template, not built byte by byte). */
const locator = (id: number, blob: boolean, temp: boolean): Buffer => {
  const loc = Buffer.allocUnsafe(40)
  LOCATOR_TEMPLATE.copy(loc)
  loc[4] = (blob ? 0x01 : 0) | (temp ? 0x40 : 0)
  loc[7] = temp ? 0x01 : 0
  loc.writeUInt32BE(id, ID_OFFSET)
  return loc
}
