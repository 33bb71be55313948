// This file tests the safetensors reader and writer: exact bytes, round
// trips, and malformed or truncated files that must fail without panicking.

package nn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// stFile assembles a safetensors file from a header and a data section.
func stFile(header string, body []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	b = append(b, header...)
	return append(b, body...)
}

// f32Bytes returns the little-endian bytes of vs.
func f32Bytes(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// sameArray reports how a and b differ (dtype, shape, or bits of an
// element), or "" when they are identical.
func sameArray(a, b *runtime.Array) string {
	if a.DType != b.DType || fmt.Sprint(a.Shape) != fmt.Sprint(b.Shape) {
		return fmt.Sprintf("got %v%v, want %v%v", a.DType, a.Shape, b.DType, b.Shape)
	}
	for i := 0; i < a.Len(); i++ {
		switch a.DType {
		case runtime.Float32:
			if math.Float32bits(a.F32[i]) != math.Float32bits(b.F32[i]) {
				return fmt.Sprintf("element %d: got %v, want %v", i, a.F32[i], b.F32[i])
			}
		case runtime.Int64:
			if a.I64[i] != b.I64[i] {
				return fmt.Sprintf("element %d: got %v, want %v", i, a.I64[i], b.I64[i])
			}
		case runtime.Bool:
			if a.B[i] != b.B[i] {
				return fmt.Sprintf("element %d: got %v, want %v", i, a.B[i], b.B[i])
			}
		}
	}
	return ""
}

func TestWriteSafetensorsBytes(t *testing.T) {
	tensors := map[string]*tensor.Tensor{
		"w": tensor.FromFloat32([]float32{1, -2}, 2),
		"n": tensor.FromArray(runtime.Int64Scalar(-3)),
		"b": tensor.FromBool([]bool{true, false, true}, 1, 3),
	}
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, tensors, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	header := `{"__metadata__":{"format":"pt"},` +
		`"b":{"dtype":"BOOL","shape":[1,3],"data_offsets":[0,3]},` +
		`"n":{"dtype":"I64","shape":[],"data_offsets":[3,11]},` +
		`"w":{"dtype":"F32","shape":[2],"data_offsets":[11,19]}}`
	header += strings.Repeat(" ", (8-len(header)%8)%8)
	body := []byte{1, 0, 1}
	body = binary.LittleEndian.AppendUint64(body, uint64(0xfffffffffffffffd))
	body = append(body, f32Bytes(1, -2)...)
	if want := stFile(header, body); !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("WriteSafetensors wrote\n%q\nwant\n%q", buf.Bytes(), want)
	}
}

func TestDecodeSafetensorsHandWritten(t *testing.T) {
	// Written as another implementation might: spaces in the JSON, data
	// out of name order, a gap between tensors.
	header := `{ "b": {"dtype": "F32", "shape": [2, 1], "data_offsets": [8, 16]},
		"a": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]},
		"c": {"dtype": "BOOL", "shape": [2], "data_offsets": [20, 22]},
		"e": {"dtype": "F32", "shape": [0, 5], "data_offsets": [22, 22]},
		"__metadata__": {"torch": "1.13.1"} }`
	body := binary.LittleEndian.AppendUint64(nil, 7)
	body = append(body, f32Bytes(0.5, -1.25)...)
	body = append(body, 9, 9, 9, 9, 0, 1)
	tensors, meta, err := DecodeSafetensors(stFile(header, body))
	if err != nil {
		t.Fatal(err)
	}
	if got := meta["torch"]; got != "1.13.1" {
		t.Errorf("metadata torch = %q, want 1.13.1", got)
	}
	want := map[string]*runtime.Array{
		"a": runtime.FromInt64([]int64{7}, 1),
		"b": runtime.FromFloat32([]float32{0.5, -1.25}, 2, 1),
		"c": runtime.FromBool([]bool{false, true}, 2),
		"e": runtime.NewArray(runtime.Float32, 0, 5),
	}
	if len(tensors) != len(want) {
		t.Errorf("got %d tensors, want %d", len(tensors), len(want))
	}
	for name, w := range want {
		got, ok := tensors[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if d := sameArray(got.Array(), w); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

func TestSafetensorsRoundTrip(t *testing.T) {
	in := map[string]*tensor.Tensor{
		"x":     tensor.FromFloat32([]float32{float32(math.Inf(-1)), float32(math.NaN()), -0, 3e-39}, 2, 2),
		"i":     tensor.FromInt64([]int64{math.MinInt64, math.MaxInt64, 0}, 3),
		"empty": tensor.FromFloat32(nil, 0),
		"s":     tensor.Scalar(2.5),
		"mask":  tensor.FromBool([]bool{false, true}, 2),
	}
	var first, second bytes.Buffer
	if err := WriteSafetensors(&first, in, nil); err != nil {
		t.Fatal(err)
	}
	if n := binary.LittleEndian.Uint64(first.Bytes()); (8+n)%8 != 0 {
		t.Errorf("data section starts at %d, want a multiple of 8", 8+n)
	}
	out, err := ReadSafetensors(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range in {
		if d := sameArray(out[name].Array(), want.Array()); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
	if err := WriteSafetensors(&second, out, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Errorf("writing what was read changed the bytes")
	}
}

func TestWriteSafetensorsErrors(t *testing.T) {
	for _, tc := range []struct {
		tensors map[string]*tensor.Tensor
		want    string
	}{
		{map[string]*tensor.Tensor{"a": nil}, "a: nil tensor"},
		{map[string]*tensor.Tensor{"__metadata__": tensor.Scalar(1)}, "may not be named __metadata__"},
	} {
		err := WriteSafetensors(&bytes.Buffer{}, tc.tensors, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WriteSafetensors(%v) = %v, want an error containing %q", tc.tensors, err, tc.want)
		}
	}
}

// validFile is a small well-formed file with all three dtypes.
func validFile(t testing.TB) []byte {
	var buf bytes.Buffer
	err := WriteSafetensors(&buf, map[string]*tensor.Tensor{
		"weight": tensor.FromFloat32([]float32{1, 2, 3, 4, 5, 6}, 2, 3),
		"count":  tensor.FromArray(runtime.Int64Scalar(4)),
		"mask":   tensor.FromBool([]bool{true, false}, 2),
	}, map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecodeSafetensorsMalformed(t *testing.T) {
	f32 := `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`
	eight := make([]byte, 8)
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "shorter than the 8-byte header length"},
		{"huge header length", binary.LittleEndian.AppendUint64(nil, 1<<62), "over the limit"},
		{"header past end", stFile(f32, eight)[:20], "runs past the end"},
		{"bad json", stFile(`{"a":`, nil), "bad header"},
		{"not an object", stFile(`[1,2]`, nil), "want a JSON object"},
		{"trailing bytes", stFile(`{} x`, nil), "bad header"},
		{"trailing object", stFile(`{}{}`, nil), "data after the JSON object"},
		{"entry not an object", stFile(`{"a":3}`, nil), "bad header: a:"},
		{"unknown field", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1}}`, eight), "unknown field"},
		{"no dtype", stFile(`{"a":{"shape":[2],"data_offsets":[0,8]}}`, eight), "a: no dtype"},
		{"no shape", stFile(`{"a":{"dtype":"F32","data_offsets":[0,8]}}`, eight), "a: no shape"},
		{"null shape", stFile(`{"a":{"dtype":"F32","shape":null,"data_offsets":[0,8]}}`, eight), "a: no shape"},
		{"three offsets", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8,9]}}`, eight), "data_offsets is not [begin, end]"},
		{"fractional dim", stFile(`{"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}}`, eight), "bad header: a:"},
		{"negative dim", stFile(`{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, eight), "negative dimension"},
		{"huge shape", stFile(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`, eight), "larger than the 8-byte data section"},
		{"duplicate name", stFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "a appears twice"},
		{"unsupported dtype", stFile(`{"a":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}}`, eight), `a: unsupported dtype "F16"`},
		{"offsets past end", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, eight), "outside the 8-byte data section"},
		{"offsets reversed", stFile(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}`, eight), "outside"},
		{"negative offset", stFile(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[-4,0]}}`, eight), "outside"},
		{"size mismatch", stFile(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, eight), "hold 8 bytes, but F32[3] needs 12"},
		{"overlap", stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, eight), "b [4, 8] overlaps a [0, 8]"},
		{"bool byte", stFile(`{"a":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}}`, []byte{1, 2}), "BOOL element 1 is 2"},
		{"metadata not strings", stFile(`{"__metadata__":{"a":1}}`, nil), "__metadata__"},
	} {
		tensors, _, err := DecodeSafetensors(tc.file)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: DecodeSafetensors = %v, want an error containing %q", tc.name, err, tc.want)
		}
		if tensors != nil {
			t.Errorf("%s: DecodeSafetensors returned tensors with an error", tc.name)
		}
	}
}

func TestDecodeSafetensorsTruncated(t *testing.T) {
	file := validFile(t)
	if _, _, err := DecodeSafetensors(file); err != nil {
		t.Fatalf("full file: %v", err)
	}
	for n := 0; n < len(file); n++ {
		if _, _, err := DecodeSafetensors(file[:n:n]); err == nil {
			t.Errorf("file truncated to %d of %d bytes decoded without error", n, len(file))
		}
		m := newToy(9)
		if err := LoadSafetensors(bytes.NewReader(file[:n]), m, AllowMissing(), AllowUnexpected()); err == nil {
			t.Errorf("file truncated to %d of %d bytes loaded without error", n, len(file))
		}
	}
}

// FuzzLoadSafetensors checks that no input makes the reader panic, and that
// whatever it accepts survives a write and a second read unchanged.
func FuzzLoadSafetensors(f *testing.F) {
	file := validFile(f)
	f.Add(file)
	for _, n := range []int{0, 7, 8, 9, 20, len(file) - 1} {
		f.Add(file[:n])
	}
	f.Add(stFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"I64","shape":[1],"data_offsets":[8,16]}}`, make([]byte, 16)))
	f.Add(stFile(`{"a":{"dtype":"BOOL","shape":[0,3],"data_offsets":[0,0]}}`, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		tensors, _, err := DecodeSafetensors(data)
		m := newToy(1)
		loadErr := LoadSafetensors(bytes.NewReader(data), m, AllowMissing(), AllowUnexpected())
		if err != nil {
			if loadErr == nil {
				t.Fatalf("LoadSafetensors accepted a file DecodeSafetensors rejects: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSafetensors(&buf, tensors, nil); err != nil {
			t.Fatalf("writing decoded tensors: %v", err)
		}
		again, _, err := DecodeSafetensors(buf.Bytes())
		if err != nil {
			t.Fatalf("reading back written tensors: %v", err)
		}
		for name, want := range tensors {
			if d := sameArray(again[name].Array(), want.Array()); d != "" {
				t.Fatalf("%s after a round trip: %s", name, d)
			}
		}
	})
}
