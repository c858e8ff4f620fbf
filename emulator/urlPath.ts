/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const index = url.indexOf("?");
  return index === -1 ? url : url.slice(0, index);
}
