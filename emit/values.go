// This file holds the values the constructor binds or computes, and how
// they become fields or locals.

package emit

import "github.com/dave/jennifer/jen"

// ctorValue is a value the constructor binds or computes: a parameter, a
// number literal, a hoisted node's result, a prepared operand or a fused
// program. It is a field of the compiled type when Forward reads it, and
// a local of the constructor otherwise, so that parameter-only work
// (batch-norm folding, packing) keeps only what Forward needs. Which one
// is known only once every node is emitted: the constructor's references
// to it are placeholders that fix fills in.
type ctorValue struct {
	name    string   // Go name, of the field or the local
	typ     jen.Code // field type
	comment string   // field comment
	forward int      // Forward's references to it
	refs    []*jen.Statement
	defs    []*jen.Statement
}

// newCtorValue adds a value named after candidate.
func (e *gen) newCtorValue(candidate string, typ jen.Code, comment string) *ctorValue {
	v := &ctorValue{name: e.names.name(candidate), typ: typ, comment: comment}
	e.ctorValues = append(e.ctorValues, v)
	return v
}

// define returns the start of v's definition in the constructor, to be
// followed by its value: "c.v =" or "v :=".
func (e *gen) define(v *ctorValue) *jen.Statement {
	s := &jen.Statement{}
	v.defs = append(v.defs, s)
	return jen.Add(s)
}

// ctorRef returns a reference to v in the constructor: c.v or v.
func (e *gen) ctorRef(v *ctorValue) *jen.Statement {
	s := &jen.Statement{}
	v.refs = append(v.refs, s)
	return jen.Add(s)
}

// fwdRef returns a reference to v in Forward, which makes it a field
// unless unref takes it back.
func (e *gen) fwdRef(v *ctorValue) *jen.Statement {
	v.forward++
	s := jen.Id(e.recv).Dot(v.name)
	e.fwdRefs[s] = v
	return s
}

// unref takes back a reference fwdRef returned that Forward does not use
// after all (an operand replaced by its prepared form).
func (e *gen) unref(c jen.Code) {
	if s, ok := c.(*jen.Statement); ok {
		if v := e.fwdRefs[s]; v != nil {
			v.forward--
			delete(e.fwdRefs, s)
		}
	}
}

// fix fills in the constructor's definitions of and references to every
// value, and returns the fields: the values Forward reads.
func (e *gen) fix() []jen.Code {
	var fields []jen.Code
	for _, v := range e.ctorValues {
		ref := jen.Id(v.name)
		def := jen.Id(v.name).Op(":=")
		if v.forward > 0 {
			ref = jen.Id(e.recv).Dot(v.name)
			def = jen.Id(e.recv).Dot(v.name).Op("=")
			fields = append(fields, field(v.name, v.typ, v.comment))
		}
		for _, s := range v.refs {
			*s = *ref.Clone()
		}
		for _, s := range v.defs {
			*s = *def.Clone()
		}
	}
	return fields
}

// arrayType is the type of an array value's field.
func arrayType() jen.Code { return jen.Op("*").Qual(runtimePkg, "Array") }

// field returns a struct field with its comment on the line above, not
// after it: gofmt aligns trailing comments across neighbouring fields, so
// a longer name added to a model would move every comment.
func field(name string, typ jen.Code, comment string) jen.Code {
	return jen.Comment(comment).Line().Id(name).Add(typ)
}
