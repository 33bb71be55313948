// This file turns a Go path of the model (fields, indices, type
// assertions) into a jennifer expression.

package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// selector returns root followed by path, where path is a sequence of
// field selectors (Fc1.Weight), indices ([0]), quoted map keys (["enc"]),
// the receivers of method values (Out.(receiver *github.com/x/nn.Linear),
// read with tensor.MethodReceiver) and type assertions written
// with the full package path (.(*github.com/x/nn.Linear)), as nn.Walk
// records them.
func selector(root *jen.Statement, path string) (*jen.Statement, error) {
	s := root
	for i := 0; i < len(path); {
		switch {
		case strings.HasPrefix(path[i:], ".(receiver *"):
			// The receiver of a method value held in a func field:
			// tensor.MethodReceiver[*pkg.T](field).
			end := strings.IndexByte(path[i:], ')')
			if end < 0 {
				return nil, fmt.Errorf("Go path %q: unclosed method receiver", path)
			}
			typ := path[i+len(".(receiver *") : i+end]
			dot := strings.LastIndexByte(typ, '.')
			if dot < 0 {
				return nil, fmt.Errorf("Go path %q: receiver type %q has no package", path, typ)
			}
			s = jen.Qual(tensorPkg, "MethodReceiver").Types(jen.Op("*").Qual(typ[:dot], typ[dot+1:])).Call(s)
			i += end + 1
		case strings.HasPrefix(path[i:], ".("):
			end := strings.IndexByte(path[i:], ')')
			if end < 0 {
				return nil, fmt.Errorf("Go path %q: unclosed type assertion", path)
			}
			typ := path[i+2 : i+end]
			star := strings.HasPrefix(typ, "*")
			typ = strings.TrimPrefix(typ, "*")
			dot := strings.LastIndexByte(typ, '.')
			if dot < 0 {
				return nil, fmt.Errorf("Go path %q: type %q has no package", path, typ)
			}
			t := jen.Qual(typ[:dot], typ[dot+1:])
			if star {
				t = jen.Op("*").Add(t)
			}
			s = s.Assert(t)
			i += end + 1
		case strings.HasPrefix(path[i:], "[\""):
			// A map's string key, quoted as Go writes it: Heads["enc"].
			q, err := strconv.QuotedPrefix(path[i+1:])
			if err != nil || !strings.HasPrefix(path[i+1+len(q):], "]") {
				return nil, fmt.Errorf("Go path %q: bad map key", path)
			}
			key, _ := strconv.Unquote(q)
			s = s.Index(jen.Lit(key))
			i += 1 + len(q) + 1
		case path[i] == '[':
			end := strings.IndexByte(path[i:], ']')
			n, err := strconv.Atoi(path[i+1 : i+max(end, 1)])
			if end < 0 || err != nil {
				return nil, fmt.Errorf("Go path %q: bad index", path)
			}
			s = s.Index(jen.Lit(n))
			i += end + 1
		default:
			if path[i] == '.' {
				i++
			}
			end := strings.IndexAny(path[i:], ".[")
			if end < 0 {
				end = len(path) - i
			}
			if end == 0 {
				return nil, fmt.Errorf("Go path %q: empty field name", path)
			}
			s = s.Dot(path[i : i+end])
			i += end
		}
	}
	return s, nil
}
