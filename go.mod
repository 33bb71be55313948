module github.com/fxgen/fxgen

go 1.26.8

require (
	github.com/dave/jennifer v1.7.1
	github.com/google/go-cmp v0.7.0
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

tool github.com/fxgen/fxgen/cmd/fxgen
