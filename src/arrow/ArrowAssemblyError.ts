/**
 * The one error raised by Arrow batch assembly: a value that cannot be stored in its column's Arrow type
 * (out of range, too many fractional digits, malformed decimal text, …) or an unsupported column type.
 *
 * The core maps it to its ADBC error family; assembly code stays free of Effect on the hot path.
 */
export class ArrowAssemblyError extends Error {
  override readonly name = "ArrowAssemblyError"
  /** Name of the column being assembled, when known. */
  readonly column: string | undefined

  constructor(message: string, column?: string) {
    super(column === undefined || column === "" ? message : `column "${column}": ${message}`)
    this.column = column
  }
}

/** A short, printable preview of a rejected value (never more than 40 characters). */
export const previewValue = (value: unknown): string => {
  let text: string
  if (typeof value === "string") text = JSON.stringify(value)
  else if (typeof value === "bigint") text = `${value}n`
  else if (value instanceof Uint8Array) text = `<${value.byteLength} bytes>`
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString()
  else if (value === null || typeof value !== "object") text = String(value)
  else text = Object.prototype.toString.call(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}
