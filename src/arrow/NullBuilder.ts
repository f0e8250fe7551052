/**
 * Builder for the Arrow null type (a column whose every value is null, e.g. a bare `NULL` select item).
 */
import type { Data, Null } from "apache-arrow"
import { BaseColumnBuilder, dataFromBuffers } from "./ColumnBuilder.ts"

/** Arrow null: only counts rows; any non-null value is rejected. */
export class NullBuilder extends BaseColumnBuilder<Null> {
  appendNull(): void {
    this.rows++
  }
  override get nullCount(): number {
    return this.rows
  }
  append(value: unknown): void {
    if (value !== null && value !== undefined) throw this.invalid(value, "null")
    this.rows++
  }
  reserve(_additional: number): void {}
  get byteLength(): number {
    return 0
  }
  finish(): Data<Null> {
    const length = this.rows
    this.rows = 0
    return dataFromBuffers(this.type, length, length, undefined, undefined)
  }
}
