package query

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

// strValues is room for the string values of a keys.Cond's terms: one
// per sort key attribute, and the upper bound of a BETWEEN. A plan holds
// one, so that the values its request sends are part of the plan rather
// than an allocation each.
type strValues struct {
	vals [keyfirst.MaxKeyAttributes + 1]types.AttributeValueMemberS
	n    int
}

// s is the string value v, made in the room while there is some. The
// value is never changed once made: a request holds it.
func (r *strValues) s(v string) types.AttributeValue {
	if r.n == len(r.vals) { // unreachable with a checked condition
		return &types.AttributeValueMemberS{Value: v}
	}
	av := &r.vals[r.n]
	r.n++
	av.Value = v
	return av
}
