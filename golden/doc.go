// Package golden holds the golden tests of fxgen: for each example model
// (one table, models_test.go) the traced graph's table (print_tabular
// form, in testdata) and, as the golden files of the emitter, the model's
// checked-in generated file and graph file themselves (one copy of each).
// The tests compare what the tracer and emitter produce now with these
// files, so every change to the generated code shows in review;
// FXGEN_UPDATE=1 go test ./... rewrites them.
package golden
