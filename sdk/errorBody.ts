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

// A proxy's HTML error page: keep its title/heading text, drop the markup.
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
