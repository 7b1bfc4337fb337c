/**
 * Splits a schema file into statements at semicolons that end a line, dropping whole-line comments.
 * A semicolon inside a line (a string literal, say) does not split.
 */
export function splitStatements(source: string, commentPrefix: '--' | '//'): string[] {
  return source
    .split('\n')
    .filter((line) => !line.trim().startsWith(commentPrefix))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0)
}
