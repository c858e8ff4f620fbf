export * from "./common";
export * from "./users";
export * from "./provisioning";
export * from "./scm";
export * from "./scans";
export * from "./notificationRules";
export * from "./errors";
