// Package keyjson is the JSON form of key attribute values inside
// cursors (the query and shard packages'): key attributes are scalars, S,
// N or B, and a value is written with its name and type so that decoding
// restores it exactly.
package keyjson

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Attr is one key attribute: its name, its type (S, N or B) and its value
// (S and N in S, B in B, base64 in JSON).
type Attr struct {
	N string `json:"n"`
	T string `json:"t"`
	S string `json:"s,omitempty"`
	B []byte `json:"x,omitempty"`
}

// From is the JSON form of key attribute name; false when av is not a
// scalar.
func From(name string, av types.AttributeValue) (Attr, bool) {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return Attr{N: name, T: "S", S: v.Value}, true
	case *types.AttributeValueMemberN:
		return Attr{N: name, T: "N", S: v.Value}, true
	case *types.AttributeValueMemberB:
		return Attr{N: name, T: "B", B: v.Value}, true
	}
	return Attr{}, false
}

// Value is the attribute value a holds; false when its type is not S, N
// or B.
func (a Attr) Value() (types.AttributeValue, bool) {
	switch a.T {
	case "S":
		return &types.AttributeValueMemberS{Value: a.S}, true
	case "N":
		return &types.AttributeValueMemberN{Value: a.S}, true
	case "B":
		return &types.AttributeValueMemberB{Value: a.B}, true
	}
	return nil, false
}
