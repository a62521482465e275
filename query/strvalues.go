package query

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// strValues is room for the string values of a keys.Cond's terms: the
// two bounds of a BETWEEN on a sort key of one attribute. A plan holds
// one, so that the values its request sends are part of the plan rather
// than an allocation each; the further values of a sort key of several
// attributes are allocated. (Room for all of them, five, made every plan
// a size class larger: more bytes for the collector on every call. For
// the same reason it is not a codec.Slab, whose text buffer and counts,
// which a query does not use, would add 48 bytes to every plan.)
type strValues struct {
	vals [2]types.AttributeValueMemberS
	n    int
}

// s is the string value v, made in the room while there is some. The
// value is never changed once made: a request holds it.
func (r *strValues) s(v string) types.AttributeValue {
	if r.n == len(r.vals) {
		return &types.AttributeValueMemberS{Value: v}
	}
	av := &r.vals[r.n]
	r.n++
	av.Value = v
	return av
}
