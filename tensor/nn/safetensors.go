// This file reads and writes the safetensors format, the file format of
// PyTorch (Hugging Face) state dicts that fxgen models load by name.

package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/fxgen/fxgen/runtime"
	"github.com/fxgen/fxgen/tensor"
)

// The safetensors format: an 8-byte little-endian uint64 N, N bytes of a
// JSON object (the header), then the data section. The header maps each
// tensor's name to {"dtype": "F32", "shape": [2, 3], "data_offsets":
// [begin, end]}, byte offsets into the data section of its little-endian,
// row-major data; an optional "__metadata__" entry maps strings to strings.
// fxgen reads and writes the dtypes F32 (float32), I64 (int64) and BOOL
// (one byte, 0 or 1).

// maxSafetensorsHeader bounds the header length, as the reference
// implementation does, so a corrupt length cannot ask for a huge buffer.
const maxSafetensorsHeader = 100 << 20

// safetensorsMetadataKey is the header entry holding string metadata.
const safetensorsMetadataKey = "__metadata__"

// safetensorsDType maps a runtime dtype to its safetensors name.
func safetensorsDType(dt runtime.DType) (string, bool) {
	switch dt {
	case runtime.Float32:
		return "F32", true
	case runtime.Int64:
		return "I64", true
	case runtime.Bool:
		return "BOOL", true
	}
	return "", false
}

// safetensorsElem maps a safetensors dtype name to a runtime dtype and its
// size in bytes.
func safetensorsElem(name string) (runtime.DType, int, bool) {
	switch name {
	case "F32":
		return runtime.Float32, 4, true
	case "I64":
		return runtime.Int64, 8, true
	case "BOOL":
		return runtime.Bool, 1, true
	}
	return runtime.Invalid, 0, false
}

// safetensorsEntry is a tensor's entry in the header.
type safetensorsEntry struct {
	DType       string   `json:"dtype"`
	Shape       []int    `json:"shape"`
	DataOffsets [2]int64 `json:"data_offsets"`
}

// SaveSafetensors writes the parameters and buffers of m (its StateDict) to
// w in safetensors format, as WriteSafetensors does.
func SaveSafetensors(w io.Writer, m any) error {
	return WriteSafetensors(w, StateDict(m), nil)
}

// WriteSafetensors writes the eager tensors, and the metadata unless it is
// empty, to w in safetensors format. The output is deterministic: header
// keys sorted, the header padded with spaces to a multiple of 8 bytes so
// the data section is 8-byte aligned, and the tensors' data contiguous in
// the order of their sorted names.
func WriteSafetensors(w io.Writer, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	names := make([]string, 0, len(tensors))
	for name := range tensors {
		names = append(names, name)
	}
	sort.Strings(names)
	header := map[string]any{}
	if len(metadata) > 0 {
		header[safetensorsMetadataKey] = metadata
	}
	arrays := make([]*runtime.Array, len(names))
	var offset int64
	for i, name := range names {
		t := tensors[name]
		switch {
		case name == safetensorsMetadataKey:
			return fmt.Errorf("nn: safetensors: a tensor may not be named %s", name)
		case t == nil:
			return fmt.Errorf("nn: safetensors: %s: nil tensor", name)
		case t.Symbolic() != nil:
			return fmt.Errorf("nn: safetensors: %s: symbolic tensor", name)
		}
		a := t.Array()
		dt, ok := safetensorsDType(a.DType)
		if !ok {
			return fmt.Errorf("nn: safetensors: %s: unsupported dtype %v", name, a.DType)
		}
		_, size, _ := safetensorsElem(dt)
		end := offset + int64(a.Len()*size)
		header[name] = safetensorsEntry{DType: dt, Shape: append([]int{}, a.Shape...), DataOffsets: [2]int64{offset, end}}
		arrays[i] = a
		offset = end
	}
	js, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("nn: safetensors: %v", err)
	}
	if pad := (8 - len(js)%8) % 8; pad > 0 {
		js = append(js, strings.Repeat(" ", pad)...)
	}
	buf := make([]byte, 8, 8+len(js)+int(offset))
	binary.LittleEndian.PutUint64(buf, uint64(len(js)))
	buf = append(buf, js...)
	for _, a := range arrays {
		switch a.DType {
		case runtime.Float32:
			for _, v := range a.F32 {
				buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			}
		case runtime.Int64:
			for _, v := range a.I64 {
				buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
			}
		case runtime.Bool:
			for _, v := range a.B {
				var b byte
				if v {
					b = 1
				}
				buf = append(buf, b)
			}
		}
	}
	_, err = w.Write(buf)
	return err
}

// ReadSafetensors reads a whole safetensors file from r and returns its
// tensors by name, as DecodeSafetensors does.
func ReadSafetensors(r io.Reader) (map[string]*tensor.Tensor, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("nn: safetensors: %v", err)
	}
	tensors, _, err := DecodeSafetensors(data)
	return tensors, err
}

// LoadSafetensors reads a safetensors file from r and loads its tensors
// into m by name, as LoadStateDict does: strict unless told otherwise by
// opts (a BatchNorm's num_batches_tracked may be missing), everything
// checked before anything is copied, and the data copied into m's existing
// arrays, whose versions advance: compiled models built before the load
// see the new values or, where their constructor computed from the old
// ones, panic saying to build them again.
func LoadSafetensors(r io.Reader, m any, opts ...LoadOption) error {
	sd, err := ReadSafetensors(r)
	if err != nil {
		return err
	}
	return LoadStateDict(m, sd, opts...)
}

// DecodeSafetensors parses a safetensors file held in data and returns
// fresh tensors by name and the header's metadata (nil when absent). The
// whole file is checked before any tensor is returned: the header length
// and JSON, each entry's dtype (F32, I64 or BOOL), shape and data offsets
// (inside the data section, exactly dtype size × elements long, not
// overlapping another tensor's), BOOL bytes 0 or 1, and no name twice. Gaps
// between tensors' data are allowed.
func DecodeSafetensors(data []byte) (tensors map[string]*tensor.Tensor, metadata map[string]string, err error) {
	if len(data) < 8 {
		return nil, nil, fmt.Errorf("nn: safetensors: file of %d bytes is shorter than the 8-byte header length", len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > maxSafetensorsHeader {
		return nil, nil, fmt.Errorf("nn: safetensors: header length %d is over the limit of %d bytes", n, maxSafetensorsHeader)
	}
	if n > uint64(len(data)-8) {
		return nil, nil, fmt.Errorf("nn: safetensors: header length %d runs past the end of the %d-byte file", n, len(data))
	}
	body := data[8+n:]
	entries, metadata, err := parseSafetensorsHeader(data[8 : 8+n])
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	type span struct {
		name       string
		begin, end int64
	}
	spans := make([]span, 0, len(names))
	for _, name := range names {
		e := entries[name]
		_, size, ok := safetensorsElem(e.DType)
		if !ok {
			return nil, nil, fmt.Errorf("nn: safetensors: %s: unsupported dtype %q (fxgen reads F32, I64 and BOOL)", name, e.DType)
		}
		count := int64(1)
		for _, d := range e.Shape {
			if d < 0 {
				return nil, nil, fmt.Errorf("nn: safetensors: %s: negative dimension in shape %v", name, e.Shape)
			}
		}
		if slices.Contains(e.Shape, 0) {
			count = 0
		}
		for _, d := range e.Shape {
			if count == 0 {
				break
			}
			if count > int64(len(body))/int64(d) {
				return nil, nil, fmt.Errorf("nn: safetensors: %s: shape %v is larger than the %d-byte data section", name, e.Shape, len(body))
			}
			count *= int64(d)
		}
		begin, end := e.DataOffsets[0], e.DataOffsets[1]
		if begin < 0 || end < begin || end > int64(len(body)) {
			return nil, nil, fmt.Errorf("nn: safetensors: %s: data offsets [%d, %d] outside the %d-byte data section", name, begin, end, len(body))
		}
		if end-begin != count*int64(size) {
			return nil, nil, fmt.Errorf("nn: safetensors: %s: data offsets [%d, %d] hold %d bytes, but %s%v needs %d", name, begin, end, end-begin, e.DType, e.Shape, count*int64(size))
		}
		if begin < end {
			spans = append(spans, span{name, begin, end})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].begin < spans[j].begin })
	for i := 1; i < len(spans); i++ {
		if p, s := spans[i-1], spans[i]; s.begin < p.end {
			return nil, nil, fmt.Errorf("nn: safetensors: %s [%d, %d] overlaps %s [%d, %d]", s.name, s.begin, s.end, p.name, p.begin, p.end)
		}
	}
	tensors = make(map[string]*tensor.Tensor, len(names))
	for _, name := range names {
		e := entries[name]
		dt, _, _ := safetensorsElem(e.DType)
		raw := body[e.DataOffsets[0]:e.DataOffsets[1]]
		a := runtime.NewArray(dt, e.Shape...)
		switch dt {
		case runtime.Float32:
			for i := range a.F32 {
				a.F32[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		case runtime.Int64:
			for i := range a.I64 {
				a.I64[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
			}
		case runtime.Bool:
			for i, b := range raw {
				if b > 1 {
					return nil, nil, fmt.Errorf("nn: safetensors: %s: BOOL element %d is %d, want 0 or 1", name, i, b)
				}
				a.B[i] = b == 1
			}
		}
		tensors[name] = tensor.FromArray(a)
	}
	return tensors, metadata, nil
}

// parseSafetensorsHeader decodes the JSON header, rejecting anything but
// one object of tensor entries and an optional metadata object, unknown or
// missing entry fields, duplicate names and trailing non-space bytes.
func parseSafetensorsHeader(js []byte) (map[string]safetensorsEntry, map[string]string, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("nn: safetensors: bad header: "+format, args...)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, bad("%v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, bad("got %v, want a JSON object", tok)
	}
	entries := map[string]safetensorsEntry{}
	var metadata map[string]string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, bad("%v", err)
		}
		name, ok := tok.(string)
		if !ok {
			return nil, nil, bad("got %v, want a name", tok)
		}
		if seen[name] {
			return nil, nil, bad("%s appears twice", name)
		}
		seen[name] = true
		if name == safetensorsMetadataKey {
			if err := dec.Decode(&metadata); err != nil {
				return nil, nil, bad("%s: %v", name, err)
			}
			continue
		}
		var e struct {
			DType       *string  `json:"dtype"`
			Shape       *[]int   `json:"shape"`
			DataOffsets *[]int64 `json:"data_offsets"`
		}
		if err := dec.Decode(&e); err != nil {
			return nil, nil, bad("%s: %v", name, err)
		}
		switch {
		case e.DType == nil:
			return nil, nil, bad("%s: no dtype", name)
		case e.Shape == nil || *e.Shape == nil:
			return nil, nil, bad("%s: no shape", name)
		case e.DataOffsets == nil || len(*e.DataOffsets) != 2:
			return nil, nil, bad("%s: data_offsets is not [begin, end]", name)
		}
		offs := *e.DataOffsets
		entries[name] = safetensorsEntry{DType: *e.DType, Shape: *e.Shape, DataOffsets: [2]int64{offs[0], offs[1]}}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, nil, bad("%v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, bad("data after the JSON object")
	}
	return entries, metadata, nil
}
