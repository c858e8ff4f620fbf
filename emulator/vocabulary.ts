/**
 * The emulator's own fixture vocabulary: values it uses where the spec gives one example value or none.
 * They are not the platform's value sets (the spec does not define them), so they live here and not in
 * `pulumi-codesec/api`, whose schemas accept any string in these fields: a real platform may send values
 * the emulator never does. docs/api-behaviour.md lists the choices
 * ("Enumerations and field contents", "Events").
 */

/** Scan states the fixtures use. The spec gives SCAN_STATUS_RUNNING only; the others are invented. */
export const SCAN_STATUSES = [
  "SCAN_STATUS_QUEUED",
  "SCAN_STATUS_RUNNING",
  "SCAN_STATUS_COMPLETED",
  "SCAN_STATUS_ERROR",
  "SCAN_STATUS_CANCELLED",
] as const;

/** Products a scan may enable: the values the spec lists as "values seen" (not a closed set). */
export const PRODUCTS = ["PRODUCT_SAST", "PRODUCT_SCA", "PRODUCT_SECRETS"] as const;

/**
 * Error codes of `provisionWorkflows`'s partial failures. The spec gives UPDATE_ERROR_CODE_BAD_REQUEST only.
 */
export const PROVISION_ERROR_CODES = [
  "UPDATE_ERROR_CODE_BAD_REQUEST",
  "UPDATE_ERROR_CODE_NO_CODE_ACCESS",
  "UPDATE_ERROR_CODE_NOT_FOUND",
] as const;
export type ProvisionErrorCode = (typeof PROVISION_ERROR_CODES)[number];

/** SCM types the fixtures use: the one value the spec gives ("other values: not shown"). */
export const SCM_TYPES = ["SCM_TYPE_PROVIDERA"] as const;

/** Webhook events the emulator subscribes a SCM_TYPE_PROVIDERA configuration to (spec: names not shown). */
export const SCM_WEBHOOK_EVENTS = [
  "pull_request",
  "push",
  "installation",
  "installation_repositories",
] as const;
