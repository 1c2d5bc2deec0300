/**
 * A Go `regexp.Compile` pattern (RE2) read as a JavaScript `RegExp`, for user patterns OpenKruise compiles with Go
 * (a SidecarSet `resourcesPolicy.targetContainersNameRegex`). The two grammars mostly agree on what such a pattern
 * holds; RE2's leading flag group `(?i)`, `(?s)`, `(?m)` (any mix) is not JavaScript syntax and becomes the `i`, `s`,
 * `m` flags here. Other RE2-only syntax (`(?U)`, a flag group inside the pattern, `\z`, `\C`) still fails to compile.
 */

/**
 * The pattern compiled as JavaScript would match it as Go does (unanchored `test`, as Go's `MatchString`).
 * @throws SyntaxError as `new RegExp` does for what JavaScript cannot compile
 */
export function goRegExp(pattern: string): RegExp {
  const m = /^\(\?([ims]+)\)/.exec(pattern);
  if (!m) return new RegExp(pattern);
  return new RegExp(pattern.slice(m[0].length), [...new Set(m[1])].join(''));
}
