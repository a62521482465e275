// Package attrname puts top-level attribute names of any spelling into
// expressions built with the aws-sdk-go-v2 expression package.
//
// expression.NameNoDotSplit keeps dots in a name but still parses square
// brackets: its BuildOperand reads "odd[0]" as element 0 of the list
// "odd" (the expression gets "#0[0]" with #0 = "odd"), and refuses
// "a[b]", "x]" and "[" as invalid parameters. No public NameBuilder
// escapes that parsing, and an Operand cannot be made outside the
// package. So [Name] hands the builder the name in an encoding without
// brackets (percent-encoding of '%', '[' and ']', which is injective), and
// [Names] decodes the ExpressionAttributeNames the builder produced: the
// builder still writes every expression and every alias, and DynamoDB
// receives the real names. Every name of an expression must then come
// from [Name], and its ExpressionAttributeNames from [Names].
package attrname

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
)

var (
	encoder = strings.NewReplacer("%", "%25", "[", "%5B", "]", "%5D")
	decoder = strings.NewReplacer("%25", "%", "%5B", "[", "%5D", "]")
)

// Name returns a NameBuilder for the top-level attribute called n, never a
// document path, whatever n contains (dots, brackets, spaces, '#', ':').
// The expression built with it must take its names from [Names].
func Name(n string) expression.NameBuilder {
	return expression.NameNoDotSplit(encode(n))
}

// encode is n without brackets: n itself when it has nothing to encode
// (the Replacer allocates even when nothing matches).
func encode(n string) string {
	if !strings.ContainsAny(n, "%[]") {
		return n
	}
	return encoder.Replace(n)
}

// Key returns a KeyBuilder for the key attribute called n, for key
// conditions. The expression package does not parse key names, but an
// expression mixing keys and names must encode both alike for [Names].
func Key(n string) expression.KeyBuilder {
	return expression.Key(encode(n))
}

// Projection returns the projection of the top-level attributes names.
func Projection(names []string) expression.ProjectionBuilder {
	var pb expression.ProjectionBuilder
	for _, n := range names {
		pb = pb.AddNames(Name(n))
	}
	return pb
}

// Names returns the ExpressionAttributeNames of x, an expression whose
// names all come from [Name]: each alias mapped to the real attribute name.
// When no name was encoded (none holds '%', which every encoding writes)
// it is x's own map, which the caller, as every holder of x, only reads:
// a request built from a cached expression then costs no copy.
func Names(x expression.Expression) map[string]string {
	in := x.Names()
	encoded := false
	for _, n := range in {
		if strings.IndexByte(n, '%') >= 0 {
			encoded = true
			break
		}
	}
	if !encoded {
		return in
	}
	out := make(map[string]string, len(in))
	for alias, n := range in {
		out[alias] = decoder.Replace(n)
	}
	return out
}
