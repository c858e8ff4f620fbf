module github.com/pulumi-codesec/pulumi-codesec/scripts/release/gomodule

go 1.25.11

require golang.org/x/mod v0.38.0
