/**
 * The pieces both drivers' connection URIs share: percent-decoding, `user[:password]@`, `host[:port]` (IPv6 in
 * brackets) and `name=value&...` query pairs. Each driver's Uri module owns its scheme, path and parameter names.
 * Messages describe what is wrong and never repeat the URI (it may hold a password).
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import { type AdbcError, invalidArgument } from "../../src/AdbcError.ts"

/** A malformed URI; {@link parseOrInvalid} turns it into INVALID_ARGUMENT. @category errors @since 0.1.0 */
export class UriError extends Error {}

/**
 * Percent-decodes one URI element; `what` names it in the error.
 *
 * @category parsing
 * @since 0.1.0
 */
export const decodeComponent = (text: string, what: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    throw new UriError(`the ${what} is not correctly percent-encoded`)
  }
}

/**
 * Splits `user[:password]@rest` (the last `@` ends the user info, so an encoded `@` in a password is kept).
 *
 * @category parsing
 * @since 0.1.0
 */
export const splitUserInfo = (
  text: string
): { readonly user?: string; readonly password?: string; readonly rest: string } => {
  const at = text.lastIndexOf("@")
  if (at < 0) return { rest: text }
  const userinfo = text.slice(0, at)
  const colon = userinfo.indexOf(":")
  const user = decodeComponent(colon >= 0 ? userinfo.slice(0, colon) : userinfo, "user name")
  if (user === "") throw new UriError("the URI has an empty user name before '@'")
  const rest = text.slice(at + 1)
  return colon >= 0 ? { user, password: decodeComponent(userinfo.slice(colon + 1), "password"), rest } : { user, rest }
}

/**
 * Parses `host[:port]` or `[ipv6][:port]`; the port is 1–65535, `defaultPort` when absent. A host containing a
 * character of `invalidHostCharacters` is refused.
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseAuthority = (
  authority: string,
  defaultPort: number,
  invalidHostCharacters: RegExp
): { readonly host: string; readonly port: number; readonly portGiven: boolean } => {
  let host: string
  let portText: string | undefined
  if (authority.startsWith("[")) {
    const close = authority.indexOf("]")
    if (close < 0) throw new UriError("the URI has an unterminated IPv6 address")
    host = authority.slice(1, close)
    const after = authority.slice(close + 1)
    if (after !== "" && !after.startsWith(":")) throw new UriError("unexpected text after the IPv6 address")
    portText = after === "" ? undefined : after.slice(1)
  } else {
    const colon = authority.lastIndexOf(":")
    host = decodeComponent(colon >= 0 ? authority.slice(0, colon) : authority, "host")
    portText = colon >= 0 ? authority.slice(colon + 1) : undefined
  }
  if (host === "") throw new UriError("the URI has no host")
  if (invalidHostCharacters.test(host)) throw new UriError("the URI host contains an invalid character")
  if (portText === undefined) return { host, port: defaultPort, portGiven: false }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new UriError("the URI port must be a number from 1 to 65535")
  }
  return { host, port: Number(portText), portGiven: true }
}

/**
 * The part of a URI after its scheme split at the first `?`: what precedes it, and the query string (`""` when
 * there is none). A fragment (`#`) is refused.
 *
 * @category parsing
 * @since 0.1.0
 */
export const splitQuery = (afterScheme: string): { readonly rest: string; readonly query: string } => {
  const q = afterScheme.indexOf("?")
  const rest = q >= 0 ? afterScheme.slice(0, q) : afterScheme
  if (rest.includes("#")) throw new UriError("the URI must not contain a fragment")
  return { rest, query: q >= 0 ? afterScheme.slice(q + 1) : "" }
}

/**
 * The decoded `name=value` pairs of a query string, in order (`name` alone has the value `""`). With
 * `plusIsSpace`, `+` decodes to a space as in form encoding.
 *
 * @category parsing
 * @since 0.1.0
 */
export const queryPairs = (query: string, plusIsSpace: boolean): Array<readonly [name: string, value: string]> => {
  const pairs: Array<readonly [string, string]> = []
  for (const pair of query.split("&")) {
    if (pair === "") continue
    const eq = pair.indexOf("=")
    const rawName = eq >= 0 ? pair.slice(0, eq) : pair
    const rawValue = eq >= 0 ? pair.slice(eq + 1) : ""
    const name = decodeComponent(plusIsSpace ? rawName.replace(/\+/g, " ") : rawName, "query parameter name")
    const value = decodeComponent(plusIsSpace ? rawValue.replace(/\+/g, " ") : rawValue, `value of URI parameter ${name}`)
    pairs.push([name, value])
  }
  return pairs
}

/**
 * Runs a parser that throws {@link UriError}, as a Result failing with INVALID_ARGUMENT `invalid option uri: …`.
 *
 * @category parsing
 * @since 0.1.0
 */
export const parseOrInvalid = <A>(parse: () => A): Result.Result<A, AdbcError> => {
  try {
    return Result.succeed(parse())
  } catch (e) {
    if (e instanceof UriError) return Result.fail(invalidArgument(`invalid option uri: ${e.message}`))
    throw e
  }
}
