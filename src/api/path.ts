/** Tagged template that percent-encodes every interpolated path segment: apiPath`/open/forms/${slug}`. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += encodeURIComponent(String(v)) + strings[i + 1]!;
  });
  return out;
}
