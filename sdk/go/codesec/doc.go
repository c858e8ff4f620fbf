// Manage a code-security platform's organization with Pulumi: user roles, CI workflow provisioning, SCM webhook subscriptions and SCM apps, and functions that read scans, branches, SCM apps, users, organizations and notification rules.
package codesec
