// This file tests DecodeSafetensors on hostile files (sizes meant to
// exhaust memory or overflow) and fuzzes it: no input may crash it or make
// it allocate more than the file's size justifies.

package nn

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func TestDecodeSafetensorsHostile(t *testing.T) {
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"2^62·4 elements", stFile(`{"w":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,0]}}`, nil), "larger than the 0-byte data section"},
		{"2^32·2^32 wraps to 0", stFile(`{"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]}}`, f32Bytes(1)), "larger than the 4-byte data section"},
		{"huge dims around a zero", stFile(`{"w":{"dtype":"F32","shape":[9223372036854775807,0,9223372036854775807],"data_offsets":[0,4]}}`, f32Bytes(1)), "hold 4 bytes, but F32"},
		{"negative dimension", stFile(`{"w":{"dtype":"F32","shape":[-1,-4],"data_offsets":[0,16]}}`, f32Bytes(1, 2, 3, 4)), "negative dimension"},
		{"offsets past the end", stFile(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,9223372036854775807]}}`, f32Bytes(1)), "outside the 4-byte data section"},
		{"negative offsets", stFile(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}}`, f32Bytes(1)), "outside the"},
		{"header length 2^64-1", binary.LittleEndian.AppendUint64(nil, ^uint64(0)), "over the limit"},
		{"header past the end", append(binary.LittleEndian.AppendUint64(nil, 100), '{'), "runs past the end"},
		{"truncated header", stFile(`{"w":{"dtype":"F32","shape":[1],"data_off`, nil), "bad header"},
		{"header not an object", stFile(`[1,2]`, nil), "want a JSON object"},
		{"unsupported dtype", stFile(`{"w":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}}`, []byte{0, 0}), "unsupported dtype"},
		{"overlapping tensors", stFile(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, f32Bytes(1)), "overlaps"},
		{"bool out of range", stFile(`{"b":{"dtype":"BOOL","shape":[1],"data_offsets":[0,1]}}`, []byte{7}), "want 0 or 1"},
		{"NUL bytes in the header", stFile("{\"w\x00\":{\"dtype\":\"F32\"\x00}}", nil), "bad header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeSafetensors(tc.file)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("DecodeSafetensors: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// FuzzDecodeSafetensors checks that no file crashes the decoder, and that
// what it decodes writes and decodes again to the same tensors.
func FuzzDecodeSafetensors(f *testing.F) {
	f.Add(stFile(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"__metadata__":{"k":"v"}}`, f32Bytes(1, 2)))
	f.Add(stFile(`{"i":{"dtype":"I64","shape":[1],"data_offsets":[0,8]},"b":{"dtype":"BOOL","shape":[2],"data_offsets":[8,10]}}`, append(make([]byte, 8), 0, 1)))
	f.Add(stFile(`{"w":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,0]}}`, nil))
	f.Add(stFile(`{"s":{"dtype":"F32","shape":[],"data_offsets":[0,4]}}`, f32Bytes(3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tensors, metadata, err := DecodeSafetensors(data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteSafetensors(&b, tensors, metadata); err != nil {
			t.Fatalf("decoded tensors do not write: %v", err)
		}
		again, _, err := DecodeSafetensors(b.Bytes())
		if err != nil {
			t.Fatalf("written tensors do not decode: %v", err)
		}
		if len(again) != len(tensors) {
			t.Fatalf("%d tensors became %d", len(tensors), len(again))
		}
	})
}
