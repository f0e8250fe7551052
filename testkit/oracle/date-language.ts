/**
 * NLS_DATE_LANGUAGE: the language of month and day names and abbreviations in TO_CHAR and TO_DATE, set by `ALTER
 * SESSION SET NLS_DATE_LANGUAGE = name` or a call's `'NLS_DATE_LANGUAGE = name'` parameter (Globalization Support
 * Guide, "NLS_DATE_LANGUAGE"; SQL Language Reference, "TO_CHAR (datetime)", "TO_DATE").
 *
 * Names are modelled for AMERICAN / ENGLISH, GERMAN, FRENCH, SPANISH and ITALIAN. The full month and day names are
 * the languages' standard ones (Oracle's German output, e.g. `Mittwoch, 31. Oktober`, is shown on
 * http://www.sqlsnippets.com/en/topic-12342.html); the abbreviations are Oracle's as recalled from its locale data
 * (GERMAN `MRZ`, `DI`; FRENCH `JANV.`, `LUN.`; ...), not from a published table: README "Where it still differs"
 * marks them unconfirmed. They differ from CLDR's (Intl.DateTimeFormat gives German `März` / `Di.`), which this
 * module does not use. Another language Oracle has is refused with ORA-03001 by name; a name Oracle does not have is
 * ORA-12705 in ALTER SESSION and ORA-12702 in a call's NLS parameter (Database Error Messages).
 */
import { OraError } from "./errors.ts"

/** Names of one language: months January first, days Sunday first. */
interface DateNames {
  readonly months: ReadonlyArray<string>
  readonly monthAbbreviations: ReadonlyArray<string>
  readonly days: ReadonlyArray<string>
  readonly dayAbbreviations: ReadonlyArray<string>
}

const ENGLISH: DateNames = {
  months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  monthAbbreviations: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  days: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
  dayAbbreviations: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
}

const LANGUAGES: Readonly<Record<string, DateNames>> = {
  AMERICAN: ENGLISH,
  ENGLISH,
  GERMAN: {
    months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    monthAbbreviations: ["Jan", "Feb", "Mrz", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"],
    days: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
    dayAbbreviations: ["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"]
  },
  FRENCH: {
    months: ["Janvier", "Février", "Mars", "Avril", "Mai", "Juin", "Juillet", "Août", "Septembre", "Octobre", "Novembre", "Décembre"],
    monthAbbreviations: ["Janv.", "Févr.", "Mars", "Avr.", "Mai", "Juin", "Juil.", "Août", "Sept.", "Oct.", "Nov.", "Déc."],
    days: ["Dimanche", "Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi"],
    dayAbbreviations: ["Dim.", "Lun.", "Mar.", "Mer.", "Jeu.", "Ven.", "Sam."]
  },
  SPANISH: {
    months: ["Enero", "Febrero", "Marzo", "Abril", "Mayo", "Junio", "Julio", "Agosto", "Septiembre", "Octubre", "Noviembre", "Diciembre"],
    monthAbbreviations: ["Ene", "Feb", "Mar", "Abr", "May", "Jun", "Jul", "Ago", "Sep", "Oct", "Nov", "Dic"],
    days: ["Domingo", "Lunes", "Martes", "Miércoles", "Jueves", "Viernes", "Sábado"],
    dayAbbreviations: ["Dom", "Lun", "Mar", "Mié", "Jue", "Vie", "Sáb"]
  },
  ITALIAN: {
    months: ["Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno", "Luglio", "Agosto", "Settembre", "Ottobre", "Novembre", "Dicembre"],
    monthAbbreviations: ["Gen", "Feb", "Mar", "Apr", "Mag", "Giu", "Lug", "Ago", "Set", "Ott", "Nov", "Dic"],
    days: ["Domenica", "Lunedì", "Martedì", "Mercoledì", "Giovedì", "Venerdì", "Sabato"],
    dayAbbreviations: ["Dom", "Lun", "Mar", "Mer", "Gio", "Ven", "Sab"]
  }
}

/** Languages Oracle has whose names are not modelled here (Globalization Support Guide, "Languages"). */
const OTHER_ORACLE_LANGUAGES = new Set([
  "ARABIC", "BENGALI", "BRAZILIAN PORTUGUESE", "BULGARIAN", "CANADIAN FRENCH", "CATALAN", "CROATIAN", "CZECH", "DANISH",
  "DUTCH", "EGYPTIAN", "ESTONIAN", "FINNISH", "GERMAN DIN", "GREEK", "HEBREW", "HUNGARIAN", "ICELANDIC", "INDONESIAN",
  "JAPANESE", "KOREAN", "LATIN AMERICAN SPANISH", "LATVIAN", "LITHUANIAN", "MALAY", "MEXICAN SPANISH", "NORWEGIAN",
  "POLISH", "PORTUGUESE", "ROMANIAN", "RUSSIAN", "SIMPLIFIED CHINESE", "SLOVAK", "SLOVENIAN", "SWEDISH", "THAI",
  "TRADITIONAL CHINESE", "TURKISH", "UKRAINIAN", "VIETNAMESE"
])

/** The SQL the translator writes for the session's date language (session-variables.ts sets the variable). */
export const SESSION_DATE_LANGUAGE = "coalesce(getvariable('ora_nls_date_language'), 'AMERICAN')"

/**
 * The language `name` (as written, any case, quotes taken off) names, upper-cased; `inCall` picks the error for a name
 * Oracle does not have (ORA-12702 in a function's NLS parameter, else ORA-12705).
 */
export const dateLanguageOf = (name: string, inCall: boolean): string => {
  const language = name.trim().replace(/\s+/g, " ").toUpperCase()
  if (LANGUAGES[language] !== undefined) return language
  if (OTHER_ORACLE_LANGUAGES.has(language))
    throw new OraError(3001, `unimplemented feature: NLS_DATE_LANGUAGE ${language} (the test server has AMERICAN, ENGLISH, GERMAN, FRENCH, SPANISH and ITALIAN names)`)
  if (inCall) throw new OraError(12702, "invalid NLS parameter string used in SQL function")
  throw new OraError(12705, "Cannot access NLS data files or invalid environment specified")
}

/** The NLS_DATE_LANGUAGE of a function's NLS parameter text (`'NLS_DATE_LANGUAGE = German'`), or undefined. */
export const dateLanguageOfParameter = (nlsparam: string | undefined): string | undefined => {
  const m = nlsparam === undefined ? null : /NLS_DATE_LANGUAGE\s*=\s*("?)([A-Za-z ]+?)\1\s*$/i.exec(nlsparam.trim())
  return m === null ? undefined : dateLanguageOf(m[2]!, true)
}

const namesOf = (language: string): DateNames => LANGUAGES[language] ?? ENGLISH

/**
 * An English month or day name or abbreviation (as DuckDB's strftime writes them) in `language`, with the length of
 * that language's longest name of its kind (MONTH and DAY are blank-padded to it).
 */
export const localizedName = (english: string, language: string): { readonly name: string; readonly longest: number } => {
  const names = namesOf(language)
  const lists: ReadonlyArray<readonly [ReadonlyArray<string>, ReadonlyArray<string>]> = [
    [ENGLISH.months, names.months],
    [ENGLISH.monthAbbreviations, names.monthAbbreviations],
    [ENGLISH.days, names.days],
    [ENGLISH.dayAbbreviations, names.dayAbbreviations]
  ]
  for (const [from, to] of lists) {
    const k = from.indexOf(english)
    if (k >= 0) return { name: to[k]!, longest: Math.max(...to.map((n) => n.length)) }
  }
  return { name: english, longest: english.length }
}

/** The month number (1-12) a month name or abbreviation in `language` gives (any case), or 0 for none. */
export const monthOfName = (text: string, language: string): number => {
  const names = namesOf(language)
  const upper = text.toUpperCase()
  const full = names.months.findIndex((n) => n.toUpperCase() === upper)
  if (full >= 0) return full + 1
  const short = names.monthAbbreviations.findIndex((n) => n.toUpperCase() === upper)
  if (short >= 0) return short + 1
  // English reads a month by its first three letters ("MARCH", "Mar")
  return language === "AMERICAN" || language === "ENGLISH" ? ENGLISH.monthAbbreviations.findIndex((n) => n.toUpperCase() === upper.slice(0, 3)) + 1 : 0
}

/** The day of the week (0 Sunday - 6 Saturday) a day name or abbreviation in `language` gives (any case), or -1. */
export const weekdayOfName = (text: string, language: string): number => {
  const names = namesOf(language)
  const upper = text.toUpperCase()
  const full = names.days.findIndex((n) => n.toUpperCase() === upper)
  return full >= 0 ? full : names.dayAbbreviations.findIndex((n) => n.toUpperCase() === upper)
}

/**
 * The query of a dictionary view over its snapshot table `table`: NLS_SESSION_PARAMETERS shows the querying session's
 * NLS_DATE_LANGUAGE and datetime formats (the admin session runs dictionary queries with that session's variables), the others their
 * snapshot as it is.
 */
export const dictionaryViewSelect = (name: string, table: string): string =>
  name === "NLS_SESSION_PARAMETERS"
    ? `SELECT "PARAMETER", CASE "PARAMETER" WHEN 'NLS_DATE_LANGUAGE' THEN coalesce(getvariable('ora_nls_date_language'), "VALUE")
      WHEN 'NLS_DATE_FORMAT' THEN coalesce(getvariable('ora_nls_date_format'), "VALUE") WHEN 'NLS_TIMESTAMP_FORMAT' THEN coalesce(getvariable('ora_nls_timestamp_format'), "VALUE")
      WHEN 'NLS_TIMESTAMP_TZ_FORMAT' THEN coalesce(getvariable('ora_nls_timestamp_tz_format'), "VALUE") ELSE "VALUE" END AS "VALUE" FROM ${table}`
    : `SELECT * FROM ${table}`
