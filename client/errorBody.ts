/**
 * Tolerant reading of a failed request's body. The spec leaves the error shape open, so every common
 * form is accepted: `{error:{code,message,requestId}}` (the emulator's), `{code,message}` (code a
 * number or a string, as gRPC gateways answer), `{message}`, `{error:"text"}`, and plain text or HTML.
 */

export interface ParsedErrorBody {
  code?: string;
  message?: string;
  requestId?: string;
}

/** Extracts code, message and request id; never throws. Values are raw: sanitize before showing. */
export function parseErrorBody(text: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { message: looksLikeHtml(trimmed) ? htmlText(trimmed) : trimmed };
  }
  if (typeof json === "string") return { message: json };
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { message: trimmed };
  const body = json as Record<string, unknown>;
  const nested = isRecord(body.error) ? body.error : undefined;
  const result: ParsedErrorBody = {};
  const code = scalar(nested?.code) ?? scalar(body.code) ?? scalar(body.error_code) ?? scalar(body.errorCode);
  const message =
    scalar(nested?.message) ??
    scalar(body.message) ??
    (typeof body.error === "string" ? body.error : undefined) ??
    scalar(body.detail) ??
    scalar(body.error_description);
  const requestId =
    scalar(nested?.requestId) ??
    scalar(body.requestId) ??
    scalar(body.request_id) ??
    scalar(nested?.request_id);
  if (code !== undefined) result.code = code;
  if (message !== undefined) result.message = message;
  else if (code === undefined) result.message = trimmed;
  if (requestId !== undefined) result.requestId = requestId;
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function looksLikeHtml(text: string): boolean {
  return /^<(!doctype|html|head|body)\b/i.test(text);
}

const CLOSING_TAGS = { script: /<\/script>/gi, style: /<\/style>/gi };

/**
 * A proxy's HTML error page: its title/heading text, the markup dropped. Scanned once, left to right
 * (a body may be megabytes): a lazy pattern such as `<script[\s\S]*?</script>` would rescan the rest of
 * the text from every unclosed `<script`, in time quadratic in the body's size.
 */
function htmlText(html: string): string {
  let text = "";
  let from = 0;
  while (from < html.length) {
    const open = html.indexOf("<", from);
    if (open === -1) break;
    const element = /^<(script|style)\b/i.exec(html.slice(open, open + 8))?.[1];
    if (element !== undefined) {
      const closing = CLOSING_TAGS[element.toLowerCase() as "script" | "style"];
      closing.lastIndex = open;
      const close = closing.exec(html)?.index ?? -1;
      text += `${html.slice(from, open)} `;
      if (close === -1) {
        // An element left open runs to the end of the page, as in a browser.
        from = html.length;
        break;
      }
      from = close + element.length + 3;
      continue;
    }
    const end = html.indexOf(">", open);
    // No tag ends after this point: the rest is text.
    if (end === -1) break;
    text += `${html.slice(from, open)} `;
    from = end + 1;
  }
  text += html.slice(from);
  return text.replace(/\s+/g, " ").trim();
}
