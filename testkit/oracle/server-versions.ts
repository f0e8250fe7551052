/** The release strings and protocol versions the server reports for each Oracle version it plays (19c, 23ai). */
import type { OracleVersion } from "./errors.ts"

/** Release strings per server version. */
export const versionInfo = (v: OracleVersion) =>
  v === "23ai"
    ? {
        banner: "Oracle Database 23ai Free Release 23.0.0.0.0 - Develop, Learn, and Run for Free",
        full: "Oracle Database 23ai Free Release 23.0.0.0.0 - Develop, Learn, and Run for Free\nVersion 23.5.0.24.07",
        version: "23.0.0.0.0",
        versionFull: "23.5.0.24.07",
        // AUTH_VERSION_NO for field version >= 11: major<<24 | release<<16 | update<<12 | port release<<4 | port update
        authVersion: (23 << 24) | (5 << 16) | (0 << 12) | (24 << 4) | 7,
        fieldVersion: 24
      }
    : {
        banner: "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production",
        full: "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production\nVersion 19.24.0.0.0",
        version: "19.0.0.0.0",
        versionFull: "19.24.0.0.0",
        authVersion: (19 << 24) | (24 << 16) | (0 << 12) | (0 << 4) | 0,
        fieldVersion: 13
      }
