package demo

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// placeholder is a name (#0) or value (:0) placeholder of an expression.
var placeholder = regexp.MustCompile(`[#:][A-Za-z0-9_]+`)

// render returns expression x with its placeholders replaced by the names
// and values they stand for: what DynamoDB evaluates.
func render(x *string, names map[string]string, values map[string]types.AttributeValue) string {
	return placeholder.ReplaceAllStringFunc(strings.Join(strings.Fields(aws.ToString(x)), " "), func(p string) string {
		if n, ok := names[p]; ok {
			return n
		}
		if v, ok := values[p]; ok {
			return Value(v)
		}
		return p
	})
}

// Value renders an attribute value as the AWS CLI's JSON would show its
// content: a string quoted, a number as it is, binary in base64, a list,
// map or set in brackets.
func Value(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberM:
		return Item(v.Value)
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = Value(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *types.AttributeValueMemberSS:
		return fmt.Sprintf("%q", v.Value)
	case *types.AttributeValueMemberNS:
		return fmt.Sprint(v.Value)
	}
	return fmt.Sprintf("%T", av)
}

// Item renders an item or a key, its attributes in name order:
// {PK: "ORG#acme", SK: "USER#ann"}.
func Item(item map[string]types.AttributeValue) string {
	names := make([]string, 0, len(item))
	for n := range item {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + Value(item[n])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
