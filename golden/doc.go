// Package golden holds the golden files of fxgen: for each example model
// its graph table (print_tabular form) and its generated Go code. The tests
// compare what the tracer and emitter produce now with these files, so
// every change to the generated code shows in review;
// `go test ./... -update` rewrites them.
package golden
