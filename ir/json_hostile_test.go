// This file tests UnmarshalGraph on hostile documents: sizes that would
// exhaust memory or overflow, and malformed types. Each must be an error,
// never a crash or a huge allocation. FuzzUnmarshalGraph extends the table
// with generated documents; its seed corpus runs in go test.

package ir

import (
	"strings"
	"testing"
)

// hostileParam is a graph document with one parameter of the given type
// and data. Before the size checks, type "f32[1099511627776]" (2^40) with
// an empty body, 125 bytes in all, made UnmarshalGraph allocate 4 TiB and
// die with "fatal error: runtime: out of memory", and f32[4611686018427387904,3]
// (2^62·3 wraps) panicked with "slice bounds out of range".
func hostileParam(typ, shape, data string) string {
	return `{"version":1,"nodes":[],"params":{"p":{"name":"p","type":"` + typ +
		`","data":{"dtype":"f32","shape":` + shape + `,"data":"` + data + `"}}}}`
}

func TestUnmarshalGraphHostile(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"2^40 elements, no data", hostileParam("f32[1099511627776]", "[1099511627776]", ""), "too few for 1099511627776 elements"},
		{"2^62·3 wraps", hostileParam("f32[4611686018427387904,3]", "[4611686018427387904,3]", ""), "more elements than an int can count"},
		{"2^32·2^32 wraps to 0", hostileParam("f32[4294967296,4294967296]", "[4294967296,4294967296]", ""), "more elements than an int can count"},
		{"negative dim in data", hostileParam("f32[2]", "[-1,-2]", "AAAAAAAAAAA="), "negative dimension"},
		{"data one element short", hostileParam("f32[2]", "[2]", "AAAAAA=="), "too few"},
		{"data too long", hostileParam("f32[1]", "[1]", "AAAAAAAAAAA="), "data has 8 bytes, want 4"},
		{"bad base64", hostileParam("f32[1]", "[1]", "!!!!!!!!"), "data:"},
		{"negative type dim", hostileParam("f32[-2*3]", "[1]", "AAAAAA=="), "is negative"},
		{"zero coefficient", hostileParam("f32[0*N]", "[1]", "AAAAAA=="), "coefficient of a symbol must be positive"},
		{"negative coefficient", hostileParam("f32[-1*N]", "[1]", "AAAAAA=="), "coefficient of a symbol must be positive"},
		{"type overflow", `{"version":1,"nodes":[{"op":"placeholder","name":"x","target":"x","types":["f32[9223372036854775807,2]"]}]}`, "more elements than an int can count"},
		{"not JSON", `{"version":1,`, "ir: json:"},
		{"null param", `{"version":1,"nodes":[],"params":{"p":null}}`, "param p is null"},
		{"null module", `{"version":1,"nodes":[],"modules":{"m":null}}`, "module m is null"},
		{"data type mismatch", hostileParam("f32[2]", "[1]", "AAAAAA=="), "data is f32[1], type is f32[2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := UnmarshalGraph([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("UnmarshalGraph: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// FuzzUnmarshalGraph checks that no document crashes the decoder, and that
// a decoded graph encodes and decodes again to the same bytes.
func FuzzUnmarshalGraph(f *testing.F) {
	for _, g := range []*Graph{mlpGraph(f), richGraph(f)} {
		for _, enc := range []func() ([]byte, error){g.MarshalJSON, g.MarshalJSONWithData} {
			data, err := enc()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(hostileParam("f32[1099511627776]", "[1099511627776]", "")))
	f.Add([]byte(hostileParam("f32[2]", "[2]", "AAAAAAAAAAA=")))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		g, err := UnmarshalGraph(data)
		if err != nil {
			return
		}
		again, err := g.MarshalJSONWithData()
		if err != nil {
			t.Fatalf("a decoded graph does not encode: %v", err)
		}
		if _, err := UnmarshalGraph(again); err != nil {
			t.Fatalf("a decoded graph does not decode after encoding: %v\n%s", err, again)
		}
	})
}
